"""The share study on the results site (analysis/python/perflab_site): its headline line for the index,
which plots its page draws, and how reference.csv (ticket #1268's numbers; #1545's rows belong to the
share-1545 scenario) lines up with our columns (the ticket ran Tahoe 1.9, our cpu = "tahoe-1.9" rows)."""

# The scenario whose summary headline() reads (the one file `perflab history` follows through git).
HEADLINE = "share-download-12mib"


def headline(results, reference):
    import pandas as pd
    frame = pd.read_csv(results / f"{HEADLINE}.summary.csv")
    ours = frame[frame["cpu"] == "tahoe-1.9"].set_index("loop")
    ticket = reference[reference["ticket"] == 1268].set_index("loop")
    calls = ours["loop_calls_mean"]
    return {"finding": f"Coalescing Share.loop() wake-ups cuts a 12 MiB download's loop() calls "
                       f"{calls['eager']:.0f} → {calls['coalesced']:.0f} and its time "
                       f"{ours['duration_s_mean']['eager']:.2f} s → {ours['duration_s_mean']['coalesced']:.2f} s "
                       f"(ticket #1268: ~1200 → ~580, 4.2 s → 4.0 s).",
            "ratio": "loop() calls, eager / coalesced", "ours": calls["eager"] / calls["coalesced"],
            "seed": ticket["loop_calls"]["eager"] / ticket["loop_calls"]["coalesced"]}


PLOTS = {
    "share-download-12mib": [{"x": "loop", "metrics": ["loop_calls", "duration_s", "cpu_s"]}],
    "share-k-sweep": [{"x": "k", "facet": ["segment_size"], "metrics": ["duration_s", "loop_calls"]}],
    "share-k-sweep-wan": [{"x": "k", "facet": ["segment_size"], "metrics": ["duration_s", "loop_calls"]}],
}

REFERENCE = {
    "share-download-12mib": {"match": {"loop": "loop"}, "rows": {"ticket": 1268}, "table": False,
                             "metrics": {"loop_calls": [("loop_calls", {"cpu": "tahoe-1.9"})],
                                         "duration_s": [("duration_s", {"cpu": "tahoe-1.9"})]}},
}
