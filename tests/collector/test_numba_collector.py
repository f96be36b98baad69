#!/usr/bin/env python3
"""The Numba collector records real Numba compiles and disk-cache loads (numba from the venv).

Usage: test_numba_collector.py COMPILESCOPE_BINARY SOURCE_DIR
Run 1 (cold, private NUMBA_CACHE_DIR): f(int, int), f(float, float), f(int, int) again, g(int) with
cache=False -> three compiles (lookups, misses); the repeated int call compiles nothing; `explain`
names argument 0 as what moved between f's two compiles. Run 2 (warm, same cache dir): f's two
overloads load from the disk cache (cache-load spans marked disk_cache=hit, lookups in
numba.disk_cache with verdict hit); g compiles again. A job of cache=True functions only, run twice:
the fully warm second run passes `check`; a run that compiled a dispatcher twice (f for int and for
float) fails it, naming f. `record --numba` records a script that never imports compilescope: np.median's nested
compiles lie inside the caller's compile, whose time counts once (compile time <= the process's wall
time), and a TypingError retried twice is two failed compiles, no lookups, `check` green.
Exits 77 (skipped by ctest, with the reason printed) when numba cannot be imported.
"""
import os
import sqlite3
import subprocess
import sys
import tempfile
import textwrap

import runtime_gate

JOB = textwrap.dedent("""
    import compilescope.numba
    assert compilescope.numba.install()
    import numba
    @numba.njit(cache=True)
    def f(x, y):
        return x + y
    @numba.njit
    def g(x):
        return x * 2
    f(1, 2); f(1.0, 2.0); f(3, 4); g(5)
""")


WARM_ONLY_JOB = textwrap.dedent("""
    import compilescope.numba
    assert compilescope.numba.install()
    import numba
    @numba.njit(cache=True)
    def f(x, y):
        return x + y
    f(1, 2); f(1.0, 2.0)
""")

# No compilescope import: `record --numba` installs the collector when the script imports numba.
PLAIN_JOB = textwrap.dedent("""
    import sys
    import numpy as np
    import numba
    @numba.njit
    def med(a):
        return np.median(a)
    @numba.njit
    def length(x):
        return len(x)
    for attempt in range(2):
        try:
            length(5)
        except numba.core.errors.TypingError:
            pass
        else:
            sys.exit("length(5) compiled")
    assert length("abc") == 3
    assert med(np.arange(5.0)) == 2.0
    print("plain job done", "compilescope" in sys.modules)
""")


def run(binary, source_dir, trace, cache_dir, script_dir, job=JOB, name="job.py"):
    # A file, so Numba can cache (it cannot for -c code). Written once: Numba keys its disk cache on
    # the source file's timestamp, so rewriting it would (rightly) invalidate the cache.
    script = os.path.join(script_dir, name)
    if not os.path.exists(script):
        with open(script, "w") as fh:
            fh.write(job)
    env = dict(os.environ, PYTHONPATH=os.path.join(source_dir, "collectors", "python"),
               NUMBA_CACHE_DIR=cache_dir, COMPILESCOPE_BUFFER_POLICY="block")
    r = subprocess.run([binary, "record", "-o", trace, "--", sys.executable, script], env=env,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, (r.returncode, r.stdout, r.stderr)
    db = sqlite3.connect(trace)
    rows = db.execute(
        "SELECT c.str, p.str, l.verdict, l.compile_ns IS NOT NULL, "
        "  (SELECT '(' || group_concat(v.str, ', ') || ')' FROM (SELECT v.str FROM key_components k "
        "   JOIN strings n ON n.id = k.name_sid JOIN strings v ON v.id = k.value_sid "
        "   WHERE k.lookup_id = l.id AND n.str LIKE 'type of arg %' ORDER BY k.ordinal) v) "
        "FROM cache_lookups l JOIN strings c ON c.id = l.cache_sid JOIN strings p ON p.id = l.program_sid "
        "ORDER BY l.ts_ns").fetchall()
    spans = db.execute("SELECT category, count(*), min(dur_ns) > 0 FROM spans GROUP BY category ORDER BY 1").fetchall()
    assert db.execute("SELECT count(*) FROM stats").fetchone()[0] == 0
    hits = db.execute("SELECT count(*) FROM span_args a JOIN strings k ON k.id = a.key_sid "
                      "WHERE k.str = 'disk_cache' AND a.value = 'hit'").fetchone()[0]
    # check judges the run in Numba's terms: a dispatcher compiled twice in one process fails, naming it.
    compiled = [p for c, p, v, _, _ in rows if c == "numba.dispatcher" and v == 2]
    twice = sorted({p for p in compiled if compiled.count(p) > 1})
    check = subprocess.run([binary, "check", trace], capture_output=True, text=True)
    assert check.returncode == (1 if twice else 0), check.stdout + check.stderr
    for p in twice:
        assert f"FAIL one compile per function: {p} compiled {compiled.count(p)} times (numba.dispatcher" in check.stdout, check.stdout
    return rows, spans, hits


def record_plain(binary, source_dir, tmp):
    """`record --numba` around a script that does not import compilescope."""
    script = os.path.join(tmp, "plain.py")
    with open(script, "w") as fh:
        fh.write(PLAIN_JOB)
    trace = os.path.join(tmp, "plain.cstrace")
    env = dict(os.environ, NUMBA_CACHE_DIR=os.path.join(tmp, "plain-cache"), COMPILESCOPE_BUFFER_POLICY="block")
    env.pop("PYTHONPATH", None)
    r = subprocess.run([binary, "record", "--numba", "-o", trace, "--", sys.executable, script], env=env,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, (r.returncode, r.stdout, r.stderr)
    # The program ran as written; the collector was imported for it, after numba.
    assert r.stdout.strip() == "plain job done True", r.stdout
    db = sqlite3.connect(trace)
    failed = db.execute("SELECT s.str, a.value FROM spans sp JOIN span_args a ON a.span_id = sp.id "
                        "JOIN strings k ON k.id = a.key_sid JOIN strings s ON s.id = sp.name_sid "
                        "WHERE k.str = 'failed' ORDER BY sp.start_ns").fetchall()
    assert [v for _, v in failed] == ["TypingError", "TypingError"], failed
    assert all(n.startswith("__main__.length") for n, _ in failed), failed
    programs = [p for (p,) in db.execute("SELECT p.str FROM cache_lookups l JOIN strings p ON p.id = l.program_sid")]
    assert programs.count("__main__.length") == 1, programs  # the unicode overload only
    assert programs.count("__main__.med") == 1, programs
    # np.median's implementation compiled inside med's compile, nested in time and named as such.
    outer = db.execute("SELECT sp.start_ns, sp.start_ns + sp.dur_ns FROM spans sp JOIN strings s ON s.id = sp.name_sid "
                       "WHERE s.str LIKE '__main__.med%' AND sp.category = 1").fetchone()
    nested = db.execute("SELECT sp.start_ns, sp.start_ns + sp.dur_ns, a.value FROM spans sp "
                        "JOIN span_args a ON a.span_id = sp.id JOIN strings k ON k.id = a.key_sid "
                        "WHERE k.str = 'nested_in'").fetchall()
    assert len(nested) >= 2, nested
    med_children = [n for n in nested if n[2].startswith("__main__.med")]
    assert med_children, nested
    assert all(outer[0] <= b and e <= outer[1] for b, e, _ in med_children), (outer, med_children)
    # Compile time counted once: not more than the process lived.
    info = subprocess.run([binary, "info", trace], capture_output=True, text=True).stdout
    line = next(l for l in info.splitlines() if l.startswith("compile time:"))
    share = float(line.split("(")[1].split("%")[0])
    assert 0 < share <= 100.0, line
    check = subprocess.run([binary, "check", trace], capture_output=True, text=True)
    assert check.returncode == 0, check.stdout + check.stderr
    return len(nested), share


def main():
    if os.environ.get("COMPILESCOPE_SANITIZER_BUILD"):
        # The ctypes binding loads the sanitizer-instrumented collector into an uninstrumented Python,
        # which the sanitizer runtime refuses; injected code is tested in the dev build (docs/practices.md 12).
        print("SKIPPED: sanitizer build; the Python collector is tested in the dev preset")
        sys.exit(77)
    binary, source_dir = sys.argv[1], sys.argv[2]
    try:
        import numba  # noqa: F401
    except ImportError as e:
        sys.exit(runtime_gate.missing("numba", e))
    with tempfile.TemporaryDirectory() as tmp:
        cache = os.path.join(tmp, "numba-cache")
        cold, cold_spans, cold_hits = run(binary, source_dir, os.path.join(tmp, "cold.cstrace"), cache, tmp)
        assert cold == [
            ("numba.dispatcher", "__main__.f", 2, 1, "(int64, int64)"),
            ("numba.dispatcher", "__main__.f", 2, 1, "(float64, float64)"),
            ("numba.dispatcher", "__main__.g", 2, 1, "(int64)"),
        ], cold
        assert cold_spans == [(1, 3, 1)], cold_spans  # three compile spans, all with a duration
        assert cold_hits == 0
        assert os.listdir(cache), "numba wrote no cache"
        explain = subprocess.run([binary, "explain", os.path.join(tmp, "cold.cstrace")], capture_output=True, text=True)
        assert "type of arg 0: int64 -> float64" in explain.stdout, explain.stdout
        warm, warm_spans, warm_hits = run(binary, source_dir, os.path.join(tmp, "warm.cstrace"), cache, tmp)
        assert warm == [
            ("numba.disk_cache", "__main__.f", 1, 0, "(int64, int64)"),
            ("numba.disk_cache", "__main__.f", 1, 0, "(float64, float64)"),
            ("numba.dispatcher", "__main__.g", 2, 1, "(int64)"),
        ], warm
        assert warm_spans == [(1, 1, 1), (2, 2, 1)], warm_spans  # g compiled; f's two overloads loaded
        assert warm_hits == 2
        # Everything from the disk cache: the fully warm run is judged, and passes.
        only = os.path.join(tmp, "only-cache")
        cold_only, _, _ = run(binary, source_dir, os.path.join(tmp, "only1.cstrace"), only, tmp, WARM_ONLY_JOB, "only.py")
        assert [r[0] for r in cold_only] == ["numba.dispatcher"] * 2, cold_only
        warm_only, _, _ = run(binary, source_dir, os.path.join(tmp, "only2.cstrace"), only, tmp, WARM_ONLY_JOB, "only.py")
        assert [(r[0], r[2]) for r in warm_only] == [("numba.disk_cache", 1)] * 2, warm_only
        nested, share = record_plain(binary, source_dir, tmp)
    print("numba collector: cold run 3 compiles, warm run 2 disk-cache hits + 1 compile; fully warm run passes "
          "check; record --numba: %d nested compiles, compile time %.1f%% of wall time" % (nested, share))


if __name__ == "__main__":
    main()
