#!/usr/bin/python3
"""`perflab history`'s Python half, run by sim/cli/history_command.cpp (see perflab_site/history.py):

    /usr/bin/python3 analysis/python/history.py figures RESULTS_DIR SCENARIOS_DIR OUT_CSV STUDY...
        each study's headline figure at every commit that changed its summary -> OUT_CSV
    /usr/bin/python3 analysis/python/history.py page HISTORY_CSV OUT_HTML
        the page of the history the C++ command wrote (steps and change points marked)
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from perflab_site import history  # noqa: E402

if __name__ == "__main__":
    args = sys.argv[1:]
    if args[:1] == ["figures"] and len(args) >= 5:
        history.write_figures(history.figures(Path(args[1]), Path(args[2]), args[4:]), Path(args[3]))
    elif args[:1] == ["page"] and len(args) == 3:
        history.page(Path(args[1]), Path(args[2]))
    else:
        print(__doc__, file=sys.stderr)
        sys.exit(0 if args in (["-h"], ["--help"]) else 2)
