"""Summaries and trend fits of a run's DataFrame, computed by the C++ statistics of sim/stats/stats.h (the
same numbers as the CLI's <name>.summary.csv and the study reports)."""

from dataclasses import dataclass

import numpy as np
import pandas as pd

import _perflab


def result_columns(columns) -> tuple:
    """(parameter columns, metric columns) of a results CSV's header, a <name>.csv (those before "seed", and
    those after it but "error") or a <name>.summary.csv (those before "runs", and each METRIC of METRIC_mean):
    the C++ split the results reader uses (result_columns, sim/runner/run_outputs.h). ValueError for any other header."""
    split = _perflab.result_columns([str(c) for c in columns])
    return split["params"], split["metrics"]


def _frame(df, function: str) -> pd.DataFrame:
    if not isinstance(df, pd.DataFrame):
        raise TypeError(f"{function}: got a {type(df).__name__}, expected the DataFrame of perflab.run or "
                        "perflab.read_results")
    return df


def columns_of(df: pd.DataFrame):
    """(parameter columns, metric columns) of a run's DataFrame (or what perflab.run recorded in df.attrs,
    less the columns a selection has dropped since)."""
    info = _frame(df, "columns_of").attrs.get("perflab")
    if info:
        present = set(df.columns)
        return ([c for c in info["param_columns"] if c in present], [m for m in info["metrics"] if m in present])
    if "seed" not in df.columns:
        raise ValueError("not a perflab run: no \"seed\" column, expected the DataFrame of perflab.run or a "
                         "results CSV read with perflab.read_results")
    return result_columns(df.columns)


def summarize(df: pd.DataFrame) -> pd.DataFrame:
    """The per-point summary of a run: for each grid point (its parameter columns), "runs" and "failed",
    then for each metric its mean, 95% Student-t interval (ci95_low, ci95_high), min and max over the
    successful seeds: the columns of the CLI's <name>.summary.csv."""
    params, metrics = columns_of(_frame(df, "summarize"))
    ok = df["error"].fillna("") == "" if "error" in df.columns else pd.Series(True, index=df.index)
    records = []
    # One column is grouped by as itself (pandas warns on a one-item list); none is one group, the run.
    groups = df.groupby(params if len(params) > 1 else params[0], sort=False, dropna=False) if params \
        else [((), df)]
    for key, group in groups:
        key = key if isinstance(key, tuple) else (key,)
        record = dict(zip(params, key))
        good = group[ok[group.index]]
        record["runs"] = int(good[metrics[0]].notna().sum()) if metrics else len(good)
        record["failed"] = int((~ok[group.index]).sum())
        for metric in metrics:
            s = _perflab.summarize_values([float(v) for v in good[metric].dropna()])
            for stat in ("mean", "ci95_low", "ci95_high", "min", "max"):
                record[f"{metric}_{stat}"] = s[stat]
        records.append(record)
    return pd.DataFrame.from_records(records)


@dataclass(frozen=True)
class Fit:
    """y = a + b ln x (log) or y = a x^b (power), with r² (in the space of the fit) and the slope b's 95%
    Student-t interval; n points."""
    kind: str
    a: float
    b: float
    r2: float
    b_ci95_low: float
    b_ci95_high: float
    n: int

    def __str__(self):
        formula = f"{self.a:.4g} + {self.b:.4g} ln x" if self.kind == "log" else f"{self.a:.4g} x^{self.b:.4g}"
        return (f"y = {formula}  (r² = {self.r2:.4f}, b in [{self.b_ci95_low:.4g}, {self.b_ci95_high:.4g}], "
                f"n = {self.n})")


def _points(df: pd.DataFrame, x: str, y: str):
    for column in (x, y):
        if column not in _frame(df, "a fit").columns:
            raise ValueError(f"no column \"{column}\", expected one of {', '.join(map(str, df.columns))}")
        if not pd.api.types.is_numeric_dtype(df[column]):
            raise ValueError(f"column \"{column}\" is not numeric ({df[column].dtype}), expected numbers: sizes "
                             "in bytes, durations in seconds, as perflab.run gives them")
    ok = df["error"].fillna("") == "" if "error" in df.columns else pd.Series(True, index=df.index)
    xs = pd.to_numeric(df.loc[ok, x], errors="coerce").astype(float).to_numpy(dtype=float, na_value=np.nan)
    ys = pd.to_numeric(df.loc[ok, y], errors="coerce").astype(float).to_numpy(dtype=float, na_value=np.nan)
    keep = np.isfinite(xs) & np.isfinite(ys)
    return xs[keep].tolist(), ys[keep].tolist()


def fit_log(df: pd.DataFrame, x: str, y: str) -> Fit:
    """Least-squares y = a + b ln x over the successful rows (every seed a point); ValueError if x <= 0."""
    xs, ys = _points(df, x, y)
    return Fit("log", n=len(xs), **_perflab.fit_log(xs, ys))


def fit_power(df: pd.DataFrame, x: str, y: str) -> Fit:
    """Least-squares y = a x^b (a line in log-log) over the successful rows; b is the growth exponent."""
    xs, ys = _points(df, x, y)
    return Fit("power", n=len(xs), **_perflab.fit_power(xs, ys))
