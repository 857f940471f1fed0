#!/bin/sh
# What many threads buy (issue 42), measured in one prepared run on a many-core
# machine. Usage:
#
#   scripts/device-scaling.sh OUTDIR [THREADS...]
#
# THREADS defaults to "16 4". For each count T it runs
# `mollett bench --scaling --threads T` (FFO #40-49 solved and the bench
# positions at level 21, on one thread and then on T: speed-up, node inflation
# and nodes per second of each part, the published FFO scores checked); then,
# with the largest T, FFO #40-59 solved at --hash 4096 (each position's time and
# nodes, cut off after SOLVE_LIMIT seconds, default 240) and the start-up time
# of a 4096 MB table. Each step writes OUTDIR/<step>.txt as it finishes, so a run
# cut short keeps what it finished; OUTDIR/summary.txt gathers the totals.
# OUTDIR must be new or empty (an earlier run's results are never replaced).
#
# The binary is MOLLETT (default target/release/mollett, as `cargo build
# --release` leaves it): on a machine lent without a toolchain, build it here
# and carry it. Nothing here needs more than the binary and tests/data/ffo.
set -eu
cd "$(dirname "$0")/.."
if [ $# -lt 1 ]; then
    echo "usage: $0 OUTDIR [THREADS...]" >&2
    exit 2
fi
out=$1
shift
[ $# -gt 0 ] || set -- 16 4
m=${MOLLETT:-target/release/mollett}
limit=${SOLVE_LIMIT:-240}
if [ ! -x "$m" ]; then
    echo "$0: no binary at $m (build with cargo build --release, or set MOLLETT)" >&2
    exit 1
fi
# A finished run is never written over: OUTDIR must be new or empty.
if [ -e "$out" ] && [ -n "$(ls -A "$out" 2>/dev/null)" ]; then
    echo "$0: $out is not empty; give a new directory" >&2
    exit 1
fi
mkdir -p "$out"
summary="$out/summary.txt"
{
    echo "machine: $(nproc) logical CPUs, $(uname -m)"
    grep -m1 'model name' /proc/cpuinfo 2>/dev/null || true
    echo "binary: $m ($("$m" --version 2>/dev/null || echo unknown version))"
} > "$summary"

most=0
for t in "$@"; do
    [ "$t" -gt "$most" ] && most=$t
    f="$out/scaling-$t.txt"
    "$m" bench --scaling --threads "$t" > "$f" 2>&1 || echo "bench --scaling --threads $t failed: rc $?" >> "$f"
    { echo "== bench --scaling --threads $t"; tail -n 12 "$f"; } >> "$summary"
done

f="$out/ffo40-59-$most.txt"
rc=0
timeout "$limit" "$m" solve tests/data/ffo/fforum-40-59.obf --threads "$most" --hash 4096 > "$f" 2>&1 || rc=$?
{
    echo "== solve fforum-40-59 --threads $most --hash 4096 (limit ${limit} s, rc $rc; 124: cut off)"
    tail -n 3 "$f"
} >> "$summary"

# Start-up of a big table: the wall time of a one-empty solve (nothing to search)
# at 64 MB and at 4096 MB.
printf '%s%s X;\n' "$(printf 'X%.0s' $(seq 62))" 'O-' > "$out/one.obf"
for mb in 64 4096; do
    start=$(date +%s.%N)
    "$m" solve "$out/one.obf" --threads "$most" --hash "$mb" > /dev/null 2>&1 || true
    end=$(date +%s.%N)
    awk -v a="$start" -v b="$end" -v t="$most" -v mb="$mb" \
        'BEGIN { printf "== start-up (a one-empty solve) --threads %s --hash %s: %.2f s wall\n", t, mb, b - a }' >> "$summary"
done
cat "$summary"
