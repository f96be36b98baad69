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

# Every workload runs in $work on copies named without a directory, so the trace names no path of the
# machine that made it (command lines, source files and imported file names read "numba_job.py", not
# /home/someone/checkout/resources/demo/numba_job.py).
cp "$here/numba_job.py" "$here/saxpy.cu" "$here/nitro-per-step-growth.scn" "$here/warp-verbose.log" "$here/julia-enzyme.txt" "$work/"
cd "$work"
if [ -x "$build/tests/nvrtc_demo" ]; then
  cp "$build/tests/nvrtc_demo" .
  "$cs" record --cuda -o nvrtc.cstrace -- ./nvrtc_demo >/dev/null
  inputs+=(nvrtc.cstrace)
fi
# Numba from the venv of packaging/install-deps.sh (its pinned version), not whatever python3 PATH finds;
# called "python" through PATH so that the command line recorded is the one a user types.
venv="${COMPILESCOPE_VENV:-$HOME/.cache/compilescope/venv}"
if "$venv/bin/python" -c 'import numba' 2>/dev/null; then
  for run in cold warm; do
    PATH="$venv/bin:$PATH" PYTHONPATH="$root/collectors/python" NUMBA_CACHE_DIR=numba-cache \
      "$cs" record -o "numba-$run.cstrace" -- python numba_job.py
    inputs+=("numba-$run.cstrace")
  done
fi
if command -v clang++ >/dev/null; then
  # From the source root with relative paths: the time trace names core/trace/writer.cpp and ./core/... headers.
  (cd "$root" && clang++ -std=c++20 -I. -Icollectors/native/include -ftime-trace -c core/trace/writer.cpp -o "$work/writer.o")
  inputs+=(writer.json)
fi
if [ -x "$nvcc" ]; then
  "$nvcc" -c -arch=sm_90 --time nvcc-time.csv -o saxpy.o saxpy.cu
  inputs+=(nvcc-time.csv)
fi
mkdir -p nitro
"$build/tests/scenario_to_trace" nitro-per-step-growth.scn nitro >/dev/null
inputs+=(nitro/t.cstrace warp-verbose.log julia-enzyme.txt)

"$cs" import "${inputs[@]}" -o "$here/demo.cstrace" --force
"$cs" info "$here/demo.cstrace"
