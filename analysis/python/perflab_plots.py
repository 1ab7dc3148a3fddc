"""What every study's plot script shares: reading a study's reference table (the seed's published
numbers, scenarios/<study>/reference.csv), drawing a mean with its 95% interval, and saving a figure beside
the summary it was drawn from; sizes and rates are spelled by quantity_text.literal (re-exported). Each
study draws its own pictures in scenarios/<study>/plot.py."""
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402,F401  (re-exported for the study scripts)
import pandas as pd  # noqa: E402

import reference_table  # noqa: E402
from quantity_text import literal  # noqa: E402,F401  (re-exported for the study scripts)

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"


def reference(study: str) -> pd.DataFrame:
    """The seed's own numbers for `study` (scenarios/<study>/reference.csv)."""
    return reference_table.read(SCENARIOS, study)[0]


def errorbar(ax, x, frame, metric, label, **style):
    """Draws frame's `<metric>_mean` against x with its 95% interval as error bars."""
    mean = frame[f"{metric}_mean"]
    low = mean - frame[f"{metric}_ci95_low"]
    high = frame[f"{metric}_ci95_high"] - mean
    ax.errorbar(x, mean, yerr=[low, high], capsize=3, marker="o", label=label, **style)


def save(fig, summary: Path, suffix: str = "", dpi: int = 110, layout: bool = True, **savefig) -> Path:
    """Writes the figure beside its summary: x.summary.csv -> x.png, or x.<suffix>.png for a second
    picture of the same scenario (results/README.md shows every x.png and x.*.png under x's section).
    layout=False skips tight_layout (for figures with a colorbar); savefig options pass through."""
    if layout:
        fig.tight_layout()
    out = summary.with_suffix("").with_suffix("")
    out = out.with_name(out.name + (f".{suffix}" if suffix else "") + ".png")
    fig.savefig(out, dpi=dpi, **savefig)
    plt.close(fig)
    return out


def draw_existing(results: Path, plots: list) -> list:
    """Calls each (file name, draw function) of `plots` on results/<file name> when that file exists;
    returns the pictures drawn. A study's plot(results) is usually just this."""
    return [draw(results / name) for name, draw in plots if (results / name).exists()]
