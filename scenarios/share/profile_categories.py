#!/usr/bin/python3
# Splits a `perf script` dump (perf record --call-graph dwarf of a `perflab run` of the share study) into
# the categories of NOTES.md "At scale": each sample goes to the first frame from the leaf up that names a
# category (so malloc is charged to its caller). Usage: profile_categories.py perf-script.txt
import re, sys, collections
RULES = [
    ("hashing (SHA-256)", re.compile(r"libcrypto|sha256|Sha256|compress_(one|two)_sha_ni|compress_portable|TaggedHasher|tagged_hash|block_hash|merkle_pair_hash|crypttext_segment_hash")),
    ("parity (RS encode/decode)", re.compile(r"mul_add|ErasureCode|\(anonymous namespace\)::field|invert")),
    ("content generation", re.compile(r"SeededContent|FileContent")),
    ("SimGrid events", re.compile(r"simgrid|libsimgrid|SimGridWorld|smx_|raw_swapcontext|boost::context")),
    ("share reads (server side)", re.compile(r"EncodedFile::read|EncodedFile::block|share_study::.*serve")),
    ("span operations (Share model)", re.compile(r"perflab::share::(Share|Spans|DataSpans|IncompleteHashTree|CommonShare|DownloadNode|needed_for|SegmentFetcher|Download|EventualQueue)")),
    ("harness / driver", re.compile(r"perflab::|run_download|Reactor|SimBucket")),
]
counts = collections.Counter()
pids = collections.Counter()
stack = []
header = None
def flush():
    if header is None: return
    cat = "other (libc/kernel, no category)"
    for frame in stack:
        hit = None
        for name, rx in RULES:
            if rx.search(frame): hit = name; break
        if hit: cat = hit; break
    counts[(header, cat)] += 1
for line in open(sys.argv[1], errors="replace"):
    if not line.strip():
        flush(); header = None; stack = []; continue
    if not line.startswith((" ", "\t")):
        m = re.match(r"\s*\S+\s+(\d+)", line)
        header = m.group(1) if m else "?"
    else:
        stack.append(line.strip())
flush()
by_pid = collections.Counter()
for (pid, cat), n in counts.items(): by_pid[pid] += n
total = sum(by_pid.values())
for pid, n in by_pid.most_common():
    print(f"pid {pid}: {100*n/total:.1f}% of samples")
    for (p, cat), c in sorted(counts.items(), key=lambda kv: -kv[1]):
        if p == pid: print(f"   {100*c/total:5.1f}%  {cat}")
