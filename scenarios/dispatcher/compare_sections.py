#!/usr/bin/python3
"""One point's locked sections, real against sim (scenarios/dispatcher/NOTES.md, "Where the elements differ"):
the real monitor's section trace and the sim's timeline of the same point and seed, side by side.

    PERFLAB_DISPATCHER_SECTION_TRACE=DIR build/perflab run scenarios/dispatcher/validate.toml \\
        --set params.calls=1500 --set 'sweep.max_requests=[640]' --set 'sweep.strategy=["scan"]' --out OUT
    build/perflab run ... the same --set, plus --set 'scenario.engine="sim"' --timeline SIM.json --out OUT2
    /usr/bin/python3 scenarios/dispatcher/compare_sections.py DIR/sections-*.csv SIM.json

The real trace may be gzipped (results/dispatcher/section-traces/ keeps the runs NOTES quotes that way).

Prints, per engine: sections and elements per kind, and how long each kind held the lock (in all, the median
section, the part in holds over 10 us); elements by tenth of the run; the expensive promotions
(more than 1,000 elements) in the first tenth, the middle six and the last three, with the running and
ready calls they met; and how many promotions ran right after another thread's section.
"""
import csv
import gzip
import json
import statistics
import sys
from dataclasses import dataclass

EXPENSIVE = 1000  # elements: a promotion that walked the lists, not one that stopped at once
LONG_HOLD_S = 10e-6  # a hold this long is a stall: the short sections' work is a few us at most
PHASES = ((0.0, 0.1, "first tenth"), (0.1, 0.7, "middle six tenths"), (0.7, 1.0, "last three tenths"))


@dataclass
class Section:
    start_s: float  # since the run's first section
    kind: str       # enqueue, promote, finished
    ops: int
    thread: str
    running: int
    ready: int
    hold_s: float = 0.0  # how long the section held the lock


def real_sections(path: str) -> list:
    """The real monitor's trace: one row per section, in the order they held the lock."""
    with (gzip.open(path, "rt") if path.endswith(".gz") else open(path)) as file:
        rows = list(csv.DictReader(file))
    if not rows:
        raise ValueError(f"{path}: no section")
    t0 = int(rows[0]["acquired_ns"])
    return [Section((int(r["acquired_ns"]) - t0) / 1e9, r["section"], int(r["ops"]), r["thread"],
                    int(r["running"]), int(r["ready"]), (int(r["released_ns"]) - int(r["acquired_ns"])) / 1e9)
            for r in rows]


def sim_sections(path: str) -> list:
    """The sim's timeline: a span per section, detail "N ops, R running, Q ready"."""
    out = []
    for event in json.load(open(path))["traceEvents"]:
        detail = event.get("args", {}).get("detail", "")
        if event.get("ph") != "X" or not detail.endswith(" ready"):
            continue
        ops, running, ready = (int(part.split()[0]) for part in detail.split(", "))
        out.append(Section(event["ts"] / 1e6, event["name"], ops, str(event["tid"]), running, ready,
                           event.get("dur", 0.0) / 1e6))
    if not out:
        raise ValueError(f"{path}: no locked section in the timeline (made with --timeline?)")
    out.sort(key=lambda s: s.start_s)
    t0 = out[0].start_s
    return [Section(s.start_s - t0, s.kind, s.ops, s.thread, s.running, s.ready, s.hold_s) for s in out]


def summary(sections: list) -> list:
    """The lines printed for one engine."""
    lines = []
    for kind in sorted({s.kind for s in sections}):
        mine = [s for s in sections if s.kind == kind]
        lines.append(f"  {kind}: {len(mine)} sections, {sum(s.ops for s in mine):.4g} elements")
    end = sections[-1].start_s or 1.0
    tenths = [0] * 10
    for s in sections:
        tenths[min(9, int(s.start_s / end * 10))] += s.ops
    lines.append("  elements by tenth of the run (millions): " + " ".join(f"{t / 1e6:.1f}" for t in tenths))
    for low, high, name in PHASES:
        walks = [s for s in sections if s.kind == "promote" and s.ops > EXPENSIVE
                 and low <= min(s.start_s / end, 0.999) < high]  # the run's last section in its last phase
        if walks:
            lines.append(f"  {name}: {len(walks)} expensive promotions, {sum(s.ops for s in walks):.4g} elements, "
                         f"{statistics.mean(s.running for s in walks):.0f} running and "
                         f"{statistics.mean(s.ready for s in walks):.0f} ready calls on average")
    after_other = sum(1 for a, b in zip(sections, sections[1:]) if b.kind == "promote" and a.thread != b.thread)
    promotions = sum(1 for s in sections if s.kind == "promote")
    lines.append(f"  promotions right after another thread's section: {after_other} of {promotions}")
    return lines


def holds(sections: list) -> list:
    """Per kind, how long its sections held the lock: in all, the median section, and the part of the total
    held by sections over LONG_HOLD_S (a holder descheduled or stalled, not its work)."""
    lines = []
    for kind in sorted({s.kind for s in sections}):
        held = [s.hold_s for s in sections if s.kind == kind]
        total = sum(held)
        long = sum(h for h in held if h > LONG_HOLD_S)
        lines.append(f"  {kind} held: {total * 1e3:.3f} ms in all, median {statistics.median(held) * 1e6:.2f} us, "
                     f"{long / total if total else 0:.0%} of it in sections over {LONG_HOLD_S * 1e6:.0f} us")
    return lines


def main(argv: list) -> int:
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        engines = (("real", real_sections(argv[0])), ("sim", sim_sections(argv[1])))
    except (OSError, ValueError, KeyError, json.JSONDecodeError) as error:
        print(f"compare_sections: {error}", file=sys.stderr)
        return 2
    for name, sections in engines:
        print(f"{name}: {len(sections)} sections over {sections[-1].start_s:.2f} s")
        print("\n".join(summary(sections) + holds(sections)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
