#!/usr/bin/env bash
# Runs the real compilescope-gui under Xvfb and writes one PNG per view.
#
# scripts/screenshots.sh [OUT_DIR] [TRACE...]: the given traces (default: docs/screenshots, a fresh GUI
# demo trace written by the test's TraceWriter plus resources/demo/demo.cstrace), at SCREENSHOT_SIZE.
# scripts/screenshots.sh --all [OUT_DIR]: every view at 1280x800 and 1920x1080 (issue 39) for the
# bundled demo and three real logs imported with `compilescope import` (a Warp verbose log, a PyTorch
# recompiles log, SnoopCompile's printed trees), plus the start screen, into OUT_DIR/SET/WxH/
# (default docs/screenshots/views).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${BUILD_DIR:-$root/build/dev}"
gui="$build/app/gui/compilescope-gui"
cli="$build/app/compilescope"
[ -x "$gui" ] || { echo "screenshots.sh: build compilescope-gui first ($gui)" >&2; exit 2; }
# A fixed screen and settings directory, so the pictures do not depend on the user's session.
export XDG_CONFIG_HOME="$(mktemp -d)"
work="$(mktemp -d)"
trap 'rm -rf "$work" "$XDG_CONFIG_HOME"' EXIT
shoot() {  # SIZE OUT TRACE...
  local size="$1" out="$2"
  shift 2
  mkdir -p "$out"
  xvfb-run -a -s "-screen 0 2000x1200x24" "$gui" --window-size "$size" --screenshot-dir "$out" "$@"
}

if [ "${1:-}" = "--all" ]; then
  out="${2:-$root/docs/screenshots/views}"
  "$cli" import "$root/resources/demo/warp-verbose.log" -o "$work/warp.cstrace" > /dev/null
  "$cli" import "$root/tests/data/torch/recompiles_ids_issue148179.log" -o "$work/pytorch.cstrace" > /dev/null
  "$cli" import "$root/tests/data/julia/printed_trees.txt" -o "$work/julia-trees.cstrace" > /dev/null
  for size in 1280x800 1920x1080; do
    shoot "$size" "$out/start/$size"
    shoot "$size" "$out/demo/$size" "$root/resources/demo/demo.cstrace"
    for set in warp pytorch julia-trees; do shoot "$size" "$out/$set/$size" "$work/$set.cstrace"; done
  done
  find "$out" -name '*.png' | sort
  exit 0
fi

out="${1:-$root/docs/screenshots}"
shift || true
traces=("$@")
if [ ${#traces[@]} -eq 0 ]; then
  "$build/tests/write_demo_trace" "$work/gui-demo.cstrace"
  traces=("$work/gui-demo.cstrace" "$root/resources/demo/demo.cstrace")
fi
# SCREENSHOT_SIZE=1000x700 (or 1600x1000) looks at the views as a user with that window would.
shoot "${SCREENSHOT_SIZE:-1280x800}" "$out" "${traces[@]}"
ls -1 "$out"/*.png
