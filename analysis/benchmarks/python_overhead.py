"""Benchmark: what the Python path adds to the CLI's wall time on the prefetch headline scenario.
Runs `perflab run scenarios/prefetch/jgit-clone.toml --out TMP` and `perflab.run("prefetch/jgit-clone")`
alternately, ROUNDS times each with the same --jobs, and prints both medians and their ratio (goal: <= 1.10).

    /usr/bin/python3 analysis/benchmarks/python_overhead.py [ROUNDS]
"""

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "analysis" / "python"), str(ROOT / "build" / "python")]
import perflab  # noqa: E402

SCENARIO = ROOT / "scenarios" / "prefetch" / "jgit-clone.toml"


def main(rounds: int) -> int:
    jobs = os.cpu_count() or 1
    cli, python = [], []
    for _ in range(rounds):
        with tempfile.TemporaryDirectory() as out:
            start = time.perf_counter()
            subprocess.run([str(ROOT / "build" / "perflab"), "run", str(SCENARIO), "--jobs", str(jobs), "--out", out],
                           check=True, stdout=subprocess.DEVNULL)
            cli.append(time.perf_counter() - start)
        start = time.perf_counter()
        frame = perflab.run(str(SCENARIO), jobs=jobs, progress=False)
        python.append(time.perf_counter() - start)
        print(f"cli {cli[-1]:.2f} s, python {python[-1]:.2f} s ({len(frame)} rows)", file=sys.stderr)
    ratio = statistics.median(python) / statistics.median(cli)
    print(f"prefetch-jgit-clone, --jobs {jobs}, {rounds} rounds: CLI median {statistics.median(cli):.2f} s, "
          f"perflab.run median {statistics.median(python):.2f} s, ratio {ratio:.3f} (goal <= 1.10)")
    return 0


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]) if len(sys.argv) > 1 else 3))
