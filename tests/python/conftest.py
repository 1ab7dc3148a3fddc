"""pytest set-up: import perflab from this source tree (analysis/python) and its build (build/python) when
PYTHONPATH does not already say where (running pytest by hand from the repository)."""

import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
for path in (ROOT / "analysis" / "python", ROOT / "build" / "python"):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))
