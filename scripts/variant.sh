# Sourced (`. scripts/variant.sh`, from the repository root) by the scripts that
# make test and games sets: reads VARIANT (othello, the default, or anti) into
# $variant, and sets $training to the committed training rounds of those rules,
# which the sets must not share positions with.
variant=${VARIANT:-othello}
case $variant in
othello) training="data/othello-r14.mpk.gz data/othello-r15.mpk.gz" ;;
anti) training="data/anti-r6.mpk.gz" ;;
*)
    echo "$0: VARIANT must be othello or anti, not $variant" >&2
    exit 2
    ;;
esac
