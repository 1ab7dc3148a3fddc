#!/usr/bin/python3
"""Draws every study's plots: for each results/<study>/ whose study has a scenarios/<study>/plot.py, calls
that script's plot(results_dir) and names the files it wrote on stderr. `perflab reproduce` runs it before
writing the folder's README.md; a new study adds its pictures by adding its own plot.py, nothing here.
The studies are drawn in parallel, one process per core, forked after matplotlib and pandas are imported.

    /usr/bin/python3 analysis/python/plot_results.py [RESULTS_DIR]
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


def main(results: Path) -> int:
    study_dirs = sorted(p for p in results.iterdir() if p.is_dir())
    workers = max(1, min(len(study_dirs), os.cpu_count() or 1))
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        for paths in pool.map(plot_study, study_dirs, chunksize=1):
            for path in paths:
                print(f"plot: {path}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1] if len(sys.argv) > 1 else "results")))
