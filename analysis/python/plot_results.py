#!/usr/bin/python3
"""Draws every study's plots: for each results/<study>/ whose study has a scenarios/<study>/plot.py, calls
that script's plot(results_dir) and names the files it wrote on stderr. `perflab reproduce` runs it before
writing the folder's README.md; a new study adds its pictures by adding its own plot.py, nothing here.

    /usr/bin/python3 analysis/python/plot_results.py [RESULTS_DIR]
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from perflab_plots import SCENARIOS  # noqa: E402
from study_scripts import load_study_script  # noqa: E402


def main(results: Path) -> int:
    for study_dir in sorted(p for p in results.iterdir() if p.is_dir()):
        module = load_study_script(SCENARIOS, study_dir.name, "plot.py")
        if module is None:
            continue
        for path in module.plot(study_dir):
            print(f"plot: {path}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1] if len(sys.argv) > 1 else "results")))
