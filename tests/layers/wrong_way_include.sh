#!/bin/sh
# The layer check (cmake/CheckLayers.cmake) fails the build on a wrong-way include: run it on copies of
# core/, app/ and tests/ with one wrong include each; every one must fail, naming the file. The tree
# as it is must pass.
set -u
src="$1"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
check() { cmake -DROOT="$tmp" -P "$src/cmake/CheckLayers.cmake" > "$tmp/out.txt" 2>&1; }
fresh() {
  rm -rf "$tmp/core" "$tmp/app" "$tmp/tests"
  cp -r "$src/core" "$src/app" "$src/tests" "$tmp/"
}
# expect_fail WHAT MESSAGE: the check must fail and say MESSAGE.
expect_fail() {
  if check; then echo "$1 passed the layer check"; exit 1; fi
  grep -qF "$2" "$tmp/out.txt" || { echo "$1: unexpected message:"; cat "$tmp/out.txt"; exit 1; }
  fresh
}
fresh
check || { echo "the unmodified tree failed the layer check:"; cat "$tmp/out.txt"; exit 1; }

printf '#include "core/report/report.h"\n' >> "$tmp/core/engine/common/finding.h"
expect_fail "an engine header including the report" "core/engine/common/finding.h: core/engine may not include core/report/report.h"

# The engine's sub-layers (docs/architecture.md, "Inside the engine").
printf '#include "core/engine/accounting/trace_facts.h"\n' >> "$tmp/core/engine/common/finding.h"
expect_fail "the engine's common types including accounting" "core/engine/common/finding.h: core/engine/common may not include core/engine/accounting/trace_facts.h"

printf '#include "core/engine/cache/verdict.h"\n' >> "$tmp/core/engine/common/session_time.cpp"
expect_fail "the engine's common types including an analysis" "core/engine/common/session_time.cpp: core/engine/common may not include core/engine/cache/verdict.h"

printf '#include "core/engine/analysis/trace_analysis.h"\n' >> "$tmp/core/engine/fix/fix_view.cpp"
expect_fail "fix/ including the top of the engine" "core/engine/fix/fix_view.cpp: core/engine/fix may not include core/engine/analysis/trace_analysis.h"

printf '#include "core/engine/analysis/all_findings.h"\n' >> "$tmp/core/engine/accounting/trace_losses.h"
expect_fail "accounting including the top of the engine" "core/engine/accounting/trace_losses.h: core/engine/accounting may not include core/engine/analysis/all_findings.h"

printf '#include "core/engine/analysis/trace_figures.h"\n' >> "$tmp/core/engine/timeline/timeline_digest.cpp"
expect_fail "an analysis including the top of the engine" "core/engine/timeline/timeline_digest.cpp: core/engine/timeline may not include core/engine/analysis/trace_figures.h"

printf 'int stray();\n' > "$tmp/core/engine/stray.h"
expect_fail "a source in the engine's root" "core/engine/stray.h: no source in the engine's root"

mkdir -p "$tmp/core/engine/misc" && printf 'int misc();\n' > "$tmp/core/engine/misc/misc.h"
expect_fail "an engine directory of no known sub-layer" "core/engine/misc/misc.h: core/engine/misc is not a known sub-layer"

printf 'const char* q = "SELECT count(*) FROM spans";\n' >> "$tmp/core/report/report.cpp"
expect_fail "SQL in the report" "core/report/report.cpp: the report holds no SQL"

printf '#include <sqlite3.h>\n' >> "$tmp/core/engine/common/finding.cpp"
expect_fail "sqlite3.h in the engine" "core/engine/common/finding.cpp: core/engine may not include sqlite3.h"

printf '#include "core/trace/sqlite_util.h"\n' >> "$tmp/core/engine/common/finding.cpp"
expect_fail "a trace header holding sqlite3.h in the engine" "core/engine/common/finding.cpp: core/engine may not include core/trace/sqlite_util.h, which includes sqlite3.h"

printf '#include <sqlite3.h>\n' >> "$tmp/app/cli/cmd_sql.cpp"
expect_fail "sqlite3.h in the CLI" "app/cli/cmd_sql.cpp: app/cli may not include sqlite3.h"

printf '#include "app/widgets/timeline_view.h"\n' >> "$tmp/app/models/document_set.h"
expect_fail "a model including a widget" "app/models/document_set.h: app/models may not include app/widgets/timeline_view.h"

printf '#include "app/gui/main_window.h"\n' >> "$tmp/app/widgets/timeline_view.h"
expect_fail "a widget including the window" "app/widgets/timeline_view.h: app/widgets may not include app/gui/main_window.h"

printf '#include <QString>\n' >> "$tmp/app/cli/cli.cpp"
expect_fail "Qt in the CLI" "app/cli/cli.cpp: app/cli never includes Qt"

printf '#include "../models/document_set.h"\n' >> "$tmp/app/gui/navigator.cpp"
expect_fail "a relative include" "app/gui/navigator.cpp: include \"../models/document_set.h\" by its path from the source root"

printf '#include "core/engine/common/finding.h"\n' > "$tmp/tests/trace/wrong_way.cpp"
expect_fail "a trace test including the engine" "tests/trace/wrong_way.cpp: tests/trace may not include core/engine/common/finding.h"

printf '#include "cli_runner.h"\n' > "$tmp/tests/engine/wrong_way.cpp"
expect_fail "an engine test driving the CLI in process" "tests/engine/wrong_way.cpp: tests/engine may not include cli_runner.h"

printf '#include "app/models/document_set.h"\n' > "$tmp/tests/hardening/wrong_way.cpp"
expect_fail "a topic test including the GUI's models" "tests/hardening/wrong_way.cpp: tests/hardening may not include app/models/document_set.h"

printf '#include <sqlite3.h>\n' > "$tmp/tests/engine/wrong_way.cpp"
expect_fail "sqlite3.h in an engine test" "tests/engine/wrong_way.cpp: tests/engine may not include sqlite3.h"

echo "layer check: the tree passes; wrong-way includes in core/ (between the engine's sub-layers too), app/ and tests/, sqlite3.h outside core/trace and SQL in the report fail"
