#!/usr/bin/env bash
# Regenerates resources/demo/demo.cstrace from real workloads on this machine.
# Today: a real `nvcc --time` compile of resources/demo/saxpy.cu, imported. Later collectors
# (NVRTC under the CUDA collector, Numba, Julia / Warp example logs) add their sessions here.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$here/../.."
cs="${COMPILESCOPE:-$root/build/release/app/compilescope}"
nvcc="${NVCC:-/usr/local/cuda/bin/nvcc}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$nvcc" -c -arch=sm_90 --time "$work/nvcc-time.csv" -o "$work/saxpy.o" "$here/saxpy.cu"
"$cs" import "$work/nvcc-time.csv" -o "$here/demo.cstrace" --force
"$cs" info "$here/demo.cstrace"
