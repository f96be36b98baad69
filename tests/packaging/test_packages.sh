#!/usr/bin/env bash
# The Debian packages as a user gets them: build them with CPack, unpack them into a scratch root (no
# dpkg -i, nothing touches the system), and use that tree:
#   - compilescope --version and compilescope-gui --version (offscreen) run from it;
#   - a C program built through pkg-config and one through find_package(CompileScopeCollector)
#     against it each record one event under the unpacked `compilescope record`;
#   - `man compilescope-import` from it shows the import formats; bash completion knows the verbs;
#   - desktop-file-validate, appstreamcli validate and xdg-mime (a scratch XDG data dir) accept the
#     desktop integration, and a demo trace is recognised as application/x-compilescope-trace;
#   - the Python package installs into a fresh venv; `record --numba` of the unpacked tree finds its
#     own Python collectors and records a Numba compile.
# Usage: test_packages.sh BUILD_DIR SOURCE_DIR [PYTHON_WITH_NUMBA]. Exits 77 (skipped, reason printed) without dpkg-deb.
set -euo pipefail
build="$1"; src="$2"; python="${3:-}"
for tool in dpkg-deb cpack; do
  command -v "$tool" > /dev/null || { echo "skipped: $tool not installed (packaging/install-deps.sh installs it)"; exit 77; }
done
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

echo "== cpack"
(cd "$work" && cpack -G DEB --config "$build/CPackConfig.cmake" -B "$work/pkg" > "$work/cpack.log" 2>&1) ||
  { cat "$work/cpack.log"; fail "cpack"; }
ls "$work"/pkg/*.deb
root="$work/root"; mkdir -p "$root"
for deb in "$work"/pkg/*.deb; do
  dpkg-deb -I "$deb" | grep -E "Package|Depends" || true
  dpkg-deb -x "$deb" "$root"
done
cli="$root/usr/bin/compilescope"
"$cli" --version | grep -q "trace format v" || fail "compilescope --version from the package"
grep -q "Depends:.*libsqlite3" < <(dpkg-deb -I "$work"/pkg/compilescope_*.deb) || fail "compilescope's Depends lack libsqlite3 (shlibdeps)"
if [ -x "$root/usr/bin/compilescope-gui" ]; then
  QT_QPA_PLATFORM=offscreen "$root/usr/bin/compilescope-gui" --version | grep -q "compilescope-gui" || fail "compilescope-gui --version"
  grep -q "Depends:.*compilescope (= " < <(dpkg-deb -I "$work"/pkg/compilescope-gui_*.deb) || fail "compilescope-gui depends on compilescope"
fi

echo "== SDK consumers"
export LD_LIBRARY_PATH="$root/usr/lib"
cp "$src/tests/packaging/consumer.c" "$work/"
# pkg-config: the .pc is relocatable (its prefix is where it lies).
flags="$(PKG_CONFIG_PATH="$root/usr/lib/pkgconfig" pkg-config --cflags --libs compilescope-collector)"
cc -o "$work/consumer-pc" "$work/consumer.c" $flags || fail "pkg-config consumer did not build ($flags)"
mkdir -p "$work/cmake-consumer"
cp "$src/tests/packaging/consumer.c" "$work/cmake-consumer/"
cp "$src/tests/packaging/CMakeLists.txt.in" "$work/cmake-consumer/CMakeLists.txt"
cmake -S "$work/cmake-consumer" -B "$work/cmake-consumer/build" -DCMAKE_PREFIX_PATH="$root/usr" > "$work/cmake.log" 2>&1 ||
  { cat "$work/cmake.log"; fail "find_package(CompileScopeCollector)"; }
cmake --build "$work/cmake-consumer/build" > "$work/cmake-build.log" 2>&1 || { cat "$work/cmake-build.log"; fail "find_package consumer build"; }
for exe in "$work/consumer-pc" "$work/cmake-consumer/build/consumer"; do
  rm -f "$work/t.cstrace"
  "$cli" record -o "$work/t.cstrace" -- "$exe" || fail "record $exe"
  n="$("$cli" sql "$work/t.cstrace" "SELECT count(*) FROM spans s JOIN strings n ON n.id = s.name_sid WHERE n.str = 'installed sdk'" | sed -n 3p | tr -d ' ')"
  [ "$n" = "1" ] || fail "$exe recorded $n spans, expected 1"
done

echo "== man pages and completion"
MANPATH="$root/usr/share/man" man -P cat compilescope-import 2> /dev/null | grep -q "julia-invalidations" || fail "man compilescope-import shows no formats"
MANPATH="$root/usr/share/man" man -P cat compilescope 2> /dev/null | grep -q "acceptance check" || fail "man compilescope"
bash -c "source '$root/usr/share/bash-completion/completions/compilescope'; COMP_WORDS=(compilescope imp); COMP_CWORD=1; _compilescope; [ \"\${COMPREPLY[*]}\" = import ]" ||
  fail "bash completion does not complete 'imp' to import"

if [ -x "$root/usr/bin/compilescope-gui" ]; then
  echo "== desktop integration"
  desktop-file-validate "$root/usr/share/applications/compilescope-gui.desktop" || fail "desktop-file-validate"
  appstreamcli validate --no-net --pedantic "$root/usr/share/metainfo/io.github.compilescope.CompileScope.metainfo.xml" ||
    appstreamcli validate --no-net "$root/usr/share/metainfo/io.github.compilescope.CompileScope.metainfo.xml" || fail "appstreamcli validate"
  export XDG_DATA_HOME="$work/xdg" XDG_DATA_DIRS="$work/xdg-none"
  mkdir -p "$XDG_DATA_HOME/mime/packages"
  cp "$root/usr/share/mime/packages/compilescope.xml" "$XDG_DATA_HOME/mime/packages/"
  update-mime-database "$XDG_DATA_HOME/mime" || fail "update-mime-database"
  # By content (the SQLite application id), not only by the extension.
  cp "$src/resources/demo/demo.cstrace" "$work/renamed.db"
  for f in "$src/resources/demo/demo.cstrace" "$work/renamed.db"; do
    t="$(xdg-mime query filetype "$f")"
    [ "$t" = "application/x-compilescope-trace" ] || fail "xdg-mime query filetype $f: $t"
  done
  unset XDG_DATA_HOME XDG_DATA_DIRS
fi

echo "== Python collectors from the install"
# `pip install` of the packaged collectors into a fresh venv of Debian's python3: the package imports
# from the venv and finds the installed collector library.
/usr/bin/python3 -m venv --system-site-packages "$work/venv"   # setuptools and wheel from Debian: no network
"$work/venv/bin/pip" install --quiet --no-index --no-build-isolation "$root/usr/share/compilescope/python" > "$work/pip.log" 2>&1 ||
  { cat "$work/pip.log"; fail "pip install of the Python package"; }
"$work/venv/bin/python" -c "import compilescope; assert '/venv/' in compilescope.__file__, compilescope.__file__; assert compilescope.available()" ||
  fail "the pip-installed package does not load the installed collector library"
# `record --numba` of the unpacked install, with no PYTHONPATH and no COMPILESCOPE_* variable: it finds
# its own share/compilescope/python and injects it into a program that never imports compilescope,
# run by the interpreter that has Numba (the project's venv, COMPILESCOPE_PYTHON).
if [ -n "$python" ] && "$python" -c "import numba" 2> /dev/null; then
  cat > "$work/job.py" <<'PY'
import sys
import numba
@numba.njit
def f(x):
    return x + 1
f(1)
print("collectors from", sys.modules["compilescope"].__file__)
PY
  out="$(cd "$work" && env -u PYTHONPATH -u COMPILESCOPE_PYTHON_PACKAGE COMPILESCOPE_BUFFER_POLICY=block \
    "$cli" record --numba -o "$work/py.cstrace" -- "$python" "$work/job.py")" || fail "record --numba from the install"
  echo "$out"
  grep -q "collectors from $root/usr/share/compilescope/python/compilescope/__init__.py" <<< "$out" ||
    fail "record --numba did not inject the installed collectors: $out"
  n="$("$cli" sql "$work/py.cstrace" "SELECT count(*) FROM cache_lookups" | sed -n 3p | tr -d ' ')"
  [ "$n" = "1" ] || fail "the Numba compile was not recorded once ($n lookups)"
elif [ "${COMPILESCOPE_REQUIRE_RUNTIMES:-0}" != 0 ]; then
  fail "numba is not importable by '$python' (packaging/install-deps.sh installs it) and COMPILESCOPE_REQUIRE_RUNTIMES=1"
else
  echo "numba is not importable by '$python': record --numba from the install not checked"
fi
echo "packages: all checks passed"
