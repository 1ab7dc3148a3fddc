#!/usr/bin/python3
"""One CSV row of a real run, for interleave.sh and ../allocation-outside-lock/interleave_binaries.sh:
    row.py RUN_CSV ROUND ARM STARTED  ->  round,arm,started,calls/s,lock hold,elements,ns an element"""
import csv
import sys

path, round_, arm, started = sys.argv[1:5]
r = next(csv.DictReader(open(path)))
hold, ops = float(r["lock_hold_total_s"]), int(r["ops_under_lock"])
print(f"{round_},{arm},{started},{float(r['throughput_rps']):.1f},{hold:.5f},{ops},{hold / ops * 1e9:.2f}")
