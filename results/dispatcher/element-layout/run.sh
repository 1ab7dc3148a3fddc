#!/bin/sh
# Builds walk_layout.cpp and runs it at every layout, three rounds 20 s apart; run it with nothing else on
# the machine.
set -e
g++ -O2 -std=c++17 -o /tmp/walk_layout "$(dirname "$0")/walk_layout.cpp"
for round in 1 2 3; do
echo "round $round"
for n in 160 320 640; do
  for stride in 256 4096; do
    for shuffled in 0 1; do /tmp/walk_layout $n $stride $shuffled; done
  done
done
[ $round = 3 ] || sleep 20
done
