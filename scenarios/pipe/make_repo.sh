#!/bin/sh
# Generates a local git repository of about SIZE_MIB MiB of incompressible, deterministic content (same
# bytes and commit ids on every machine): the input of the real Linux pump and of capture_trace.sh.
# Usage: make_repo.sh DIR [SIZE_MIB=32] [FILES=64]
set -eu
dir=$1
size_mib=${2:-32}
files=${3:-64}
rm -rf "$dir"
git init -q "$dir"
export GIT_AUTHOR_NAME=perflab GIT_AUTHOR_EMAIL=perflab@example.invalid GIT_COMMITTER_NAME=perflab \
  GIT_COMMITTER_EMAIL=perflab@example.invalid GIT_AUTHOR_DATE="2021-01-01T00:00:00Z" \
  GIT_COMMITTER_DATE="2021-01-01T00:00:00Z"
/usr/bin/python3 - "$dir" "$size_mib" "$files" <<'PY'
import random, sys
from pathlib import Path
root, size_mib, files = Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
per_file = size_mib * 1024 * 1024 // files
rng = random.Random(20210101)
for i in range(files):
    (root / f"blob{i:04d}.bin").write_bytes(rng.getrandbits(8 * per_file).to_bytes(per_file, "little"))
PY
git -C "$dir" add -A
git -C "$dir" -c commit.gpgsign=false commit -q -m "perflab pipe study: deterministic content"
# One pack, as a served repository has: pack-objects then streams reused objects instead of recompressing.
git -C "$dir" repack -a -d -q
git -C "$dir" rev-parse HEAD
