#!/usr/bin/env bash
# Runs the real compilescope-gui under Xvfb on the demo traces and writes one PNG per view.
# Usage: scripts/screenshots.sh [OUT_DIR] [TRACE...]   (default: docs/screenshots, a fresh GUI demo
# trace written by the test's TraceWriter plus resources/demo/demo.cstrace)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${BUILD_DIR:-$root/build/dev}"
out="${1:-$root/docs/screenshots}"
shift || true
gui="$build/app/gui/compilescope-gui"
[ -x "$gui" ] || { echo "screenshots.sh: build compilescope-gui first ($gui)" >&2; exit 2; }
traces=("$@")
if [ ${#traces[@]} -eq 0 ]; then
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
  "$build/tests/write_demo_trace" "$work/gui-demo.cstrace"
  traces=("$work/gui-demo.cstrace" "$root/resources/demo/demo.cstrace")
fi
mkdir -p "$out"
# A fixed screen and settings directory, so the pictures do not depend on the user's session.
export XDG_CONFIG_HOME="$(mktemp -d)"
# SCREENSHOT_SIZE=1000x700 (or 1600x1000) looks at the views as a user with that window would.
size="${SCREENSHOT_SIZE:-1280x800}"
xvfb-run -a -s "-screen 0 1700x1100x24" "$gui" --window-size "$size" --screenshot-dir "$out" "${traces[@]}"
ls -1 "$out"/*.png
