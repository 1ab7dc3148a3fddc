"""What the committed `perflab validate` reports say, read from a folder's <scenario>.validate.md and
.validate.csv: each run's verdict, its criteria and its worst |ln(real/sim)|. The index's verdict column
(pages.py) and the generated validation sentences of README.md and scenarios/*/NOTES.md
(validation_prose.py) are made from this, never typed."""
import math
import re
import tomllib
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
    points: pd.DataFrame = None                   # the .validate.csv: one row per point and metric

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
    frame = pd.read_csv(report.with_name(name + ".validate.csv"))
    run = Run(name, report, "failed" not in verdict[1], criteria=read_criteria(text), points=frame)
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


WALL = re.compile(r"^- wall time [0-9.]+ s, load average (?:before (?P<before>[0-9.]+), )?"
                  r"at the end (?P<load>[0-9.]+)", re.M)
MAX_BOUND = re.compile(r"<= ([0-9.]+)")
# The columns of a .validate.csv that are values, not the grid point's.
VALUE_COLUMNS = ("metric", "sim", "real_median", "real_low", "real_high", "log_error")


def point_columns(frame, leave_out=()) -> list:
    """The grid columns that tell the frame's points apart: those that vary, without one that follows from
    an earlier one (a case's k and n from its name), as the reports name a ratio's group."""
    kept = []
    for c in frame.columns:
        if c in VALUE_COLUMNS or c in leave_out or frame[c].nunique(dropna=False) < 2:
            continue
        if not any(frame.groupby(k, dropna=False)[c].nunique(dropna=False).max() == 1 for k in kept):
            kept.append(c)
    return kept


def window_spread(folder: Path, metrics: tuple = (), bound_name: str = "max abs ln(real/sim)") -> str:
    """The real side's reproducibility: the runs committed in folder/*/ (one sub-folder per quiet window),
    compared scenario by scenario and point by point. Per metric and point, the real medians' range over
    the windows and its spread ln(max/min): a spread wider than the max bound means no simulation, which
    gives one number, can stay within that bound in every window. Then how often each scenario held.
    `metrics`: only these (all when empty)."""
    by_name = {}
    for report in sorted(folder.glob("*/*.validate.md")):
        by_name.setdefault(report.name, []).append(report)
    sections = [_scenario_spread(reports, metrics, bound_name) for reports in by_name.values() if len(reports) > 1]
    if not sections:
        return f"No scenario with runs in two windows under results/{folder.name}.\n"
    return "\n".join(sections)


def _scenario_spread(reports: list, metrics: tuple, bound_name: str) -> str:
    frames, runs = [], []
    for report in reports:
        run = read_run(report)
        frame = run.points.assign(window=report.parent.name)
        frames.append(frame)
        runs.append(run)
    bounds = {c.metric: float(MAX_BOUND.search(c.bound)[1]) for r in runs for c in r.criteria
              if c.name == bound_name and MAX_BOUND.search(c.bound)}
    every = pd.concat(frames)
    if metrics:
        every = every[every["metric"].isin(metrics)]
    keys = point_columns(every, leave_out=("window",))

    def window(run):
        wall = WALL.search(run.report.read_text())
        before = f"load {wall['before']} before, " if wall and wall["before"] else ""
        load = f", {before}load {wall['load']} at the end" if wall else ""
        return f"`{run.report.parent.name}` ({'held' if run.held else 'failed'}{load})"

    lines = [f"**{runs[0].name}**: {len(runs)} runs, one per window: " + ", ".join(map(window, runs)) + ".", "",
             "| metric | point | real median, lowest – highest | spread ln(max/min) | max bound | "
             "sim | ln(real/sim) over the windows |",
             "|---|---|---:|---:|---:|---:|---:|"]
    wide = {}
    for (metric, *_), rows in every.groupby(["metric"] + keys, sort=False):
        point = ", ".join(f"{k}={rows[k].iloc[0]}" for k in keys)
        low, high = rows["real_median"].min(), rows["real_median"].max()
        spread = math.log(high / low) if low > 0 else math.nan
        bound = bounds.get(metric, math.nan)
        sims = f"{rows['sim'].iloc[0]:.4g}" if rows["sim"].nunique() == 1 else \
            f"{rows['sim'].min():.4g} – {rows['sim'].max():.4g}"
        lines.append(f"| {metric} | {point} | {low:.4g} – {high:.4g} | {spread:.3f} | {bound:g} | {sims} | "
                     f"{rows['log_error'].min():+.3f} … {rows['log_error'].max():+.3f} |")
        total, over = wide.get(metric, (0, 0))
        wide[metric] = (total + 1, over + (spread > bound))
    lines.append("")
    for metric, (total, over) in wide.items():
        lines.append(f"- {metric}: the real medians alone spread wider than the max bound at {over} of "
                     f"{total} points")
    lines.append(f"- verdict: held in {sum(r.held for r in runs)} of {len(runs)} windows")
    return "\n".join(lines) + "\n"


CALIBRATION_SECTION = re.compile(r"^### (?P<name>[^:\n]+): calibration of", re.M)


def _rederived(window: Path, toml: Path, scenario: str) -> bool:
    """Whether the committed constants re-derived in a window: the verdict its calibration file records
    ([rederivation], since 2026-12-04), or for a file written before, what `perflab calibrate` printed
    (calibrate.txt)."""
    recorded = tomllib.loads(toml.read_text()).get("rederivation")
    if recorded is not None:
        return recorded["verdict"] == "re-derived"
    text = (window / "calibrate.txt").read_text() if (window / "calibrate.txt").exists() else ""
    sections = {m["name"]: text[m.end():] for m in CALIBRATION_SECTION.finditer(text)}
    section = sections.get(scenario, "").split("\n### ", 1)[0]
    return "not re-derived" not in section and "re-derived (within" in section


def calibration_spread(folder: Path, committed: Path) -> str:
    """The calibrations committed in folder/*/ (one sub-folder per quiet window: `perflab calibrate --out`
    there, its printed output saved as calibrate.txt), scenario by scenario: each constant's range over the
    windows beside the committed value (committed/<study>/<scenario>.calibration.toml), and in how many
    windows the constants committed when the window ran re-derived (fit its runs within their own residual);
    a recalibration since changes the committed value, not those verdicts."""
    windows = sorted(p for p in folder.iterdir() if p.is_dir())
    by_name = {}
    for window in windows:
        for toml in sorted(window.glob("*/*.calibration.toml")):
            by_name.setdefault((toml.parent.name, toml.name), []).append((window, toml))
    if not by_name:
        return f"No calibration under results/{folder.name}.\n"
    lines = ["| calibration | constant | committed now | over the windows, lowest – highest | spread ln(max/min) | "
             "the constants committed then re-derived |", "|---|---|---:|---:|---:|---:|"]
    for (study, file), found in sorted(by_name.items()):
        scenario = file[: -len(".calibration.toml")]
        own = tomllib.loads((committed / study / file).read_text())["constants"] \
            if (committed / study / file).exists() else {}
        verdicts = [_rederived(window, toml, scenario) for window, toml in found]
        values = {}
        for _, toml in found:
            for name, constant in tomllib.loads(toml.read_text())["constants"].items():
                values.setdefault(name, []).append(float(constant["value"]))
        for name, seen in values.items():
            low, high = min(seen), max(seen)
            spread = f"{math.log(high / low):.3f}" if low > 0 else "–"
            was = f"{own[name]['value']:g}" if name in own else "–"
            lines.append(f"| {scenario} | {name} | {was} | {low:g} – {high:g} | {spread} | "
                         f"{sum(verdicts)} of {len(verdicts)} |")
    return f"{len(windows)} windows: " + ", ".join(f"`{w.name}`" for w in windows) + ".\n\n" + \
        "\n".join(lines) + "\n"


def _selected(frame, selector: str):
    column, value = selector.split("=", 1)
    return frame[frame[column].astype(str) == value]


def pair_ratios(reports: list, numerator: str, denominator: str, where: str, metric: str) -> str:
    """A ratio read from the reports' per-point tables: `metric` at the `numerator` point over the
    `denominator` point that agrees with it on every other varying column, both selectors COLUMN=VALUE,
    among the rows `where` selects (every row when empty); the sim's ratio beside the real medians' ratio
    and the range the two points' real 95% intervals allow (low over high to high over low), per report and
    group."""
    lines = ["| run | group | sim | real median | real, from the 95% intervals | real / sim |",
             "|---|---|---:|---:|---:|---:|"]
    for report in reports:
        frame = pd.read_csv(report.with_name(report.name[: -len(".md")] + ".csv"))
        frame = frame[frame["metric"] == metric]
        frame = _selected(frame, where) if where else frame
        keys = [c for c in point_columns(frame) if c != numerator.split("=", 1)[0]]
        top, bottom = _selected(frame, numerator), _selected(frame, denominator)
        for _, row in top.iterrows():
            match = bottom
            for k in keys:
                match = match[match[k] == row[k]]
            if len(match) != 1:
                continue
            under = match.iloc[0]
            sim, real = row["sim"] / under["sim"], row["real_median"] / under["real_median"]
            low, high = row["real_low"] / under["real_high"], row["real_high"] / under["real_low"]
            group = ", ".join(f"{k}={row[k]}" for k in keys) or "every point"
            lines.append(f"| `{report.name[: -len('.validate.md')]}` | {group} | {sim:.3f} | {real:.3f} | "
                         f"[{low:.3f}, {high:.3f}] | {real / sim:.3f} |")
    return "\n".join(lines) + "\n"


RATIO_CRITERION = re.compile(r"^ratio (?P<top>\S+=\S+) / (?P<bottom>\S+=\S+):")


def judged_pairs(run: Run) -> list:
    """The (numerator, denominator, metric) of every ratio a run judged, in the report's order, once each."""
    out = []
    for c in run.criteria:
        if (m := RATIO_CRITERION.match(c.name)) and (m["top"], m["bottom"], c.metric) not in out:
            out.append((m["top"], m["bottom"], c.metric))
    return out


CALIBRATION_LINE = re.compile(r"^- calibration \(.*?\): ((.+?) = .+?), measured by [^ ]+( in this validation's window)?", re.M)


def calibration_of(folder: Path) -> tuple:
    """The calibrated constants the reports in `folder` ran at ("native_message_cost = 24.54", …), as their
    notes state them; a constant fitted in the validation's own window (calibrate_in_window) counts by its
    name and method ("native_message_cost fitted in the window"), whatever value that window gave."""
    return tuple(sorted({f"{name} fitted in the window" if window else line
                         for p in folder.glob("*.validate.md")
                         for line, name, window in CALIBRATION_LINE.findall(p.read_text())}))


def windows_verdict(folders, committed: tuple = None) -> str:
    """"held in K of N quiet windows" over the windows committed in each of `folders` (one sub-folder per
    window; a window holds when every report in it held); empty when there are none. With `committed` (the
    constants of the committed full run), windows that ran at other constants are counted apart, as
    "… at earlier calibrations"."""
    folders = [folders] if isinstance(folders, Path) else folders
    windows = [w for f in folders for w in sorted(f.glob("*/")) if list(w.glob("*.validate.md"))]
    if not windows:
        return ""
    held = lambda ws: sum(all(r.held for r in runs_in(w)) for w in ws)  # noqa: E731
    if committed is None:
        return f"held in {held(windows)} of {len(windows)} quiet windows"
    now = [w for w in windows if calibration_of(w) == committed and not superseded(w)]
    before = [w for w in windows if w not in now]
    earlier = "earlier calibrations or engines" if any(map(superseded, before)) else "earlier calibrations"
    if not now:
        return f"held in {held(before)} of {len(before)} quiet windows at {earlier}"
    at = ("with the calibration fitted in each window" if any("fitted in the window" in c for c in committed)
          else "at the committed calibration")
    text = f"held in {held(now)} of {len(now)} quiet windows {at}"
    return text + (f", {held(before)} of {len(before)} at {earlier}" if before else "")


def superseded(window: Path) -> bool:
    """Whether a window ran a real or sim engine changed since: its series folder (up to results/SERIES/)
    holds a SUPERSEDED file (saying what changed), so it counts with the earlier calibrations whatever
    constants it ran at."""
    return any((folder / "SUPERSEDED").is_file() for folder in list(window.parents)[:3])


# Where a study's validation repeated in quiet windows is committed, by the grid it ran: results/<study>/FOLDER
# and results/*/<study>/FOLDER (a later series kept apart, results/after-pooled/).
WINDOW_FOLDERS = (("full grid", "validate-windows"), ("--quick", "validate-quick-windows"))


def repeated_verdicts(study_results: Path) -> list:
    """(grid, [folders relative to results/], "held in K of N quiet windows …") for each of WINDOW_FOLDERS
    committed for a study; windows at the constants of the study's committed full run counted apart."""
    results, study = study_results.parent, study_results.name
    committed = calibration_of(study_results)
    out = []
    for grid, name in WINDOW_FOLDERS:
        folders = [f for f in [study_results / name, *sorted(results.glob(f"*/{study}/{name}"))] if f.is_dir()]
        if verdict := windows_verdict(folders, committed):
            out.append((grid, [f.relative_to(results).as_posix() for f in folders], verdict))
    return out
