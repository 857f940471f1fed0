#!/bin/sh
# Makes a games set for `mollett accuracy --games` (odd/even consistency,
# issue 41): COUNT fresh self-play games (seed SEED), one transcript a line, in
# OUT. Usage:
#
#   scripts/make-games-set.sh COUNT SEED OUT
#
# The games: `mollett match` between level 20 and level 21 (LEVEL below; one
# thread each, the learned evaluation, Multi-ProbCut at 73 %), COUNT/2 seeded
# random openings of 4 plies, each played twice with colours swapped, one game
# at a time. After the opening every move is a strong engine's choice, which
# stands for the best move
# (measure with `--skip-plies 4` to leave the random openings out). The
# committed training rounds (data/othello-r14, -r15) are datagen games at
# depth 10 with 2 to 14 random moves (seeds 14 and 15); the script checks that
# no position after the first 20 moves (40 empties or fewer, past the openings
# that games share) occurs in them, and stops if one does. OUT is written whole
# at the end, and an existing OUT is never replaced.
#
# VARIANT=anti makes Anti-Reversi games (the same moves, its own evaluation and
# scoring; measure them with `--variant anti`), checked against its committed
# round, data/anti-r6. LEVEL (default 20) sets the levels: LEVEL against LEVEL+1.
# Anti-Reversi's exact solves are far slower than Othello's (every move of a
# 24-empty position: 3.1 G nodes, 5 minutes), and level 20's solve from 24
# empties outlasts the match's 60-second limit for a move without a clock, so
# its games are made at LEVEL=12 (exact from 20 and 21 empties).
set -eu
cd "$(dirname "$0")/.."
if [ $# -ne 3 ]; then
    echo "usage: $0 COUNT SEED OUT" >&2
    exit 2
fi
count=$1 seed=$2 out=$3
level=${LEVEL:-20}
. scripts/variant.sh
. scripts/prepare-out.sh

"$m" match --variant "$variant" --engine "l$level=$m --level $level --threads 1" \
    --engine "l$((level + 1))=$m --level $((level + 1)) --threads 1" \
    --random-openings $(((count + 1) / 2)) --opening-plies 4 --seed "$seed" \
    --concurrency 1 --games-file "$tmp/games.ggf" >&2

# Each GGF record (one a line) to a transcript: the squares after the start
# position, lower case; passes are left out (a transcript implies them).
sed 's/.*BO\[[^]]*\]//' "$tmp/games.ggf" | head -n "$count" | while read -r record; do
    printf '%s' "$record" | grep -o '[BW]\[[A-H][1-8]' | cut -c3- | tr -d '\n' | tr A-H a-h
    echo
done > "$tmp/games.txt"
# Mollett reads them back (an error names the line).
"$m" accuracy --variant "$variant" --games "$tmp/games.txt" --level 1 > /dev/null

# No position after the first 20 moves may be a training position.
awk -v skip=20 -f scripts/transcript-positions.awk "$tmp/games.txt" \
    | awk '{ print $1, $2 }' | sort -u > "$tmp/positions.txt"
for data in $training; do
    if "$m" unpack "$data" | awk '{ print $1, $2 }' | grep -F -x -f "$tmp/positions.txt" > "$tmp/seen.txt"; then
        echo "$0: $(sort -u "$tmp/seen.txt" | wc -l) positions past move 20 occur in $data; try another seed" >&2
        exit 1
    fi
done
ln "$tmp/games.txt" "$out"
echo "$0: $count games in $out" >&2
