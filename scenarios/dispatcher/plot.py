"""Plots of the dispatcher study: real CPU time per workload and strategy against n (log-log); the real
OkHttp 3.13.1 on a JVM (okhttp-jvm) dashed beside the C++ ports."""
from pathlib import Path

from perflab_plots import errorbar, plt, pd, save

LABELS = {"okhttp-jvm": "OkHttp 3.13.1 (JVM)"}
STYLES = {"okhttp-jvm": {"linestyle": "--", "color": "black"}}


def plot_micro(summary: Path) -> Path:
    frame = pd.read_csv(summary)
    workloads = list(dict.fromkeys(frame["workload"]))
    fig, axes = plt.subplots(1, len(workloads), figsize=(5 * len(workloads), 4.2), squeeze=False)
    for ax, workload in zip(axes[0], workloads):
        for strategy, rows in frame[frame["workload"] == workload].groupby("strategy", sort=False):
            rows = rows.dropna(subset=["seconds_mean"]).sort_values("n")
            errorbar(ax, rows["n"], rows, "seconds", LABELS.get(strategy, strategy), **STYLES.get(strategy, {}))
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("n (calls)")
        ax.set_ylabel("seconds (median of repetitions)")
        ax.set_title(workload)
        ax.grid(alpha=0.3, which="both")
        ax.legend()
    fig.suptitle("OkHttp Dispatcher: real CPU time per workload")
    return save(fig, summary)


def plot(results: Path) -> list:
    """Draws the pictures of results/dispatcher/; returns the files written."""
    made = []
    for summary in sorted(results.glob("*.summary.csv")):
        columns = pd.read_csv(summary, nrows=0).columns
        if "workload" in columns and "seconds_mean" in columns:
            made.append(plot_micro(summary))
    return made
