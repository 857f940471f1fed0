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
#
# Resumable: each position is appended to OUT as soon as its moves are solved
# (its line and a comment with its cost, in one write, under a lock that also
# keeps a second run of the same OUT away), so an interrupted run loses at most
# the position being solved, and the same command continues an OUT that holds
# fewer than COUNT positions (it checks that they are the first ones the seed
# picks). THREADS (default 2) search threads solve each position.
#
# VARIANT=anti makes an Anti-Reversi set (its games, evaluation and exact
# scores; measure it with `--variant anti`), checked against its committed
# round, data/anti-r6 (played with seed 6).
set -eu
cd "$(dirname "$0")/.."
if [ $# -ne 4 ]; then
    echo "usage: $0 EMPTIES COUNT SEED OUT" >&2
    exit 2
fi
empties=$1 count=$2 seed=$3 out=$4
threads=${THREADS:-2}
. scripts/variant.sh
cargo build --release -q
m=target/release/mollett
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mollett-test-set.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# Twice the games asked for: a game that ends before EMPTIES has no such position.
"$m" datagen --variant "$variant" --games $((2 * count)) --seed "$seed" --depth 8 --selectivity 73 \
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
for data in $training; do
    if "$m" unpack "$data" | awk '{ print $1, $2 }' | grep -F -x -f "$tmp/picked.obf" > "$tmp/seen.txt"; then
        echo "$0: $(wc -l < "$tmp/seen.txt") picked positions occur in $data; try another seed" >&2
        exit 1
    fi
done

# Continue OUT: one run at a time, and only the positions this seed picks.
exec 9>>"$out"
if ! flock -n 9; then
    echo "$0: another run is writing $out" >&2
    exit 1
fi
grep -v '^%' "$out" | cut -c1-66 > "$tmp/done.txt" || true
solved=$(wc -l < "$tmp/done.txt")
if ! head -n "$solved" "$tmp/picked.obf" | cmp -s - "$tmp/done.txt"; then
    echo "$0: $out holds other positions than seed $seed picks; remove it or use its seed" >&2
    exit 1
fi
echo "$0: $solved of $count positions solved already in $out" >&2

i=$solved
while [ "$i" -lt "$count" ]; do
    i=$((i + 1))
    sed -n "${i}p" "$tmp/picked.obf" > "$tmp/one.obf"
    "$m" solve "$tmp/one.obf" --variant "$variant" --all-moves --threads "$threads" > "$tmp/one.out"
    # The position and its cost (a `%` comment: nodes, seconds), in one write;
    # the lock is held on descriptor 9 throughout.
    cat "$tmp/one.out" >&9
    echo "$0: position $i of $count solved" >&2
done
echo "$0: $count positions with $empties empties, every move solved, in $out" >&2
