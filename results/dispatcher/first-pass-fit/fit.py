#!/usr/bin/python3
"""Does a first pass explain the dearer elements over short ready lists? (scenarios/dispatcher/NOTES.md, "The
first pass does not explain it"). Fits each expensive promotion's lock hold in a real section trace by
relative error, to the cost model's per-element terms and a per-section constant, with and without a
first-pass term (running calls x a cost, in every section), and prints real / fit by class of ready list.

    /usr/bin/python3 results/dispatcher/first-pass-fit/fit.py TRACE...
"""
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "scenarios" / "dispatcher"))
from compare_sections import EXPENSIVE, real_sections  # noqa: E402
from element_cost import READY_CLASSES, ready_class  # noqa: E402

L1D_CALLS = 439  # running calls charged by the growth term, at most (lock_cost_model.h)


def columns(sections):
    """Per expensive promotion: ops, ops x charged running calls, cold elements if the lock moved, running calls
    (the first pass), 1; and its hold in ns and its ready class."""
    rows, holds, classes = [], [], []
    previous = None
    for s in sections:
        moved = previous is not None and previous.thread != s.thread
        previous = s
        if s.kind == "promote" and s.ops > EXPENSIVE:
            rows.append([s.ops, s.ops * min(s.running, L1D_CALLS),
                         min(s.ops, s.running + s.ready) if moved else 0, s.running, 1.0])
            holds.append(s.hold_s * 1e9)
            classes.append(ready_class(s))
    return np.array(rows, float), np.array(holds), classes


def main(paths):
    for path in paths:
        x, y, classes = columns(real_sections(path))
        print(f"{path}: {len(y)} expensive promotions")
        for name, keep in (("the model's terms", [0, 1, 2, 4]), ("with a first-pass term", [0, 1, 2, 3, 4])):
            a = x[:, keep]
            coef, *_ = np.linalg.lstsq(a / y[:, None], np.ones_like(y), rcond=None)
            fit = a @ coef
            by_class = [f"{c}: {y[m].sum() / fit[m].sum():.3f}" for _, c in READY_CLASSES
                        if (m := np.array([k == c for k in classes])).any()]
            first = f", first pass {coef[3]:.1f} ns a running call" if len(keep) == 5 else ""
            print(f"  {name}{first}: real / fit " + "; ".join(by_class))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]) if len(sys.argv) > 1 else (print(__doc__, file=sys.stderr) or 2))
