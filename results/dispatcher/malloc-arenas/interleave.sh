#!/bin/bash
# interleave.sh OUT ROUNDS [CALLS [STRATEGY MAX_REQUESTS]]: real runs of validate.toml's point (scan at
# maxRequests 640 unless given), seed 1, alternating
# glibc's default malloc arenas (8 per core) and one arena (MALLOC_ARENA_MAX=1), 20 s apart, each with its
# section trace; prints one CSV row per run. Run it with nothing else on the machine.
set -u
out=$1; rounds=$2; calls=${3:-1500}; strategy=${4:-scan}; max_requests=${5:-640}
perflab=$(dirname "$0")/../../../build/perflab
scenario=$(dirname "$0")/../../../scenarios/dispatcher/validate.toml
echo "run,arenas,started_utc,throughput_rps,lock_hold_total_s,ops_under_lock,ns_per_element"
for round in $(seq 1 "$rounds"); do
  for arenas in default 1; do
    d=$out/$arenas-$round; rm -rf "$d"; mkdir -p "$d/trace"
    started=$(date -u +%H:%M:%S)
    if [ $arenas = default ]; then env=(env -u MALLOC_ARENA_MAX); else env=(env MALLOC_ARENA_MAX=1); fi
    "${env[@]}" PERFLAB_DISPATCHER_SECTION_TRACE="$d/trace" "$perflab" run "$scenario" --set params.calls="$calls" \
      --set "sweep.max_requests=[$max_requests]" --set "sweep.strategy=[\"$strategy\"]" --out "$d/out" >"$d/log" 2>&1 ||
      { echo "run $arenas-$round failed: $d/log" >&2; exit 1; }
    /usr/bin/python3 "$(dirname "$0")/row.py" "$d/out/dispatcher-validate.csv" "$round" "$arenas" "$started"
    sleep 20
  done
done
