#!/bin/sh
# A GTP test double: forwards every command to a real engine and its answers
# back, but after K honest genmove answers it misbehaves once:
#   crash    exits at the next genmove (status 3), without answering;
#   illegal  answers the next genmove with d4, a centre square, never empty;
#   silent   never answers the next genmove (sleeps until killed).
# Usage: gtp_misbehave.sh MODE K WORKDIR ENGINE [ARGS...]
# WORKDIR must exist; the double makes its two pipes there.
mode=$1
k=$2
dir=$3
shift 3
rm -f "$dir/in.$$" "$dir/out.$$"
mkfifo "$dir/in.$$" "$dir/out.$$" || exit 2
"$@" <"$dir/in.$$" >"$dir/out.$$" &
exec 3>"$dir/in.$$" 4<"$dir/out.$$"
rm -f "$dir/in.$$" "$dir/out.$$"
n=0
while IFS= read -r line; do
    case "$line" in
    genmove*)
        n=$((n + 1))
        if [ "$n" -gt "$k" ]; then
            if [ "$mode" = crash ]; then
                exit 3
            fi
            if [ "$mode" = silent ]; then
                exec sleep 600
            fi
            printf '= d4\n\n'
            continue
        fi
        ;;
    esac
    printf '%s\n' "$line" >&3
    while IFS= read -r answer <&4; do
        printf '%s\n' "$answer"
        [ -z "$answer" ] && break
    done
done
