#!/usr/bin/env bash
# Installs the Debian packages CompileScope needs to build, test and run, and one Python virtual
# environment with the real runtimes the tests record (Warp, PyTorch, JAX, Numba) and the test tools
# from the Python package index (tlparse, DuckDB, tree-sitter-julia), pinned by
# packaging/python-requirements.txt. Idempotent: when every package is already installed it changes
# nothing and needs no network.
# CUDA (nvcc, NVRTC, nvJitLink, CUPTI) is not a Debian package here: it is used from /usr/local/cuda
# when present and reported as missing by CMake's feature summary otherwise.
set -euo pipefail

PACKAGES=(
  build-essential cmake ninja-build pkg-config clang
  libsqlite3-dev sqlite3
  libgtest-dev libgmock-dev libbenchmark-dev libsimdjson-dev
  qt6-base-dev libqcustomplot-dev libqcustomplot2.1-qt6
  xvfb xauth chromium
  python3 python3-venv python3-wheel
  universal-ctags
  dpkg-dev desktop-file-utils appstream xdg-utils shared-mime-info libfile-mimeinfo-perl librsvg2-bin man-db
)

present() {
  dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"
}
missing=()
for p in "${PACKAGES[@]}"; do
  present "$p" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#PACKAGES[@]} packages present"
else
  echo "install-deps: installing ${missing[*]}"
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -q
  $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# The virtual environment. Its interpreter is Debian's /usr/bin/python3 (installed above), chosen on
# purpose: `python3` on PATH may be another one (a pyenv build here), and the venv must not change
# when PATH does. Where it lives: $COMPILESCOPE_VENV, else ~/.cache/compilescope/venv, outside the
# checkout so that a fresh clone (CI's) reuses it; CMake finds it the same way (COMPILESCOPE_PYTHON).
# A stamp holding the requirements file's checksum says it is complete: when it matches, nothing is
# fetched. A failed install leaves no stamp, so the next run tries again.
root="$(cd "$(dirname "$0")/.." && pwd)"
req="$root/packaging/python-requirements.txt"
venv="${COMPILESCOPE_VENV:-$HOME/.cache/compilescope/venv}"
want="$(sha256sum "$req" | cut -d' ' -f1) $(/usr/bin/python3 -c 'import sys; print(sys.version.split()[0])')"
if [ -x "$venv/bin/python" ] && [ "$(cat "$venv/.compilescope-requirements" 2>/dev/null)" = "$want" ]; then
  echo "install-deps: Python venv $venv present"
else
  echo "install-deps: installing the Python venv $venv from packaging/python-requirements.txt"
  rm -f "$venv/.compilescope-requirements"
  [ -x "$venv/bin/python" ] || /usr/bin/python3 -m venv "$venv"
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-input --timeout 120 -r "$req"
  # The runtimes import and tlparse's wheel brought its binary, or the install is not done.
  "$venv/bin/python" -c 'import warp, torch, jax, numba, duckdb, tree_sitter, tree_sitter_julia' > /dev/null
  [ -x "$venv/bin/tlparse" ] || { echo "install-deps: tlparse's binary is missing from $venv/bin" >&2; exit 1; }
  echo "$want" > "$venv/.compilescope-requirements"
  echo "install-deps: Python venv ready"
fi
