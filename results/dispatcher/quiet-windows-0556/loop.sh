#!/bin/bash
for w in $(seq 1 ${1:-8}); do
  echo "window $w $(date -u +%H:%M:%S) load $(cut -d' ' -f1 /proc/loadavg)" >> /tmp/win/windows.log
  /work/quiet timing /tmp/win/window.sh $w 2>> /tmp/win/windows.log
  sleep ${2:-600}
done
