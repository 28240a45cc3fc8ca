#!/bin/sh
# Strength of the Jogo do Cavalo engine against the seed's algorithm:
# the engine at 100 ms a move against the seed's negamax at 1 s a move, with
# the seed's |p1 - p2| evaluation and with p1 - p2, on BOARDS random boards
# (BoardSeed FIRST..FIRST+BOARDS-1), each played with both colours.
# SEARCH=seed (default) is the negamax of the seed's pseudocode in a single
# pass to depth 50 cut off by the clock; SEARCH=deepening is a stronger,
# iteratively deepening yardstick; SEARCH=lisp is the seed's Lisp as written,
# which plays the jump leaving the smallest |p1 - p2| (|p1 - p2| only).
# OURS and BASELINE change the two times (ms); OURS=20 BASELINE=200 keeps the
# ratio and scores about the same in a quarter of the time, for quick
# comparisons of two versions of the engine. THREADS gives the engine more
# search threads (default 1).
# Usage: [SEARCH=seed|deepening|lisp] [OURS=ms] [BASELINE=ms] [THREADS=n] scripts/cavalo-match.sh [BOARDS] [FIRST]
set -e
BOARDS=${1:-10}
FIRST=${2:-1000}
SEARCH=${SEARCH:-seed}
OURS=${OURS:-100}
BASELINE=${BASELINE:-1000}
THREADS=${THREADS:-1}
cd "$(dirname "$0")/.."
nice -n 10 cargo build --release --bin bg-cavalo-tools
EVALS="abs diff"
[ "$SEARCH" = lisp ] && EVALS=abs
for eval in $EVALS; do
    echo "== engine $OURS ms against the seed's negamax ($eval, $SEARCH) $BASELINE ms"
    nice -n 10 ./target/release/bg-cavalo-tools match boards "$BOARDS" first-seed "$FIRST" \
        ours "$OURS" baseline "$BASELINE" eval "$eval" search "$SEARCH" threads "$THREADS"
done
