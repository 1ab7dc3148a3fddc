#!/bin/bash
# loop.sh PROBE: the experiment of README.md, from the repository's root with perflab built in build/
probe=$(realpath "$1")
cd "$(git rev-parse --show-toplevel)"
for i in $(seq 1 10); do
  d=/tmp/p39/r2-$i; rm -rf $d; mkdir -p $d
  p=$($probe)
  build/perflab run scenarios/dispatcher/validate.toml --set 'sweep.max_requests=[64]' --set 'sweep.strategy=["counter"]' --out $d/c64 >/dev/null 2>&1
  q=$($probe)
  build/perflab run scenarios/dispatcher/validate.toml --set 'sweep.max_requests=[640]' --set 'sweep.strategy=["scan"]' --set params.calls=1500 --out $d/s640 >/dev/null 2>&1
  r=$($probe)
  /usr/bin/python3 - "$d" "$p" "$q" "$r" <<'PY'
import sys,csv
d,p,q,r=sys.argv[1:]
def row(sub):
    rows=list(csv.DictReader(open(f"{d}/{sub}/dispatcher-validate.csv")))
    return rows[0]
a=row('c64'); b=row('s640')
print(f"{d[-4:]} c64_hold_ms {float(a['lock_hold_total_s'])*1e3:.2f} s640_hold_s {float(b['lock_hold_total_s']):.3f} s640_ops {int(float(b['ops_under_lock']))} s640_ns_op {float(b['lock_hold_total_s'])/float(b['ops_under_lock'])*1e9:.2f} s640_tput {float(b['throughput_rps']):.0f} | {p} | {q} | {r}", flush=True)
PY
  sleep 20
done
