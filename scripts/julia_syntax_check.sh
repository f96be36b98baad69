#!/usr/bin/env bash
# Parses the Julia package with the real Julia grammar, without Julia: the tree_sitter 0.26 and
# tree_sitter_julia 0.23 Python packages of the venv that packaging/install-deps.sh makes
# (tests/julia/check_syntax.py does the parsing).
# Usage: scripts/julia_syntax_check.sh [PATH...]   (default: collectors/julia)
#   COMPILESCOPE_PYTHON: the interpreter (default: the venv's, $COMPILESCOPE_VENV or
#   ~/.cache/compilescope/venv, as CMake finds it; else /usr/bin/python3).
# Exit 0 when every file parses, 1 on a syntax error, 77 when the packages do not import (the reason
# is printed); under COMPILESCOPE_REQUIRE_RUNTIMES=1 a missing package is 1, never a skip.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
paths=("$@")
[ ${#paths[@]} -gt 0 ] || paths=("$root/collectors/julia")
venv="${COMPILESCOPE_VENV:-$HOME/.cache/compilescope/venv}"
python="${COMPILESCOPE_PYTHON:-}"
if [ -z "$python" ]; then
  if [ -x "$venv/bin/python" ]; then python="$venv/bin/python"; else python=/usr/bin/python3; fi
fi
if [ ! -x "$python" ]; then
  where="the interpreter $python does not exist (packaging/install-deps.sh makes the venv)"
  [ "${COMPILESCOPE_REQUIRE_RUNTIMES:-0}" != 0 ] && { echo "FAILED: $where, and COMPILESCOPE_REQUIRE_RUNTIMES=1 forbids skipping"; exit 1; }
  echo "SKIPPED: $where"; exit 77
fi
exec "$python" "$root/tests/julia/check_syntax.py" "${paths[@]}"
