"""Plots of the share study: the headline (loop() calls and download time, eager vs coalesced, beside the
ticket), #1545's 100 MB download against k (coalesced vs readv), the k sweep (download time and loop()
calls against k per policy), and the ticket's
candlestick picture — time spent in wasted loop() passes per segment — from the committed timeline."""
import json
from pathlib import Path

from perflab_plots import draw_existing, errorbar, literal, plt, pd, reference, save


def plot_headline(summary: Path) -> Path:
    frame = pd.read_csv(summary)
    ticket = reference("share").query("ticket == 1268").set_index("loop")
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2))
    policies = ["eager", "coalesced"]
    width = 0.27
    for ax, metric, title in zip(axes, ["loop_calls", "duration_s"], ["loop() calls", "download time (s)"]):
        for i, cpu in enumerate(["tahoe-1.9", "measured"]):
            rows = frame[frame["cpu"] == cpu].set_index("loop").loc[policies]
            mean = rows[f"{metric}_mean"]
            err = [mean - rows[f"{metric}_ci95_low"], rows[f"{metric}_ci95_high"] - mean]
            ax.bar([x + (i - 1) * width for x in range(2)], mean, width, yerr=err, capsize=3,
                   label=f"perflab, cpu = {cpu}")
        ax.bar([x + width for x in range(2)], ticket.loc[policies, metric], width, label="ticket #1268",
               hatch="//", color="lightgray", edgecolor="gray")
        ax.set_xticks(range(2), ["before (eager)", "after (coalesced)"])
        ax.set_title(title)
        ax.grid(axis="y", alpha=0.3)
        ax.set_ylim(0, ax.get_ylim()[1] * 1.25)
        ax.legend(fontsize=8, loc="upper center", ncol=3)
    fig.suptitle("Tahoe-LAFS #1268: 12 MiB, k = 3, N = 10, 128 KiB segments, LAN")
    return save(fig, summary)


def plot_k_sweep(summary: Path) -> Path:
    frame = pd.read_csv(summary)
    fig, axes = plt.subplots(2, 2, figsize=(12, 8))
    segments = [s for s in [128 << 10, 1 << 20] if s in set(frame["segment_size"])]
    for col, segment in enumerate(segments):
        part = frame[frame["segment_size"] == segment]
        for row, (metric, title) in enumerate([("duration_s", "download time (s)"), ("loop_calls", "loop() calls")]):
            ax = axes[row][col]
            for policy, style in [("eager", {}), ("coalesced", {"linewidth": 4, "alpha": 0.5}),
                                  ("readv", {"linestyle": "--"})]:
                rows = part[part["loop"] == policy].sort_values("k")
                errorbar(ax, rows["k"], rows, metric, policy, **style)
            ax.set_xlabel("k (shares read per segment; linear axis)")
            ax.set_title(f"{title}, segments of {literal(segment)}")
            ax.set_xticks([3, 10, 30, 60])
            ax.set_ylim(bottom=0)
            ax.grid(alpha=0.3)
            ax.legend()
    fig.suptitle(f"{summary.name.split('.')[0]}: 12 MiB, cpu = tahoe-1.9 (span operations, remote calls, bytes)")
    return save(fig, summary)


def plot_1545(summary: Path) -> Path:
    """#1545: 100 MB download time against k, coalesced (trunk) vs readv, beside the published figures."""
    frame = pd.read_csv(summary)
    ticket = reference("share").query("ticket == 1545")
    fig, ax = plt.subplots(figsize=(8, 4.5))
    for policy, style in [("coalesced", {}), ("readv", {"linestyle": "--"})]:
        rows = frame[frame["loop"] == policy].sort_values("k")
        errorbar(ax, rows["k"], rows, "duration_s", f"model, {policy}", **style)
    k54 = ticket[ticket["k"] == 54].iloc[0]
    ax.plot([54], [k54["duration_s"]], "k*", markersize=14, label="#1545: trunk, k = 54 (calibration)")
    ax.plot([54], [k54["duration_s"] * (1 - k54["readv_speedup"])], "kx", markersize=10,
            label="#1545: readv 'about 24%' less time")
    ax.set_xlabel("k")
    ax.set_ylabel("download time (s)")
    ax.set_xticks(sorted(set(frame["k"])))
    ax.set_ylim(bottom=0)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    ax.set_title("Tahoe-LAFS #1545: 100 MB, 128 KiB segments, cpu = tahoe-1.9")
    return save(fig, summary)


def plot_candlesticks(timeline: Path) -> Path:
    """Time in wasted loop() passes per segment (the ticket's picture: max at segment 0, then NUMSEGS/2,
    then NUMSEGS/4 and 3*NUMSEGS/4 ..., zero for odd segments)."""
    events = json.loads(timeline.read_text())["traceEvents"]
    wasted = {}
    for event in events:
        if event.get("ph") == "X" and event.get("name") == "wasted loop":
            segment = int(event["args"]["detail"].split()[-1])
            wasted[segment] = wasted.get(segment, 0.0) + event["dur"] / 1000.0  # us -> ms
    segments = sorted({int(e["name"].split()[-1]) for e in events
                       if e.get("ph") == "X" and e.get("name", "").startswith("segment ")})
    fig, ax = plt.subplots(figsize=(11, 4))
    ax.bar(segments, [wasted.get(s, 0.0) for s in segments], color="goldenrod")
    ax.set_xlabel("segment")
    ax.set_ylabel("CPU in wasted loop() passes (ms)")
    ax.set_title("eager Share.loop(), 12 MiB, k = 3, cpu = tahoe-1.9: waste after segments that need many hash nodes")
    ax.grid(axis="y", alpha=0.3)
    return save(fig, timeline.with_name("share-download-12mib.summary.csv"), "candlesticks")


def plot(results: Path) -> list:
    """Draws the pictures of results/share/; returns the files written."""
    return draw_existing(results, [("share-download-12mib.summary.csv", plot_headline),
                                   ("share-1545.summary.csv", plot_1545),
                                   ("share-k-sweep.summary.csv", plot_k_sweep),
                                   ("share-k-sweep-wan.summary.csv", plot_k_sweep),
                                   ("share-download-12mib-eager.timeline.json", plot_candlesticks)])
