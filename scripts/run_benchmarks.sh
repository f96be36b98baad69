#!/usr/bin/env bash
# Builds the release benchmarks, runs every one with JSON output, and prints each speed or size
# target as figure / limit / ratio (scripts/bench_ratios.py). Exit status 1 when a target is missed.
#
# Usage: scripts/run_benchmarks.sh [--big] [OUT_DIR]
#   --big    also the 100M-event span pyramid benchmarks, the 10M-event viewer benchmarks and the 256 ranks of bench_ranks and bench_gui_ranks (writing those
#            traces takes a while)
#   OUT_DIR  where the JSON files go (default out/bench)
#
# Timing figures are only meaningful on an otherwise idle machine: the load average is printed
# before and after, and a figure taken under load says so in the output it came from.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
big=0
if [ "${1:-}" = "--big" ]; then big=1; shift; fi
out="${1:-$root/out/bench}"
build="${BUILD_DIR:-$root/build/release}"
mkdir -p "$out"

cmake --preset release -S "$root" >/dev/null
benches=(bench_collector bench_tef_import bench_invalidation_trees bench_replay bench_trace_writer bench_trace_follow bench_warp_log
         bench_report bench_diff bench_build_import bench_ranks bench_pyramid)
if grep -q '^COMPILESCOPE_BUILD_GUI:BOOL=ON' "$build/CMakeCache.txt" && [ -f "$build/build.ninja" ] &&
   grep -q 'bench_gui_timeline' "$build/build.ninja"; then
  benches+=(bench_gui_timeline bench_gui_ranks)
fi
cmake --build "$build" --target "${benches[@]}" compilescope compilescope-recorder collector_job

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for b in "${benches[@]}"; do
  filter=()
  [ "$b" = bench_gui_timeline ] && [ $big -eq 0 ] && filter=("--benchmark_filter=/1000000(/|$)|BuildTrace")
  # The 100M-event pyramid trace takes minutes to write: only with --big.
  [ "$b" = bench_pyramid ] && [ $big -eq 0 ] && filter=("--benchmark_filter=/(1000000|10000000)(/|$)")
  # 256 traces of 100k events: written once (minutes), so only with --big.
  [ "$b" = bench_ranks ] && [ $big -eq 0 ] && continue
  [ "$b" = bench_gui_ranks ] && [ $big -eq 0 ] && continue
  echo "== $b"
  QT_QPA_PLATFORM=offscreen "$build/benchmarks/$b" "${filter[@]}" --benchmark_format=json \
    --benchmark_out="$out/$b.json" >/dev/null
done
# Real Warp, PyTorch, JAX and Numba programs recorded / unrecorded (the venv of packaging/install-deps.sh).
venv_python="${COMPILESCOPE_VENV:-$HOME/.cache/compilescope/venv}/bin/python"
if [ -x "$venv_python" ]; then
  echo "== python runtimes (record --warp/--torch/--jax/--numba)"
  "$venv_python" "$root/scripts/bench_python_overhead.py" "$build/app/compilescope" "$out/python_overhead.json" \
    --runs "${PYTHON_OVERHEAD_RUNS:-7}"
else
  echo "== python runtimes: no venv at $venv_python (packaging/install-deps.sh makes it); not run"
fi
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 "$root/scripts/bench_ratios.py" "$out"/*.json
