"""The dispatcher study's presentation (analysis/python/perflab_site): its headline line for the index, its
reports (the PR's benchmark beside the PR's numbers; per workload the fitted complexity exponent of each
strategy and the median times), which plots its page draws, and how reference.csv (PR #4581's table) lines
up with our columns: the PR's "before" is our scan strategy (OkHttp 3.12), its "after" our counter (the PR)."""
import statistics

from perflab_site.text import Table

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


# The strategies in the order the study names them (implementation_names, dispatcher_study.h).
STRATEGIES = ["scan", "counter", "indexed", "okhttp-jvm"]

# Calibrated on this project's 2-core VM: below about 1,000 calls the real OkHttp's own cost per call on
# the JVM (~10 µs) hides its quadratic one-host backlog: n = 1,000 to 16,000 fits b = 1.98, the fast
# headline's 100 to 3,200 only 1.47.
JVM_COST_HIDES_GROWTH_BELOW = 1000


def report(s, reference) -> str:
    """A micro-engine scenario (real CPU) gets the PR's benchmark table, when it ran the burst, and the
    exponents; the lock model's sim scenarios show their summary."""
    engine = s.meta.get("engine") or ("micro" if not s.repetitions.empty else "sim")
    if engine != "micro" or "strategy" not in s.summary:
        return ""
    seconds, failed = _medians(s)
    return burst_report(seconds, reference) + exponent_report(seconds, failed)


def _medians(s):
    """seconds[workload][strategy][n]: the median over the point's runs; failed[...][n]: why n did not
    finish ("timed out" when a run hit the point timeout, "failed" otherwise)."""
    seconds, failed = {}, {}
    for point in s.points():
        key = (str(point["workload"]), str(point["strategy"]), int(point["n"]))
        values = s.values(point, "seconds")
        if values:
            seconds.setdefault(key[0], {}).setdefault(key[1], {})[key[2]] = statistics.median(values)
        else:
            errors = s.rows(point)["error"].astype(str) if "error" in s.seeds else []
            why = "timed out" if any(e.startswith("timed out") for e in errors) else "failed"
            failed.setdefault(key[0], {}).setdefault(key[1], {})[key[2]] = why
    return seconds, failed


def _time(seconds) -> str:
    if not seconds > 0:
        return "—"
    if seconds >= 1:
        return f"{seconds:.2f} s"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.3g} ms"
    return f"{seconds * 1e6:.3g} µs"


def _ratio(a, b) -> str:
    return f"{a / b:.3g}×" if a > 0 and b > 0 else "—"


def burst_report(seconds, reference) -> str:
    """The PR's benchmark (enqueue n calls to one host with both limits = n) with our C++ timings per
    strategy and the real OkHttp 3.13.1's on this machine's JVM beside the PR's Java numbers and the
    speed-ups."""
    burst_of = seconds.get("enqueue_burst")
    if burst_of is None:
        return ""
    get = lambda strategy, n: burst_of.get(strategy, {}).get(n, 0.0)  # noqa: E731
    table = Table(["n", "scan (3.12)", "counter (PR)", "indexed", "PR before", "PR after", "OkHttp 3.13.1 (JVM)",
                   "scan / counter", "PR before / after", "counter / indexed"], "r" * 10)
    rows = [(int(r["n"]), float(r["before_s"]), float(r["after_s"])) for _, r in reference.iterrows()]
    for n, before_s, after_s in rows:
        table.add([str(n), _time(get("scan", n)), _time(get("counter", n)), _time(get("indexed", n)), _time(before_s),
                   _time(after_s), _time(get("okhttp-jvm", n)), _ratio(get("scan", n), get("counter", n)),
                   _ratio(before_s, after_s), _ratio(get("counter", n), get("indexed", n))])
    out = ("### dispatcher: the PR's benchmark beside the PR's numbers\n\n"
           "Enqueue n calls to one host with maxRequests = maxRequestsPerHost = n, never finish (real CPU, "
           "median). As in the PR, only the loop that creates and enqueues the calls is timed.\n"
           "PR: Java 8 on a laptop, \"very unscientific\"; ours: the C++ ports and the real OkHttp 3.13.1 (the "
           f"PR's fix, Debian's jar) on this machine's JVM, warmed up.\n\n{table}")
    # What matches and what does not, at the largest n both tables have.
    for n, pr_before, pr_after in reversed(rows):
        scan, counter = burst_of.get("scan", {}).get(n), burst_of.get("counter", {}).get(n)
        if scan is None or counter is None:
            continue
        ours, per_call_ns = scan / counter, 1e9 / n
        jvm = burst_of.get("okhttp-jvm", {}).get(n)
        jvm_cost = ("" if jvm is None else f"{jvm * per_call_ns:.0f} ns in the real OkHttp 3.13.1 on this machine's "
                    f"JVM ({_ratio(jvm, counter)} the port) and ")
        out += (f"\nAt n = {n} the fix speeds the benchmark up {_ratio(ours, 1)} here and {_ratio(pr_before, pr_after)} "
                "in the PR: the direction and the quadratic growth of scan match. The size does "
                f"{'not: ' if ours > pr_before / pr_after else 'not exactly: '}an enqueue with the fix costs "
                f"{counter * per_call_ns:.0f} ns in the C++ port, {jvm_cost}{pr_after * per_call_ns:.0f} ns in the PR's "
                "Java timing, so there the per-call costs other than the scan were a far larger part of the total.\n")
        break
    return out


def _jvm_fit_note(seconds) -> str:
    """What the okhttp-jvm column's exponents on the adversarial workloads mean, from the sizes it ran;
    the burst's is left unclaimed (dispatcher_claims.cpp)."""
    sizes = [min(by["okhttp-jvm"]) for w, by in seconds.items()
             if w != "enqueue_burst" and by.get("okhttp-jvm")]
    if not sizes:
        return ""
    if min(sizes) >= JVM_COST_HIDES_GROWTH_BELOW:
        return (f"\nokhttp-jvm is fitted from n = {min(sizes)}, where the JVM's own cost per call no longer hides "
                "the growth.\n")
    return (f"\nokhttp-jvm's exponents here are flattened: below about {JVM_COST_HIDES_GROWTH_BELOW} calls the JVM's "
            "own cost per call (~10 µs) hides the growth, so they understate it, and its claims are the end slope "
            "between the two largest n. Its line where the growth shows, n = 1,000 to 16,000, is "
            "dispatcher-okhttp-growth (`perflab reproduce --full`).\n")


def exponent_report(seconds, failed) -> str:
    """For every workload the fitted complexity exponent b of each strategy (time ∝ n^b) with the points
    that did not finish within the point timeout, then the median times."""
    import _perflab

    workloads = sorted(set(seconds) | set(failed))
    ran = {st for by in (seconds, failed) for w in by.values() for st in w}
    strategies = [st for st in STRATEGIES if st in ran]
    at = lambda by, w, st: by.get(w, {}).get(st, {})  # noqa: E731
    exponents = Table(["workload"] + strategies, "l" + "r" * len(strategies))
    for w in workloads:
        cells = [w]
        for st in strategies:
            ns = sorted(at(seconds, w, st))
            cell = "—"
            if len(ns) >= 2:
                try:
                    cell = f"b = {_perflab.fit_power([float(n) for n in ns], [at(seconds, w, st)[n] for n in ns])['b']:.2f}"
                except (ValueError, RuntimeError):
                    pass
            for n, why in sorted(at(failed, w, st).items()):
                cell += f" (n={n} {why})"
            cells.append(cell)
        exponents.add(cells)
    medians = Table(["workload", "n"] + strategies, "lr" + "r" * len(strategies))
    for w in workloads:
        ns = sorted({n for st in strategies for n in list(at(seconds, w, st)) + list(at(failed, w, st))})
        for n in ns:
            medians.add([w, str(n)] + [_time(at(seconds, w, st)[n]) if n in at(seconds, w, st)
                                       else at(failed, w, st).get(n, "—") for st in strategies])
    return ("\nFitted complexity, time ∝ n^b (least squares in log-log over the n that finished):\n\n"
            f"{exponents}{_jvm_fit_note(seconds)}\nMedian seconds per workload (rows n):\n\n{medians}")
