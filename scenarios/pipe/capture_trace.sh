#!/bin/sh
# Captures the same-run traces pipe-linux-sim replays: real `git upload-pack` serving a clone of the
# deterministic repository through the real epoll pump, RUNS spaced runs per pipe size, each recording its
# own writes inside the child (perflab_write_recorder) and replayed into the model with the same pipe. Prints
# every run's kernel and model reads and the medians, and writes data/git-upload-pack.<size>.writes.csv: per
# size, the trace of the run with the median reads, with that run's reads and measured constants.
# Usage: capture_trace.sh [SIZE_MIB=32] [RUNS=7] [GAP_MS=2000] [BUILD=build]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
size_mib=${1:-32}
runs=${2:-7}
gap_ms=${3:-2000}
build=${4:-$here/../../build}
tool=$build/scenarios/pipe/capture/pipe_capture_same_run
[ -x "$tool" ] || cmake --build "$build" --target pipe_capture_same_run perflab_write_recorder
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
head=$("$here/make_repo.sh" "$work/repo" "$size_mib" | tail -1)
"$tool" "$work/repo" "$head" "$here/data" "$runs" "$gap_ms" 4120 16384 65536 1048576
