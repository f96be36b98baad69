#!/usr/bin/env python3
"""Overhead of `compilescope record --RUNTIME` on real Warp, PyTorch, JAX and Numba programs.

Usage: bench_python_overhead.py COMPILESCOPE_BINARY OUT.json [--runs N] [--only RUNTIME,...]

Why whole programs: the collectors' cost is what a user pays per run: the recorder's start, the
injected sitecustomize, the wrapped load / dispatch functions and the rows written. Each program in
benchmarks/python/ compiles a known number of times inside a timed section and prints WORK_NS and
COMPILES. The program runs N times unrecorded and N times recorded, in pairs whose order alternates
(so drift in machine load hits both sides), each recorded run with a fresh trace and, like each
unrecorded one, fresh private caches (every compile is a real compile). Two figures per runtime:
- wall_ratio: median recorded wall time / median unrecorded wall time of the whole process;
- hook_us_per_compile: the time the collector's own hooks spent per compile, measured inside the
  recorded process (COMPILESCOPE_SELF_TIME=1: each hook adds what it spent outside the runtime's
  code, the process prints the total at exit): the cost the collector adds to one compile;
- us_per_compile (shown): the median over pairs of (recorded - unrecorded) timed section / COMPILES.
  It also holds what recording makes the runtime do (JAX computes its cache-miss explanations,
  PyTorch its structured-trace payloads) and the compile times' own spread, which for a compile of
  hundreds of milliseconds is far larger than the hooks: it can come out negative.
The results are written as Google Benchmark JSON (benchmark BM_PythonOverhead/RUNTIME, counters
wall_ratio, hook_us_per_compile, us_per_compile, compiles, recorded_rows) so scripts/bench_ratios.py prints them beside
their goals. A runtime that does not import is reported and left out.
"""
import json
import os
import re
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PROGRAMS = os.path.join(HERE, "..", "benchmarks", "python")
RUNTIMES = ("numba", "jax", "torch", "warp")
ROWS = {"warp": "SELECT count(*) FROM module_loads",
        "numba": "SELECT count(*) FROM cache_lookups", "jax": "SELECT count(*) FROM cache_lookups",
        "torch": "SELECT count(*) FROM cache_lookups"}
OUT = re.compile(r"WORK_NS=(\d+) COMPILES=(\d+)")
SELF = re.compile(r"COMPILESCOPE_SELF_NS=(\d+) CALLS=(\d+)")


def run_once(binary, runtime, recorded, tmp):
    caches = tempfile.mkdtemp(dir=tmp)
    env = dict(os.environ, WARP_CACHE_PATH=os.path.join(caches, "warp"), NUMBA_CACHE_DIR=os.path.join(caches, "numba"),
               TORCHINDUCTOR_CACHE_DIR=os.path.join(caches, "inductor"))
    program = [sys.executable, os.path.join(PROGRAMS, f"overhead_{runtime}.py")]
    trace = os.path.join(caches, "t.cstrace")
    argv = [binary, "record", f"--{runtime}", "-o", trace, "--"] + program if recorded else program
    if recorded:
        env["COMPILESCOPE_SELF_TIME"] = "1"
    t0 = time.perf_counter_ns()
    r = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=900)
    wall = time.perf_counter_ns() - t0
    m = OUT.search(r.stdout)
    if r.returncode != 0 or not m:
        raise RuntimeError(f"{' '.join(argv)} failed ({r.returncode}): {r.stderr[-2000:]}")
    rows = hook_ns = None
    if recorded:
        sm = SELF.search(r.stderr)
        if not sm:
            raise RuntimeError(f"{' '.join(argv)}: the collector printed no COMPILESCOPE_SELF_NS line")
        hook_ns = int(sm.group(1))
        db = sqlite3.connect(trace)
        rows = db.execute(ROWS[runtime]).fetchone()[0]
        db.close()
    shutil.rmtree(caches, ignore_errors=True)
    return wall, int(m.group(1)), int(m.group(2)), rows, hook_ns


def measure(binary, runtime, runs, tmp):
    plain, rec, per_compile, rows, hooks = [], [], [], [], []
    compiles = 0
    for i in range(runs):
        order = (False, True) if i % 2 == 0 else (True, False)
        pair = {}
        for recorded in order:
            pair[recorded] = run_once(binary, runtime, recorded, tmp)
        (pw, pwork, compiles, _, _), (rw, rwork, _, n, hook_ns) = pair[False], pair[True]
        plain.append(pw)
        rec.append(rw)
        rows.append(n)
        per_compile.append((rwork - pwork) / compiles / 1e3)
        hooks.append(hook_ns / compiles / 1e3)
    wall_ratio = statistics.median(rec) / statistics.median(plain)
    return {"name": f"BM_PythonOverhead/{runtime}", "run_name": f"BM_PythonOverhead/{runtime}", "run_type": "iteration",
            "iterations": runs, "real_time": statistics.median(rec), "cpu_time": statistics.median(rec), "time_unit": "ns",
            "wall_ratio": wall_ratio, "us_per_compile": statistics.median(per_compile),
            "hook_us_per_compile": statistics.median(hooks), "compiles": compiles,
            "recorded_rows": min(rows), "unrecorded_wall_s": statistics.median(plain) / 1e9,
            "recorded_wall_s": statistics.median(rec) / 1e9}


def main():
    args = sys.argv[1:]
    if len(args) < 2:
        print(__doc__)
        return 2
    binary, out = args[0], args[1]
    runs, only = 5, list(RUNTIMES)
    if "--runs" in args:
        runs = int(args[args.index("--runs") + 1])
    if "--only" in args:
        only = args[args.index("--only") + 1].split(",")
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        for runtime in only:
            probe = subprocess.run([sys.executable, "-c", f"import {runtime}"], capture_output=True, text=True)
            if probe.returncode != 0:
                print(f"{runtime}: not importable by {sys.executable}; left out (packaging/install-deps.sh installs it)")
                continue
            b = measure(binary, runtime, runs, tmp)
            print(f"{runtime}: {b['compiles']} compiles, {b['recorded_rows']} recorded; wall {b['unrecorded_wall_s']:.2f} s -> "
                  f"{b['recorded_wall_s']:.2f} s (x{b['wall_ratio']:.3f}); hooks {b['hook_us_per_compile']:.0f} us per compile; "
                  f"whole-run delta {b['us_per_compile']:.0f} us per compile")
            results.append(b)
    with open(out, "w") as f:
        json.dump({"context": {"executable": "scripts/bench_python_overhead.py", "runs": runs}, "benchmarks": results}, f,
                  indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
