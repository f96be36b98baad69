#!/bin/sh
# Runs test_julia_native.jl under `compilescope record` and checks the trace; skipped (exit 77, with
# the reason printed) where no Julia is installed.
# Usage: test_julia_native.sh COMPILESCOPE_BINARY SOURCE_DIR
set -e
cli=$1 src=$2
if ! command -v julia >/dev/null 2>&1; then
    echo "SKIPPED: julia is not installed here; the Julia binding runs where Julia exists"
    exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
COMPILESCOPE_BUFFER_POLICY=block "$cli" record -o "$tmp/jl.cstrace" -- julia --threads=4 \
    "$src/tests/collector/test_julia_native.jl" "$src" | tee "$tmp/out"
grep -q "dropped 0" "$tmp/out"
q() { /usr/bin/python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute(sys.argv[2]).fetchone()[0])" "$tmp/jl.cstrace" "$1"; }
test "$(q 'SELECT count(*) FROM spans')" = 4000
test "$(q 'SELECT count(*) FROM closures')" = 2
test "$(q 'SELECT count(*) FROM key_components')" = 1
test "$(q 'SELECT world FROM methods')" = 40
test "$(q 'SELECT count(*) FROM module_kernels')" = 1
test "$(q 'SELECT count(*) FROM stats')" = 0
echo "julia binding: 4000 spans and every record type arrived"
