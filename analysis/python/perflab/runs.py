"""Running scenarios from Python: locally through the same forked C++ runner the CLI uses, or spread over a
Dask cluster (one task per slice of the sweep's runs, each a pure function of scenario, point and seed).
Either way the runs happen in a `perflab rows` process (the CLI binary: a lean process forks its runs far
more cheaply than a large Python one), which streams each run's row back in the row codec's exact form;
the rows then go through the CLI's CSV writer, so the DataFrame is `perflab run`'s CSV."""

import io
import os

import pandas as pd

import _perflab

from .rows import progress_shown, run_rows
from .scenario_source import source_of, whole_number


def run(scenario, set=None, seeds=None, jobs=None, client=None, progress=True, cases=None) -> pd.DataFrame:
    """Runs a scenario; returns one row per grid point x seed, with the columns of `perflab run`'s CSV.

    scenario: a scenario file's path, a shipped scenario's name ("prefetch/jgit-clone"), or a dict with the
        structure of a scenario file ({"scenario": {"name": ..., "study": ...}, "params": {...},
        "sweep": {...}, "network": {...}}).
    set: overrides as {"params.prune_threshold": 2, "sweep.prefetch_depth": [0, 1, 500]} (perflab run --set).
    seeds: replications per grid point (overrides [scenario] seeds).
    cases: names of the scenario's [[case]]s to run (perflab run --case), e.g. ["windows-64k"]; default all.
    jobs: runs in parallel on this machine (default: the cores for the sim engine, 1 for the micro engine).
    client: a dask.distributed.Client, or a scheduler's address ("tcp://host:8786"): the runs are spread
        over its workers instead; the DataFrame is the same, row for row. A worker that dies has its runs
        retried by Dask. (The CLI: perflab run FILE --scheduler tcp://host:8786.)
    progress: a progress line on stderr, when it is a terminal or a notebook (never into a log file).

    Numbers are in base units (sizes in bytes, durations in seconds, rates in bytes/s); a failed run is a row
    whose "error" says why, and "error" is None for a good row (df[df.error.notna()]: the failed runs).
    Bad input raises ValueError with the CLI's "where: what, expected" message.
    """
    source = source_of(scenario, set, seeds, cases)
    loaded = source.load()
    progress = progress and progress_shown()
    if jobs is not None and (not whole_number(jobs) or jobs < 1):
        raise ValueError(f"jobs={jobs!r} is not valid, expected an integer >= 1")
    jobs = None if jobs is None else int(jobs)
    if client is not None:
        from .distributed import client_of, run_rows_on  # Dask is imported only when a client is given

        connected = client_of(client)
        try:
            rows = run_rows_on(connected, source, loaded, progress)
        finally:
            if connected is not client:
                connected.close()
    else:
        if jobs is None:
            jobs = 1 if loaded.engine == "micro" else (os.cpu_count() or 1)
        rows = run_rows(source, None, jobs, loaded.name if progress else None, loaded.runs)
    return frame_of(loaded, rows)


def frame_of(scenario, rows: list) -> pd.DataFrame:
    """The DataFrame of a scenario's encoded rows, through the CLI's CSV writer."""
    frame = read_csv_text(_perflab.rows_csv(scenario, rows))
    frame.attrs["perflab"] = {
        "scenario": scenario.name,
        "study": scenario.study,
        "engine": scenario.engine,
        "param_columns": list(scenario.param_columns),
        "metrics": list(scenario.metrics),
    }
    return frame


def read_csv_text(text: str) -> pd.DataFrame:
    """A perflab CSV as a DataFrame: numbers as numbers; "error" is None for a good row, so
    df[df.error.notna()] are the failed runs."""
    # round_trip: each float is the double the CSV's shortest text names, as the CLI wrote it (pandas' default
    # parser can land one unit in the last place away, and then summarize() differs from .summary.csv).
    frame = pd.read_csv(io.StringIO(text), float_precision="round_trip")
    if "error" in frame.columns:
        errors = frame["error"].astype(object)
        frame["error"] = errors.where(errors.notna() & (errors.astype(str) != ""), None)
    return frame


def read_results(csv) -> pd.DataFrame:
    """A results CSV written by `perflab run --out` or `perflab reproduce` (results/<study>/<name>.csv)."""
    with open(csv) as f:
        return read_csv_text(f.read())
