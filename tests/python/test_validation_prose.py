"""Every validation figure or verdict of README.md, scenarios/*/NOTES.md and the site's index comes from the
committed `perflab validate` reports: the generated blocks (analysis/python/validation_prose.py) must
equal what the files say, no typed figure sits outside them, and the index states each study's verdict."""
import re
from pathlib import Path

import validation_prose
from perflab_site import validation

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "results"

# NOTES whose validation prose is still typed, with the reason; each must shrink to nothing.
PENDING = {}
# Pages that state the criteria's default bounds, which are definitions, not figures of a run.
DEFINITIONS = {"docs/validation.md"}
# Phrasings that state a validation figure: a statistic followed by its value, or a typed table of them.
FIGURE = [re.compile(p) for p in (r"(mean|max) \|ln[^|\n]*\|:? [0-9−-]", r"ρ:? \(?[0-9−-]",
                                  r"Spearman[’']?s? ρ? ?\(?[0-9]", r"(mean|max) \\\|ln")]
# Calibration residuals come from the calibration runs, not from a .validate file (issue 42 item 1 will
# commit them and generate these too).
CALIBRATION = re.compile(r"calibration points")


def outside_blocks(text: str) -> str:
    return validation_prose.BLOCK.sub("", text)


def test_every_generated_block_agrees_with_the_committed_reports():
    stale = [str(p.relative_to(ROOT)) for p in validation_prose.documents(ROOT)
             if validation_prose.regenerate(p.read_text(), RESULTS) != p.read_text()]
    assert not stale, f"run analysis/python/validation_prose.py --update: stale {stale}"


def test_a_figure_that_disagrees_with_the_files_is_caught():
    readme = (ROOT / "README.md").read_text()
    assert any(block["key"] == "summary" for block in validation_prose.BLOCK.finditer(readme))
    typed = readme.replace("prefetch: full grid held", "prefetch: full grid failed", 1)
    assert typed != readme
    assert validation_prose.regenerate(typed, RESULTS) == readme


def test_each_validated_study_has_its_block():
    readme = (ROOT / "README.md").read_text()
    assert "<!-- validation-prose: summary -->" in readme
    for study in sorted({p.parent.name for p in RESULTS.glob("*/*.validate.md")} - {"validate-quick"}):
        notes = ROOT / "scenarios" / study / "NOTES.md"
        if str(notes.relative_to(ROOT)) in PENDING:
            continue
        assert f"<!-- validation-prose: study:{study} -->" in notes.read_text(), notes


def test_no_validation_figure_is_typed_outside_a_block():
    typed = []
    for path in validation_prose.documents(ROOT):
        name = str(path.relative_to(ROOT))
        if name in PENDING or name in DEFINITIONS:
            continue
        for number, line in enumerate(outside_blocks(path.read_text()).splitlines(), 1):
            if any(p.search(line) for p in FIGURE) and not CALIBRATION.search(line):
                typed.append(f"{name}: {line.strip()}")
    assert not typed, "validation figures typed by hand:\n" + "\n".join(typed)


def test_reports_of_both_layouts_are_read(tmp_path):
    (tmp_path / "s.validate.csv").write_text(
        "loop,metric,sim,real_median,real_low,real_high,log_error\n"
        "eager,duration_s,1,1.1,1,1.2,0.0953\ncoalesced,duration_s,1,0.9,0.8,1,-0.1054\n")
    (tmp_path / "s.validate.md").write_text(
        "| criterion (duration_s) | where | value | bound | verdict | detail |\n|---|---|---:|---:|---|---|\n"
        "| mean abs ln(real/sim) | every point (2) | 0.1003 | <= 0.05 | **failed** |  |\n"
        "| ratio loop=eager / loop=coalesced: abs(real/sim - 1) |  | – | <= 0.05 | not judged | why |\n\n"
        "Verdict: **failed**: mean abs ln(real/sim) (duration_s, every point (2))\n")
    run = validation.read_run(tmp_path / "s.validate.md")
    assert not run.held
    assert [c.verdict for c in run.criteria] == ["failed", "not judged"]
    assert run.metrics[0].points == 2 and run.metrics[0].real_above == 1
    assert abs(run.worst_abs_log - 0.1054) < 1e-12
    old = validation.read_run(RESULTS / "prefetch" / "prefetch-validate.validate.md")  # before issue 42's layout
    assert old.held and {c.verdict for c in old.criteria} == {"held"}


def test_the_index_states_each_study_verdict_and_links_the_summary():
    index = (RESULTS / "index.html").read_text()
    for folder in sorted(p for p in RESULTS.iterdir() if p.is_dir() and any(p.glob("*.validate.md"))):
        if folder.name == "validate-quick":
            continue
        runs = validation.runs_in(folder)
        assert validation.study_verdict(runs) in index, folder.name
        assert f'href="{folder.name}.html#' in index
    assert 'href="validate-quick/validate-summary.md"' in index


def test_each_study_page_lists_its_runs_under_stated_conditions():
    for report in sorted(RESULTS.glob("*/validate-conditions/*/*.validate.md")):
        study = report.relative_to(RESULTS).parts[0]
        page = (RESULTS / f"{study}.html").read_text()
        assert report.relative_to(RESULTS).as_posix() in page, f"{study}.html does not list {report.name}"
        assert report.parent.name in page


def _window(folder: Path, name: str, real_at_640: float, verdict: str, load: str, cost: str = "1.5",
            before: str = ""):
    folder.mkdir(parents=True)
    loads = f"before {before}, at the end {load}" if before else f"at the end {load}"  # reports before 12-05 4:00
    (folder / "d-validate.validate.md").write_text(
        f"### d-validate: sim against real\n\n- calibration (sim only): cost = {cost}, measured by d/cal.toml\n"
        f"- wall time 56 s, load average {loads} on 2 cores\n\n"
        "| criterion (throughput_rps) | where | value | bound | verdict | detail |\n"
        "|---|---|---:|---:|---|---|\n"
        f"| max abs ln(real/sim) | every point (2) | 0.2 | <= 0.1 | {verdict} |  |\n\n"
        f"Verdict: {verdict}\n")
    (folder / "d-validate.validate.csv").write_text(
        "strategy,max_requests,calls,metric,sim,real_median,real_low,real_high,log_error\n"
        "scan,64,1500,throughput_rps,500,501,500,502,0.002\n"
        f"scan,640,1500,throughput_rps,480,{real_at_640},{real_at_640},{real_at_640},"
        f"{__import__('math').log(real_at_640 / 480)}\n")


def test_the_spread_between_windows_is_measured_against_the_max_bound(tmp_path):
    _window(tmp_path / "w1", "w1", 560.0, "held", "0.31")
    _window(tmp_path / "w2", "w2", 640.0, "**failed**", "0.52", before="0.05")
    text = validation.window_spread(tmp_path)
    assert ("**d-validate**: 2 runs, one per window: `w1` (held, load 0.31 at the end), "
            "`w2` (failed, load 0.05 before, load 0.52 at the end)") in text
    # 640 / 560: ln 0.134, wider than 0.1; the point at 64 is one value twice (a column one value in every
    # row, as strategy here, does not name the point)
    assert "| throughput_rps | max_requests=640 | 560 – 640 | 0.134 | 0.1 | 480 | +0.154 … +0.288 |" in text
    assert "| throughput_rps | max_requests=64 | 501 – 501 | 0.000 |" in text
    assert "throughput_rps: the real medians alone spread wider than the max bound at 1 of 2 points" in text
    assert "verdict: held in 1 of 2 windows" in text


def test_a_spread_needs_two_runs_of_one_scenario(tmp_path):
    _window(tmp_path / "w1", "w1", 560.0, "held", "0.31")
    assert "No scenario with runs in two windows" in validation.window_spread(tmp_path)


def _calibration(folder: Path, value: float, rederived: bool):
    (folder / "s").mkdir(parents=True)
    (folder / "s" / "s-cal.calibration.toml").write_text(
        f"scenario = 's-cal'\nmethod = 'm'\n\n[constants]\ncost = {{ value = {value}, unit = \"us\" }}\n")
    verdict = "re-derived (within its residual)" if rederived else "**not re-derived** (beyond its residual)"
    (folder / "calibrate.txt").write_text(f"### s-cal: calibration of s\n\nthe committed constants on these runs: "
                                          f"max 0.01, against their own fit's max 0.02: {verdict}\n\n"
                                          "### other: calibration of o\n\nre-derived (within its residual)\n")


def test_calibrations_over_windows_show_each_constants_range_and_the_rederivations(tmp_path):
    committed = tmp_path / "results"
    (committed / "s").mkdir(parents=True)
    (committed / "s" / "s-cal.calibration.toml").write_text("[constants]\ncost = { value = 2.0, unit = \"us\" }\n")
    _calibration(tmp_path / "windows" / "0600", 1.5, True)
    _calibration(tmp_path / "windows" / "0615", 2.5, False)
    text = validation.calibration_spread(tmp_path / "windows", committed)
    assert text.startswith("2 windows: `0600`, `0615`.")
    # ln(2.5 / 1.5) = 0.511; the other scenario's verdict in the same output is not this one's
    assert "| s-cal | cost | 2 | 1.5 – 2.5 | 0.511 | 1 of 2 |" in text


def test_a_calibration_file_that_records_its_rederivation_is_read_before_the_printout(tmp_path):
    committed = tmp_path / "results"
    (committed / "s").mkdir(parents=True)
    (committed / "s" / "s-cal.calibration.toml").write_text("[constants]\ncost = { value = 2.0, unit = \"us\" }\n")
    _calibration(tmp_path / "windows" / "0600", 1.5, True)  # an older window: its printout alone says
    _calibration(tmp_path / "windows" / "0615", 2.5, True)
    toml = tmp_path / "windows" / "0615" / "s" / "s-cal.calibration.toml"
    toml.write_text(toml.read_text() + "\n[rederivation]\ncommitted = 'results/s/s-cal.calibration.toml'\n"
                    "mean_abs_ln = 0.2\nmax_abs_ln = 0.3\nown_max_abs_ln = 0.1\nverdict = 'not re-derived'\n")
    text = validation.calibration_spread(tmp_path / "windows", committed)
    assert "| s-cal | cost | 2 | 1.5 – 2.5 | 0.511 | 1 of 2 |" in text


def test_a_ratio_the_reports_do_not_judge_is_read_from_their_points(tmp_path):
    (tmp_path / "s-validate.validate.md").write_text("Verdict: held\n")
    (tmp_path / "s-validate.validate.csv").write_text(
        "case,k,n,segment_size,loop,metric,sim,real_median,real_low,real_high,log_error\n"
        "3-of-10,3,10,32,coalesced,duration_s,1.0,1.1,1.0,1.2,0\n"
        "30-of-40,30,40,32,coalesced,duration_s,1.5,1.32,1.2,1.44,0\n"
        "3-of-10,3,10,128,coalesced,duration_s,2.0,2.0,1,1,0\n"
        "30-of-40,30,40,128,coalesced,duration_s,2.2,2.4,1,1,0\n"
        "30-of-40,30,40,128,eager,duration_s,9.0,9.0,1,1,0\n")
    text = validation.pair_ratios([tmp_path / "s-validate.validate.md"], "case=30-of-40", "case=3-of-10",
                                  "loop=coalesced", "duration_s")
    # k and n follow from the case and do not split the pairs; the eager row is not selected
    # the interval: 30-of-40's low over 3-of-10's high, its high over 3-of-10's low
    assert "| `s-validate` | segment_size=32 | 1.500 | 1.200 | [1.000, 1.440] | 0.800 |" in text
    assert "| `s-validate` | segment_size=128 | 1.100 | 1.200 | [1.000, 1.000] | 1.091 |" in text
    assert text.count("\n") == 4


def test_the_page_lists_every_ratio_a_report_judged_once(tmp_path):
    report = tmp_path / "d-validate.validate.md"
    report.write_text(
        "| criterion (throughput_rps) | where | value | bound | verdict | detail |\n|---|---|---:|---:|---|---|\n"
        "| ratio strategy=counter / strategy=scan: abs(real/sim - 1) | max_requests=64 | 0.01 | <= 0.05 | held | |\n"
        "| ratio strategy=counter / strategy=scan: abs(real/sim - 1) | max_requests=640 | 0.2 | <= 0.05 | "
        "**failed** | |\n| rank order: Kendall tau-b | 3 of 3 pairs testable | 1.0 | >= 0.95 | held | |\n\n"
        "Verdict: **failed**\n")
    (tmp_path / "d-validate.validate.csv").write_text(
        "strategy,max_requests,metric,sim,real_median,real_low,real_high,log_error\n"
        "scan,64,throughput_rps,1,1,1,1,0\n")
    assert validation.judged_pairs(validation.read_run(report)) == [
        ("strategy=counter", "strategy=scan", "throughput_rps")]


def test_a_window_holds_when_every_report_in_it_held(tmp_path):
    _window(tmp_path / "w1", "w1", 560.0, "held", "0.31")
    _window(tmp_path / "w2", "w2", 640.0, "**failed**", "0.52")
    assert validation.windows_verdict(tmp_path) == "held in 1 of 2 quiet windows"
    assert validation.windows_verdict(tmp_path / "none") == ""


def test_windows_at_the_committed_calibration_are_counted_apart_from_earlier_ones(tmp_path):
    results = tmp_path / "results"
    _window(results / "d" / "validate-quick-windows" / "0500", "0500", 560.0, "held", "0.3", cost="1.5")
    _window(results / "d" / "validate-quick-windows" / "0515", "0515", 640.0, "**failed**", "0.5", cost="1.5")
    _window(results / "later" / "d" / "validate-quick-windows" / "0900", "0900", 500.0, "held", "0.2", cost="2.5")
    (results / "d" / "d-validate.validate.md").write_text(
        "- calibration (sim only): cost = 2.5, measured by d/cal.toml\n\nVerdict: held\n")
    [(grid, folders, verdict)] = validation.repeated_verdicts(results / "d")
    assert grid == "--quick"
    assert folders == ["d/validate-quick-windows", "later/d/validate-quick-windows"]
    assert verdict == "held in 1 of 1 quiet windows at the committed calibration, 1 of 2 at earlier calibrations"


def test_windows_that_calibrate_in_their_own_window_count_together_whatever_their_values(tmp_path):
    results = tmp_path / "results"
    for name, cost, verdict in (("0500", "1.4", "held"), ("0515", "1.9", "**failed**")):
        folder = results / "d" / "validate-windows" / name
        _window(folder, name, 560.0, verdict, "0.3", cost=cost)
        report = folder / "d-validate.validate.md"
        report.write_text(report.read_text().replace(
            "measured by d/cal.toml", "measured by d/cal.toml in this validation's window (committed 1.5)"))
    (results / "d" / "d-validate.validate.md").write_text(
        "- calibration (sim only): cost = 1.6, measured by d/cal.toml in this validation's window "
        "(constants: x.toml; committed 1.5)\n\nVerdict: held\n")
    assert validation.calibration_of(results / "d") == ("cost fitted in the window",)
    [(grid, _, verdict)] = validation.repeated_verdicts(results / "d")
    assert grid == "full grid"
    assert verdict == "held in 1 of 2 quiet windows with the calibration fitted in each window"


def test_windows_under_a_superseded_series_count_with_the_earlier_ones(tmp_path):
    results = tmp_path / "results"
    committed = "- calibration (sim only): cost = 1.6, measured by d/cal.toml in this validation's window\n"
    for series, name in (("old", "0500"), ("new", "0900")):
        folder = results / series / "d" / "validate-windows" / name
        _window(folder, name, 560.0, "held", "0.3", cost="1.4")
        report = folder / "d-validate.validate.md"
        report.write_text(report.read_text().replace("measured by d/cal.toml", "measured by d/cal.toml in "
                                                     "this validation's window (committed 1.5)"))
    (results / "d").mkdir(parents=True)
    (results / "d" / "d-validate.validate.md").write_text(committed + "\nVerdict: held\n")
    (results / "old" / "d" / "SUPERSEDED").write_text("the servers read whole segments\n")
    [(_, _, verdict)] = validation.repeated_verdicts(results / "d")
    assert verdict == ("held in 1 of 1 quiet windows with the calibration fitted in each window, "
                       "1 of 1 at earlier calibrations or engines")
