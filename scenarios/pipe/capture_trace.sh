#!/bin/sh
# Captures the same-run traces pipe-linux-sim replays: real `git upload-pack` serving a clone of the
# deterministic repository, a call of `perflab capture pipe` (docs/your-own-workload.md): RUNS spaced runs
# per pipe size through the real epoll pump, each recording its own writes inside the child
# (perflab_write_recorder) and replayed into the model with the same pipe. Prints every run's kernel and
# model reads and the medians, and copies into data/ (or OUT) git-upload-pack.<size>.writes.csv: per size, the trace
# of the run with the median reads, with that run's reads and measured constants.
# Usage: capture_trace.sh [SIZE_MIB=32] [RUNS=7] [GAP_MS=2000] [BUILD=build] [OUT=data]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
size_mib=${1:-32}
runs=${2:-7}
gap_ms=${3:-2000}
build=${4:-$here/../../build}
out=${5:-$here/data}
cmake --build "$build" --target perflab perflab_write_recorder
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
head=$("$here/make_repo.sh" "$work/repo" "$size_mib" | tail -1)
# upload-pack's request on stdin: one want line with side-band-64k and ofs-delta, a flush, done (pkt-lines:
# 4 hex digits of length including themselves).
want="want $head side-band-64k ofs-delta
"
printf '%04x%s00000009done\n' $((${#want} + 4)) "$want" >"$work/request"
"$build/perflab" capture pipe --out "$work/capture" --name git-upload-pack --runs "$runs" --gap "${gap_ms}ms" \
  --stdin "$work/request" --pipe-size 4120 --pipe-size 16KiB --pipe-size 64KiB --pipe-size 1MiB \
  -- git upload-pack --strict "$work/repo/.git"
cp "$work/capture"/git-upload-pack.*.writes.csv "$out/"
