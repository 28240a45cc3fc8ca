#!/usr/bin/env bash
# Times `go perft N` (default 6) from the start position and prints leaf nodes per second.
#   scripts/perft-speed.sh [depth] [engine]      (engine defaults to target/release/bg-breakthrough)
set -euo pipefail
depth=${1:-6}
engine=${2:-target/release/bg-breakthrough}
start=$(date +%s%N)
nodes=$(printf 'go perft %s\nquit\n' "$depth" | "$engine" | sed -n 's/^Nodes searched: //p')
end=$(date +%s%N)
ms=$(( (end - start) / 1000000 ))
echo "perft $depth: $nodes leaves in $ms ms = $(( nodes / (ms > 0 ? ms : 1) / 1000 )) million leaves/s"
