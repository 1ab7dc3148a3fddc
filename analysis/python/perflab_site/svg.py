"""Hand-written SVG plots for the results site: one metric against one grid column, a line per series,
each point's mean with its 95% interval, every seed's value as a small dot beside it, and the seed's
published numbers as hollow black squares. Every mark carries a <title> (the value a hover shows)."""
import math
from html import escape

import quantity_text

W, H = 560, 360
ML, MR, MT, MB = 66, 160, 34, 62
COLORS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2",
          "#7f7f7f", "#bcbd22"]


def fmt(value) -> str:
    """A number as a reader wants it on a tooltip or tick: four significant digits, no float noise."""
    if isinstance(value, str):
        return value
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "n/a"
    return f"{value:.4g}"


def human(value, unit=None) -> str:
    """A value in the unit its CSV column has (bytes, bytes/s, seconds) as a person reads it; otherwise
    with an SI prefix (12k, 3.5M, 20µ) for ticks, or four significant digits."""
    if isinstance(value, str) or value is None or value != value:
        return fmt(value)
    text = quantity_text.readable(value, unit)
    if text is not None:
        return text
    if value != 0 and (abs(value) >= 1e4 or abs(value) < 1e-2):
        for name, scale in (("G", 1e9), ("M", 1e6), ("k", 1e3), ("m", 1e-3), ("µ", 1e-6), ("n", 1e-9)):
            if abs(value) >= scale:
                return f"{value / scale:.3g}{name}"
    return fmt(value)


class Axis:
    """Maps data to pixels along one axis: linear, log (zero drawn at half the smallest positive value)
    or categorical (one slot per distinct value, in order of appearance)."""

    def __init__(self, values, lo_px, hi_px, log=False, categories=None, unit=None):
        self.lo_px, self.hi_px, self.log, self.categories, self.unit = lo_px, hi_px, log, categories, unit
        self.has_zero = False
        if categories is not None:
            self.lo, self.hi = -0.5, len(categories) - 0.5
            return
        finite = [v for v in values if v is not None and not math.isnan(v)]
        if log:
            positive = [v for v in finite if v > 0]
            self.has_zero = len(positive) < len(finite)
            self.zero = min(positive) / 2 if positive else 1
            finite = [max(v, self.zero) for v in finite]
            lo, hi = math.log10(min(finite)), math.log10(max(finite))
            pad = max((hi - lo) * 0.06, 0.05)
            self.lo, self.hi = lo - pad, hi + pad
        else:
            lo, hi = (min(finite), max(finite)) if finite else (0, 1)
            lo = min(lo, 0) if lo >= 0 and lo < 0.5 * hi else lo
            if hi == lo:
                hi, lo = hi + (abs(hi) or 1) * 0.5, lo - (abs(lo) or 1) * 0.5
            pad = (hi - lo) * 0.06
            self.lo, self.hi = (lo if lo == 0 else lo - pad), hi + pad

    def pos(self, value) -> float:
        if self.categories is not None:
            t = self.categories.index(value)
        elif self.log:
            t = math.log10(max(value, self.zero))
        else:
            t = value
        return self.lo_px + (t - self.lo) / (self.hi - self.lo) * (self.hi_px - self.lo_px)

    def ticks(self) -> list:
        if self.categories is not None:
            return [(c, str(c)) for c in self.categories]
        if self.log:
            first, last = math.ceil(self.lo), math.floor(self.hi)
            mults = [1] if last - first >= 2 else [1, 2, 5]
            out = [(0, "0")] if self.has_zero else []
            for e in range(first - 1, last + 1):
                for m in mults:
                    v = m * 10.0**e
                    if self.lo <= math.log10(v) <= self.hi:
                        out.append((v, human(v, self.unit)))
            return out
        span = self.hi - self.lo
        step = 10 ** math.floor(math.log10(span / 5))
        for m in (1, 2, 5, 10):
            if span / (step * m) <= 7:
                step *= m
                break
        v = math.ceil(self.lo / step) * step
        out = []
        while v <= self.hi + 1e-12 * span:
            out.append((v, human(round(v, 12), self.unit)))
            v += step
        return out


def wants_log(values) -> bool:
    positive = [v for v in values if v is not None and not math.isnan(v) and v > 0]
    return len(positive) >= 2 and max(positive) / min(positive) >= 50


def frame(title, ya) -> list:
    """The start of a plot's SVG: the document, its title, the plotting area and the y axis's grid."""
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="plot" viewBox="0 0 {W} {H}" width="{W}" '
           f'height="{H}" font-family="sans-serif" font-size="11">',
           f'<title>{escape(title)}</title>',
           f'<rect x="{ML}" y="{MT}" width="{W - ML - MR}" height="{H - MT - MB}" fill="#fff" stroke="#999"/>']
    for value, label in ya.ticks():
        y = ya.pos(value)
        out.append(f'<line x1="{ML}" x2="{W - MR}" y1="{y:.1f}" y2="{y:.1f}" stroke="#e6e6e6"/>'
                   f'<text x="{ML - 5}" y="{y + 4:.1f}" text-anchor="end">{escape(label)}</text>')
    return out


def plot(title, x_name, y_name, series, reference=(), logx=None, logy=None, x_unit=None, y_unit=None) -> str:
    """series: [{"label", "points": [{"x", "mean", "low", "high", "tip", "seeds": [(which, value)]}]}]
    (which: "seed 3", or "repetition 2" for a micro-engine point);
    reference: [{"x", "y", "tip"}]. Returns the SVG document."""
    xs = [p["x"] for s in series for p in s["points"]] + [r["x"] for r in reference]
    numeric_x = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in xs)
    ys = [v for s in series for p in s["points"] for v in (p["mean"], p["low"], p["high"])]
    ys += [v for s in series for p in s["points"] for _, v in p["seeds"]] + [r["y"] for r in reference]
    ys = [v for v in ys if v is not None and not math.isnan(v)]
    if numeric_x:
        logx = wants_log(xs) if logx is None else logx
        xa = Axis(xs, ML, W - MR, log=logx, unit=x_unit)
    else:
        xa = Axis(xs, ML, W - MR, categories=list(dict.fromkeys(xs)))
    logy = wants_log(ys) if logy is None else logy
    ya = Axis(ys, H - MB, MT, log=logy and all(v > 0 for v in ys), unit=y_unit)
    out = frame(title, ya)
    xticks = xa.ticks()
    slot = (W - ML - MR) / max(len(xticks), 1)
    tilt = any(len(label) * 6.2 > slot for _, label in xticks)
    for value, label in xticks:
        x = xa.pos(value)
        text = (f'<text x="{x:.1f}" y="{H - MB + 13}" text-anchor="end" transform="rotate(-30 {x:.1f} '
                f'{H - MB + 13})">' if tilt else f'<text x="{x:.1f}" y="{H - MB + 15}" text-anchor="middle">')
        out.append(f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{MT}" y2="{H - MB}" stroke="#eee"/>'
                   f'{text}{escape(label)}</text>')
    scale = lambda log: " (log)" if log else ""  # noqa: E731
    out.append(f'<text x="{(ML + W - MR) / 2}" y="{H - 6}" text-anchor="middle" font-size="12">'
               f'{escape(x_name)}{scale(numeric_x and xa.log)}</text>'
               f'<text transform="translate(16 {(MT + H - MB) / 2}) rotate(-90)" text-anchor="middle" '
               f'font-size="12">{escape(y_name)}{scale(ya.log)}</text>'
               f'<text x="{ML}" y="20" font-size="13" font-weight="bold">{escape(title)}</text>')
    dodge = 0 if numeric_x else min(12, 60 / max(len(series), 1))
    for i, s in enumerate(series):
        color = COLORS[i % len(COLORS)]
        shift = (i - (len(series) - 1) / 2) * dodge
        points = [p for p in s["points"] if p["mean"] is not None and not math.isnan(p["mean"])]
        out.append(f'<g class="series" data-series="{escape(s["label"])}">')
        if numeric_x and len(points) > 1:
            path = " ".join(f'{"M" if j == 0 else "L"}{xa.pos(p["x"]):.1f},{ya.pos(p["mean"]):.1f}'
                            for j, p in enumerate(points))
            out.append(f'<path d="{path}" fill="none" stroke="{color}" stroke-width="1.5"/>')
        for p in points:
            x = xa.pos(p["x"]) + shift
            for j, (seed, value) in enumerate(p["seeds"]):
                jitter = ((j * 7) % 9 - 4) * 0.9
                out.append(f'<circle class="seed" cx="{x + jitter:.1f}" cy="{ya.pos(value):.1f}" r="2.2" '
                           f'fill="{color}" fill-opacity="0.35"><title>{escape(s["label"])}, '
                           f'{escape(x_name)} = {escape(human(p["x"], x_unit))}, {escape(seed)}: {escape(y_name)} = '
                           f'{escape(human(value, y_unit))}</title></circle>')
            if p["low"] is not None and not math.isnan(p["low"]) and p["high"] != p["low"]:
                y0, y1 = ya.pos(p["low"]), ya.pos(p["high"])
                out.append(f'<path d="M{x:.1f},{y0:.1f}V{y1:.1f}M{x - 4:.1f},{y0:.1f}h8M{x - 4:.1f},{y1:.1f}h8" '
                           f'stroke="{color}" stroke-width="1.2"/>')
            out.append(f'<circle class="point" cx="{x:.1f}" cy="{ya.pos(p["mean"]):.1f}" r="4.5" '
                       f'fill="{color}" stroke="#fff"><title>{escape(p["tip"])}</title></circle>')
        out.append("</g>")
    if reference:
        ref = sorted(reference, key=lambda r: xa.pos(r["x"]))
        out.append('<g class="reference">')
        if numeric_x and len(ref) > 1:
            path = " ".join(f'{"M" if j == 0 else "L"}{xa.pos(r["x"]):.1f},{ya.pos(r["y"]):.1f}'
                            for j, r in enumerate(ref))
            out.append(f'<path d="{path}" fill="none" stroke="#000" stroke-dasharray="4 3"/>')
        for r in ref:
            x, y = xa.pos(r["x"]), ya.pos(r["y"])
            out.append(f'<rect class="point seed-published" x="{x - 4.5:.1f}" y="{y - 4.5:.1f}" width="9" '
                       f'height="9" fill="#fff" fill-opacity="0.6" stroke="#000" stroke-width="1.6">'
                       f'<title>{escape(r["tip"])}</title></rect>')
        out.append("</g>")
    legend = [(COLORS[i % len(COLORS)], s["label"], "circle") for i, s in enumerate(series)]
    if reference:
        legend.append(("#000", "the seed's numbers", "square"))
    for i, (color, label, shape) in enumerate(legend):
        y = MT + 8 + i * 17
        x = W - MR + 12
        mark = (f'<circle cx="{x + 5}" cy="{y}" r="4.5" fill="{color}"/>' if shape == "circle" else
                f'<rect x="{x + 0.5}" y="{y - 4.5}" width="9" height="9" fill="#fff" stroke="#000" '
                f'stroke-width="1.6"/>')
        text = label if len(label) <= 24 else label[:23] + "…"
        out.append(f'{mark}<text x="{x + 15}" y="{y + 4}">{escape(text)}<title>{escape(label)}</title></text>')
    out.append(f'<text x="{W - MR + 12}" y="{H - MB}" fill="#666" font-size="10">dots: each seed/repetition</text>'
               f'<text x="{W - MR + 12}" y="{H - MB + 12}" fill="#666" font-size="10">bars: 95% interval</text>')
    out.append("</svg>")
    return "\n".join(out)


def scatter_diagonal(title, x_name, y_name, points, unit=None) -> str:
    """Sim against real: points [{"x", "y", "low", "high", "tip"}] (y's 95% interval as a bar) on equal
    linear axes with the diagonal y = x, where a perfect model's points would lie. Returns the SVG."""
    values = [v for p in points for v in (p["x"], p["y"], p["low"], p["high"])
              if v is not None and not math.isnan(v)]
    lo, hi = min(values + [0.0]), max(values)
    xa = Axis([lo, hi], ML, W - MR, unit=unit)
    ya = Axis([lo, hi], H - MB, MT, unit=unit)
    out = frame(title, ya)
    for value, label in xa.ticks():
        x = xa.pos(value)
        out.append(f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{MT}" y2="{H - MB}" stroke="#eee"/>'
                   f'<text x="{x:.1f}" y="{H - MB + 15}" text-anchor="middle">{escape(label)}</text>')
    out.append(f'<path class="diagonal" d="M{xa.pos(lo):.1f},{ya.pos(lo):.1f}L{xa.pos(hi):.1f},{ya.pos(hi):.1f}" '
               f'stroke="#000" stroke-dasharray="4 3" fill="none"/>'
               f'<text x="{(ML + W - MR) / 2}" y="{H - 6}" text-anchor="middle" font-size="12">{escape(x_name)}</text>'
               f'<text transform="translate(16 {(MT + H - MB) / 2}) rotate(-90)" text-anchor="middle" '
               f'font-size="12">{escape(y_name)}</text>'
               f'<text x="{ML}" y="20" font-size="13" font-weight="bold">{escape(title)}</text>')
    color = COLORS[0]
    for p in points:
        x, y = xa.pos(p["x"]), ya.pos(p["y"])
        if p["low"] != p["high"]:
            y0, y1 = ya.pos(p["low"]), ya.pos(p["high"])
            out.append(f'<path d="M{x:.1f},{y0:.1f}V{y1:.1f}M{x - 4:.1f},{y0:.1f}h8M{x - 4:.1f},{y1:.1f}h8" '
                       f'stroke="{color}" stroke-width="1.2"/>')
        out.append(f'<circle class="point" cx="{x:.1f}" cy="{y:.1f}" r="4.5" fill="{color}" stroke="#fff">'
                   f'<title>{escape(p["tip"])}</title></circle>')
    out.append(f'<text x="{W - MR + 12}" y="{MT + 12}" fill="#666" font-size="10">dashed: real = sim</text>'
               f'<text x="{W - MR + 12}" y="{MT + 24}" fill="#666" font-size="10">bars: real 95% interval</text>')
    out.append("</svg>")
    return "\n".join(out)
