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
