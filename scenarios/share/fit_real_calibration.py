"""Fits the share study's sim-against-real calibration (NOTES.md, "Sim against real"): the two CPU costs
the sim charges with cpu = "measured" that the real engine spends differently, on the points of
scenarios/share/calibrate-real.toml (outside validate.toml's grid).

  decode_ns_per_byte: decoding plus the segment hash per byte. The micro calibration (7 ns, measured under
      load, an upper bound) decodes from parity shares; the real engine picks shares by DYHB round-trip
      time, a mix of primary shares (no decoding) and parity shares.
  call_cost: CPU per plain read() call on each side (us): the C++ transport's framing, syscalls and wake-ups
      where the sim would charge the real Foolscap's 1270 us.

Reads the real runs (perflab run scenarios/share/calibrate-real.toml --out DIR), runs the sim of the same
points over a grid of both costs, and prints the pair with the smallest mean |ln(real median / sim)|.

    build/perflab run scenarios/share/calibrate-real.toml --out out/calibrate-real
    /usr/bin/python3 scenarios/share/fit_real_calibration.py out/calibrate-real/share-calibrate-real.csv
"""
import argparse
import subprocess
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[2]
SCENARIO = ROOT / "scenarios/share/calibrate-real.toml"
POINT = ["case", "loop"]


def sim_durations(decode_ns: float, call_us: float) -> pd.Series:
    with tempfile.TemporaryDirectory() as out:
        subprocess.run([str(ROOT / "build/perflab"), "run", str(SCENARIO), "--seeds", "1", "--out", out,
                        "--set", 'scenario.engine="sim"', "--set", f"params.hash_ns_per_byte={decode_ns}",
                        "--set", f"params.call_cost={call_us}"], check=True, capture_output=True)
        return pd.read_csv(Path(out) / "share-calibrate-real.csv").groupby(POINT).duration_s.mean()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("real_csv")
    args = parser.parse_args()
    real = pd.read_csv(args.real_csv)
    if real["error"].notna().any():
        raise SystemExit(f"{args.real_csv}: failed real runs, expected every run to succeed")
    real = real.groupby(POINT).duration_s.median()
    fits = []
    for decode_ns in np.arange(2.0, 7.01, 0.5):
        for call_us in np.arange(0.0, 8.01, 1.0):
            error = np.log(real / sim_durations(decode_ns, call_us))
            fits.append((float(np.abs(error).mean()), decode_ns, call_us, error.round(4).tolist()))
    fits.sort()
    for mean_abs, decode_ns, call_us, errors in fits[:5]:
        print(f"decode_ns_per_byte = {decode_ns:g}, call_cost = {call_us:g}: mean |ln| {mean_abs:.4f}, "
              f"per point {errors}")


if __name__ == "__main__":
    main()
