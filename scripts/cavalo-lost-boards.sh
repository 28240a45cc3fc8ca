#!/bin/sh
# Were the games the engine lost against the seed's player lost to the board?
# Reads the output of `cavalo-tools match` (or scripts/cavalo-match.sh) and
# replays every lost board and colour with the engine against itself: the
# engine at STRONG ms a move (default 1000) takes the colour that was lost,
# the engine at WEAK ms (default 100) the other. A board whose lost colour
# still loses with ten times the time is one a stronger engine would not
# have saved; one it now wins is a game better search could recover.
# Usage: [STRONG=ms] [WEAK=ms] scripts/cavalo-lost-boards.sh MATCH_OUTPUT
set -e
STRONG=${STRONG:-1000}
WEAK=${WEAK:-100}
OUTPUT=${1:?usage: scripts/cavalo-lost-boards.sh MATCH_OUTPUT}
cd "$(dirname "$0")/.."
nice -n 10 cargo build --release --bin bg-referee --bin bg-cavalo
strong=$(awk "BEGIN { print $STRONG / 1000 }")
weak=$(awk "BEGIN { print $WEAK / 1000 }")
engine=./target/release/bg-cavalo
lost=0
saved=0
grep -E '^board [0-9]+ engine as (white|black): loss' "$OUTPUT" | while read -r _ board _ _ colour _; do
    colour=${colour%:}
    # The first engine plays White in a one-game match.
    if [ "$colour" = white ]; then
        white="st=$strong"; black="st=$weak"
    else
        white="st=$weak"; black="st=$strong"
    fi
    line=$(./target/release/bg-referee --game cavalo --quiet --no-records --games 1 \
        --openings "boards:$board" \
        --engine cmd=$engine name=white $white \
        --engine cmd=$engine name=black $black 2>&1 | grep 'white as p1:' || true)
    case "$line" in
        *"p1: 1 - 0 - 0"*) winner=white ;;
        *"p1: 0 - 1 - 0"*) winner=black ;;
        *"p1: 0 - 0 - 1"*) winner=draw ;;
        *) winner=unknown ;;
    esac
    lost=$((lost + 1))
    if [ "$winner" = "$colour" ]; then
        saved=$((saved + 1))
        verdict="won with $STRONG ms"
    else
        verdict="lost again with $STRONG ms ($winner)"
    fi
    echo "board $board as $colour: $verdict; $saved of $lost saved so far"
done
