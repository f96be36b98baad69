#!/usr/bin/env bash
# Builds one libFuzzer target (clang, ASan + UBSan; the `fuzz` preset) and runs it for a given time.
#   scripts/fuzz.sh TARGET SECONDS      e.g. scripts/fuzz.sh tef 600
# TARGET: tef nvcc_time warp_log warp_probe julia_invalidations julia_trees julia_timing
#         julia_collector torch_trace torch_recompiles jax_log ninja_log trace merge wire
# It starts from the committed seeds (tests/fuzz/corpus/TARGET) and regressions
# (tests/fuzz/regressions/TARGET), keeps what it finds in build/fuzz/corpus/TARGET, writes crashing
# inputs to build/fuzz/crash-TARGET-*, and ends with one line for docs/reliability.md:
# target, seconds, executions, crashes, date. A crash's input belongs in tests/fuzz/regressions/TARGET
# once fixed: the dev build runs those as ctest tests.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -ne 2 ]; then
  sed -n '2,9p' "$0" >&2
  exit 2
fi
target="$1"
seconds="$2"
seeds="tests/fuzz/corpus/$target"
[ -d "$seeds" ] || { echo "fuzz.sh: no target '$target' (no $seeds)" >&2; exit 2; }
cmake --preset fuzz >/dev/null
cmake --build --preset fuzz -j "${FUZZ_BUILD_JOBS:-2}" --target "fuzz_$target"
work="build/fuzz/corpus/$target"
mkdir -p "$work"
log="build/fuzz/fuzz-$target.log"
regressions="tests/fuzz/regressions/$target"
[ -d "$regressions" ] || regressions=""
# Each input writes and analyses a scratch trace: on tmpfs, its fsyncs cost nothing.
export TMPDIR="${TMPDIR:-/dev/shm}"
set +e
build/fuzz/tests/fuzz/"fuzz_$target" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=2048 \
  -print_final_stats=1 -artifact_prefix="build/fuzz/crash-$target-" "$work" "$seeds" $regressions 2>&1 | tee "$log" | tail -n 25
rc=${PIPESTATUS[0]}
set -e
execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
crashes=$(find build/fuzz -maxdepth 1 -name "crash-$target-*" | wc -l)
echo "fuzz.sh: target=$target seconds=$seconds execs=${execs:-?} crashes=$crashes exit=$rc date=$(date -u +%Y-%m-%d)"
exit "$rc"
