"""What the site reads for one scenario from results/<study>/: the summary (one row per grid point), the
per-seed rows, the run record (.meta) and the files a reader may want to download; and how a scenario's
grid splits into the columns that vary (the plot's x, series and facets) and the fixed parameters."""
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

import pandas as pd

import reference_table


def read_key_values(path: Path) -> dict:
    """`key = value` lines (the .meta files, results/check.txt); {} when the file is absent."""
    values = {}
    if path.exists():
        for line in path.read_text().splitlines():
            key, sep, value = line.partition(" = ")
            if sep:
                values[key.strip()] = value.strip()
    return values


@dataclass
class Scenario:
    study: str
    name: str
    dir: Path
    summary: pd.DataFrame
    seeds: pd.DataFrame  # every run's row (<name>.csv), empty when the file is missing
    repetitions: pd.DataFrame  # a micro-engine run's timed repetitions (<name>.repetitions.csv), or empty
    keys: list  # the grid's columns (everything before `runs` in the summary)
    metrics: list  # metric names (<metric>_mean in the summary)
    meta: dict = field(default_factory=dict)

    @cached_property  # the pages ask thousands of times; a loaded summary does not change
    def varying(self) -> list:
        return [k for k in self.keys if self.summary[k].nunique(dropna=False) > 1]

    @cached_property
    def fixed(self) -> dict:
        return {k: self.summary[k].iloc[0] for k in self.keys if k not in self.varying}

    def files(self) -> list:
        """(label, path relative to results/) of the downloadable outputs of this scenario."""
        out = []
        for suffix, label in [(".csv", "every run (CSV)"), (".summary.csv", "summary (CSV)"),
                              (".repetitions.csv", "every repetition (CSV)"), (".md", "summary (markdown)"),
                              (".meta", "run record")]:
            path = self.dir / (self.name + suffix)
            if path.exists():
                out.append((label, f"{self.study}/{path.name}"))
        return out

    def timelines(self) -> list:
        return [f"{self.study}/{p.name}" for p in sorted(self.dir.glob(self.name + "*.timeline.json"))]

    @cached_property
    def _rows_by_point(self) -> dict:
        """grid point (its varying columns as text) -> its rows of <name>.csv."""
        if self.seeds.empty:
            return {}
        cols = [c for c in self.varying if c in self.seeds]
        if not cols:
            return {(): self.seeds}
        keys = [self.seeds[c].astype(str) for c in cols]
        return {k if isinstance(k, tuple) else (k,): g
                for k, g in self.seeds.groupby(keys if len(keys) > 1 else keys[0], sort=False)}

    def rows(self, point) -> pd.DataFrame:
        """Every run's row of the grid point `point` (a row of the summary)."""
        key = tuple(str(point[c]) for c in self.varying if c in self.seeds)
        return self._rows_by_point.get(key, self.seeds.iloc[0:0])

    def values(self, point, metric: str) -> list:
        """The values of `metric` over the successful runs of grid point `point` (a row of the summary):
        the seeds a report summarizes, as the C++ RunTable::values gives them."""
        rows = self.rows(point)
        if metric not in rows:
            return []
        if "error" in rows:
            rows = rows[rows["error"].isna() | (rows["error"].astype(str) == "")]
        return [float(v) for v in rows[metric] if not pd.isna(v)]

    def points(self):
        """The summary's rows (one per grid point, in the grid's order)."""
        return [row for _, row in self.summary.iterrows()]

    def determined(self, column: str, by: list) -> bool:
        """True when `column` takes one value for each combination of `by` (e.g. a [[case]]'s settings)."""
        if not by:
            return self.summary[column].nunique(dropna=False) <= 1
        frame = self.summary[by + [column]].astype(str)
        return bool((frame.groupby(by)[column].nunique() <= 1).all())

    def series_columns(self, x: str, facet: list) -> list:
        """The varying columns that tell one line from another: `case` first when the scenario has
        [[case]] entries, then each other column not already fixed by the ones chosen (x and facets)."""
        chosen = []
        candidates = [c for c in self.varying if c not in [x] + facet]
        candidates.sort(key=lambda c: c != "case")
        for column in candidates:
            if not self.determined(column, [x] + facet + chosen):
                chosen.append(column)
        return chosen


def load_scenario(study_dir: Path, summary_path: Path) -> Scenario:
    name = summary_path.name[: -len(".summary.csv")]
    from perflab.analysis import result_columns  # the C++ extension: imported only to build the site

    summary = pd.read_csv(summary_path)
    keys, metrics = result_columns(summary.columns)
    seeds_path = study_dir / (name + ".csv")
    seeds = pd.read_csv(seeds_path) if seeds_path.exists() else pd.DataFrame()
    reps_path = study_dir / (name + ".repetitions.csv")
    repetitions = pd.read_csv(reps_path) if reps_path.exists() else pd.DataFrame()
    return Scenario(study_dir.name, name, study_dir, summary, seeds, repetitions, keys, metrics,
                    read_key_values(study_dir / (name + ".meta")))


def load_study(study_dir: Path) -> list:
    return [load_scenario(study_dir, p) for p in sorted(study_dir.glob("*.summary.csv"))]


def reference(scenarios_dir: Path, study: str) -> tuple:
    """The seed's numbers (scenarios/<study>/reference.csv) and the comment lines that cite them."""
    if not reference_table.path(scenarios_dir, study).exists():
        return None, []
    return reference_table.read(scenarios_dir, study)


# The unit of a parameter's CSV column, by its type (sizes are bytes, rates bytes/s, durations seconds).
PARAM_UNITS = {"size": "bytes", "rate": "bytes/s", "duration": "s"}


def description(study: str) -> str:
    """The study's one-line description, from its registration (perflab.describe)."""
    import perflab  # the C++ extension: imported only to build the site

    return perflab.describe(study)["description"]


def units(study: str) -> dict:
    """column -> unit ("bytes", "bytes/s", "s", "MiB/s", ...) of every parameter and metric of `study` that
    has one, from the study's bindings (perflab.describe: sim/study/knobs.h and sim/study/metrics.h)."""
    import perflab  # the C++ extension: imported only to build the site

    info = perflab.describe(study)
    found = {p["name"]: PARAM_UNITS[p["type"]] for _, p in info["params"].iterrows() if p["type"] in PARAM_UNITS}
    for key in ("metrics", "micro_metrics"):
        found.update({m["name"]: m["unit"] for _, m in info[key].iterrows() if m["unit"]})
    return found
