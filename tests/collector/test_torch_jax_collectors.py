#!/usr/bin/env python3
"""compilescope.torch and compilescope.jax record what the TORCH_TRACE and JAX log importers read.

Usage: test_torch_jax_collectors.py COMPILESCOPE_BINARY SOURCE_DIR

The data path is tested with records shaped exactly as the runtimes hand them to their loggers,
taken from the public logs in tests/data/torch and tests/data/jax (torch 2.15 itself, recorded live and
from TORCH_TRACE and read by tlparse, is test_torch_real.py):
- Parity: each log is fed to the live collector (records emitted into a logger, under `compilescope
  record`) and imported with `compilescope import`; both traces must hold the same cache lookups, key
  components, compile and phase spans and span arguments (times apart: the live collector stamps
  records when they arrive). `explain` on the live trace names the component that moved.
- Without torch or jax importable, install() returns False and the program runs on.
- The JAX collector leaves the program's logging output as it was.
The real runtimes, `record --torch` / `record --jax` injected into them: test_torch_real.py and
test_jax_real.py (no stand-in modules).
These tests run everywhere and must pass. Exits 77 only in a sanitizer build.
"""
import json
import os
import re
import sqlite3
import subprocess
import sys
import tempfile
import textwrap

PYTHON = sys.executable   # the venv of packaging/install-deps.sh (COMPILESCOPE_PYTHON)
GLOG = re.compile(r"^[VIWEF]\d{4} \d\d:\d\d:\d\d\.\d+ +\d+ [^\]]*\] (.*)$")


def torch_records(path):
    """A TORCH_TRACE file -> [(metadata, payload)] as torch passed them to trace_log."""
    records = []
    with open(path, encoding="utf-8") as f:
        for line in f.read().split("\n"):
            if line.startswith("\t") and records:
                md, payload = records[-1]
                records[-1] = (md, line[1:] if payload is None else payload + "\n" + line[1:])
                continue
            m = GLOG.match(line)
            if m:
                records.append((json.loads(m.group(1)), None))
    return records


JAX_PREFIXES = [
    re.compile(r"^(?:\S+ )?(?:WARNING|DEBUG|INFO):\d{4}-\d\d-\d\d [\d:,]+:[\w.]+:\d+: (.*)$"),  # logging's default + time
    re.compile(r"^\d{4}-\d\d-\d\d [\d:,]+ - \w+ - (.*)$"),                                      # "%(asctime)s - LEVEL - "
    re.compile(r"^(?:WARNING|DEBUG|INFO):absl:(.*)$"),                                           # absl
]


def jax_messages(path):
    """A JAX log -> the messages JAX logged (a TRACING CACHE MISS record is one message of many lines)."""
    messages = []
    with open(path, encoding="utf-8") as f:
        for line in f.read().split("\n"):
            if line.startswith(" ") and messages and messages[-1].startswith("TRACING CACHE MISS"):
                messages[-1] += "\n" + line
                continue
            for p in JAX_PREFIXES:
                m = p.match(line)
                if m:
                    messages.append(m.group(1))
                    break
            else:
                if line.startswith("TRACING CACHE MISS"):
                    messages.append(line)
    return messages


TORCH_JOB = textwrap.dedent("""
    import json, logging, sys
    import compilescope.torch as cst
    log = logging.getLogger("test.torch.__trace")
    log.propagate = False
    assert cst.install(trace_logger=log), "not recording"
    for md, payload in json.load(open(sys.argv[1])):
        log.debug("", extra={"metadata": md, "payload": payload})
    cst.uninstall()
""")

JAX_JOB = textwrap.dedent("""
    import json, logging, sys
    import compilescope.jax as csj
    names = {"TRACING": "jax._src.pjit", "Persistent": "jax._src.compiler", "PERSISTENT": "jax._src.compiler",
             "Writing": "jax._src.compilation_cache", "Finished": "jax._src.dispatch"}
    assert csj.install(loggers=sorted(set(names.values()))), "not recording"
    for message in json.load(open(sys.argv[1])):
        logging.getLogger(names.get(message.split(" ")[0], "jax._src.dispatch")).debug(message)
    csj.uninstall()
""")


def run(cmd, env, timeout=300):
    r = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=timeout)
    assert r.returncode == 0, (cmd, r.returncode, r.stdout, r.stderr)
    return r


def facts(trace):
    """What both traces must agree on, times left out."""
    db = sqlite3.connect(trace)
    s = dict(db.execute("SELECT id, str FROM strings"))

    def name(sid):
        return s.get(sid)

    lookups = {}
    for lid, cache, program, handle, verdict, compile_ns in db.execute(
            "SELECT id, cache_sid, program_sid, handle_sid, verdict, compile_ns FROM cache_lookups ORDER BY id"):
        comps = tuple((name(n), role, name(d), name(v)) for n, role, d, v in db.execute(
            "SELECT name_sid, role, digest_sid, value_sid FROM key_components WHERE lookup_id = ? ORDER BY ordinal", (lid,)))
        lookups.setdefault((name(cache), name(program), name(handle), verdict, compile_ns, comps), 0)
        lookups[(name(cache), name(program), name(handle), verdict, compile_ns, comps)] += 1
    spans = {}
    for sid, cat, n, track in db.execute(
            "SELECT s.id, s.category, s.name_sid, t.name_sid FROM spans s JOIN tracks t ON t.id = s.track_id"):
        if name(track) not in ("torch compile", "jax"):
            continue  # the live recording's own thread and process tracks
        args = tuple(sorted((name(k), v if not isinstance(v, float) else repr(v)) for k, v in db.execute(
            "SELECT key_sid, value FROM span_args WHERE span_id = ?", (sid,))))
        key = (cat, name(n), args)
        spans[key] = spans.get(key, 0) + 1
    db.close()
    return lookups, spans


def normalised(spans):
    """Float metrics are stored as text by the binding and as reals by the importer: spans with their
    float arguments normalised to the same text."""
    out = {}
    for (cat, n, args), count in spans.items():
        args = tuple((k, float(v) if isinstance(v, str) and re.fullmatch(r"-?\d+\.\d*(e-?\d+)?", v) else v)
                     for k, v in args)
        args = tuple((k, repr(v) if isinstance(v, float) else v) for k, v in args)
        out[(cat, n, args)] = out.get((cat, n, args), 0) + count
    return out


def compare(binary, env, tmp, log, records, job, label, expect):
    """expect: (lookups, spans) both traces must hold, so that agreeing on nothing cannot pass."""
    data = os.path.join(tmp, label + ".json")
    with open(data, "w") as f:
        json.dump(records, f)
    script = os.path.join(tmp, label + "_job.py")
    with open(script, "w") as f:
        f.write(job)
    live, imported = os.path.join(tmp, label + "_live.cstrace"), os.path.join(tmp, label + "_import.cstrace")
    run([binary, "record", "-o", live, "--", PYTHON, script, data], env)
    run([binary, "import", log, "-o", imported], env)
    lf, imf = facts(live), facts(imported)
    assert lf[0] == imf[0], (label, "lookups differ", lf[0], imf[0])
    assert normalised(lf[1]) == normalised(imf[1]), (
        label, "spans differ", sorted(set(normalised(lf[1]).items()) ^ set(normalised(imf[1]).items())))
    assert (sum(lf[0].values()), sum(lf[1].values())) == expect, (label, expect, lf)
    print("%s: live and imported agree: %d lookups, %d spans" % (label, sum(lf[0].values()), sum(lf[1].values())))
    return live


def test_parity(binary, source_dir, env, tmp):
    data = os.path.join(source_dir, "tests", "data")
    # Compile 0/9 hits both caches; compile 0/10 misses both: the input grew from 11x11 to 12x12.
    log = os.path.join(data, "torch", "multi_rank_rank1_compiles_9_10.log")
    live = compare(binary, env, tmp, log, torch_records(log), TORCH_JOB, "torch_rank1", (4, 2))
    r = run([binary, "explain", live], env)
    assert "example_inputs" in r.stdout and "12, 12" in r.stdout and "11, 11" in r.stdout, r.stdout
    for name, expect in (("cache_hit_miss_excerpt.log", (3, 9)), ("comp_failure.log", (0, 4))):
        log = os.path.join(data, "torch", name)
        compare(binary, env, tmp, log, torch_records(log), TORCH_JOB, "torch_" + name.split(".")[0], expect)
    jax_expect = {"explain_cache_misses_pr27980.log": (2, 2), "explain_never_seen_issue22281.log": (2, 1),
                  "log_compiles_pr8931.log": (0, 2), "persistent_cache_pr22556.log": (3, 1)}
    for name in sorted(os.listdir(os.path.join(data, "jax"))):
        if name.endswith(".log"):
            log = os.path.join(data, "jax", name)
            messages = jax_messages(log)
            live = compare(binary, env, tmp, log, messages, JAX_JOB, "jax_" + name.split(".")[0], jax_expect[name])
            if name == "explain_cache_misses_pr27980.log":
                # The second miss's key names what differed from the closest earlier key.
                comps = [c for key in facts(live)[0] for c in key[5]]
                assert ("type of x", 3, "f32[8]", "f32[8]") in comps, comps
                assert ("tracing context [6]", 9, "raise", "raise") in comps, comps


def test_without_runtimes(env):
    # Without torch / jax importable, install() says so and the program runs on. (`record --torch` and
    # `record --jax` injected into the real runtimes: test_torch_real.py, test_jax_real.py.)
    r = run([PYTHON, "-c", "import sys; sys.modules['torch'] = None; sys.modules['jax'] = None\n"
             "import compilescope.torch as t, compilescope.jax as j\n"
             "assert t.install() is False and j.install() is False\nprint('host program still running')"], env)
    assert "host program still running" in r.stdout


def test_jax_logging_unchanged(env):
    # A WARNING (the explanation) still reaches the program's handler; a DEBUG record JAX would not have
    # shown does not, although the collector lowered the logger to DEBUG to receive it.
    code = textwrap.dedent("""
        import logging, sys
        logging.basicConfig(level=logging.WARNING, stream=sys.stdout, format="%(levelname)s %(message)s")
        import compilescope.jax as csj
        csj.install(loggers=["jax._src.pjit", "jax._src.compiler"])
        logging.getLogger("jax._src.compiler").debug("Persistent compilation cache hit for 'jit_f'")
        logging.getLogger("jax._src.pjit").warning("TRACING CACHE MISS at x.py:1 because:\\n  never seen function:")
        csj.uninstall()
        assert logging.getLogger("jax._src.pjit").propagate and logging.getLogger("jax._src.pjit").level == 0
    """)
    r = run([PYTHON, "-c", code], env)
    assert "WARNING TRACING CACHE MISS" in r.stdout and "Persistent compilation" not in r.stdout, r.stdout
    print("jax collector: the program's logging output unchanged")


def main():
    if os.environ.get("COMPILESCOPE_SANITIZER_BUILD"):
        print("SKIPPED: sanitizer build; the Python collectors are tested in the dev preset")
        return 77
    binary, source_dir = sys.argv[1], sys.argv[2]
    env = dict(os.environ, PYTHONPATH=os.path.join(source_dir, "collectors", "python"),
               COMPILESCOPE_BUFFER_POLICY="block")
    with tempfile.TemporaryDirectory() as tmp:
        test_parity(binary, source_dir, env, tmp)
        test_without_runtimes(env)
        test_jax_logging_unchanged(env)
    return 0


if __name__ == "__main__":
    sys.exit(main())
