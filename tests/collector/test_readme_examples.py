#!/usr/bin/env python3
"""The README's `record` example for each Python runtime, run as printed, on the real runtime.

Usage: test_readme_examples.py COMPILESCOPE_BINARY SOURCE_DIR

Why: the README is the first thing a Warp, PyTorch, JAX or Numba user copies. Its block of
`compilescope record --RUNTIME ...` lines and the `compilescope VERB TRACE` line under each is read
from README.md itself, so an example that drifts from what works fails here. Each line runs in a
scratch directory as written, with two substitutions: `compilescope` is the built binary and `python`
this interpreter (the venv the README tells the user to activate); examples/python/*.py are read from
the source tree. What each must show is the runtime's own behaviour, checked in the trace:
- warp: two identities of module __main__ (a kernel defined after the first load), both compiled, and
  `modules` naming the added kernel;
- torch: dynamo compiled `norm` more than once, and `explain` names the size guard that failed;
- jax: three tracing-cache misses of `norm` (first call, a new shape, a new dtype) and `explain`
  naming the input types that moved, as JAX prints them (f32[4], i32[4]);
- numba: `add` compiled for (int64, int64) and (float64, float64), `explain` naming argument 0.
Each example compiles something twice on purpose, and `check` fails it in the runtime's own words
(one compiled hash per module; one compile per frame; one compile per function).
A runtime that is missing skips, or fails under COMPILESCOPE_REQUIRE_RUNTIMES=1 (runtime_gate.py).
"""
import os
import re
import shlex
import sqlite3
import subprocess
import sys
import tempfile

import runtime_gate

RECORD = re.compile(r"^compilescope record --(warp|torch|jax|numba) +-o (\S+) +-- python (examples/python/\S+\.py)\s*(?:#.*)?$")
FOLLOW = re.compile(r"^compilescope (\w+) (\S+\.cstrace)\s*(?:#.*)?$")
IMPORTS = {"warp": "warp", "torch": "torch", "jax": "jax", "numba": "numba"}


def readme_examples(source_dir):
    """[(runtime, trace, script, [follow-up argv])] in README order."""
    out = []
    with open(os.path.join(source_dir, "README.md"), encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            m = RECORD.match(line)
            if m:
                out.append((m.group(1), m.group(2), m.group(3), []))
                continue
            m = FOLLOW.match(line)
            if m and out and m.group(2) == out[-1][1] and m.group(1) != "record":
                out[-1][3].append([m.group(1), m.group(2)])
    return out


def query(trace, sql):
    db = sqlite3.connect(trace)
    try:
        return db.execute(sql).fetchall()
    finally:
        db.close()


def check_warp(trace, outputs):
    loads = query(trace, "SELECT h.str, m.result FROM module_loads m JOIN strings n ON n.id = m.name_sid "
                         "JOIN strings h ON h.id = m.hash_sid WHERE n.str = '__main__' ORDER BY m.id")
    assert len(loads) == 2 and loads[0][0] != loads[1][0], loads
    assert [r for _, r in loads] == [1, 1], loads               # both compiled (cold cache)
    assert "kernel added shift" in outputs["modules"], outputs["modules"]


def lookups(trace):
    return query(trace, "SELECT p.str, l.verdict FROM cache_lookups l JOIN strings p ON p.id = l.program_sid ORDER BY l.id")


def check_torch(trace, outputs):
    misses = [p for p, v in lookups(trace) if v == 2]
    assert len(misses) >= 2 and all("norm" in p for p in misses), lookups(trace)
    assert "size" in outputs["explain"], outputs["explain"]


def check_jax(trace, outputs):
    traced = query(trace, "SELECT p.str, l.verdict FROM cache_lookups l JOIN strings p ON p.id = l.program_sid "
                          "JOIN strings c ON c.id = l.cache_sid WHERE c.str = 'jax tracing cache' ORDER BY l.id")
    assert len(traced) == 3 and all(v == 2 and p.startswith("norm (") for p, v in traced), traced
    # The dtype change, in JAX's own notation for the input types.
    assert "type of x: f32[4] -> i32[4]" in outputs["explain"], outputs["explain"]


def check_numba(trace, outputs):
    misses = [p for p, v in lookups(trace) if v == 2]
    assert misses == ["__main__.add", "__main__.add"], lookups(trace)
    assert "type of arg 0: int64 -> float64" in outputs["explain"], outputs["explain"]


CHECKS = {"warp": check_warp, "torch": check_torch, "jax": check_jax, "numba": check_numba}

# Each example compiles one function (or module) twice on purpose; `check` fails it in that
# runtime's own terms, naming it.
VERDICTS = {
    "warp": "FAIL one compiled hash per module (Warp modules): __main__ compiled under 2 hashes on cpu",
    "torch": "FAIL one compile per frame: norm (",
    "jax": "FAIL one compile per function: norm (",
    "numba": "FAIL one compile per function: __main__.add compiled 2 times (numba.dispatcher",
}


def main():
    if os.environ.get("COMPILESCOPE_SANITIZER_BUILD"):
        print("SKIPPED: sanitizer build; the Python collectors are tested in the dev preset")
        return 77
    binary, source_dir = sys.argv[1], sys.argv[2]
    examples = readme_examples(source_dir)
    runtimes = [e[0] for e in examples]
    assert sorted(runtimes) == sorted(CHECKS), f"README record examples: {runtimes}, want one each of {sorted(CHECKS)}"
    status = 0
    for runtime, trace_name, script, follow in examples:
        probe = subprocess.run([sys.executable, "-c", f"import {IMPORTS[runtime]}"], capture_output=True, text=True)
        if probe.returncode != 0:
            reason = (probe.stderr.strip().splitlines() or ["import failed"])[-1]
            status = max(status, runtime_gate.missing(runtime, reason))
            continue
        assert follow, f"README: no `compilescope VERB {trace_name}` line under the {runtime} example"
        with tempfile.TemporaryDirectory() as tmp:
            env = dict(os.environ, WARP_CACHE_PATH=os.path.join(tmp, "warp"), NUMBA_CACHE_DIR=os.path.join(tmp, "numba"),
                       TORCHINDUCTOR_CACHE_DIR=os.path.join(tmp, "inductor"))
            env.pop("PYTHONPATH", None)   # record --RUNTIME must find the collectors by itself
            argv = [binary, "record", f"--{runtime}", "-o", trace_name, "--", sys.executable,
                    os.path.join(source_dir, script)]
            r = subprocess.run(argv, cwd=tmp, env=env, capture_output=True, text=True, timeout=600)
            assert r.returncode == 0, (shlex.join(argv), r.returncode, r.stdout[-2000:], r.stderr[-4000:])
            outputs = {}
            for verb, t in follow:
                f = subprocess.run([binary, verb, t], cwd=tmp, capture_output=True, text=True, timeout=300)
                assert f.returncode in (0, 1), (verb, f.returncode, f.stderr)
                outputs[verb] = f.stdout
            CHECKS[runtime](os.path.join(tmp, trace_name), outputs)
            check = subprocess.run([binary, "check", trace_name], cwd=tmp, capture_output=True, text=True, timeout=300)
            assert check.returncode == 1 and VERDICTS[runtime] in check.stdout, (check.returncode, check.stdout)
            print(f"README example {runtime}: ok ({' '.join(v for v, _ in follow)})")
    return status


if __name__ == "__main__":
    sys.exit(main())
