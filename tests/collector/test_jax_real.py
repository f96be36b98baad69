#!/usr/bin/env python3
"""JAX for real: jax.jit on the CPU, recorded live by `record --jax` and imported from the same run's log.

Usage: test_jax_real.py COMPILESCOPE_BINARY SOURCE_DIR

Why: `record --jax` and the JAX log importer were written from public logs and a stand-in module named
jax, and JAX 0.10 changed what they read (the explanation moved to another logger and lost its
"because:", headings and trace-time lines were reworded). Here one small real program runs twice,
each time as
    compilescope record --jax -o t.cstrace -- $PYTHON prog.py CACHE_DIR
with JAX_EXPLAIN_CACHE_MISSES=1 and JAX_LOG_COMPILES=1, its stderr (JAX's log) kept and given to
`compilescope import`:
  cold   a fresh persistent cache (jax_persistent_cache_min_compile_time_secs and
         jax_persistent_cache_min_entry_size_bytes 0); JAX's WARNING lines as Python's last-resort
         handler prints them, without a prefix
  warm   a second process on the same cache, with JAX_LOGGING_LEVEL=DEBUG: every line behind JAX's
         "LEVEL:time:logger:line:" prefix, DEBUG lines and XLA's C++ lines between them
The program's tracing-cache misses: norm's first call, a new shape (f32[4] -> f32[8]), a new dtype
(int32), scale's first call and a changed static argument (static_argnames power 2 -> 3).
Asserted for each run, every expected value read from JAX's own log lines:
  - JAX explained exactly those five misses (pinned: what JAX must do);
  - the trace holds one "jax tracing cache" miss per explanation: program "<function> (<file:line>)",
    handle the call site, key components the values JAX printed as "now", reasons as printed;
  - "jax persistent compilation cache": cold, a miss per PERSISTENT COMPILATION CACHE MISS line with
    its key, and a write of each; warm, a hit per "Persistent compilation cache hit" line, the same
    keys as the cold misses, and no miss;
  - the live recording and the import hold the same lookups and the same spans and reasons (the
    collector's persistent-cache read times, from jax.monitoring, are in no log line: one per hit);
  - `compilescope explain` names what moved: type of x (shape, then dtype) and static argument power.
A missing jax skips (77), or fails under COMPILESCOPE_REQUIRE_RUNTIMES=1 (runtime_gate.py).
"""
import os
import re
import sqlite3
import subprocess
import sys
import tempfile
import textwrap

import runtime_gate
import test_torch_jax_collectors as parity

PYTHON = sys.executable  # the venv of packaging/install-deps.sh (COMPILESCOPE_PYTHON)

PROGRAM = textwrap.dedent("""
    import functools
    import sys

    import jax
    import jax.numpy as jnp

    jax.config.update("jax_compilation_cache_dir", sys.argv[1])
    jax.config.update("jax_persistent_cache_min_compile_time_secs", 0)
    jax.config.update("jax_persistent_cache_min_entry_size_bytes", 0)


    @jax.jit
    def norm(x):
        return (x - x.mean()) / (x.std() + 1e-6)


    @functools.partial(jax.jit, static_argnames=("power",))
    def scale(x, power):
        return x ** power


    norm(jnp.ones(4)).block_until_ready()
    norm(jnp.ones(8)).block_until_ready()                    # a new shape
    norm(jnp.ones(8, dtype=jnp.int32)).block_until_ready()   # a new dtype
    scale(jnp.ones(4), power=2).block_until_ready()
    scale(jnp.ones(4), power=3).block_until_ready()          # a static argument changed
    print("prog: done")
""")

# JAX's logging_config format ("{levelname}:{asctime}:{name}:{lineno}: {message}"), or none.
PREFIX = re.compile(r"^(?:[A-Z]+:\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3}:[\w.]+:\d+: )?(.*)$")
HEADER = re.compile(r"^TRACING CACHE MISS at (.+):$")
NEVER = re.compile(r"^    (\w+) id=(\d+) defined at (\S+)$")
FOR = re.compile(r"^  for (\w+) defined at (\S+)$")
TYPES = re.compile(r"^  \* at (\w+), now (\S+) and before (\S+)$")
STATIC = re.compile(r"^  \* at input path \[1\]\['(\w+)'\], now .* Static\(val=(.+)\) and before .* Static\(val=(.+)\), so .*$")
PERSISTENT = re.compile(r"^(Persistent compilation cache hit|PERSISTENT COMPILATION CACHE MISS) for '(\w+)' with key '([\w-]+)'$")
WRITE = re.compile(r"^Writing (\w+) to persistent compilation cache with key '([\w-]+)'$")


def run(cmd, env, timeout=300):
    r = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=timeout)
    assert r.returncode == 0, (cmd, r.returncode, r.stdout[-3000:], r.stderr[-3000:])
    return r


def read_log(text):
    """JAX's log -> (explanations, persistent [(verdict, function, key)], writes [key]).
    An explanation: (callsite, function, defined_at, components [(name, value)], reasons)."""
    blocks, persistent, writes = [], [], []
    for line in text.split("\n"):
        if line.startswith("  ") and blocks and blocks[-1][5]:
            block = blocks[-1]
            if m := NEVER.match(line):
                block[1:3] = [m[1], m[3]]
                block[3].append(("function id", "%s id=%s" % (m[1], m[2])))
                block[4].append("never seen function")
            elif m := FOR.match(line):
                block[1:3] = [m[1], m[2]]
            elif line.strip() in ("different input types:", "different input pytree:"):
                block[4].append(line.strip()[:-1])
            elif m := TYPES.match(line):
                block[3].append(("type of " + m[1], m[2]))
                block[4].append("different input types: %s now %s and before %s" % (m[1], m[2], m[3]))
            elif m := STATIC.match(line):
                block[3].append(("static argument " + m[1], m[2]))
                block[4].append("different value of static argument %s: now %s and before %s" % (m[1], m[2], m[3]))
            elif "all previously seen cache keys differ" not in line and line.strip() != "never seen function:":
                raise AssertionError("a line of JAX's explanation this test does not know: %r" % line)
            continue
        if blocks:
            blocks[-1][5] = False
        message = PREFIX.match(line)[1]
        if m := HEADER.match(message):
            blocks.append([m[1], None, None, [], [], True])
        elif m := PERSISTENT.match(message):
            persistent.append(("hit" if m[1].startswith("Persistent") else "miss", m[2], m[3]))
        elif m := WRITE.match(message):
            writes.append(m[2])
    return [tuple(b[:5]) for b in blocks], persistent, writes


def trace_rows(trace):
    """The trace's lookups in time order: (cache, program, handle, verdict, [(component, value)])."""
    db = sqlite3.connect(trace)
    s = dict(db.execute("SELECT id, str FROM strings"))
    rows = []
    for lid, cache, program, handle, verdict in db.execute(
            "SELECT id, cache_sid, program_sid, handle_sid, verdict FROM cache_lookups ORDER BY ts_ns, id"):
        comps = [(s[n], s[v]) for n, v in db.execute(
            "SELECT name_sid, value_sid FROM key_components WHERE lookup_id = ? ORDER BY ordinal", (lid,))]
        rows.append((s[cache], s[program], s[handle], {1: "hit", 2: "miss"}.get(verdict, verdict), comps))
    reasons = [[v for _, v in sorted(db.execute(
        "SELECT k.str, a.value FROM span_args a JOIN strings k ON k.id = a.key_sid "
        "WHERE a.span_id = ? AND k.str LIKE 'reason %'", (sid,)), key=lambda kv: int(kv[0].split()[1]))]
        for (sid,) in db.execute("SELECT s.id FROM spans s JOIN strings n ON n.id = s.name_sid "
                                 "WHERE n.str LIKE 'TRACING CACHE MISS %' ORDER BY s.start_ns, s.id")]
    writes = [v for (v,) in db.execute("SELECT a.value FROM span_args a JOIN strings k ON k.id = a.key_sid "
                                       "WHERE k.str = 'key' ORDER BY a.span_id")]
    reads = db.execute("SELECT count(*) FROM spans s JOIN strings n ON n.id = s.name_sid "
                       "WHERE n.str = 'persistent cache read'").fetchone()[0]
    db.close()
    return rows, reasons, writes, reads


def check_against_log(trace, blocks, persistent, writes, label):
    rows, reasons, written, _ = trace_rows(trace)
    tracing = [(p, h, v, c) for cache, p, h, v, c in rows if cache == "jax tracing cache"]
    assert tracing == [("%s (%s)" % (fn, at), callsite, "miss", comps) for callsite, fn, at, comps, _ in blocks], (
        label, tracing, blocks)
    assert reasons == [r for *_, r in blocks], (label, reasons, blocks)
    stored = [(v, p, h) for cache, p, h, v, c in rows if cache == "jax persistent compilation cache"]
    assert stored == persistent, (label, stored, persistent)
    assert all(c == [("key", h)] for cache, p, h, v, c in rows if cache == "jax persistent compilation cache"), rows
    assert sorted(written) == sorted(writes), (label, written, writes)


def record_and_import(binary, env, tmp, prog, cache, label):
    trace, log, imported = (os.path.join(tmp, label + ext) for ext in (".cstrace", ".log", "_import.cstrace"))
    # The command the README's `record --jax` example shows, with the venv's interpreter.
    r = run([binary, "record", "--jax", "-o", trace, "--", PYTHON, prog, cache], env)
    assert "prog: done" in r.stdout, r.stdout
    with open(log, "w") as f:
        f.write(r.stderr)
    run([binary, "import", log, "-o", imported], env)
    return trace, r.stderr, imported


def same_facts(live, imported, label):
    """Both traces hold the same lookups (program, handle, verdict, key) and spans with their reasons;
    the live one adds only the persistent-cache read times that no log line gives."""
    lf, imf = parity.facts(live), parity.facts(imported)
    assert lf[0] == imf[0], (label, "lookups differ", sorted(set(lf[0].items()) ^ set(imf[0].items())))
    lspans = {k: n for k, n in parity.normalised(lf[1]).items() if k[1] != "persistent cache read"}
    ispans = parity.normalised(imf[1])
    assert lspans == ispans, (label, "spans differ", sorted(set(lspans.items()) ^ set(ispans.items())))
    return sum(lf[0].values()), sum(lspans.values())


def explained(binary, env, trace):
    """explain's "key moved" line for each tracing-cache miss, by call site's line."""
    out = run([binary, "explain", trace], env).stdout
    moved = {}
    for m in re.finditer(r"miss lookup #\d+  \w+ \(\S+\)  handle \S+:(\d+)(?::\d+)? \(<module>\)\n    (.*)", out):
        moved[int(m[1])] = m[2]
    return moved, out


def main():
    if os.environ.get("COMPILESCOPE_SANITIZER_BUILD"):
        print("SKIPPED: sanitizer build; the Python collectors are tested in the dev preset")
        return runtime_gate.SKIP
    binary = sys.argv[1]
    probe = subprocess.run([PYTHON, "-c", "import jax, jax.numpy; print(jax.__version__)"], capture_output=True, text=True)
    if probe.returncode != 0:
        return runtime_gate.missing("jax", (probe.stderr.strip().splitlines() or ["import failed"])[-1])
    print("jax", probe.stdout.strip())
    env = dict(os.environ, COMPILESCOPE_BUFFER_POLICY="block", JAX_EXPLAIN_CACHE_MISSES="1", JAX_LOG_COMPILES="1",
               JAX_PLATFORMS="cpu")
    for name in ("JAX_LOGGING_LEVEL", "JAX_DEBUG_LOG_MODULES", "JAX_COMPILATION_CACHE_DIR", "PYTHONPATH"):
        env.pop(name, None)
    with tempfile.TemporaryDirectory() as tmp:
        prog, cache = os.path.join(tmp, "prog.py"), os.path.join(tmp, "jax-cache")
        with open(prog, "w") as f:
            f.write(PROGRAM)
        lines = PROGRAM.split("\n")
        line_of = {what: lines.index(next(l for l in lines if l.startswith(what))) + 1
                   for what in ("@jax.jit", "@functools.partial", "norm(jnp.ones(4))", "norm(jnp.ones(8))",
                                "norm(jnp.ones(8, dtype", "scale(jnp.ones(4), power=2)", "scale(jnp.ones(4), power=3)")}

        cold, cold_log, cold_import = record_and_import(binary, env, tmp, prog, cache, "cold")
        warm, warm_log, warm_import = record_and_import(binary, dict(env, JAX_LOGGING_LEVEL="DEBUG"), tmp, prog, cache,
                                                        "warm")
        for label, log, live, imported in (("cold", cold_log, cold, cold_import), ("warm", warm_log, warm, warm_import)):
            blocks, persistent, writes = read_log(log)
            # What JAX must do: five explanations, each naming what moved; a function is "defined at" its
            # first decorator's line (co_firstlineno).
            at = lambda what: "%s:%d" % (prog, line_of[what])  # noqa: E731
            assert [(re.sub(r"(:\d+)(:\d+)? \(<module>\)$", r"\1", c), fn, d, r) for c, fn, d, _, r in blocks] == [
                (at("norm(jnp.ones(4))"), "norm", at("@jax.jit"), ["never seen function"]),
                (at("norm(jnp.ones(8))"), "norm", at("@jax.jit"),
                 ["different input types", "different input types: x now f32[8] and before f32[4]"]),
                (at("norm(jnp.ones(8, dtype"), "norm", at("@jax.jit"),
                 ["different input types", "different input types: x now i32[8] and before f32[4]"]),
                (at("scale(jnp.ones(4), power=2)"), "scale", at("@functools.partial"), ["never seen function"]),
                (at("scale(jnp.ones(4), power=3)"), "scale", at("@functools.partial"),
                 ["different input pytree", "different value of static argument power: now 3 and before 2"]),
            ], (label, blocks)
            modules = {fn for _, fn, _ in persistent}
            assert {"jit_norm", "jit_scale"} <= modules, (label, persistent)
            if label == "cold":
                assert persistent and all(v == "miss" for v, _, _ in persistent), persistent
                assert sorted(writes) == sorted(k for _, _, k in persistent), (writes, persistent)
                cold_keys = [k for _, _, k in persistent]
            else:
                # The second process: every module the first one compiled is read from the cache.
                assert [v for v, _, _ in persistent] == ["hit"] * len(cold_keys), persistent
                assert [k for _, _, k in persistent] == cold_keys, (persistent, cold_keys)
                assert writes == [], writes
            check_against_log(live, blocks, persistent, writes, label + " recorded")
            check_against_log(imported, blocks, persistent, writes, label + " imported")
            lookups, spans = same_facts(live, imported, label)
            reads = trace_rows(live)[3]
            assert reads == (len(persistent) if label == "warm" else 0), (label, reads, persistent)
            print("%s: JAX explained %d misses, %d persistent-cache %s; record --jax and import agree: "
                  "%d lookups, %d spans" % (label, len(blocks), len(persistent), "hits" if label == "warm" else "misses",
                                            lookups, spans))

            # explain names what moved between norm's and scale's misses.
            for trace in (live, imported):
                moved, out = explained(binary, env, trace)
                shape = moved.get(line_of["norm(jnp.ones(8))"], "")
                dtype = moved.get(line_of["norm(jnp.ones(8, dtype"], "")
                static = moved.get(line_of["scale(jnp.ones(4), power=3)"], "")
                assert shape.startswith("key moved: type of x: ") and "-> f32[8]" in shape, (shape, out)
                assert dtype.startswith("key moved: type of x: f32[8] -> i32[8]"), (dtype, out)
                assert static.startswith("key moved: static argument power: ") and "-> 3" in static, (static, out)
        print("explain: type of x (f32[4] -> f32[8], then f32[8] -> i32[8]) and static argument power (-> 3)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
