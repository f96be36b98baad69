#!/usr/bin/env bash
# Installs the Debian packages CompileScope needs to build, test and run. Idempotent: when every
# package is already installed it changes nothing and needs no network.
# CUDA (nvcc, NVRTC, nvJitLink, CUPTI) is not a Debian package here: it is used from /usr/local/cuda
# when present and reported as missing by CMake's feature summary otherwise.
set -euo pipefail

PACKAGES=(
  build-essential cmake ninja-build pkg-config clang
  libsqlite3-dev sqlite3
  libgtest-dev libgmock-dev libbenchmark-dev
  qt6-base-dev libqcustomplot-dev libqcustomplot2.1-qt6
  xvfb xauth chromium
  python3 python3-numba python3-venv
  dpkg-dev desktop-file-utils appstream xdg-utils shared-mime-info libfile-mimeinfo-perl librsvg2-bin man-db
)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#PACKAGES[@]} packages present"
  exit 0
fi
echo "install-deps: installing ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
