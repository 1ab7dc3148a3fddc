"""What the committed `perflab validate` reports say, read from a folder's <scenario>.validate.md and
.validate.csv: each run's verdict, its criteria and its worst |ln(real/sim)|. The index's verdict column
(pages.py) and the generated validation sentences of README.md and scenarios/*/NOTES.md
(validation_prose.py) are made from this, never typed."""
import math
import re
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd


@dataclass
class Criterion:
    metric: str
    name: str
    where: str
    value: str
    bound: str
    verdict: str  # "held", "failed" or "not judged"
    detail: str


@dataclass
class MetricErrors:
    metric: str
    points: int
    mean_abs_log: float
    max_abs_log: float
    real_above: int  # points where the real median is above the sim


@dataclass
class Run:
    name: str    # the scenario's name: "share-validate-0.5ms"
    report: Path
    held: bool
    metrics: list = field(default_factory=list)   # [MetricErrors], from the CSV
    criteria: list = field(default_factory=list)  # [Criterion], from the report's criterion tables

    @property
    def worst_abs_log(self) -> float:
        return max((m.max_abs_log for m in self.metrics), default=math.nan)

    @property
    def failed(self) -> list:
        return [c for c in self.criteria if c.verdict == "failed"]


VERDICT = re.compile(r"^Verdict: (.*)$", re.M)
CRITERION_HEADER = re.compile(r"^\| criterion \((?P<metric>[^)]*)\) \|(?P<rest>.*)\|$")


def _cells(line: str) -> list:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def _verdict(text: str) -> str:
    text = text.strip("* ")
    if text in ("yes", "held"):
        return "held"
    if text in ("no", "failed"):
        return "failed"
    return "not judged"


def read_criteria(text: str) -> list:
    """Every criterion row of a report, whichever of the two layouts it was written in: (criterion, value,
    bound, held) before issue 42, (criterion, where, value, bound, verdict, detail) since."""
    out, lines = [], text.splitlines()
    for i, line in enumerate(lines):
        header = CRITERION_HEADER.match(line)
        if not header:
            continue
        names = ["criterion"] + _cells(header["rest"])
        for row in lines[i + 2:]:
            if not row.startswith("|"):
                break
            cells = dict(zip(names, _cells(row)))
            out.append(Criterion(header["metric"], cells["criterion"], cells.get("where", ""), cells["value"],
                                 cells["bound"], _verdict(cells.get("verdict", cells.get("held", ""))),
                                 cells.get("detail", "")))
    return out


def read_run(report: Path) -> Run:
    """One run from its <scenario>.validate.md and the .validate.csv beside it."""
    name = report.name[: -len(".validate.md")]
    text = report.read_text()
    verdict = VERDICT.search(text)
    if verdict is None:
        raise ValueError(f"{report}: no 'Verdict:' line")
    run = Run(name, report, "failed" not in verdict[1], criteria=read_criteria(text))
    frame = pd.read_csv(report.with_name(name + ".validate.csv"))
    for metric, rows in frame.groupby("metric", sort=False):
        errors = rows["log_error"].abs()
        run.metrics.append(MetricErrors(metric, len(rows), errors.mean(), errors.max(),
                                        int((rows["log_error"] > 0).sum())))
    return run


def runs_in(folder: Path) -> list:
    """Every validation run committed in `folder`, by scenario name."""
    return [read_run(p) for p in sorted(folder.glob("*.validate.md"))]


def study_verdict(runs: list) -> str:
    """"held" or "failed" (one failed run fails the study), with the worst |ln| over its runs."""
    worst = max((r.worst_abs_log for r in runs), default=math.nan)
    failed = [r for r in runs if not r.held]
    verdict = "held" if not failed else (
        "failed" if len(runs) == 1 else f"failed ({len(failed)} of {len(runs)} runs)")
    return f"{verdict}, worst |ln(real/sim)| {worst:.3f}"
