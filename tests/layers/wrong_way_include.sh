#!/bin/sh
# The layer check fails the build on a wrong-way include: run it on a copy of core/ where the engine
# includes the report, and on one where the report runs SQL; both must fail, naming the file. The
# tree as it is must pass.
set -u
src="$1"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
check() { cmake -DROOT="$tmp" -P "$src/cmake/CheckLayers.cmake" > "$tmp/out.txt" 2>&1; }
cp -r "$src/core" "$tmp/core"
check || { echo "the unmodified tree failed the layer check:"; cat "$tmp/out.txt"; exit 1; }
printf '#include "core/report/report.h"\n' >> "$tmp/core/engine/finding.h"
if check; then echo "an engine header including the report passed the layer check"; exit 1; fi
grep -q "core/engine/finding.h: core/engine may not include core/report/report.h" "$tmp/out.txt" ||
  { echo "unexpected message:"; cat "$tmp/out.txt"; exit 1; }
rm -rf "$tmp/core" && cp -r "$src/core" "$tmp/core"
printf 'const char* q = "SELECT count(*) FROM spans";\n' >> "$tmp/core/report/report.cpp"
if check; then echo "SQL in the report passed the layer check"; exit 1; fi
grep -q "core/report/report.cpp: the report holds no SQL" "$tmp/out.txt" || { echo "unexpected message:"; cat "$tmp/out.txt"; exit 1; }
echo "layer check: the tree passes; a wrong-way include and SQL in the report fail"
