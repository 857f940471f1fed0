#!/bin/sh
# Makes an accuracy test set: COUNT Othello positions with EMPTIES empty squares,
# one from each of COUNT fresh self-play games (seed SEED), every legal move of
# each solved exactly, written to OUT as OBF lines (`mollett accuracy OUT` reads
# them). Usage:
#
#   scripts/make-test-set.sh EMPTIES COUNT SEED OUT
#
# The games: `mollett datagen` at depth 8 and 73 % with the learned evaluation,
# from the start with 4 to 20 seeded random moves and 2 % random moves after.
# The committed training rounds (data/othello-r14, -r15) were played with seeds 14
# and 15, depth 10 and 2 to 14 random moves; the script also checks that no
# picked position (discs and side to move) occurs in them, and stops if one does.
# The solves run two at a time (`--jobs 2`); OUT is written whole at the end
# (a temporary file, then a rename), and an existing OUT is never replaced.
set -eu
cd "$(dirname "$0")/.."
if [ $# -ne 4 ]; then
    echo "usage: $0 EMPTIES COUNT SEED OUT" >&2
    exit 2
fi
empties=$1 count=$2 seed=$3 out=$4
. scripts/prepare-out.sh

# Twice the games asked for: a game that ends before EMPTIES has no such position.
"$m" datagen --games $((2 * count)) --seed "$seed" --depth 8 --selectivity 73 \
    --eval learned --labels game --exact-empties 8 --random-moves 4..20 --noise 20 \
    --threads 2 --out "$tmp/games.txt" >&2

# The first position of each game with exactly EMPTIES empty squares, one per game,
# COUNT of them: the board string and the side to move.
awk -v e="$empties" -v n="$count" '
    { board = $1; k = gsub(/-/, "-", board) }
    k == e && !($5 in seen) && picked < n { seen[$5] = 1; picked++; print $1, $2 }
' "$tmp/games.txt" > "$tmp/picked.obf"
got=$(wc -l < "$tmp/picked.obf")
if [ "$got" -lt "$count" ]; then
    echo "$0: only $got of the games reached $empties empties; ask for fewer or another seed" >&2
    exit 1
fi

# None of them may be a training position.
for data in data/othello-r14.mpk.gz data/othello-r15.mpk.gz; do
    if "$m" unpack "$data" | awk '{ print $1, $2 }' | grep -F -x -f "$tmp/picked.obf" > "$tmp/seen.txt"; then
        echo "$0: $(wc -l < "$tmp/seen.txt") picked positions occur in $data; try another seed" >&2
        exit 1
    fi
done

"$m" solve "$tmp/picked.obf" --all-moves --jobs 2 > "$tmp/solved.obf"
# Written whole, and never over a file that appeared meanwhile.
ln "$tmp/solved.obf" "$out"
echo "$0: $count positions with $empties empties, every move solved, in $out" >&2
