"""What the Python-layer benchmarks share: time two ways of doing the same work alternately, ROUNDS times
each (so a slow spell of a shared machine hits both), and report both medians and their ratio."""

import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "analysis" / "python"), str(ROOT / "build" / "python")]


def seconds(work) -> float:
    start = time.perf_counter()
    work()
    return time.perf_counter() - start


def side_by_side(title: str, first: tuple, second: tuple, rounds: int) -> float:
    """first and second are (label, callable); returns median(first) / median(second), printing each round
    on stderr and the medians on stdout."""
    times = {first[0]: [], second[0]: []}
    for _ in range(rounds):
        for label, work in (first, second):
            times[label].append(seconds(work))
        print(", ".join(f"{label} {t[-1]:.2f} s" for label, t in times.items()), file=sys.stderr)
    medians = {label: statistics.median(t) for label, t in times.items()}
    ratio = medians[first[0]] / medians[second[0]]
    print(f"{title}, {rounds} rounds: " + ", ".join(f"{label} median {m:.2f} s" for label, m in medians.items()) +
          f"; {first[0]} / {second[0]} = {ratio:.3f}")
    return ratio


def rounds_from_argv(default: int = 3) -> int:
    return int(sys.argv[1]) if len(sys.argv) > 1 else default
