"""The pipe study on the results site (analysis/python/perflab_site): its headline line for the index,
which plots its page draws, and how reference.csv (NuProcess #117's observations) lines up with our
columns."""

# The scenario whose summary headline() reads (the one file `perflab history` follows through git).
HEADLINE = "pipe-git-clone"


def headline(results, reference):
    import pandas as pd
    frame = pd.read_csv(results / f"{HEADLINE}.summary.csv")
    tick = frame[frame["mechanism"] == "poll-tick"].set_index("case")["throughput_mib_s_mean"]
    seed = reference.set_index("case")["throughput_mib_s"]
    return {"finding": f"Git for Windows' poll sleeping to the next 15.625 ms tick explains NuProcess 2.0.1's "
                       f"slow 64 KiB pipe: {tick['nuprocess-2.0.1']:.2g} MiB/s against the JDK's "
                       f"{tick['jdk']:.3g} (seed: ~2 against 33.96); a completion delay does not.",
            "ratio": "throughput, JDK / NuProcess 2.0.1 (poll-tick)",
            "ours": tick["jdk"] / tick["nuprocess-2.0.1"], "seed": seed["jdk"] / seed["nuprocess-2.0.1"]}


PLOTS = {
    "pipe-git-clone": [{"x": "case", "metrics": ["throughput_mib_s", "duration_s"], "logy": True}],
    "pipe-phase": [{"x": "pipe_buffer", "facet": ["pack_rate"], "metrics": ["throughput_mib_s"],
                    "logx": True, "logy": True}],
    "pipe-linux-real": [{"x": "pipe_buffer", "metrics": ["throughput_mib_s"], "logx": True}],
}

REFERENCE = {
    "pipe-git-clone": {"match": {"case": "case"}, "table": False,
                       "metrics": {"throughput_mib_s": "throughput_mib_s"}},
}
