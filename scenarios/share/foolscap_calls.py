"""Measures what a Foolscap remote call costs on this machine: the `measured` call_cost of the share study.

A storage-server process (a real Foolscap Tub over TLS on loopback, its bucket a Referenceable with
`remote_read(offset, length)` as Tahoe's storage/immutable.py and `remote_readv(vector)` as #1545's patch)
and a client process calling it the way downloader/share.py does: each plain read its own
`callRemote("read", start, length)`, one loop()'s calls issued in one reactor turn, the next batch once
all answers are in. CPU time (time.process_time) is read on both sides around each shape, so the figures
are per-call CPU of the client (serialize the call, parse the answer, fire its Deferred) and of the
server (parse, dispatch, read, serialize the answer), not wall time.

    /usr/bin/python3 scenarios/share/foolscap_calls.py --calls 4000 --out results/share/share-foolscap-calls

writes <out>.csv (one row per shape) and <out>.md. Needs python3-foolscap (Debian; scripts/setup.sh).
"""
import argparse
import csv
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BLOCK = 43691  # a 12 MiB file's block at k = 3 (the headline's data reads)
NODE = 32  # a hash-tree node (the headline's small reads)


def serve(share_size: int) -> None:
    """Server process: prints its FURL, then serves until stdin closes."""
    from foolscap.api import Referenceable, Tub
    from twisted.internet import reactor, stdio
    from twisted.protocols.basic import LineReceiver

    share = os.urandom(share_size)

    class Bucket(Referenceable):
        def remote_read(self, offset, length):
            return share[offset:offset + length]

        def remote_readv(self, vector):
            return [share[o:o + n] for o, n in vector]

        def remote_cpu(self):
            return time.process_time()

    from foolscap.util import allocate_tcp_port

    port = allocate_tcp_port()
    tub = Tub()
    tub.listenOn(f"tcp:{port}:interface=127.0.0.1")
    tub.setLocation(f"127.0.0.1:{port}")
    tub.startService()
    furl = tub.registerReference(Bucket(), "bucket")

    class Quit(LineReceiver):
        delimiter = b"\n"

        def connectionLost(self, reason):
            reactor.stop()

    stdio.StandardIO(Quit())
    print(furl, flush=True)
    reactor.run()


# name, calls per turn, spans per call, bytes per span, readv
SHAPES = [
    ("read 32 B, 1 per turn", 1, 1, NODE, False),
    ("read 32 B, 16 per turn", 16, 1, NODE, False),
    ("read 43691 B, 1 per turn", 1, 1, BLOCK, False),
    ("readv 1 x 32 B", 1, 1, NODE, True),
    ("readv 4 x 32 B", 1, 4, NODE, True),
    ("readv 16 x 32 B", 1, 16, NODE, True),
]


def measure(furl: str, calls: int) -> list:
    from foolscap.api import Tub
    from twisted.internet import defer, reactor

    rows = []

    @defer.inlineCallbacks
    def run():
        tub = Tub()
        tub.startService()
        bucket = yield tub.getReference(furl)
        for name, per_turn, spans, size, readv in SHAPES:
            def batch():
                if readv:
                    vector = [(i * 4096, size) for i in range(spans)]
                    return defer.gatherResults([bucket.callRemote("readv", vector) for _ in range(per_turn)])
                return defer.gatherResults([bucket.callRemote("read", i * 4096, size) for i in range(per_turn)])

            for _ in range(max(1, 200 // per_turn)):  # warm up
                yield batch()
            turns = max(1, calls // per_turn)
            server_before = yield bucket.callRemote("cpu")
            client_before = time.process_time()
            wall_before = time.perf_counter()
            for _ in range(turns):
                yield batch()
            wall = time.perf_counter() - wall_before
            client = time.process_time() - client_before
            server_after = yield bucket.callRemote("cpu")
            n = turns * per_turn
            rows.append({"shape": name, "calls": n, "spans_per_call": spans, "bytes_per_span": size,
                         "client_us_per_call": round(client / n * 1e6, 2),
                         "server_us_per_call": round((server_after - server_before) / n * 1e6, 2),
                         "wall_us_per_call": round(wall / n * 1e6, 2)})
        reactor.stop()

    def start():
        run().addErrback(lambda f: (print(f, file=sys.stderr), reactor.stop()))

    reactor.callWhenRunning(start)
    reactor.run()
    return rows


def versions() -> dict:
    import foolscap
    import twisted
    return {"foolscap": foolscap.__version__, "twisted": twisted.__version__,
            "python": sys.version.split()[0]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=4000, help="calls timed per shape")
    parser.add_argument("--out", type=Path, help="writes <out>.csv and <out>.md (default: print JSON)")
    parser.add_argument("--serve", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(args.serve)
        return 0
    with tempfile.TemporaryDirectory():
        server = subprocess.Popen([sys.executable, __file__, "--serve", str(16 * 4096 + BLOCK)],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        try:
            furl = server.stdout.readline().strip()
            if not furl.startswith("pb://"):
                print(f"foolscap_calls: the server did not start (got {furl!r})", file=sys.stderr)
                return 1
            rows = measure(furl, args.calls)
        finally:
            server.stdin.close()
            server.wait(timeout=30)
    if len(rows) != len(SHAPES):
        return 1
    meta = versions()
    if args.out is None:
        print(json.dumps({"versions": meta, "rows": rows}, indent=1))
        return 0
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with open(args.out.with_suffix(".csv"), "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    lines = [f"### Foolscap remote calls on this machine (foolscap {meta['foolscap']}, twisted {meta['twisted']}, "
             f"python {meta['python']}, TLS over loopback)", "",
             f"`/usr/bin/python3 scenarios/share/foolscap_calls.py --calls {args.calls}`: CPU per call "
             "(time.process_time of each process), µs.", "",
             "| shape | calls | client µs/call | server µs/call | wall µs/call |", "|---|---:|---:|---:|---:|"]
    for r in rows:
        lines.append(f"| {r['shape']} | {r['calls']} | {r['client_us_per_call']} | {r['server_us_per_call']} | "
                     f"{r['wall_us_per_call']} |")
    args.out.with_suffix(".md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
