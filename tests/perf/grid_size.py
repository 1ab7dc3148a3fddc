#!/usr/bin/env python3
"""Benchmark (not a test): what a sweep costs before and while it runs, against the size of its grid.

For grids of 10^3 .. 10^7 points (pingpong: requests x request_size x reply_size, bytes-sized messages, so a
run is cheap), starts `perflab run FILE --jobs 2 --out DIR` (and `--shard 1/100`), and records:
  - runs_line_s: seconds until perflab printed how many runs it will make (its first stderr line);
  - first_run_s: seconds until the first finished run reached the journal;
  - rss_mb: the peak resident memory of the perflab parent process (VmHWM) after RUN_SECONDS of running;
  - stop_s: seconds from SIGINT (Ctrl-C) to its exit, with the finished rows kept (exit status 130).
The goal (issue 32): memory does not grow with the number of points (well under 200 MB at 10^7), the run
count is printed and the first run starts within a second or so, whatever the size, and Ctrl-C ends it
within a second. Prints a markdown table of medians over REPEATS.

Usage: tests/perf/grid_size.py BUILD_DIR [REPEATS=3] [RUN_SECONDS=3]
"""

import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SIZES = {  # points: (requests, request sizes, reply sizes)
    10**3: (10, 10, 10),
    10**5: (100, 10, 100),
    10**7: (100, 100, 1000),
}


def scenario_text(points: int) -> str:
    a, b, c = SIZES[points]
    sizes = lambda n: ", ".join('"%dB"' % (1 + i) for i in range(n))
    return ("[scenario]\nname = \"grid-size\"\nstudy = \"pingpong\"\nseeds = 1\n"
            "[network]\nlatency = \"constant(1ms)\"\nbandwidth = \"100MBps\"\n"
            f"[sweep]\nrequests = [{', '.join(str(1 + i) for i in range(a))}]\n"
            f"request_size = [{sizes(b)}]\nreply_size = [{sizes(c)}]\n")


def peak_rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def measure(perflab: str, scenario: Path, out: Path, extra: list, run_seconds: float) -> dict:
    err = out.parent / (out.name + ".err")
    start = time.monotonic()
    with open(err, "w") as stderr:
        child = subprocess.Popen([perflab, "run", str(scenario), "--jobs", "2", "--out", str(out), *extra],
                                 stdout=subprocess.DEVNULL, stderr=stderr)
    journal = out / "grid-size.journal"
    runs_line = first_run = None
    while time.monotonic() - start < run_seconds + 120:
        now = time.monotonic() - start
        if runs_line is None and err.exists() and " runs (" in err.read_text():
            runs_line = now
        if first_run is None and journal.exists() and journal.read_text().count("\n") >= 2:
            first_run = now
        if first_run is not None and now >= run_seconds:
            break
        if child.poll() is not None:
            break
        time.sleep(0.02)
    rss = peak_rss_mb(child.pid) if child.poll() is None else float("nan")
    stopped = time.monotonic()
    child.send_signal(signal.SIGINT)
    status = child.wait()
    return {"runs_line_s": runs_line, "first_run_s": first_run, "rss_mb": rss,
            "stop_s": time.monotonic() - stopped, "status": status,
            "rows_kept": (out / "grid-size.csv").read_text().count("\n") - 1 if (out / "grid-size.csv").exists() else 0}


def main():
    build = Path(sys.argv[1] if len(sys.argv) > 1 else "build")
    repeats = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    run_seconds = float(sys.argv[3]) if len(sys.argv) > 3 else 3
    perflab = str(build / "perflab")
    print("| points | mode | runs line (s) | first run (s) | peak RSS (MB) | Ctrl-C to exit (s) | rows kept |")
    print("|---:|---|---:|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as tmp:
        for points in SIZES:
            scenario = Path(tmp) / f"grid-{points}.toml"
            scenario.write_text(scenario_text(points))
            for mode, extra in (("run", []), ("shard 1/100", ["--shard", "1/100"])):
                results = [measure(perflab, scenario, Path(tmp) / f"out-{points}-{len(extra)}-{r}", extra,
                                   run_seconds) for r in range(repeats)]
                med = {k: statistics.median(r[k] for r in results if r[k] is not None)
                       for k in ("runs_line_s", "first_run_s", "rss_mb", "stop_s", "rows_kept")}
                statuses = sorted({r["status"] for r in results})
                print(f"| {points:,} | {mode} | {med['runs_line_s']:.2f} | {med['first_run_s']:.2f} | "
                      f"{med['rss_mb']:.0f} | {med['stop_s']:.2f} | {med['rows_kept']:.0f} "
                      f"(exit {','.join(map(str, statuses))}) |", flush=True)


if __name__ == "__main__":
    main()
