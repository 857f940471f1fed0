#!/bin/sh
# Runs the given fuzz targets one after the other, SECONDS each (default 600),
# from fuzz/: ./run-fuzzers.sh 600 square ggf ...
# Each run's libFuzzer log goes to fuzz/logs/TARGET.log; a finding stops that
# target and is saved under fuzz/artifacts/TARGET/.
set -u
secs=${1:-600}
shift
cd "$(dirname "$0")"
mkdir -p logs
for t in "$@"; do
    mkdir -p "corpus/$t"
    start=$(date +%s)
    RUSTC_BOOTSTRAP=1 cargo fuzz run "$t" "corpus/$t" "seeds/$t" -- \
        -max_total_time="$secs" -timeout=10 >"logs/$t.log" 2>&1
    rc=$?
    echo "$t: exit $rc after $(( $(date +%s) - start )) s" | tee -a logs/summary.txt
done
