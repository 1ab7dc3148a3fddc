#!/usr/bin/python3
"""Writes the results site (results/index.html, one page per study, the SVG plots) from the committed
results. Run by `perflab reproduce` and `perflab reproduce --readme-only`; by hand:

    /usr/bin/python3 analysis/python/build_site.py [RESULTS_DIR [SCENARIOS_DIR]]
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from perflab_site import build  # noqa: E402

if __name__ == "__main__":
    if any(arg.startswith("-") for arg in sys.argv[1:]) or len(sys.argv) > 3:
        print(__doc__, file=sys.stderr)
        sys.exit(0 if sys.argv[1:] in (["-h"], ["--help"]) else 2)
    root = Path(__file__).resolve().parents[2]
    results = Path(sys.argv[1]) if len(sys.argv) > 1 else root / "results"
    scenarios = Path(sys.argv[2]) if len(sys.argv) > 2 else root / "scenarios"
    files = build(results, scenarios)
    print(f"site: wrote {results / 'index.html'} and {len(files) - 1} more files", file=sys.stderr)
