#!/usr/bin/python3
"""Draws every study's plots: for each results/<study>/ whose study has a scenarios/<study>/plot.py, calls
that script's plot(results_dir) and names the files it wrote on stderr. `perflab reproduce` runs it before
writing the folder's README.md; a new study adds its pictures by adding its own plot.py, nothing here.

    /usr/bin/python3 analysis/python/plot_results.py [RESULTS_DIR]          every study, in parallel
    /usr/bin/python3 analysis/python/plot_results.py RESULTS_DIR --stdin   each study named on stdin

Given a folder, the studies are drawn in parallel, one process per core, forked after matplotlib and pandas
are imported. With --stdin, each study is drawn as its name arrives on a line of stdin, until stdin closes:
`perflab reproduce` starts it once only simulations are left to run and names each study as its scenarios
finish, so the drawing fills the cores the simulations leave idle instead of waiting for the last of them.
"""
import multiprocessing
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from perflab_plots import SCENARIOS  # noqa: E402
from study_scripts import load_study_script  # noqa: E402


def plot_study(study_dir: Path) -> list:
    """The files study_dir's plot.py wrote, or [] when its study has none."""
    module = load_study_script(SCENARIOS, study_dir.name, "plot.py")
    return [] if module is None else list(module.plot(study_dir))


def report(paths: list) -> None:
    for path in paths:
        print(f"plot: {path}", file=sys.stderr, flush=True)


def draw_all(results: Path) -> int:
    study_dirs = sorted(p for p in results.iterdir() if p.is_dir())
    workers = max(1, min(len(study_dirs), os.cpu_count() or 1))
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        for paths in pool.map(plot_study, study_dirs, chunksize=1):
            report(paths)
    return 0


def draw_named(results: Path, names) -> int:
    for line in names:
        study = line.strip()
        if not study:
            continue
        study_dir = results / study
        if not study_dir.is_dir():
            print(f"plot_results.py: {study_dir}: no such study folder", file=sys.stderr)
            return 2
        report(plot_study(study_dir))
    return 0


def main(argv: list) -> int:
    results = Path(argv[0] if argv else "results")
    if argv[1:] == ["--stdin"]:
        return draw_named(results, sys.stdin)
    if len(argv) > 1:
        print("usage: plot_results.py [RESULTS_DIR] [--stdin]", file=sys.stderr)
        return 2
    return draw_all(results)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
