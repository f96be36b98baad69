#!/usr/bin/env bash
# Installs what is needed, builds with -Werror and runs every test through ctest.
#   packaging/test.sh          what CI runs: the dev preset (every test, built with clang), and before
#                              its tests the core and collector tests under AddressSanitizer + UBSan,
#                              built with GCC (preset asan-ci). So CI builds with both compilers,
#                              -Werror on both, and every test runs under one of them.
#   packaging/test.sh asan     AddressSanitizer + UBSan, every test
#   packaging/test.sh tsan     ThreadSanitizer
# Why the sanitizer half: the dev build cannot see undefined behaviour; a signed overflow on a hostile
# trace passes there and stops the sanitizer build (docs/reliability.md). The dev tests run last, so
# the last ctest summary printed is the whole suite's.
set -euo pipefail
cd "$(dirname "$0")/.."
preset="${1:-dev}"
bash packaging/install-deps.sh
# The venv above holds Warp, PyTorch, JAX, Numba, tlparse, DuckDB and tree-sitter-julia: here a test
# that cannot find one of them fails instead of skipping (tests/collector/runtime_gate.py). Only the
# Julia and GPU tests may skip.
export COMPILESCOPE_REQUIRE_RUNTIMES=1
jobs="$(nproc)"
cmake --preset "$preset"
cmake --build --preset "$preset" -j "$jobs"
if [ "$preset" = dev ]; then
  echo "== the core and collector tests under AddressSanitizer + UBSan (preset asan-ci) =="
  cmake --preset asan-ci
  cmake --build --preset asan-ci -j "$jobs"
  ctest --preset asan-ci -j "$jobs" --timeout 600
  echo "== every test (preset dev) =="
fi
ctest --preset "$preset" -j "$jobs" --timeout 600
