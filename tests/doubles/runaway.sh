#!/bin/sh
# A test double that answers the match runner's set-up like an engine, then
# runs away when asked for a move (GTP genmove, NBoard go):
#   yes       floods 'y' lines without end;
#   pongs     floods 'pong 1' lines (an answer to an old ping) without end;
#   zero      writes NUL bytes without end (a line that never ends);
#   hugeline  writes one line of 200 MB, then nothing.
# Usage: runaway.sh gtp|nboard MODE
proto=$1
mode=$2
run_away() {
    case "$mode" in
    yes) exec yes ;;
    pongs) exec yes "pong 1" ;;
    zero) exec cat /dev/zero ;;
    hugeline)
        head -c 200000000 /dev/zero | tr '\0' x
        echo
        exec sleep 600
        ;;
    esac
}
while IFS= read -r line; do
    case "$proto $line" in
    "gtp genmove"*) run_away ;;
    gtp*) printf '=\n\n' ;;
    "nboard ping"*) echo "pong ${line#ping }" ;;
    "nboard go") run_away ;;
    esac
done
