"""Plots of the prefetch study: the depth sweep (mean with 95% interval) beside PR #721's table."""
from pathlib import Path

from perflab_plots import draw_existing, errorbar, plt, pd, reference, save


def plot_depth(summary: Path) -> Path:
    frame = pd.read_csv(summary).sort_values("prefetch_depth")
    pr = reference("prefetch")
    x = frame["prefetch_depth"].clip(lower=0.5)  # depth 0 drawn at 0.5 on the log axis
    fig, axes = plt.subplots(1, 3, figsize=(15, 4.2))
    for ax, metric, title in zip(axes, ["duration_s", "rpcs", "classes_prefetched"],
                                 ["job duration (s)", "class-loading RPCs", "classes prefetched"]):
        errorbar(ax, x, frame, metric, "perflab (JGit clone trace)")
        ax.plot(pr["prefetch_depth"].clip(lower=0.5), pr[metric], "s--", label="PR #721")
        ax.set_xscale("log")
        ax.set_xlabel("prefetch depth (0 drawn at 0.5)")
        ax.set_title(title)
        ax.grid(alpha=0.3)
        ax.legend()
    fig.suptitle("Remoting class-loading prefetch: depth sweep")
    return save(fig, summary)


def plot(results: Path) -> list:
    """Draws the pictures of results/prefetch/; returns the files written."""
    return draw_existing(results, [("prefetch-jgit-clone.summary.csv", plot_depth)])
