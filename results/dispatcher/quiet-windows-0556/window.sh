#!/bin/bash
# one window: layout probe, real runs, layout probe; appends rows to /tmp/win/rows.csv
w=$1; d=/tmp/win/w$w; mkdir -p $d
P=${PERFLAB:-build/perflab}; S=scenarios/dispatcher/validate.toml
probe() { for k in 1 2 3; do /tmp/walk_layout 640 4096 1; /tmp/walk_layout 640 256 0; done | awk -v w=$w -v t=$(date -u +%H:%M:%S) -v tag=$1 '/shuffled/{s=s" "$4} /in-order/{o=o" "$4} END{gsub("ns/element=","",s); gsub("ns/element=","",o); print "probe,"w","t","tag","s","o}' >> /tmp/win/rows.csv; }
probe before
for r in 1 2; do
  $P run $S --set params.calls=1500 --set 'sweep.max_requests=[640]' --set 'sweep.strategy=["scan"]' --out $d/scan$r >/dev/null 2>&1
  /usr/bin/python3 -c "
import csv,sys; r=next(csv.DictReader(open('$d/scan$r/dispatcher-validate.csv'))); h=float(r['lock_hold_total_s']); o=int(r['ops_under_lock'])
print(f\"scan,$w,$(date -u +%H:%M:%S),{float(r['throughput_rps']):.1f},{h:.4f},{o},{h/o*1e9:.2f}\")" >> /tmp/win/rows.csv
  sleep 10
  $P run $S --set 'sweep.max_requests=[64]' --set 'sweep.strategy=["counter"]' --out $d/counter$r >/dev/null 2>&1
  /usr/bin/python3 -c "
import csv,sys; r=next(csv.DictReader(open('$d/counter$r/dispatcher-validate.csv'))); h=float(r['lock_hold_total_s']); o=int(r['ops_under_lock'])
print(f\"counter,$w,$(date -u +%H:%M:%S),{float(r['throughput_rps']):.1f},{h:.5f},{o},{h/o*1e9:.2f}\")" >> /tmp/win/rows.csv
  sleep 10
done
probe after
