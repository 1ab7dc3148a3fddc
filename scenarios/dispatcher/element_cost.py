#!/usr/bin/python3
"""What an element under the lock cost in real runs (scenarios/dispatcher/NOTES.md, "What an element costs"):
the lock hold of the expensive promotions (more than 1,000 elements: the walks that dominate scan's hold)
divided by their elements, over the whole run and by the running calls the walk met, from real section traces
(PERFLAB_DISPATCHER_SECTION_TRACE=DIR, one file per run; compare_sections.py has the command).

    /usr/bin/python3 scenarios/dispatcher/element_cost.py [--csv] [--by-ready | --by-time] LABEL=TRACE ...

A LABEL names its run in the table (the time it started, say); a trace may be gzipped. Runs of the same point
that cost differently per element at the same running calls show how far this machine's speed moves between
them, which no constant of the lock cost model can follow. --by-ready splits each run's row by the ready calls
the walks met (a walk passes over the running list once per ready call): the first pass's cost, spread over
fewer passes, shows as a dearer element where the ready list is short. --by-time splits it by the half second
of the run the walks started in: the ready list grows as the run goes on, so the two splits tell apart a
cost that follows the ready list from one that follows the time.
"""
import sys

from compare_sections import EXPENSIVE, real_sections

BIN = 100  # running calls per column


# Classes of the ready list a walk met, for --by-ready: (lowest ready calls, name).
READY_CLASSES = ((0, "ready <100"), (100, "ready 100-299"), (300, "ready 300-999"), (1000, "ready 1000+"))
TIME_CLASS_S = 0.5  # --by-time: seconds of the run per class


def ready_class(s) -> str:
    return [name for low, name in READY_CLASSES if s.ready >= low][-1]


def time_class(s) -> str:
    start = int(s.start_s / TIME_CLASS_S) * TIME_CLASS_S
    return f"{start:.1f}-{start + TIME_CLASS_S:.1f} s"


def costs(sections: list, where=lambda s: True) -> dict:
    """ns per element over the expensive promotions ("all"), and per bin of running calls (its lower end);
    only those `where` keeps."""
    sums = {}
    for s in sections:
        if s.kind == "promote" and s.ops > EXPENSIVE and where(s):
            for key in ("all", s.running // BIN * BIN):
                hold, ops = sums.get(key, (0.0, 0))
                sums[key] = (hold + s.hold_s, ops + s.ops)
    return {key: hold / ops * 1e9 for key, (hold, ops) in sums.items()}


def of_class_order(of_class):
    """The order a split's classes are listed in: the ready list's size, or the time."""
    return (lambda s: s.ready) if of_class is ready_class else (lambda s: s.start_s)


def table(runs: list, csv: bool) -> list:
    """One row per (label, costs) run; a column per bin any run reached."""
    bins = sorted({key for _, c in runs for key in c if key != "all"})
    head = ["run", "all"] + [f"{b}-{b + BIN - 1}" for b in bins]
    rows = [[label] + [f"{c[key]:.2f}" if key in c else "" for key in ["all"] + bins] for label, c in runs]
    if csv:
        return [",".join(row) for row in [head] + rows]
    return (["| " + " | ".join(head) + " |", "|---" + "|---:" * (len(head) - 1) + "|"] +
            ["| " + " | ".join(row) + " |" for row in rows])


def main(argv: list) -> int:
    csv = "--csv" in argv
    split = {"--by-ready": ready_class, "--by-time": time_class}
    splits = [split[a] for a in argv if a in split]
    args = [a for a in argv if a != "--csv" and a not in split]
    if not args or any("=" not in a for a in args) or len(splits) > 1:
        print(__doc__, file=sys.stderr)
        return 2
    runs = []
    for arg in args:
        label, path = arg.split("=", 1)
        try:
            sections = real_sections(path)
        except (OSError, ValueError, KeyError) as error:
            print(f"element_cost: {error}", file=sys.stderr)
            return 2
        if not costs(sections):
            print(f"element_cost: {path}: no promotion of more than {EXPENSIVE} elements", file=sys.stderr)
            return 2
        if not splits:
            runs.append((label, costs(sections)))
            continue
        of_class = splits[0]
        for name in dict.fromkeys(of_class(s) for s in sorted(sections, key=of_class_order(of_class))):
            if by_class := costs(sections, lambda s: of_class(s) == name):
                runs.append((f"{label}, {name}", by_class))
    print("\n".join(table(runs, csv)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
