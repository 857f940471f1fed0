#!/bin/sh
# Makes Othello's shipped weights (weights/othello.mlw) and their Multi-ProbCut
# regressions (weights/othello.mpc) again from the training data committed in
# data/, by the commands those two files record in their notes. On this
# project's 2-core machine it takes about 10 minutes; afterwards
# `git status weights/` shows no change when the result is the same, bit for bit
# (`cargo test --release --test reproduce_weights -- --ignored` checks the same
# without touching weights/).
set -eu
cd "$(dirname "$0")/.."
data="data/othello-r14.mpk.gz data/othello-r15.mpk.gz"
cargo run --release -- train $data --form side-to-move --iterations 60 --ridge 10 \
    --out weights/othello.mlw
# probcut searches with the weights built in, so this run builds the new ones
# in first (every other command refuses to start until the regressions belong
# to them). A scores file continues an interrupted run: start afresh.
scores=target/othello-probcut-scores.txt
rm -f "$scores"
cargo run --release -- probcut $data --scores "$scores" --out weights/othello.mpc \
    --per-phase 80 --max-depth 12
cargo build --release
