#!/usr/bin/env bash
# tests/device/cupti_check.sh: the CUPTI injection library on a real GPU, in one command (< 5 min).
#
# Why a script and not a unit test: CUPTI only produces records where a GPU and its driver are, and CI
# machines have neither; the decoding itself is unit-tested (tests/cuda/test_cupti_decode.cpp). This
# script is what runs on a GPU machine. It is self-contained: it builds the collector library and the
# injection library with g++ and a small CUDA program with nvcc (PTX only, so the driver must JIT it)
# in a temporary directory, runs the program twice under CUDA_INJECTION64_PATH (cold then warm
# compute cache) and checks the injection's event log for the handshake, module loads, JIT compile /
# cache store (cold), JIT cache load (warm) and both kernel launches. When cmake and SQLite's headers
# are there too, it also builds compilescope and checks the same facts in a trace written by
# `compilescope record --cuda`, and that `compilescope findings` reports the driver JIT at load
# (cuda.jit_at_load) and, over two runs with the compute cache wiped between them, the cache that was
# not kept (cuda.jit_cache_not_kept). Output: one PASS / FAIL / SKIP line per check; exit status 1 on any FAIL.
#
# Usage: tests/device/cupti_check.sh [--keep]     (CUDA_HOME defaults to /usr/local/cuda)
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
CUDA=${CUDA_HOME:-/usr/local/cuda}
WORK=$(mktemp -d /tmp/cupti_check.XXXXXX)
[ "${1:-}" = "--keep" ] || trap 'rm -rf "$WORK"' EXIT
FAILED=0
pass() { echo "PASS: $*"; }
fail() { echo "FAIL: $*"; FAILED=1; }
skip() { echo "SKIP: $*"; }
die() { fail "$*"; exit 1; }

command -v nvidia-smi >/dev/null || die "nvidia-smi not found: not a GPU machine"
[ -x "$CUDA/bin/nvcc" ] || die "nvcc not found at $CUDA/bin/nvcc (set CUDA_HOME)"
CC=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -1 | tr -d '. ')
[ -n "$CC" ] || die "nvidia-smi lists no GPU"
echo "GPU: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1), compute_$CC"

CUPTI_INC=""; CUPTI_LIB=""
for d in "$CUDA/include" "$CUDA/extras/CUPTI/include"; do [ -f "$d/cupti.h" ] && CUPTI_INC=$d && break; done
for d in "$CUDA/lib64" "$CUDA/extras/CUPTI/lib64" "$CUDA"/targets/*/lib; do
  [ -e "$d/libcupti.so" ] && CUPTI_LIB=$d && break
done
[ -n "$CUPTI_INC" ] && [ -n "$CUPTI_LIB" ] || die "CUPTI headers or libcupti.so not found under $CUDA"

# --- build ------------------------------------------------------------------------------------------
CXX=${CXX:-g++}
FLAGS="-std=c++20 -O1 -fPIC -shared -fvisibility=hidden -I$ROOT/collectors/native/include"
$CXX $FLAGS "$ROOT"/collectors/native/src/*.cpp -o "$WORK/libcompilescope_collector.so" -lpthread -ldl \
  > "$WORK/build.log" 2>&1 || { cat "$WORK/build.log"; die "building the collector library"; }
$CXX $FLAGS -I"$CUPTI_INC" -I"$CUDA/include" "$ROOT"/collectors/cuda/cupti/*.cpp -o "$WORK/libcompilescope_cupti.so" \
  -L"$WORK" -lcompilescope_collector -L"$CUPTI_LIB" -lcupti -Wl,-rpath,"$WORK:$CUPTI_LIB" \
  >> "$WORK/build.log" 2>&1 || { cat "$WORK/build.log"; die "building the CUPTI injection library"; }
nm -D --defined-only "$WORK/libcompilescope_cupti.so" | grep -q ' T InitializeInjection$' \
  && pass "InitializeInjection is exported" || fail "InitializeInjection is not exported"
"$CUDA/bin/nvcc" -gencode "arch=compute_$CC,code=compute_$CC" "$ROOT/tests/device/cupti_probe.cu" -o "$WORK/probe" \
  >> "$WORK/build.log" 2>&1 || { cat "$WORK/build.log"; die "building the CUDA probe"; }
pass "built collector, injection library and probe (PTX only, compute_$CC)"

# --- run under injection, cold then warm compute cache -------------------------------------------------
run() {  # run NAME: runs the probe with a log at $WORK/NAME.log
  CUDA_CACHE_PATH="$WORK/cache" CUDA_INJECTION64_PATH="$WORK/libcompilescope_cupti.so" \
    COMPILESCOPE_CUPTI_LOG="$WORK/$1.log" timeout 120 "$WORK/probe" > "$WORK/$1.out" 2>&1
}
check() {  # check LOG PATTERN WHAT
  if grep -Eq "$2" "$WORK/$1.log" 2>/dev/null; then pass "$1: $3"; else fail "$1: $3 (no line matching '$2')"; fi
}
run cold && pass "cold run exits 0" || { cat "$WORK/cold.out"; fail "cold run failed"; }
run warm && pass "warm run exits 0" || { cat "$WORK/warm.out"; fail "warm run failed"; }
for r in cold warm; do
  check $r '^handshake cupti=[0-9]+' "handshake written"
  check $r '^module-load id=[0-9]+ cubin_bytes=[1-9][0-9]* digest=[0-9a-f]{16}' "module load with cubin size and digest"
  check $r '^launch grid=256,1,1 block=256,1,1 .*dur=[1-9][0-9]* name=.*saxpy' "saxpy launch (grid, block, duration)"
  check $r '^launch grid=512,1,1 block=128,1,1 shared=[1-9][0-9]* .*name=.*scale' "scale launch with shared memory"
done
check cold '^jit entry=ptx-to-cubin op=compile start=[0-9]+ dur=[0-9]+' "driver JIT compile of the PTX"
check cold '^jit entry=ptx-to-cubin op=cache-store' "JIT result stored in the compute cache"
check warm '^jit entry=ptx-to-cubin op=cache-load' "JIT result loaded from the compute cache"
if grep -q '^unavailable' "$WORK"/*.log; then fail "GPU events unavailable: $(grep -h '^unavailable' "$WORK"/*.log | head -1)"; fi
echo "--- cold run log (first lines) ---"; head -20 "$WORK/cold.log" 2>/dev/null

# --- the same facts in a trace, when compilescope is built (COMPILESCOPE_BUILD_DIR) or can be ----------
BUILD=${COMPILESCOPE_BUILD_DIR:-}
if [ -z "$BUILD" ] && command -v cmake >/dev/null && [ -f /usr/include/sqlite3.h ]; then
  GEN=""; command -v ninja >/dev/null && GEN="-G Ninja"
  BUILD="$WORK/build"
  cmake -S "$ROOT" -B "$BUILD" $GEN -DCMAKE_BUILD_TYPE=Release -DCOMPILESCOPE_BUILD_GUI=OFF \
       -DCOMPILESCOPE_BUILD_TESTS=OFF -DCOMPILESCOPE_BUILD_BENCHMARKS=OFF > "$WORK/cmake.log" 2>&1 &&
     cmake --build "$BUILD" -j"$(nproc)" --target compilescope compilescope-recorder compilescope_cupti \
       compilescope_cuda_interposer >> "$WORK/cmake.log" 2>&1 || { tail -20 "$WORK/cmake.log"; BUILD=""; fail "building compilescope with cmake"; }
fi
if [ -n "$BUILD" ]; then
  if [ -x "$BUILD/app/compilescope" ]; then
    CS="$BUILD/app/compilescope"
    rm -rf "$WORK/cache"
    CUDA_CACHE_PATH="$WORK/cache" timeout 120 "$CS" record --cuda -o "$WORK/t.cstrace" -- "$WORK/probe" \
      > "$WORK/rec.out" 2> "$WORK/rec.err" && pass "record --cuda exits 0" || { cat "$WORK/rec.err"; fail "record --cuda"; }
    grep -q 'no CUPTI handshake' "$WORK/rec.err" && fail "record --cuda saw no handshake" || pass "record --cuda: handshake arrived"
    q() { "$CS" sql "$WORK/t.cstrace" "$1" 2>/dev/null | sed -n 3p | tr -d ' '; }
    [ "$(q 'SELECT count(*) FROM cuda_modules WHERE op=0 AND cubin_bytes>0')" -ge 1 ] 2>/dev/null \
      && pass "trace: cuda_modules load rows" || fail "trace: no cuda_modules load row"
    [ "$(q 'SELECT count(*) FROM cuda_jit WHERE operation=3')" -ge 1 ] 2>/dev/null \
      && pass "trace: cuda_jit compile row" || fail "trace: no cuda_jit compile row"
    [ "$(q "SELECT count(*) FROM kernel_launches k JOIN strings s ON s.id=k.name_sid WHERE s.str LIKE '%saxpy%' AND k.grid_x=256 AND k.dur_ns>0")" -ge 1 ] 2>/dev/null \
      && pass "trace: saxpy kernel_launches row" || fail "trace: no saxpy kernel_launches row"
    # The PTX-only probe makes the driver JIT at load: the engine names it and the -gencode fix.
    "$CS" findings "$WORK/t.cstrace" > "$WORK/findings.out" 2>&1
    grep -q '^\[warning\] cuda.jit_at_load: the driver JIT-compiled [1-9][0-9]* module.* at load on device 0' "$WORK/findings.out" \
      && pass "findings: cuda.jit_at_load" || { cat "$WORK/findings.out"; fail "findings: no cuda.jit_at_load"; }
    grep -q 'fix: Build SASS for the device: add its architecture to -gencode' "$WORK/findings.out" \
      && pass "findings: jit_at_load names the -gencode fix" || fail "findings: jit_at_load without the -gencode fix"
    # Two runs of the probe with the compute cache wiped between them (a cache that is not kept):
    # the second run compiles the entry the first stored, which the engine reports.
    rm -rf "$WORK/cache"
    CUDA_CACHE_PATH="$WORK/cache" timeout 240 "$CS" record --cuda -o "$WORK/t2.cstrace" -- \
      sh -c "'$WORK/probe' && rm -rf '$WORK/cache' && '$WORK/probe'" > "$WORK/rec2.out" 2> "$WORK/rec2.err" \
      && pass "record --cuda of two runs exits 0" || { cat "$WORK/rec2.err"; fail "record --cuda of two runs"; }
    "$CS" findings "$WORK/t2.cstrace" > "$WORK/findings2.out" 2>&1
    [ "$(grep -c '^\[warning\] cuda.jit_at_load' "$WORK/findings2.out")" -ge 2 ] \
      && pass "findings: one cuda.jit_at_load per run" || { cat "$WORK/findings2.out"; fail "findings: not one cuda.jit_at_load per run"; }
    grep -q 'cuda.jit_cache_not_kept' "$WORK/findings2.out" \
      && pass "findings: cuda.jit_cache_not_kept after the cache was wiped" \
      || fail "findings: no cuda.jit_cache_not_kept (cache paths: $("$CS" sql "$WORK/t2.cstrace" "SELECT DISTINCT s.str FROM cuda_jit j JOIN strings s ON s.id=j.cache_path_sid" 2>/dev/null | tail -n +3 | tr '\n' ' '))"
  else
    fail "no $BUILD/app/compilescope"
  fi
else
  skip "trace check: no COMPILESCOPE_BUILD_DIR, and cmake or SQLite headers missing on this machine"
fi

[ $FAILED -eq 0 ] && echo "cupti_check: PASS" || echo "cupti_check: FAIL"
exit $FAILED
