#!/bin/bash
# interleave_binaries.sh OUT ROUNDS CALLS STRATEGY MAX_REQUESTS MAIN_PERFLAB PATCHED_PERFLAB: real runs of
# validate.toml's point at that strategy and maxRequests, seed 1, alternating main's binary and one built
# with allocation-outside-lock.diff, 20 s apart; prints one CSV row per run. Run it with nothing else on the
# machine.
set -u
out=$1; rounds=$2; calls=$3; strategy=$4; max_requests=$5; main=$6; patched=$7
scenario=$(dirname "$0")/../../../scenarios/dispatcher/validate.toml
echo "run,binary,started_utc,throughput_rps,lock_hold_total_s,ops_under_lock,ns_per_element"
for round in $(seq 1 "$rounds"); do
  for binary in main patched; do
    d=$out/$binary-$round; rm -rf "$d"; mkdir -p "$d"
    if [ $binary = main ]; then perflab=$main; else perflab=$patched; fi
    started=$(date -u +%H:%M:%S)
    "$perflab" run "$scenario" --set params.calls="$calls" --set "sweep.max_requests=[$max_requests]" \
      --set "sweep.strategy=[\"$strategy\"]" --out "$d/out" >"$d/log" 2>&1 ||
      { echo "run $binary-$round failed: $d/log" >&2; exit 1; }
    /usr/bin/python3 "$(dirname "$0")/../malloc-arenas/row.py" "$d/out/dispatcher-validate.csv" "$round" "$binary" "$started"
    sleep 20
  done
done
