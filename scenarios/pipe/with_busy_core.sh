#!/bin/sh
# with_busy_core.sh CMD [ARG...]: runs CMD with one core kept busy by a process this script starts and
# stops itself (a shell loop that never sleeps: pure CPU, no I/O), the generated load of the pipe study's
# loaded validation (NOTES.md "Both conditions"). Prints the load average before and after, and CMD's exit
# status is this script's. Run it inside /work/quiet timing, so nothing else loads the machine meanwhile.
set -u
if [ $# -eq 0 ]; then
  echo "usage: with_busy_core.sh CMD [ARG...]: runs CMD with one core spinning" >&2
  exit 2
fi
sh -c 'while :; do :; done' &
spinner=$!
trap 'kill "$spinner" 2>/dev/null' EXIT INT TERM
sleep 2  # let the spinner take its core before anything is timed
echo "with_busy_core: spinner pid $spinner; load before: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
"$@"
status=$?
echo "with_busy_core: load at the end: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
kill "$spinner"
wait "$spinner" 2>/dev/null
trap - EXIT INT TERM
exit "$status"
