# Sourced (`. scripts/prepare-out.sh`, from the repository root, with $out set)
# by the scripts that write a data file OUT: refuses an existing OUT, builds the
# release binary ($m) and makes a scratch folder beside OUT ($tmp), removed on
# exit, so that the finished file is linked into place, never copied.
if [ -e "$out" ]; then
    echo "$0: $out exists already; remove it first" >&2
    exit 2
fi
cargo build --release -q
m=target/release/mollett
tmp=$(mktemp -d "$(dirname "$out")/.mollett-data.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
