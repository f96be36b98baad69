#!/bin/sh
# scripts/function_lengths.sh bites: on scratch trees, a 121-line C++ function in core/, an 81-line one
# in app/, a 121-line Python function and a 601-line file each fail, naming what is too long; a
# 120-line function in core/, an 80-line one in app/, a long Python class of short methods and a
# 600-line file pass.
# Usage: function_lengths_bites.sh REPO_ROOT   (exit 77 when Universal Ctags is not installed)
set -u
script="$1/scripts/function_lengths.sh"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# cpp_function NAME BODY_LINES: a C++ function of BODY_LINES + 2 lines (signature and closing brace).
cpp_function() {
  echo "int $1() {"
  i=0; while [ "$i" -lt "$2" ]; do echo "    int v$i = $i; (void)v$i;"; i=$((i + 1)); done
  echo "}"
}
py_function() {
  echo "def $1():"
  i=0; while [ "$i" -lt "$2" ]; do echo "    v$i = $i"; i=$((i + 1)); done
}
fresh() { rm -rf "$tmp/tree" && mkdir -p "$tmp/tree/core" "$tmp/tree/app"; }
run() { bash "$script" "$tmp/tree" > "$tmp/out.txt" 2>&1; }
expect_pass() {
  run; rc=$?
  [ "$rc" -eq 77 ] && { cat "$tmp/out.txt"; exit 77; }
  [ "$rc" -eq 0 ] || { echo "FAIL: $1 was refused:"; cat "$tmp/out.txt"; exit 1; }
}
expect_fail() {
  run; rc=$?
  [ "$rc" -eq 77 ] && { cat "$tmp/out.txt"; exit 77; }
  [ "$rc" -eq 1 ] || { echo "FAIL: $1 passed (exit $rc):"; cat "$tmp/out.txt"; exit 1; }
  grep -q "$2" "$tmp/out.txt" || { echo "FAIL: $1: expected '$2' in:"; cat "$tmp/out.txt"; exit 1; }
}

fresh
cpp_function at_limit 118 > "$tmp/tree/core/at_limit.cpp"
cpp_function app_at_limit 78 > "$tmp/tree/app/at_limit.cpp"
py_function at_limit 119 > "$tmp/tree/core/at_limit.py"
{ echo "class Long:"; i=0; while [ "$i" -lt 30 ]; do printf '    def m%d(self):\n        x = 1\n        return x\n\n' "$i"; i=$((i + 1)); done; } \
  > "$tmp/tree/core/long_class.py"
expect_pass "a 120-line function in core/, an 80-line one in app/, a 120-line Python function, a 121-line class"

fresh
cpp_function too_long 119 > "$tmp/tree/core/too_long.cpp"
expect_fail "a 121-line function in core/" "^function 121 (limit 120) core/too_long.cpp:1 too_long$"

fresh
cpp_function app_too_long 79 > "$tmp/tree/app/too_long.cpp"
expect_fail "an 81-line function in app/" "^function 81 (limit 80) app/too_long.cpp:1 app_too_long$"

fresh
py_function too_long 120 > "$tmp/tree/core/too_long.py"
expect_fail "a 121-line Python function" "^function 121 (limit 120) core/too_long.py:1 too_long$"

fresh
{ cpp_function a 100; cpp_function b 100; cpp_function c 100; cpp_function d 100; cpp_function e 100;
  cpp_function f 88; } > "$tmp/tree/core/long_file.cpp"
[ "$(wc -l < "$tmp/tree/core/long_file.cpp")" -eq 600 ] || { echo "FAIL: the scratch file is not 600 lines"; exit 1; }
expect_pass "a 600-line file"
echo "int extra = 0;" >> "$tmp/tree/core/long_file.cpp"
expect_fail "a 601-line file" "^file 601 (limit 600) core/long_file.cpp$"

echo "function_lengths bites: 121 lines in core/, 81 in app/, a 121-line Python function and a 601-line file fail; the limits themselves pass"
