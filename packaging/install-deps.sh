#!/usr/bin/env bash
# Installs the Debian packages CompileScope needs to build, test and run, and the test-only npm
# packages of tests/fleet (a real DuckDB for the fleet test, docs/fleet.md). Idempotent: when every
# package is already installed it changes nothing and needs no network.
# CUDA (nvcc, NVRTC, nvJitLink, CUPTI) is not a Debian package here: it is used from /usr/local/cuda
# when present and reported as missing by CMake's feature summary otherwise.
set -euo pipefail

PACKAGES=(
  build-essential cmake ninja-build pkg-config clang
  libsqlite3-dev sqlite3
  libgtest-dev libgmock-dev libbenchmark-dev libsimdjson-dev
  qt6-base-dev libqcustomplot-dev libqcustomplot2.1-qt6
  xvfb xauth chromium
  python3 python3-numba python3-venv
  nodejs npm
  dpkg-dev desktop-file-utils appstream xdg-utils shared-mime-info libfile-mimeinfo-perl librsvg2-bin man-db
)

# A nodejs that bundles npm (NodeSource's builds) conflicts with Debian's npm package: there, the
# npm command it brings counts as the package.
present() {
  dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed" ||
    { [ "$1" = npm ] && command -v npm > /dev/null; }
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

# The fleet test's DuckDB (@duckdb/node-api, pinned by tests/fleet/package-lock.json) into
# tests/fleet/node_modules, where the test looks. Reinstalled only when the lock file changed (the
# copy beside the modules says which lock they came from). Without the network this fails: the
# build goes on and the fleet test is skipped, saying why.
fleet="$(cd "$(dirname "$0")/.." && pwd)/tests/fleet"
if cmp -s "$fleet/package-lock.json" "$fleet/node_modules/.installed-package-lock.json"; then
  echo "install-deps: tests/fleet npm packages present"
elif (cd "$fleet" && timeout 600 npm ci --no-audit --no-fund --loglevel=error); then
  cp "$fleet/package-lock.json" "$fleet/node_modules/.installed-package-lock.json"
  echo "install-deps: installed the tests/fleet npm packages"
else
  echo "install-deps: warning: npm ci in tests/fleet failed; the fleet test will be skipped" >&2
fi
