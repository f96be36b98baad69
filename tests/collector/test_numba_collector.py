#!/usr/bin/python3
"""The Numba collector records real Numba compiles and disk-cache loads (python3-numba from Debian).

Usage: test_numba_collector.py COMPILESCOPE_BINARY SOURCE_DIR
Run 1 (cold, private NUMBA_CACHE_DIR): f(int, int), f(float, float), f(int, int) again, g(int) with
cache=False -> three compiles (lookups, misses); the repeated int call compiles nothing. Run 2 (warm,
same cache dir): f's two overloads load from the disk cache (cache-load spans marked disk_cache=hit,
no lookups); g compiles again. `compilescope check` agrees with the runtime on every lookup.
Exits 77 (skipped by ctest, with the reason printed) when numba cannot be imported.
"""
import os
import sqlite3
import subprocess
import sys
import tempfile
import textwrap

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


def run(binary, source_dir, trace, cache_dir, script_dir):
    # A file, so Numba can cache (it cannot for -c code). Written once: Numba keys its disk cache on
    # the source file's timestamp, so rewriting it would (rightly) invalidate the cache.
    script = os.path.join(script_dir, "job.py")
    if not os.path.exists(script):
        with open(script, "w") as fh:
            fh.write(JOB)
    env = dict(os.environ, PYTHONPATH=os.path.join(source_dir, "collectors", "python"),
               NUMBA_CACHE_DIR=cache_dir, COMPILESCOPE_BUFFER_POLICY="block")
    r = subprocess.run([binary, "record", "-o", trace, "--", "/usr/bin/python3", script], env=env,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, (r.returncode, r.stdout, r.stderr)
    db = sqlite3.connect(trace)
    rows = db.execute(
        "SELECT c.str, p.str, l.verdict, l.compile_ns IS NOT NULL, "
        "  (SELECT v.str FROM key_components k JOIN strings v ON v.id = k.value_sid "
        "   WHERE k.lookup_id = l.id AND k.ordinal = 1) "
        "FROM cache_lookups l JOIN strings c ON c.id = l.cache_sid JOIN strings p ON p.id = l.program_sid "
        "ORDER BY l.ts_ns").fetchall()
    spans = db.execute("SELECT category, count(*), min(dur_ns) > 0 FROM spans GROUP BY category ORDER BY 1").fetchall()
    assert db.execute("SELECT count(*) FROM stats").fetchone()[0] == 0
    hits = db.execute("SELECT count(*) FROM span_args a JOIN strings k ON k.id = a.key_sid "
                      "WHERE k.str = 'disk_cache' AND a.value = 'hit'").fetchone()[0]
    check = subprocess.run([binary, "check", trace], capture_output=True, text=True)
    assert "FAIL replay agrees with the runtime" not in check.stdout, check.stdout
    return rows, spans, hits


def main():
    if os.environ.get("COMPILESCOPE_SANITIZER_BUILD"):
        # The ctypes binding loads the sanitizer-instrumented collector into an uninstrumented Python,
        # which the sanitizer runtime refuses; injected code is tested in the dev build (STYLE.md 12).
        print("SKIPPED: sanitizer build; the Python collector is tested in the dev preset")
        sys.exit(77)
    binary, source_dir = sys.argv[1], sys.argv[2]
    try:
        import numba  # noqa: F401
    except ImportError as e:
        print("SKIPPED: numba is not importable by /usr/bin/python3 (%s); install python3-numba" % e)
        sys.exit(77)
    with tempfile.TemporaryDirectory() as tmp:
        cache = os.path.join(tmp, "numba-cache")
        cold, cold_spans, cold_hits = run(binary, source_dir, os.path.join(tmp, "cold.cstrace"), cache, tmp)
        assert cold == [
            ("numba.dispatcher", "__main__.f", 2, 1, "(int64, int64)"),
            ("numba.dispatcher", "__main__.f", 2, 1, "(float64, float64)"),
            ("numba.dispatcher", "__main__.g", 2, 1, "(int64,)"),
        ], cold
        assert cold_spans == [(1, 3, 1)], cold_spans  # three compile spans, all with a duration
        assert cold_hits == 0
        assert os.listdir(cache), "numba wrote no cache"
        warm, warm_spans, warm_hits = run(binary, source_dir, os.path.join(tmp, "warm.cstrace"), cache, tmp)
        assert warm == [("numba.dispatcher", "__main__.g", 2, 1, "(int64,)")], warm
        assert warm_spans == [(1, 1, 1), (2, 2, 1)], warm_spans  # g compiled; f's two overloads loaded
        assert warm_hits == 2
    print("numba collector: cold run 3 compiles, warm run 2 disk-cache hits + 1 compile")


if __name__ == "__main__":
    main()
