#!/bin/sh
# Makes the shipped weights (weights/othello.mlw, weights/anti.mlw) and their
# Multi-ProbCut regressions (weights/othello.mpc, weights/anti.mpc) again from
# the training data committed in data/, by the commands those files record in
# their notes (tests/reproduce_weights.rs checks that the `refit` lines below
# are those commands, word for word). On this project's 2-core machine it takes
# about 13 minutes; afterwards `git status weights/` shows no change when the
# result is the same, bit for bit (`cargo test --release --test
# reproduce_weights -- --ignored` checks the same without touching weights/).
set -eu
cd "$(dirname "$0")/.."

# Runs mollett, rebuilt first whenever a weights file it embeds has changed:
# probcut searches with the weights built in, so each probcut below runs with
# the weights its train line has just written (every other command refuses to
# start until the regressions belong to them).
refit() {
    cargo run --release -- "$@"
}

# A scores file continues an interrupted probcut run: start afresh.
rm -f target/othello-probcut-scores.txt target/anti-probcut-scores.txt

refit train data/othello-r14.mpk.gz data/othello-r15.mpk.gz --form side-to-move --iterations 60 --ridge 10 --out weights/othello.mlw
refit probcut data/othello-r14.mpk.gz data/othello-r15.mpk.gz --scores target/othello-probcut-scores.txt --out weights/othello.mpc --per-phase 80 --max-depth 12

refit train --variant anti data/anti-r6.mpk.gz --form side-to-move --iterations 60 --ridge 10 --out weights/anti.mlw
refit probcut data/anti-r6.mpk.gz --variant anti --scores target/anti-probcut-scores.txt --out weights/anti.mpc --per-phase 80 --max-depth 12

cargo build --release
