#!/usr/bin/env bash
# Parses the Julia package with the real Julia grammar, without Julia: tree-sitter 0.21 and
# tree-sitter-julia 0.23 from the npm registry, installed here into CACHE_DIR on first use.
# Usage: scripts/julia_syntax_check.sh [PATH...]   (default: collectors/julia)
#   CACHE_DIR (default build/julia-syntax) holds node_modules. Exit 77 when node or the packages
#   cannot be had (the reason is printed), 1 on a syntax error, 0 when every file parses.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cache="${CACHE_DIR:-$root/build/julia-syntax}"
paths=("$@")
[ ${#paths[@]} -gt 0 ] || paths=("$root/collectors/julia")
command -v node > /dev/null && command -v npm > /dev/null || { echo "skipped: node and npm are needed (apt-get install nodejs npm)"; exit 77; }
if [ ! -d "$cache/node_modules/tree-sitter-julia" ] || [ ! -d "$cache/node_modules/tree-sitter" ]; then
  mkdir -p "$cache"
  (cd "$cache" && [ -f package.json ] || echo '{"name":"julia-syntax-check","private":true}' > package.json)
  if ! (cd "$cache" && timeout 300 npm install --no-audit --no-fund --loglevel=error tree-sitter@0.21.1 tree-sitter-julia@0.23.1 > npm.log 2>&1); then
    echo "skipped: could not install tree-sitter and tree-sitter-julia from the npm registry:"; tail -5 "$cache/npm.log"; exit 77
  fi
fi
exec node "$root/tests/julia/check_syntax.js" "$cache/node_modules" "${paths[@]}"
