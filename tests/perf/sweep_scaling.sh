#!/usr/bin/env bash
# Scaling of the real CLI: a 1,000-point pingpong sweep (requests = 1 … 1000) run with --jobs 1 and
# --jobs 2, each timed RUNS times, alternating, and summarised by medians. Goal: jobs 1 / jobs 2 >= 1.7.
# Besides wall time it prints the CPU cores the sweep kept busy (user + sys of perflab and its children over
# wall time) and how idle the whole machine was: a speed-up needs a second core nobody else is using.
# Usage: tests/perf/sweep_scaling.sh BUILD_DIR [POINTS=1000] [RUNS=3]
set -euo pipefail

build=${1:?usage: sweep_scaling.sh BUILD_DIR [POINTS] [RUNS]}
points=${2:-1000}
runs=${3:-3}
perflab="$build/perflab"
if [[ ! -x $perflab ]]; then
  echo "sweep_scaling.sh: no perflab binary at $perflab (build the perflab target)" >&2
  exit 2
fi

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
scenario="$dir/sweep.toml"
{
  printf '[scenario]\nname = "sweep-scaling"\nstudy = "pingpong"\nengine = "sim"\nseeds = 1\nseed = 1\n'
  printf '[network]\nlatency = "constant(20ms)"\nbandwidth = "100MBps"\n'
  printf '[sweep]\nrequests = [%s]\n' "$(seq -s ', ' 1 "$points")"
} >"$scenario"

# "idle total" jiffies of the whole machine.
cpu_jiffies() {
  awk '/^cpu / { t = 0; for (i = 2; i <= NF; i++) t += $i; print $5 + $6, t }' /proc/stat
}

# One run: prints "wall_seconds cores_used machine_idle_percent".
time_run() {
  local jobs=$1 idle0 total0 idle1 total1 wall user sys status=0
  read -r idle0 total0 < <(cpu_jiffies)
  TIMEFORMAT='%R %U %S'
  { time "$perflab" run "$scenario" --jobs "$jobs" >"$dir/out-$jobs.md" 2>"$dir/err-$jobs.txt"; } \
    2>"$dir/time.txt" || status=$?
  read -r idle1 total1 < <(cpu_jiffies)
  if ((status != 0)); then
    echo "perflab run --jobs $jobs failed (exit $status):" >&2
    cat "$dir/err-$jobs.txt" >&2
    exit 1
  fi
  read -r wall user sys <"$dir/time.txt"
  awk -v w="$wall" -v u="$user" -v s="$sys" -v i="$((idle1 - idle0))" -v t="$((total1 - total0))" \
    'BEGIN { printf "%.3f %.2f %.0f\n", w, (u + s) / w, (t > 0) ? 100 * i / t : 0 }'
}

median() {
  printf '%s\n' "$@" | sort -g |
    awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

echo "sweep: $points points, $runs runs per setting, $(nproc) cores," \
  "load average $(cut -d' ' -f1-3 /proc/loadavg)"
wall1=() wall2=() cores1=() cores2=()
for ((i = 1; i <= runs; i++)); do
  read -r w1 c1 idle1 < <(time_run 1)
  read -r w2 c2 idle2 < <(time_run 2)
  wall1+=("$w1") cores1+=("$c1") wall2+=("$w2") cores2+=("$c2")
  echo "run $i: jobs 1 $w1 s ($c1 cores busy, machine ${idle1}% idle);" \
    "jobs 2 $w2 s ($c2 cores busy, machine ${idle2}% idle)"
done
cmp -s "$dir/out-1.md" "$dir/out-2.md" || echo "warning: the summaries of --jobs 1 and --jobs 2 differ" >&2

awk -v a="$(median "${wall1[@]}")" -v b="$(median "${wall2[@]}")" -v n="$points" \
  -v c1="$(median "${cores1[@]}")" -v c2="$(median "${cores2[@]}")" 'BEGIN {
  r = a / b
  printf "median jobs 1: %.3f s (%.2f ms/point, %.2f cores busy)\n", a, 1e3 * a / n, c1
  printf "median jobs 2: %.3f s (%.2f ms/point, %.2f cores busy)\n", b, 1e3 * b / n, c2
  printf "speed-up jobs 1 / jobs 2: %.2f (goal >= 1.7): %s\n", r, (r >= 1.7) ? "MET" : "NOT MET"
  if (r < 1.7 && c2 < 1.7) {
    print "note: the jobs 2 runs kept fewer than 1.7 cores busy;"
    print "      if the machine was not idle, others held the second core"
  }
}'
