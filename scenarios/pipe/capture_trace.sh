#!/bin/sh
# Captures the writes a real `git upload-pack` makes on its stdout while serving a clone (sizes and times,
# with Debian's strace) into a trace the `trace` writer replays: data/git-upload-pack.writes.csv.
# The request on stdin is what a v0 client sends: one want with side-band-64k, a flush, "done".
# Usage: capture_trace.sh [SIZE_MIB=32] [OUT=data/git-upload-pack.writes.csv]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
size_mib=${1:-32}
out=${2:-$here/data/git-upload-pack.writes.csv}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
head=$("$here/make_repo.sh" "$work/repo" "$size_mib" | tail -1)
want="want $head side-band-64k ofs-delta"
printf '%04x%s\n00000009done\n' $((${#want} + 5)) "$want" >"$work/request"
strace -ttt -e trace=write -e signal=none -s 0 -o "$work/strace.txt" \
  git upload-pack --strict "$work/repo/.git" <"$work/request" >"$work/stdout"
version=$(git --version)
/usr/bin/python3 - "$work/strace.txt" "$out" "$version" "$size_mib" <<'PY'
import re, sys
strace, out, version, size_mib = sys.argv[1:]
writes = []
for line in open(strace):
    m = re.match(r"(\d+\.\d+) write\(1, .*\)\s+=\s+(\d+)$", line.strip())
    if m:
        writes.append((float(m.group(1)), int(m.group(2))))
t0 = writes[0][0]
with open(out, "w") as f:
    f.write(f"# Writes of `git upload-pack` on its stdout serving a clone of a {size_mib} MiB deterministic repository\n")
    f.write(f"# ({version}, strace -ttt -e trace=write), captured by scenarios/pipe/capture_trace.sh: seconds since the\n")
    f.write("# first write, bytes. Includes the ref advertisement and the final flush packet.\n")
    f.write("time_s,bytes\n")
    for t, n in writes:
        f.write(f"{t - t0:.6f},{n}\n")
print(f"{len(writes)} writes, {sum(n for _, n in writes)} bytes -> {out}")
PY
