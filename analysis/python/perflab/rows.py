"""The `perflab rows` process: the CLI binary runs some or all of a scenario's runs and streams each run's
row back, in the row codec's exact form, as it ends. What perflab.run does locally and what each Dask task
does on a worker (runs.py and distributed.py both use it, neither imports the other's machinery)."""

import signal
import subprocess
import sys

import _perflab

from .scenario_source import ScenarioSource


def progress_shown() -> bool:
    """Whether a progress line (rewritten with \\r) reaches a person: stderr is a terminal or a Jupyter
    notebook's stream, not a log file or a pipe."""
    if type(sys.stderr).__module__.startswith("ipykernel"):
        return True
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):
        return False


def run_slice(source: ScenarioSource, first: int, last: int) -> list:
    """Runs a scenario's runs first..last (indices point x seeds + replication), one at a time; returns their
    rows encoded. What each Dask task does."""
    return run_rows(source, [(first, last)], 1)


def run_rows(source: ScenarioSource, tasks, jobs: int, progress_name=None, total=0) -> list:
    """Runs the chosen runs (tasks: ascending (first, last) ranges; all if None) in a `perflab rows` process;
    returns their encoded rows.
    With progress_name, a progress line on stderr as rows arrive (in a notebook too)."""
    args = [_perflab.perflab_binary(), "rows", source.file or "-", "--jobs", str(jobs)]
    for override in source.sets:
        args += ["--set", override]
    if source.file is None:
        args += ["--origin", "<scenario dict>", "--dir", source.dir]
    if tasks is not None:
        args += ["--tasks", ",".join(f"{a}-{b}" if a != b else str(a) for a, b in tasks)]
    rows = []
    with subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True) as child:
        try:
            child.stdin.write(source.text or "")
            child.stdin.close()
            for line in child.stdout:
                rows.append(line)
                if progress_name:
                    print(f"\rperflab: {progress_name}: {len(rows)}/{total} runs", end="", file=sys.stderr, flush=True)
            errors = child.stderr.read()
            child.wait()
        except KeyboardInterrupt:
            child.send_signal(signal.SIGINT)  # the runner kills its runs and exits
            child.wait()
            raise
        finally:
            if progress_name:
                print(file=sys.stderr)
    if child.returncode == 130:
        raise KeyboardInterrupt
    for line in errors.splitlines():  # what the CLI warns a user about (--jobs above the cores) reaches them
        if line.startswith("perflab: warning:") or line.startswith("perflab: note:"):
            print(line, file=sys.stderr)
    if child.returncode != 0:
        message = errors.strip().removeprefix("perflab: error: ")
        raise (ValueError if child.returncode == 2 else RuntimeError)(message or f"perflab rows: exit {child.returncode}")
    return rows
