#!/bin/bash
# steal_runs.sh OUT ROUNDS: real runs of counter at maxRequests 64 (validate.toml, 3,000 calls, seed 1), 15 s
# apart, each with the host's steal time over the run (/proc/stat, all CPUs, USER_HZ ticks of 10 ms).
set -u
out=$1; rounds=$2
perflab=$(dirname "$0")/../../../build/perflab; scenario=$(dirname "$0")/../../../scenarios/dispatcher/validate.toml
steal() { awk '/^cpu /{print $9}' /proc/stat; }
echo "run,started_utc,lock_hold_total_s,throughput_rps,steal_ticks,wall_s"
for round in $(seq 1 "$rounds"); do
  d=$out/$round; rm -rf "$d"; mkdir -p "$d"
  started=$(date -u +%H:%M:%S); s0=$(steal); t0=$(date +%s.%N)
  "$perflab" run "$scenario" --set 'sweep.max_requests=[64]' --set 'sweep.strategy=["counter"]' --out "$d/out" >"$d/log" 2>&1 || { echo "run $round failed" >&2; exit 1; }
  s1=$(steal); t1=$(date +%s.%N)
  /usr/bin/python3 - "$d/out/dispatcher-validate.csv" "$round" "$started" "$((s1 - s0))" "$t0" "$t1" <<'PY'
import csv, sys
path, r, started, steal, t0, t1 = sys.argv[1:7]
row = next(csv.DictReader(open(path)))
print(f"{r},{started},{float(row['lock_hold_total_s']):.5f},{float(row['throughput_rps']):.1f},{steal},{float(t1)-float(t0):.1f}")
PY
  sleep 15
done
