"""The share study's measurement of real Foolscap calls (scenarios/share/foolscap_calls.py): it runs a
server and a client process over TLS on loopback and reports CPU per call on both sides for every shape."""
import csv
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "scenarios/share/foolscap_calls.py"


def test_measures_every_shape_on_both_sides(tmp_path):
    out = tmp_path / "calls"
    subprocess.run([sys.executable, str(SCRIPT), "--calls", "32", "--out", str(out)], check=True, timeout=600,
                   capture_output=True)
    rows = list(csv.DictReader(open(out.with_suffix(".csv"))))
    assert [r["shape"] for r in rows][0] == "read 32 B, 1 per turn"
    assert len(rows) == 6
    for row in rows:
        assert float(row["client_us_per_call"]) > 0, row
        assert float(row["server_us_per_call"]) > 0, row
    assert {"readv 1 x 32 B", "readv 16 x 32 B"} <= {r["shape"] for r in rows}
    # How much more a vector of 16 spans costs than one is the measurement itself (CPU time on a shared
    # machine), read from its table, never asserted here.
    assert "foolscap" in out.with_suffix(".md").read_text()
