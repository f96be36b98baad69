#!/usr/bin/env bash
# Lists every function and source file over the project's size limits and fails when there is one
# (issue 38; the rule is in CONTRIBUTING.md, the command in docs/architecture.md "Sizes").
#
# Why: a function that does several things grows one case at a time, and a reader stops seeing its
# shape long before a reviewer notices the length. A number that a script checks holds where a rule
# in prose drifts. Lengths come from Universal Ctags (its `end:` field), the same measure anyone can
# run by hand, so the figure in a review and the figure here agree.
#
# Limits: a C/C++ function 120 lines, 80 under app/; a Python function or method 120 lines (classes are
# not counted: their methods are); a C/C++ or Python source file 600 lines.
# Scanned: core/ app/ collectors/ tests/ benchmarks/ under ROOT (those that exist).
#
# Usage: scripts/function_lengths.sh [ROOT]   (default: the repository holding this script)
# Prints one line per excess, longest first:
#   function LINES (limit N) PATH:LINE NAME
#   file LINES (limit 600) PATH
# Exit 0 when nothing exceeds, 1 when something does, 77 when Universal Ctags is not installed (the
# Debian package universal-ctags; packaging/install-deps.sh installs it).
set -euo pipefail
root="${1:-$(cd "$(dirname "$0")/.." && pwd)}"
[ -d "$root" ] || { echo "function_lengths: $root is not a directory" >&2; exit 2; }
ctags="${CTAGS:-ctags}"
if ! "$ctags" --version 2>/dev/null | grep -q "Universal Ctags"; then
  echo "function_lengths: Universal Ctags is not installed (Debian package universal-ctags)" >&2
  exit 77
fi
cd "$root"
dirs=()
for d in core app collectors tests benchmarks; do [ -d "$d" ] && dirs+=("$d"); done
[ ${#dirs[@]} -gt 0 ] || { echo "function_lengths: no core/ app/ collectors/ tests/ benchmarks/ in $root" >&2; exit 2; }

list="$(mktemp)"
trap 'rm -f "$list"' EXIT
find "${dirs[@]}" \( -name __pycache__ -o -name '.*' \) -prune -o -type f \
  \( -name '*.c' -o -name '*.cc' -o -name '*.cpp' -o -name '*.cxx' -o -name '*.h' -o -name '*.hh' \
     -o -name '*.hpp' -o -name '*.py' \) -print | LC_ALL=C sort > "$list"

functions="$("$ctags" --fields=+neK -o - --languages=C,C++,Python --c-kinds=f --c++-kinds=f \
    --python-kinds=fm -L "$list" |
  awk -F'\t' '{
    n = ""; e = ""
    for (i = 4; i <= NF; i++) {
      if ($i ~ /^line:/) n = substr($i, 6)
      if ($i ~ /^end:/) e = substr($i, 5)
    }
    if (n == "" || e == "") next
    len = e - n + 1
    limit = ($2 ~ /^app\//) ? 80 : 120
    if (len > limit) printf "function %d (limit %d) %s:%d %s\n", len, limit, $2, n, $1
  }')"
files="$(tr '\n' '\0' < "$list" | xargs -0 wc -l | awk '$2 != "total" && $1 > 600 {
    printf "file %d (limit 600) %s\n", $1, $2 }')"

report="$(printf '%s\n%s\n' "$functions" "$files" | sed '/^$/d' | LC_ALL=C sort -k1,1 -k2,2nr)"
if [ -n "$report" ]; then
  printf '%s\n' "$report"
  echo "function_lengths: $(printf '%s\n' "$report" | wc -l) over the limit (functions 120 lines, 80 in app/; files 600)"
  exit 1
fi
echo "function_lengths: no function over 120 lines (80 in app/), no file over 600 lines"
