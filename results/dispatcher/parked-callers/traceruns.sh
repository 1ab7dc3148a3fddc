#!/bin/bash
# traceruns.sh LABEL N [calls]: N real runs of scan@640 with section traces into /tmp/exp/LABEL-K
label=$1; n=$2; calls=${3:-1500}
for k in $(seq 1 $n); do
  d=/tmp/exp/$label-$k; rm -rf $d; mkdir -p $d/trace
  PERFLAB_DISPATCHER_SECTION_TRACE=$d/trace /work/main/build/perflab run /work/main/scenarios/dispatcher/validate.toml \
    --set params.calls=$calls --set 'sweep.max_requests=[640]' --set 'sweep.strategy=["scan"]' --out $d/out >$d/log 2>&1
  echo "$label-$k rc=$? $(grep -h throughput $d/out/*.md 2>/dev/null | head -0)"
  sleep 20
done
