"""pytest set-up: import perflab from this source tree (analysis/python) and its build (build/python) when
PYTHONPATH does not already say where (running pytest by hand from the repository); fixtures for the CLI."""

import os
import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
if not os.environ.get("PYTHONPATH"):  # ctest (and an ASan build) say which build to test through PYTHONPATH
    for path in (ROOT / "analysis" / "python", ROOT / "build" / "python"):
        if str(path) in sys.path:  # another checkout's .pth may come first: this tree's must win
            sys.path.remove(str(path))
        sys.path.insert(0, str(path))


@pytest.fixture(scope="session")
def root():
    return ROOT


@pytest.fixture(scope="session")
def cli():
    """Runs the perflab binary of this build; returns the CompletedProcess (text)."""
    binary = ROOT / "build" / "perflab"

    def run(*args, check=True):
        done = subprocess.run([str(binary), *map(str, args)], capture_output=True, text=True)
        if check and done.returncode != 0:
            raise AssertionError(f"perflab {' '.join(map(str, args))}: exit {done.returncode}\n{done.stderr}")
        return done

    return run
