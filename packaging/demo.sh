#!/usr/bin/env bash
# Installs what is needed, builds the release preset and runs the main job on the bundled trace
# (resources/demo/demo.cstrace, recorded from real workloads by resources/demo/make-demo.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
bash packaging/install-deps.sh
cmake --preset release >/dev/null
cmake --build --preset release -j "$(nproc)"
trace=resources/demo/demo.cstrace
bin=build/release/app
if [ -x "$bin/compilescope-gui" ] && [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
  exec "$bin/compilescope-gui" "$trace"
fi
if "$bin/compilescope" --help | grep -q '^  report '; then
  mkdir -p out
  "$bin/compilescope" report "$trace" -o out/demo-report.html
  echo "No display: wrote out/demo-report.html"
  exit 0
fi
exec "$bin/compilescope" info "$trace"
