#!/usr/bin/env bash
# What CI can check of the Julia package without Julia: every .jl file parses with the real Julia
# grammar, and every ccall matches the collector's header (check_ccalls.py). Both checks must also
# fail on a deliberately broken copy, so a passing run means something.
# Usage: check_julia_package.sh abi|syntax BUILD_DIR SOURCE_DIR [PYTHON]
#   PYTHON (syntax): the interpreter with tree_sitter and tree_sitter_julia (CMake's COMPILESCOPE_PYTHON).
set -uo pipefail
mode="$1"; build="$2"; src="$3"
[ -n "${4:-}" ] && export COMPILESCOPE_PYTHON="$4"
pkg="$src/collectors/julia/CompileScope.jl"
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

if [ "$mode" = abi ]; then
python3 "$src/tests/julia/check_ccalls.py" "$pkg/src" "$src/collectors/native/include" || fail "ccall check on the package"
cp -r "$pkg" "$work/abi"
sed -i 's/(UInt32, Cint, UInt32, Int64, Int64)/(UInt32, Cint, UInt32, Int64, Int32)/' "$work/abi/src/native.jl"
out="$(python3 "$src/tests/julia/check_ccalls.py" "$work/abi/src" "$src/collectors/native/include")" && fail "a wrong ccall argument type passed"
grep -q "cs_span_complete: argument 5 is Int32 in Julia, int64_t in C" <<< "$out" || fail "unexpected: $out"
cp -r "$pkg" "$work/layout"
sed -i '0,/    pad::Int32/s//    pad::Int64/' "$work/layout/src/native.jl"
python3 "$src/tests/julia/check_ccalls.py" "$work/layout/src" "$src/collectors/native/include" > "$work/layout.txt" && fail "a wrong struct layout passed"
echo "ccall check: the package passes, a wrong argument type and a wrong field fail"
exit 0
fi

out="$("$src/scripts/julia_syntax_check.sh" "$pkg" "$src/tests/collector/test_julia_native.jl")"
rc=$?
echo "$out"
[ $rc -eq 77 ] && exit 77
[ $rc -eq 0 ] || fail "the Julia package does not parse, or the check could not run (above)"
cp -r "$pkg" "$work/syntax"
printf '\nfunction broken(x\n    x +\n' >> "$work/syntax/src/native.jl"
out="$("$src/scripts/julia_syntax_check.sh" "$work/syntax")" && fail "a broken file parsed"
grep -q "native.jl:[0-9]*:[0-9]*: " <<< "$out" || fail "no line named: $out"
echo "syntax check: the package parses, a broken copy fails at $(grep -m1 -o 'native.jl:[0-9]*' <<< "$out")"
