"""The dispatcher study on the results site (analysis/python/perflab_site): its headline line for the
index, which plots its page draws, and how reference.csv (PR #4581's table) lines up with our columns:
the PR's "before" is our scan strategy (OkHttp 3.12), its "after" our counter (the PR)."""

# The scenario whose summary headline() reads (the one file `perflab history` follows through git).
HEADLINE = "dispatcher-enqueue-burst"


def headline(results, reference):
    import pandas as pd
    frame = pd.read_csv(results / f"{HEADLINE}.summary.csv")
    at = frame[frame["n"] == 64000].set_index("strategy")["seconds_mean"]
    pr = reference.set_index("n").loc[64000]
    return {"finding": f"PR #4581's enqueue benchmark at n = 64,000: scan {at['scan']:.3g} s, counter "
                       f"{at['counter'] * 1e3:.3g} ms, indexed {at['indexed'] * 1e3:.3g} ms on the real CPU; "
                       "scan is quadratic in the backlog, counter and indexed are not.",
            "ratio": "scan / counter at n = 64,000", "ours": at["scan"] / at["counter"],
            "seed": pr["before_s"] / pr["after_s"]}


PLOTS = {
    "dispatcher-enqueue-burst": [{"x": "n", "metrics": ["seconds", "ns_per_call"]}],
    "dispatcher-adversarial": [{"x": "n", "facet": ["workload"], "metrics": ["seconds"], "logx": True}],
    "dispatcher-adversarial-full": [{"x": "n", "facet": ["workload"], "metrics": ["seconds"], "logx": True}],
    "dispatcher-okhttp-growth": [{"x": "n", "facet": ["workload"], "metrics": ["seconds"], "logx": True}],
    "dispatcher-incident": [{"x": "max_requests",
                             "metrics": ["throughput_rps", "lock_hold_max_s", "blocked_threads_max"]}],
}

REFERENCE = {
    "dispatcher-enqueue-burst": {"match": {"n": "n"}, "table": False,
                                 "metrics": {"seconds": [("before_s", {"strategy": "scan"}),
                                                         ("after_s", {"strategy": "counter"})]}},
}
