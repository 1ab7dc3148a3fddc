"""Benchmark: a 1,000-point pingpong sweep on a Dask LocalCluster of 1 worker process and of 2, one
thread each, alternately ROUNDS times; prints both medians and the speed-up (goal: >= 1.5 with two free
cores). Each worker runs its slices one run at a time, so the cluster's width is the only parallelism.

    /usr/bin/python3 analysis/benchmarks/dask_scaling.py [ROUNDS]
"""

import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "analysis" / "python"), str(ROOT / "build" / "python")]
import perflab  # noqa: E402

SWEEP = {
    "scenario": {"name": "dask-scaling", "study": "pingpong", "seeds": 1},
    "network": {"latency": "uniform(1ms, 9ms)", "bandwidth": "100MBps"},
    "sweep": {"requests": list(range(100, 1100))},
}


def timed(workers: int) -> float:
    from distributed import Client, LocalCluster

    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None,
                      silence_logs=50) as cluster, Client(cluster) as client:
        client.run(lambda: __import__("perflab"))  # workers import perflab before the clock starts
        start = time.perf_counter()
        frame = perflab.run(SWEEP, client=client, progress=False)
        elapsed = time.perf_counter() - start
    assert len(frame) == 1000 and (frame["error"] == "").all()
    return elapsed


def main(rounds: int) -> int:
    one, two = [], []
    for _ in range(rounds):
        one.append(timed(1))
        two.append(timed(2))
        print(f"1 worker {one[-1]:.2f} s, 2 workers {two[-1]:.2f} s", file=sys.stderr)
    speedup = statistics.median(one) / statistics.median(two)
    print(f"pingpong, 1,000 points, {rounds} rounds: 1 worker median {statistics.median(one):.2f} s, "
          f"2 workers median {statistics.median(two):.2f} s, speed-up {speedup:.2f}x (goal >= 1.5)")
    return 0


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]) if len(sys.argv) > 1 else 3))
