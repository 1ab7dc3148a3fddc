"""Plots of the pipe study: the headline clone (throughput per pump under each explanation, beside the seed's
numbers), the phase heatmaps (NuProcess throughput over pack_rate x pipe_buffer, per mechanism), the seed-rate
lines (throughput over relay_cost per timer resolution, beside the seed's ~2 MB/s), and the real Linux pump
on real git beside the simulated Linux pump on the real write trace (reads, bytes per read, throughput)."""
from pathlib import Path

import numpy as np
from matplotlib.colors import LogNorm

from perflab_plots import draw_existing, errorbar, literal, plt, pd, reference, save

CASES = ["jdk", "nuprocess-2.0.1", "nuprocess-2.0.2", "linux", "jdk-64k"]


def plot_clone(summary: Path) -> Path:
    frame = pd.read_csv(summary)
    seed = reference("pipe").set_index("case")
    mechanisms = list(dict.fromkeys(frame["mechanism"]))
    x = np.arange(len(CASES))
    width = 0.8 / (len(mechanisms) + 1)
    fig, ax = plt.subplots(figsize=(11, 4.8))
    for i, mechanism in enumerate(mechanisms):
        rows = frame[frame["mechanism"] == mechanism].set_index("case").reindex(CASES)
        mean = rows["throughput_mib_s_mean"]
        err = [mean - rows["throughput_mib_s_ci95_low"], rows["throughput_mib_s_ci95_high"] - mean]
        ax.bar(x + i * width, mean, width, yerr=err, capsize=2, label=f"perflab, {mechanism}")
    published = seed.reindex(CASES)["throughput_mib_s"]
    ax.bar(x + len(mechanisms) * width, published, width, color="black", label="seed (NuProcess #117)")
    said = seed.reindex(CASES)["whole_operation"]
    for j, case in enumerate(CASES):
        if np.isnan(published.iloc[j]):
            label = "seed: same as JDK" if "same" in str(said.iloc[j]) else "seed: not measured"
            ax.text(x[j] + len(mechanisms) * width, 0.6, label, ha="center", va="bottom", fontsize=7,
                    rotation=90)
    ax.set_yscale("log")
    ax.set_ylim(0.5, 100)
    ax.set_xticks(x + 0.4 - width / 2)
    ax.set_xticklabels(["JDK\n4,120 B", "NuProcess 2.0.1\n64 KiB", "NuProcess 2.0.2\n4,120 B",
                        "Linux epoll\n64 KiB", "JDK 64 KiB\n(discriminating)"])
    ax.set_ylabel("throughput (MiB/s, log)")
    ax.grid(axis="y", alpha=0.3)
    ax.legend(fontsize=8, loc="upper center", ncol=len(mechanisms) + 1, bbox_to_anchor=(0.5, -0.16))
    ax.set_title("git clone through the pump: 48 MiB/s pack-objects, Windows unless noted")
    return save(fig, summary)


def plot_phase(summary: Path) -> Path:
    frame = pd.read_csv(summary)
    cases = list(dict.fromkeys(frame["case"]))
    rates = list(dict.fromkeys(frame["pack_rate"]))
    sizes = list(dict.fromkeys(frame["pipe_buffer"]))
    fig, axes = plt.subplots(1, len(cases), figsize=(3.8 * len(cases), 4.4), squeeze=False, sharey=True)
    norm = LogNorm(vmin=0.5, vmax=200)
    for ax, case in zip(axes[0], cases):
        rows = frame[frame["case"] == case]
        grid = rows.pivot(index="pack_rate", columns="pipe_buffer", values="throughput_mib_s_mean")
        grid = grid.reindex(index=rates, columns=sizes)
        image = ax.imshow(grid.values, origin="lower", cmap="viridis", norm=norm, aspect="auto")
        for r in range(len(rates)):
            for c in range(len(sizes)):
                value = grid.values[r, c]
                ax.text(c, r, f"{value:.0f}" if value >= 10 else f"{value:.1f}", ha="center", va="center",
                        fontsize=7, color="white" if value < 20 else "black")
        ax.set_xticks(range(len(sizes)))
        ax.set_xticklabels([literal(s) for s in sizes], rotation=45, fontsize=8)
        ax.set_yticks(range(len(rates)))
        ax.set_xlabel("pipe_buffer")
        ax.set_title(case, fontsize=10)
    axes[0][0].set_yticklabels([literal(r, "bytes/s") for r in rates], fontsize=8)
    axes[0][0].set_ylabel("pack_rate")
    fig.colorbar(image, ax=axes[0].tolist(), label="NuProcess IOCP throughput (MiB/s, log)", shrink=0.85)
    fig.suptitle("Where each pathology lives: NuProcess on Windows, pack_rate x pipe_buffer")
    return save(fig, summary, dpi=100, layout=False, bbox_inches="tight")


def plot_seed_rate(summary: Path) -> Path:
    frame = pd.read_csv(summary)
    seed = reference("pipe").set_index("case").loc["nuprocess-2.0.1", "throughput_mib_s"]
    rates = list(dict.fromkeys(frame["pack_rate"]))
    fig, axes = plt.subplots(1, len(rates), figsize=(5.2 * len(rates), 4.2), squeeze=False, sharey=True)
    for ax, rate in zip(axes[0], rates):
        for tick in dict.fromkeys(frame["timer_resolution"]):
            rows = frame[(frame["pack_rate"] == rate) & (frame["timer_resolution"] == tick)]
            rows = rows.sort_values("relay_cost")
            errorbar(ax, rows["relay_cost"] * 1e6, rows, "throughput_mib_s", f"tick {tick * 1e3:g} ms")
        ax.axhspan(1.5, 2.5, color="black", alpha=0.12, label=f"seed: ~{seed:g} MB/s (1.5-2.5)")
        ax.axvline(32, color="grey", linestyle=":", label="derived relay_cost (32 us)")
        ax.axvspan(16, 80, color="grey", alpha=0.08, label="plausible range (16-80 us)")
        ax.set_yscale("log")
        ax.set_xlabel("relay_cost: upload-pack CPU per packet (us)")
        ax.set_title(f"pack-objects at {literal(rate, 'bytes/s')} (t_c = {8192 / rate * 1e6:.0f} us / 8 KiB)", fontsize=10)
        ax.grid(alpha=0.3)
    axes[0][0].set_ylabel("NuProcess 2.0.1 (64 KiB) throughput (MiB/s, log)")
    axes[0][0].legend(fontsize=7, loc="upper left")
    fig.suptitle("Which relay cost and timer tick give the seed's ~2 MB/s (poll-tick)")
    return save(fig, summary)


def plot_linux(summary: Path) -> Path:
    """The real pump on real git (pipe-linux-real) beside the model on the same runs' own writes (pipe-linux-real's
    replays) and on the committed same-run traces (pipe-linux-sim)."""
    real = pd.read_csv(summary)
    real = real[real["real_child"] == "upload-pack"]
    sizes = list(dict.fromkeys(real["pipe_buffer"]))
    x = np.arange(len(sizes))
    fig, axes = plt.subplots(1, 3, figsize=(14, 4.2))
    metrics = [("reads", "reads per clone (median)"), ("bytes_per_read", "bytes per read"),
               ("throughput_mib_s", "MiB/s (real runs only)")]
    rows = real.set_index("pipe_buffer").reindex(sizes).copy()
    if "same_run_reads_mean" in rows:  # the kernel's reads over the same runs the model replays
        rows["reads_mean"] = rows["same_run_reads_mean"]
        rows["bytes_per_read_mean"] = rows["bytes_mean"] / rows["same_run_reads_mean"]
    series = [("real epoll pump, real upload-pack", rows)]
    if "same_run_sim_reads_mean" in rows:
        same = pd.DataFrame(index=rows.index)
        same["reads_mean"] = rows["same_run_sim_reads_mean"]
        same["bytes_per_read_mean"] = rows["bytes_mean"] / rows["same_run_sim_reads_mean"]
        same["throughput_mib_s_mean"] = np.nan
        series.append(("model on each run's own writes", same))
    sim_file = summary.with_name("pipe-linux-sim.summary.csv")
    if sim_file.exists():
        sim = pd.read_csv(sim_file).set_index("pipe_buffer").reindex(sizes).copy()
        bytes_moved = sim["throughput_mib_s_mean"] * sim["duration_s_mean"] * 1024 * 1024
        sim["bytes_per_read_mean"] = bytes_moved / sim["reads_mean"]
        sim["throughput_mib_s_mean"] = np.nan  # timed from the first write, not from the spawn: not comparable
        series.append(("model on the committed same-run traces", sim))
    width = 0.8 / len(series)
    for ax, (metric, label) in zip(axes, metrics):
        for i, (name, data) in enumerate(series):
            ax.bar(x + i * width, data[f"{metric}_mean"], width, label=name)
        ax.set_xticks(x + 0.4 - width / 2)
        ax.set_xticklabels([literal(s) for s in sizes])
        ax.set_xlabel("pipe size asked")
        ax.set_ylabel(label)
        ax.grid(axis="y", alpha=0.3)
    axes[0].legend(fontsize=7)
    fig.suptitle("Linux: the real kernel pipe (real git) against the model's Linux pipe on the same runs' writes")
    return save(fig, summary)


def plot(results: Path) -> list:
    """Draws the pictures of results/pipe/; returns the files written."""
    return draw_existing(results, [("pipe-git-clone.summary.csv", plot_clone), ("pipe-phase.summary.csv", plot_phase),
                                   ("pipe-seed-rate.summary.csv", plot_seed_rate),
                                   ("pipe-linux-real.summary.csv", plot_linux)])
