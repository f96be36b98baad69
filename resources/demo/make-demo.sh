#!/usr/bin/env bash
# Regenerates resources/demo/demo.cstrace, the bundled trace the README's main command opens.
#
# Real workloads run on this machine, each recorded or imported, then merged into one trace:
#   - NVRTC compiles and an nvJitLink link of a real CUDA host program under `record --cuda`
#   - a real Numba program (compilescope.numba), cold and then warm against its disk cache
#   - clang -ftime-trace of one of our own sources, and nvcc --time of saxpy.cu
# plus example data shaped exactly as the tools print it (no Julia, Warp or GPU here):
#   - a Warp verbose log with identity churn (warp-verbose.log)
#   - the Julia collector's record of the Enzyme.jl #776 load (julia-enzyme.txt)
#   - a ReactantNitro run whose GraphConst moves every step (nitro-per-step-growth.scn, replayed
#     through the collector C ABI by the test tool scenario_record when built, else scenario_to_trace)
# Needs a build with tests (default build/release; BUILD=build/dev to use another).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
build="$(cd "${BUILD:-$root/build/release}" && pwd)"
cs="$build/app/compilescope"
nvcc="${NVCC:-/usr/local/cuda/bin/nvcc}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
inputs=()

if [ -x "$build/tests/nvrtc_demo" ]; then
  "$cs" record --cuda -o "$work/nvrtc.cstrace" -- "$build/tests/nvrtc_demo" >/dev/null
  inputs+=("$work/nvrtc.cstrace")
fi
# Numba from the venv of packaging/install-deps.sh (its pinned version), not whatever python3 PATH finds.
python="${COMPILESCOPE_VENV:-$HOME/.cache/compilescope/venv}/bin/python"
if "$python" -c 'import numba' 2>/dev/null; then
  for run in cold warm; do
    PYTHONPATH="$root/collectors/python" NUMBA_CACHE_DIR="$work/numba-cache" \
      "$cs" record -o "$work/numba-$run.cstrace" -- "$python" "$here/numba_job.py"
    inputs+=("$work/numba-$run.cstrace")
  done
fi
if command -v clang++ >/dev/null; then
  clang++ -std=c++20 -I"$root" -I"$root/collectors/native/include" -ftime-trace -c \
    "$root/core/trace/writer.cpp" -o "$work/writer.o"
  inputs+=("$work/writer.json")
fi
if [ -x "$nvcc" ]; then
  "$nvcc" -c -arch=sm_90 --time "$work/nvcc-time.csv" -o "$work/saxpy.o" "$here/saxpy.cu"
  inputs+=("$work/nvcc-time.csv")
fi
mkdir -p "$work/nitro"
"$build/tests/scenario_to_trace" "$here/nitro-per-step-growth.scn" "$work/nitro" >/dev/null
inputs+=("$work/nitro/t.cstrace" "$here/warp-verbose.log" "$here/julia-enzyme.txt")

"$cs" import "${inputs[@]}" -o "$here/demo.cstrace" --force
"$cs" info "$here/demo.cstrace"
