"""Fits the three tahoe-1.9 CPU costs of the share study to the three published figures (NOTES.md):

  #1268: eager - coalesced = 0.2 s and coalesced = 4.0 s (12 MiB, k = 3, the headline download);
  #1545: coalesced ("trunk", September 2011) = 414 s (100 MB, k = 54, scenarios/share/calibrate-1545.toml).

Unknowns: seconds per span operation (ns_per_op), per plain read() call on each side (call_cost) and per
byte of each segment (hash_ns_per_byte). Hashing and decoding run on the reactor while nothing is in flight, so it adds
exactly bytes x cost: for given op and call costs the per-byte cost follows from the 4.0 s. The other two
are found by secant steps on simulated runs (seed 1).

    /usr/bin/python3 scenarios/share/fit_tahoe_costs.py [--op-ns 14000 --call-us 2500]
"""
import argparse
import subprocess
import tempfile
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parents[2]
HEADLINE_BYTES = 12 << 20
BYTES_1545 = 100e6


def run(scenario: str, op_ns: float, call_us: float, loops: list, extra: list = ()) -> pd.DataFrame:
    with tempfile.TemporaryDirectory() as out:
        sets = ["--set", f"params.ns_per_op={op_ns}", "--set", f"params.call_cost={call_us}",
                "--set", "params.hash_ns_per_byte=0", "--set", "sweep.loop=" + str(loops).replace("'", '"')]
        subprocess.run([str(ROOT / "build/perflab"), "run", str(ROOT / "scenarios/share" / scenario), "--seeds", "1",
                        "--out", out, *sets, *extra], check=True, capture_output=True)
        return pd.read_csv(next(Path(out).glob("*.csv")))


def headline(op_ns: float, call_us: float) -> tuple:
    frame = run("download-12mib.toml", op_ns, call_us, ["eager", "coalesced"], ["--set", 'sweep.cpu=["tahoe-1.9"]'])
    d = frame.set_index("loop")["duration_s"]
    return d["eager"] - d["coalesced"], d["coalesced"]


def per_byte(coalesced_without_decode: float) -> float:
    return (4.0 - coalesced_without_decode) / HEADLINE_BYTES


def k54(op_ns: float, call_us: float) -> float:
    frame = run("download-12mib.toml", op_ns, call_us, ["coalesced"],
                ["--set", 'sweep.cpu=["tahoe-1.9"]', "--set", 'params.file_size="100MB"', "--set", "params.k=54",
                 "--set", "params.n=61"])
    return float(frame["duration_s"].iloc[0])


def secant(f, x0: float, x1: float, tol: float, steps: int = 6) -> float:
    f0, f1 = f(x0), f(x1)
    for _ in range(steps):
        if abs(f1) < tol or f1 == f0:
            break
        x0, x1, f0 = x1, x1 - f1 * (x1 - x0) / (f1 - f0), f1
        f1 = f(x1)
    return x1


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--op-ns", type=float, default=14000)
    parser.add_argument("--call-us", type=float, default=2500)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    op, call = args.op_ns, args.call_us
    for _ in range(args.rounds):
        op = secant(lambda x: headline(x, call)[0] - 0.2, op, op * 1.1, 0.002)

        def miss_414(c):
            saved, coalesced = headline(op, c)
            t = k54(op, c) + BYTES_1545 * per_byte(coalesced)
            print(f"  op {op:.0f} ns, call {c:.0f} us: k=54 {t:.1f} s", flush=True)
            return t - 414

        call = secant(miss_414, call, call * 1.05, 1.0)
    saved, coalesced = headline(op, call)
    print(f"ns_per_op = {op:.0f}, call_cost = {call:.0f} us, hash_ns_per_byte = {per_byte(coalesced) * 1e9:.1f} "
          f"(eager - coalesced {saved:.3f} s)")


if __name__ == "__main__":
    main()
