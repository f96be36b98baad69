#!/usr/bin/env python3
"""compilescope.warp records NVIDIA Warp's module loads from inside the process.

Usage: test_warp_collector.py COMPILESCOPE_BINARY SOURCE_DIR
Always: without Warp, install() returns False and the host program runs on; `record --warp` puts the
package and its import hook first on PYTHONPATH (keeping the job's own) and removes its private
directory afterwards. Where `warp` imports (packaging/install-deps.sh's venv): a script is recorded
under `compilescope record` twice against one private kernel cache. The first (cold) run defines a kernel after its
module loaded, so module __main__ must be recorded under two full hashes, compiled, with its live
kernel sets (the second has the late kernel), per-kernel hashes and resolved options, and
`compilescope modules` must name the mechanism; the second (warm) run must find both identities
cached (that run is installed through `record --warp`). Exits 77 (skipped, reason printed) when warp is
not importable, 1 under COMPILESCOPE_REQUIRE_RUNTIMES=1 (runtime_gate.py).
"""
import os
import sqlite3
import subprocess
import sys
import tempfile
import textwrap

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import runtime_gate  # noqa: E402

PYTHON = sys.executable   # the venv of packaging/install-deps.sh (COMPILESCOPE_PYTHON)

WITHOUT_WARP = textwrap.dedent("""
    import sys
    sys.modules["warp"] = None          # `import warp` raises ImportError
    import compilescope.warp as csw
    assert csw.install() is False
    assert not csw.installed()
    print("host program still running")
""")

# What `record --warp` puts first on PYTHONPATH: the package, and a finder waiting for `import warp`.
SHOW_INJECTION = textwrap.dedent("""
    import os, sys, compilescope
    finders = [type(f).__name__ for f in sys.meta_path]
    print("available", compilescope.available(), "finder", "_WarpFinder" in finders, "warp", "warp" in sys.modules)
    print("pythonpath", os.environ["PYTHONPATH"])
""")

INSTALL = textwrap.dedent("""
    import compilescope.warp as csw
    assert csw.install(), "not recording"
""")

# The program: the README's Warp example (examples/python/warp_app.py), which defines `shift` after
# `scale` first loaded module __main__, so __main__ has two identities.
def app_body(source_dir):
    with open(os.path.join(source_dir, "examples", "python", "warp_app.py"), encoding="utf-8") as f:
        return f.read()


def run(cmd, env, timeout=600):
    r = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=timeout)
    assert r.returncode == 0, (cmd, r.returncode, r.stdout, r.stderr)
    return r


def main():
    if os.environ.get("COMPILESCOPE_SANITIZER_BUILD"):
        # The ctypes binding loads the sanitizer-instrumented collector into an uninstrumented Python,
        # which the sanitizer runtime refuses; injected code is tested in the dev build (docs/practices.md 12).
        print("SKIPPED: sanitizer build; the Python collector is tested in the dev preset")
        sys.exit(77)
    binary, source_dir = sys.argv[1], sys.argv[2]
    env = dict(os.environ, PYTHONPATH=os.path.join(source_dir, "collectors", "python"),
               COMPILESCOPE_BUFFER_POLICY="block")
    with tempfile.TemporaryDirectory() as tmp:
        r = run([binary, "record", "-o", os.path.join(tmp, "none.cstrace"), "--", PYTHON, "-c", WITHOUT_WARP], env)
        assert "host program still running" in r.stdout, r.stdout

        # record --warp: without any PYTHONPATH of ours the job finds the package and the finder, keeps
        # the PYTHONPATH it had, and the private directory is gone afterwards.
        plain = dict(os.environ, PYTHONPATH="/opt/users/own/path")
        r = run([binary, "record", "-o", os.path.join(tmp, "w.cstrace"), "--warp", "--", PYTHON, "-c", SHOW_INJECTION],
                plain)
        assert "available True finder True warp False" in r.stdout, (r.stdout, r.stderr)
        paths = r.stdout.split("pythonpath ")[1].strip().split(":")
        assert paths[-1] == "/opt/users/own/path", paths
        assert paths[1].endswith(os.path.join("collectors", "python")), paths
        assert paths[0].startswith(tempfile.gettempdir()) and not os.path.exists(paths[0]), paths

    probe = subprocess.run([PYTHON, "-c", "import warp"], capture_output=True, text=True)
    if probe.returncode != 0:
        return runtime_gate.missing("warp", (probe.stderr.strip().splitlines() or ["import failed"])[-1])

    with tempfile.TemporaryDirectory() as tmp:
        cache = os.path.join(tmp, "warp-cache")
        app_env = dict(env, WARP_CACHE_PATH=cache, WARP_CACHE_ROOT=cache)
        script = os.path.join(tmp, "app.py")
        with open(script, "w") as f:
            f.write(INSTALL + app_body(source_dir))
        cold, warm = os.path.join(tmp, "cold.cstrace"), os.path.join(tmp, "warm.cstrace")
        run([binary, "record", "-o", cold, "--", PYTHON, script], app_env)
        # The warm run installs the collector through `record --warp` instead of install().
        warm_script = os.path.join(tmp, "app_body.py")
        with open(warm_script, "w") as f:
            f.write(app_body(source_dir))
        run([binary, "record", "-o", warm, "--warp", "--", PYTHON, warm_script], app_env)

        db = sqlite3.connect(cold)
        q = lambda sql: db.execute(sql).fetchall()
        loads = q("SELECT m.id, h.str, m.result, m.dur_ns, d.str FROM module_loads m JOIN strings n ON n.id = m.name_sid "
                  "JOIN strings h ON h.id = m.hash_sid JOIN strings d ON d.id = m.device_sid "
                  "WHERE n.str = '__main__' ORDER BY m.id")
        assert len(loads) == 2, loads
        assert all(len(h) == 64 for _, h, _, _, _ in loads), loads      # the full sha256, not 7 digits
        assert loads[0][1] != loads[1][1], loads
        assert [res for _, _, res, _, _ in loads] == [1, 1], loads      # both compiled
        assert all(dur > 0 and dev == "cpu" for _, _, _, dur, dev in loads), loads

        def kernels(load_id):
            return sorted(q(f"SELECT k.str, length(d.str) > 0 FROM module_kernels mk JOIN strings k ON k.id = mk.kernel_sid "
                            f"JOIN strings d ON d.id = mk.digest_sid WHERE mk.load_id = {load_id}"))
        assert kernels(loads[0][0]) == [("scale", 1)], kernels(loads[0][0])
        assert kernels(loads[1][0]) == [("scale", 1), ("shift", 1)], kernels(loads[1][0])
        opts = dict(q(f"SELECT k.str, v.str FROM module_options o JOIN strings k ON k.id = o.key_sid "
                      f"JOIN strings v ON v.id = o.value_sid WHERE o.load_id = {loads[0][0]}"))
        assert "enable_backward" in opts and "fast_math" in opts, opts
        assert q("SELECT count(*) FROM stats")[0][0] == 0, q("SELECT * FROM stats")

        out = run([binary, "modules", cold], env).stdout
        assert "warp.kernel_defined_after_load" in out, out
        assert "kernel added shift" in out, out

        wdb = sqlite3.connect(warm)
        results = wdb.execute("SELECT m.result FROM module_loads m JOIN strings n ON n.id = m.name_sid "
                              "WHERE n.str = '__main__' ORDER BY m.id").fetchall()
        assert results == [(2,), (2,)], results                          # both identities cached
    print("warp collector: two identities of __main__ recorded cold, both cached warm")
    return 0


if __name__ == "__main__":
    sys.exit(main())
