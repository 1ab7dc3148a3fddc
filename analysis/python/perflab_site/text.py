"""How the renderer writes numbers and tables, said once: a mean with its 95% interval (`mean [low, high]`,
the one way README.md, the site and the terminal write an interval), and a markdown table."""
import math


def summary_of(values) -> dict:
    """n, mean, ci95_low, ci95_high, min, max of `values` by the C++ statistics (sim/stats/stats.h through
    the extension), so a page's numbers are the summary CSV's."""
    import _perflab  # the C++ extension: the site and README need it built

    return _perflab.summarize_values([float(v) for v in values])


def spreads(s: dict) -> bool:
    """True when the runs spread: more than one, and a half-width over a billionth of the mean."""
    half = (s["ci95_high"] - s["ci95_low"]) / 2
    return s["n"] > 1 and half > 1e-9 * abs(s["mean"])


def interval(s: dict, spec: str, alone: str = "") -> str:
    """"116.6 [114.9, 118.3]": the mean and its 95% interval in one format spec ("{:.1f}"); the mean alone
    (in `alone` when given) when the runs do not spread."""
    if not spreads(s):
        return (alone or spec).format(s["mean"])
    return f"{spec.format(s['mean'])} [{spec.format(s['ci95_low'])}, {spec.format(s['ci95_high'])}]"


def number(value: float) -> str:
    """A whole number as one, anything else in up to six significant digits."""
    if value == math.floor(value) and abs(value) < 1e15:
        return str(int(value))
    return f"{value:.6g}"


def auto_interval(s: dict) -> str:
    """A summary table's cell: the digits the interval needs; a count with no spread as a whole number;
    tiny values (lock holds of nanoseconds) in three significant digits."""
    half = (s["ci95_high"] - s["ci95_low"]) / 2 if spreads(s) else 0.0
    magnitude = max(abs(s["mean"]), half)
    if 0 < magnitude < 1e-3:
        return interval(s, "{:.3g}")
    if s["min"] == s["max"] and s["mean"] == math.floor(s["mean"]) and abs(s["mean"]) < 1e15:
        return number(s["mean"])
    decimals = 0
    if magnitude > 0:
        decimals = max(0, min(6, 2 - math.floor(math.log10(magnitude))))
    if half > 0:
        decimals = max(decimals, min(6, -math.floor(math.log10(half))))
    return interval(s, f"{{:.{decimals}f}}")


class Table:
    """A markdown table built row by row; one alignment per column: l (text), r (numbers), c (a mark)."""

    def __init__(self, header: list, align: str = ""):
        self.header = list(header)
        self.align = (align + "l" * len(header))[: len(header)]
        self.rows = []

    def add(self, cells: list):
        self.rows.append((list(cells) + [""] * len(self.header))[: len(self.header)])

    def __str__(self) -> str:
        line = lambda cells: "| " + " | ".join(cells) + " |\n"  # noqa: E731
        marks = {"r": "---:|", "c": ":---:|"}
        return (line(self.header) + "|" + "".join(marks.get(a, "---|") for a in self.align) + "\n" +
                "".join(line(r) for r in self.rows))
