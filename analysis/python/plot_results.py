#!/usr/bin/python3
"""Plots of the headline results: reads the <name>.summary.csv files perflab wrote under results/ and
draws one PNG beside each (mean with its 95% interval). Run by scripts/reproduce after `perflab reproduce`.

    /usr/bin/python3 analysis/python/plot_results.py [RESULTS_DIR]
"""
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

# The seed PR's own numbers, drawn beside ours.
PR_PREFETCH = pd.DataFrame({
    "prefetch_depth": [0, 1, 2, 3, 5, 10, 50, 100, 500],
    "duration_s": [125, 62, 59, 51, 46, 37, 38, 32, 31],
    "classes_prefetched": [1024, 1682, 2016, 2220, 2822, 3349, 4175, 4605, 4655],
    "rpcs": [1052, 520, 437, 374, 350, 292, 344, 268, 266],
})


def errorbar(ax, x, frame, metric, label, **style):
    mean = frame[f"{metric}_mean"]
    low = mean - frame[f"{metric}_ci95_low"]
    high = frame[f"{metric}_ci95_high"] - mean
    ax.errorbar(x, mean, yerr=[low, high], capsize=3, marker="o", label=label, **style)


def save(fig, summary: Path) -> Path:
    """Writes the figure beside its summary: x.summary.csv -> x.png."""
    fig.tight_layout()
    out = summary.with_suffix("").with_suffix(".png")
    fig.savefig(out, dpi=110)
    plt.close(fig)
    return out


def plot_prefetch_depth(summary: Path) -> Path:
    frame = pd.read_csv(summary).sort_values("prefetch_depth")
    x = frame["prefetch_depth"].clip(lower=0.5)  # depth 0 drawn at 0.5 on the log axis
    fig, axes = plt.subplots(1, 3, figsize=(15, 4.2))
    for ax, metric, title in zip(axes, ["duration_s", "rpcs", "classes_prefetched"],
                                 ["job duration (s)", "class-loading RPCs", "classes prefetched"]):
        errorbar(ax, x, frame, metric, "perflab (JGit clone trace)")
        ax.plot(PR_PREFETCH["prefetch_depth"].clip(lower=0.5), PR_PREFETCH[metric], "s--", label="PR #721")
        ax.set_xscale("log")
        ax.set_xlabel("prefetch depth (0 drawn at 0.5)")
        ax.set_title(title)
        ax.grid(alpha=0.3)
        ax.legend()
    fig.suptitle("Remoting class-loading prefetch: depth sweep")
    return save(fig, summary)


def plot_dispatcher_micro(summary: Path) -> Path:
    frame = pd.read_csv(summary)
    workloads = list(dict.fromkeys(frame["workload"]))
    fig, axes = plt.subplots(1, len(workloads), figsize=(5 * len(workloads), 4.2), squeeze=False)
    for ax, workload in zip(axes[0], workloads):
        for strategy, rows in frame[frame["workload"] == workload].groupby("strategy", sort=False):
            rows = rows.dropna(subset=["seconds_mean"]).sort_values("n")
            errorbar(ax, rows["n"], rows, "seconds", strategy)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("n (calls)")
        ax.set_ylabel("seconds (median of repetitions)")
        ax.set_title(workload)
        ax.grid(alpha=0.3, which="both")
        ax.legend()
    fig.suptitle("OkHttp Dispatcher: real CPU time per workload")
    return save(fig, summary)


def main(results: Path) -> int:
    made = []
    for summary in sorted(results.glob("*/*.summary.csv")):
        columns = pd.read_csv(summary, nrows=0).columns
        if "prefetch_depth" in columns and "traversal" in columns and summary.name.startswith("prefetch-jgit"):
            made.append(plot_prefetch_depth(summary))
        elif "workload" in columns and "seconds_mean" in columns:
            made.append(plot_dispatcher_micro(summary))
    for path in made:
        print(f"plot: {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1] if len(sys.argv) > 1 else "results")))
