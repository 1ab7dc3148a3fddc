"""The prefetch study on the results site (analysis/python/perflab_site): its headline line for the index,
which plots its page draws, and how reference.csv (PR #721's table) lines up with our columns."""

# The scenario whose summary headline() reads (the one file `perflab history` follows through git).
HEADLINE = "prefetch-jgit-clone"


def _summary(results):
    import pandas as pd
    return pd.read_csv(results / f"{HEADLINE}.summary.csv").set_index("prefetch_depth")


def headline(results, reference):
    ours = _summary(results)["duration_s_mean"]
    pr = reference.set_index("prefetch_depth")["duration_s"]
    return {"finding": f"Prefetching one level of class dependencies halves the JGit clone's class-loading "
                       f"time: {ours[0]:.0f} s → {ours[1]:.0f} s (PR #721: {pr[0]:.0f} s → {pr[1]:.0f} s).",
            "ratio": "job time, depth 0 / depth 1", "ours": ours[0] / ours[1], "seed": pr[0] / pr[1]}


PLOTS = {
    "prefetch-jgit-clone": [{"x": "prefetch_depth", "metrics": ["duration_s", "rpcs", "classes_prefetched"],
                             "logx": True}],
    "prefetch-traversal": [{"x": "prefetch_depth", "facet": ["traversal"], "metrics": ["duration_s", "rpcs"]}],
}

# our column -> reference column; our metric -> reference column (the report's table shows them side by side)
REFERENCE = {
    "prefetch-jgit-clone": {"match": {"prefetch_depth": "prefetch_depth"}, "table": False,
                            "metrics": {"duration_s": "duration_s", "rpcs": "rpcs",
                                        "classes_prefetched": "classes_prefetched"}},
}
