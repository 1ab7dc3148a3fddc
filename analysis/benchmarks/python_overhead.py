"""Benchmark: what the Python path adds to the CLI's wall time on the prefetch headline scenario.
Runs `perflab run scenarios/prefetch/jgit-clone.toml --out TMP` and `perflab.run(...)` on the same file
alternately, with the same --jobs; goal: perflab.run / CLI <= 1.10.

    /usr/bin/python3 analysis/benchmarks/python_overhead.py [ROUNDS]
"""

import os
import subprocess
import tempfile

from side_by_side import ROOT, rounds_from_argv, side_by_side

import perflab  # noqa: E402  (side_by_side put this tree's package on sys.path)

SCENARIO = ROOT / "scenarios" / "prefetch" / "jgit-clone.toml"
JOBS = os.cpu_count() or 1


def cli():
    with tempfile.TemporaryDirectory() as out:
        subprocess.run([str(ROOT / "build" / "perflab"), "run", str(SCENARIO), "--jobs", str(JOBS), "--out", out],
                       check=True, stdout=subprocess.DEVNULL)


def python():
    assert len(perflab.run(str(SCENARIO), jobs=JOBS, progress=False)) == 90


if __name__ == "__main__":
    ratio = side_by_side(f"prefetch-jgit-clone, --jobs {JOBS}", ("perflab.run", python), ("CLI", cli),
                         rounds_from_argv())
    print(f"goal: <= 1.10: {'met' if ratio <= 1.10 else 'NOT met'}")
