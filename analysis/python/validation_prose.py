#!/usr/bin/python3
"""The figures of README.md, docs/*.md and scenarios/<study>/NOTES.md that come from committed results,
generated from them so no sentence types one: validation figures and verdicts from the `perflab validate`
reports (results/<study>/*.validate.md and .csv, results/validate-quick/), and each study's headline
finding from its scenarios/<study>/page.py. A generated block sits between

    <!-- validation-prose: KEY -->
    ...
    <!-- /validation-prose -->

with KEY
- `headlines`: each study's finding and headline ratio beside the seed's;
- `summary`: every study, its full run and its --quick run;
- `study:NAME`: that study's committed runs, metric by metric;
- `folder:PATH`: the runs under results/PATH (a study's runs under stated conditions);
- `spread:PATH[:METRIC,…]`: the runs in results/PATH/*/, one sub-folder per quiet window, scenario by
  scenario: how far the real medians move between windows (some metrics only, when named);
- `pairs:GLOB:NUM/DEN:WHERE:METRIC`: a ratio the reports results/GLOB do not judge, NUM over DEN among the
  rows WHERE selects, sim beside real;
- `calibrations:PATH`: `perflab calibrate` re-run in results/PATH/*/, one per window: each constant's range
  and how often the committed ones re-derived.
tests/python/test_validation_prose.py fails when a block disagrees with the files.

    /usr/bin/python3 analysis/python/validation_prose.py            # check: exit 1 naming each stale block
    /usr/bin/python3 analysis/python/validation_prose.py --update   # rewrite the blocks
"""
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from perflab_site import data, pages, validation  # noqa: E402
from study_scripts import load_study_script  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
BLOCK = re.compile(r"(<!-- validation-prose: (?P<key>[^ ]+) -->\n)(?P<body>.*?)(<!-- /validation-prose -->)", re.S)


def _failed_text(run) -> str:
    if run.held:
        return "held"
    names = sorted({c.name.replace(": abs(real/sim - 1)", "") + f" ({c.metric})" for c in run.failed})
    return "**failed**" + (": " + "; ".join(names) if names else "")


def _link(run, results: Path) -> str:
    return f"`{run.report.relative_to(results.parent).as_posix()}`"


def runs_table(runs: list, results: Path) -> str:
    """Per run and metric its points, mean and max |ln(real/sim)|, then each run's verdict with the failed
    criteria named."""
    lines = ["| committed run | metric | points | mean \\|ln(real/sim)\\| | max \\|ln(real/sim)\\| | real above sim at |",
             "|---|---|---:|---:|---:|---:|"]
    for run in runs:
        for m in run.metrics:
            lines.append(f"| {_link(run, results)} | {m.metric} | {m.points} | {m.mean_abs_log:.3f} | "
                         f"{m.max_abs_log:.3f} | {m.real_above} of {m.points} |")
    lines.append("")
    for run in runs:
        lines.append(f"- {_link(run, results)}: {_failed_text(run)}")
    return "\n".join(lines) + "\n"


def study_block(study: str, results: Path) -> str:
    """Every committed run of one study: its full runs and its --quick run."""
    runs = validation.runs_in(results / study)
    quick = [r for r in validation.runs_in(results / "validate-quick") if r.name.startswith(study + "-")]
    if not runs and not quick:
        return f"No committed validation run of {study}.\n"
    return runs_table(runs + quick, results)


def folder_block(folder: str, results: Path) -> str:
    """The runs committed in results/FOLDER and its sub-folders (a study's runs under stated conditions)."""
    runs = [validation.read_run(p) for p in sorted((results / folder).rglob("*.validate.md"))]
    if not runs:
        return f"No committed validation run in results/{folder}.\n"
    return runs_table(runs, results)


def spread_block(key: str, results: Path) -> str:
    """The runs in results/FOLDER/*/, one per quiet window: how far the real side moves (key FOLDER, or
    FOLDER:METRIC,METRIC for some metrics only)."""
    folder, _, metrics = key.partition(":")
    return validation.window_spread(results / folder, tuple(m for m in metrics.split(",") if m))


def pairs_block(key: str, results: Path) -> str:
    """GLOB:NUMERATOR/DENOMINATOR:WHERE:METRIC, GLOB under results/: a ratio the reports do not judge."""
    pattern, ratio, where, metric = key.split(":")
    numerator, denominator = ratio.split("/")
    return validation.pair_ratios(sorted(results.glob(pattern)), numerator, denominator, where, metric)


def summary_block(results: Path) -> str:
    """One line per study: the verdict of its committed full run(s) and of its --quick run."""
    studies = sorted({p.parent.name for p in results.glob("*/*.validate.md") if p.parent.name != "validate-quick"})
    quick = validation.runs_in(results / "validate-quick")
    lines = []
    for study in studies:
        runs = validation.runs_in(results / study)
        own_quick = [r for r in quick if r.name.startswith(study + "-")]
        text = f"- {study}: full grid {validation.study_verdict(runs)}"
        if own_quick:
            text += f"; `--quick` {validation.study_verdict(own_quick)}"
        for grid, folders, windows in validation.repeated_verdicts(results / study):
            where = ", ".join(f"`results/{f}/`" for f in folders)
            text += f"; {grid.replace('--quick', '`--quick`')} repeated: {windows} ({where})"
        lines.append(text)
    return "\n".join(lines) + "\n"


def headlines_block(results: Path, scenarios: Path = ROOT / "scenarios") -> str:
    """One line per study with a page.py headline: its finding, then its headline ratio, ours beside the
    seed's — what the site's front page shows."""
    lines = []
    for study in sorted(p.parent.name for p in scenarios.glob("*/page.py")):
        head = pages.study_headline(load_study_script(scenarios, study, "page.py"), results / study,
                                    data.reference(scenarios, study)[0])
        if not head:
            continue
        line = f"- **{study}**: {head['finding']}"
        if "ours" in head:
            line += f" Headline ratio ({head['ratio']}): {head['ours']:.3g}× here, {head['seed']:.3g}× in the seed."
        lines.append(line)
    return "\n".join(lines) + "\n"


def render(key: str, results: Path) -> str:
    if key == "headlines":
        return headlines_block(results)
    if key == "summary":
        return summary_block(results)
    if key.startswith("study:"):
        return study_block(key[len("study:"):], results)
    if key.startswith("folder:"):
        return folder_block(key[len("folder:"):], results)
    if key.startswith("spread:"):
        return spread_block(key[len("spread:"):], results)
    if key.startswith("pairs:"):
        return pairs_block(key[len("pairs:"):], results)
    if key.startswith("calibrations:"):
        return validation.calibration_spread(results / key[len("calibrations:"):], results)
    raise ValueError(f"unknown validation-prose key {key!r}, expected headlines, summary, study:NAME, "
                     "folder:PATH, spread:PATH, pairs:… or calibrations:PATH")


def documents(root: Path = ROOT) -> list:
    return ([root / "README.md"] + sorted((root / "docs").glob("*.md"))
            + sorted((root / "scenarios").glob("*/NOTES.md")))


def regenerate(text: str, results: Path) -> str:
    return BLOCK.sub(lambda m: m.group(1) + render(m["key"], results) + m.group(4), text)


def main(argv: list) -> int:
    if argv not in ([], ["--update"]):
        print(__doc__, file=sys.stderr)
        return 2
    stale = []
    for path in documents():
        text = path.read_text()
        new = regenerate(text, ROOT / "results")
        if new != text:
            stale.append(path)
            if argv == ["--update"]:
                path.write_text(new)
    for path in stale:
        print(f"{'rewrote' if argv else 'stale'}: {path.relative_to(ROOT)}", file=sys.stderr)
    return 1 if stale and not argv else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
