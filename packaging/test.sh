#!/usr/bin/env bash
# Installs what is needed, builds with -Werror and runs every test through ctest.
#   packaging/test.sh          the dev preset (what CI runs)
#   packaging/test.sh asan     AddressSanitizer + UBSan
#   packaging/test.sh tsan     ThreadSanitizer
set -euo pipefail
cd "$(dirname "$0")/.."
preset="${1:-dev}"
bash packaging/install-deps.sh
jobs="$(nproc)"
cmake --preset "$preset"
cmake --build --preset "$preset" -j "$jobs"
ctest --preset "$preset" -j "$jobs" --timeout 600
