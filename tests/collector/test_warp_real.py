#!/usr/bin/env python3
"""Real NVIDIA Warp (CPU device) recorded with `compilescope record --warp`, checked against Warp itself.

Usage: test_warp_real.py COMPILESCOPE_BINARY SOURCE_DIR

Each program under tests/warp/programs/ runs under `record --warp` with a private WARP_CACHE_PATH and
Warp's debug log on (`wp.config.log_level = wp.LOG_DEBUG`: Warp 1.19's verbose mode). Every program
prints one `CS-FACTS {...}` line read from Warp's own Module objects (the hashes of the executables it
loaded, the kernel it added, the option it changed, the overloads it registered), so every assertion
compares the trace with what the runtime itself reports:
  - every run: the collector's module rows equal the rows of Warp's own `Module ... took ... ms (...)`
    lines in the same run's stdout, and equal the rows `compilescope import` makes of that stdout:
    names, hashes (the log prints a 7-digit prefix), devices, block_dims, outcomes, durations within
    1 % (or the log's 0.01 ms print resolution, whichever is larger); a compiled load's native compile
    time equals Warp's `Compile x86 took` lines, and is recorded at Warp's default log level too;
  - cold_warm: cold (Warp's default log level), every module compiled (result 1); warm (debug log) on
    the same cache, every one cached (2),
    under the same hashes; `explain` replays the warm run as hits only; `check` passes both (rule
    "one compiled hash per module"), and fails each churn run below, naming the module;
  - late_change.py kernel: __main__ under the two hashes Warp loaded; the finding names the added kernel;
  - late_change.py option: two identities; the finding names the option and its two values;
  - unique_modules: one hash-named module per kernel; `warp.unique_modules` counts them, and no
    `warp.unique_hash_mismatch` (CPU loads hash at block_dim 1, the name at the module's default);
  - late_overload: two identities; the finding names the overload registered after the first load.
Exits 77 (skip) when warp is not importable, or 1 under COMPILESCOPE_REQUIRE_RUNTIMES=1.
"""
import json
import os
import re
import sqlite3
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import runtime_gate  # noqa: E402

PYTHON = sys.executable  # the venv of packaging/install-deps.sh (COMPILESCOPE_PYTHON)
RESULTS = {"compiled": 1, "cached": 2, "error": 3}
# Warp's module timer line: "Module NAME HASH7 load on device 'DEV' (block_dim=N) took X ms  (STATUS)".
WARP_LOAD = re.compile(r"^\s*Module (\S+) ([0-9a-f]{7}) load on device '([^']+)'(?: \(block_dim=(\d+)\))? "
                       r"took ([0-9.]+) ms\s+\((compiled|cached|error)\)\s*$")
# Its native compile timer, printed at LOG_DEBUG inside the load: "    Compile x86 took X ms".
WARP_COMPILE = re.compile(r"^\s*Compile .* took ([0-9.]+) ms\s*$")


def within_print_resolution(ns, ms):
    """`ns` agrees with a figure Warp printed as `ms` with 2 decimals: within 1 % or the rounding."""
    return abs(ns / 1e6 - ms) <= max(0.01 * ms, 0.005 + 1e-9)


def run(cmd, env, cwd=None, expect=0):
    r = subprocess.run(cmd, env=env, cwd=cwd, capture_output=True, text=True, timeout=600)
    assert r.returncode == expect, (cmd, r.returncode, r.stdout[-4000:], r.stderr[-4000:])
    return r


class Harness:
    def __init__(self, binary, source_dir, tmp):
        self.binary, self.tmp = binary, tmp
        self.programs = os.path.join(source_dir, "tests", "warp", "programs")
        self.env = dict(os.environ, COMPILESCOPE_BUFFER_POLICY="block")
        self.env.pop("PYTHONPATH", None)  # record --warp must find the collector by itself

    def cli(self, *args, expect=0):
        return run([self.binary, *args], self.env, expect=expect)

    def record(self, program, cache, tag, *args):
        """Runs a program (with `args`) under record --warp; returns (trace, stdout, facts)."""
        trace = os.path.join(self.tmp, tag + ".cstrace")
        env = dict(self.env, WARP_CACHE_PATH=cache)
        t0 = time.monotonic()
        r = run([self.binary, "record", "-o", trace, "--warp", "--", PYTHON, os.path.join(self.programs, program),
                 *args], env, cwd=self.tmp)
        facts = [json.loads(line[len("CS-FACTS "):]) for line in r.stdout.splitlines() if line.startswith("CS-FACTS ")]
        assert len(facts) == 1, r.stdout
        print(f"  {tag}: {time.monotonic() - t0:.1f} s")
        self.same_rows_as_log(trace, r.stdout, tag)
        return trace, r.stdout, facts[0]

    def rows(self, trace):
        db = sqlite3.connect(trace)
        try:
            return db.execute(
                "SELECT n.str, h.str, d.str, m.block_dim, m.result, m.dur_ns, m.compile_ns FROM module_loads m "
                "JOIN strings n ON n.id = m.name_sid LEFT JOIN strings h ON h.id = m.hash_sid "
                "LEFT JOIN strings d ON d.id = m.device_sid ORDER BY m.id").fetchall()
        finally:
            db.close()

    def findings(self, trace):
        return json.loads(self.cli("findings", "--json", trace).stdout)["findings"]

    def same_rows_as_log(self, trace, stdout, tag):
        """Collector rows == Warp's own load lines == the rows `import` makes of that stdout."""
        warp, compile_ms = [], 0.0  # compile_ms: the Compile timers printed since the previous load
        for line in stdout.splitlines():
            if c := WARP_COMPILE.match(line):
                compile_ms += float(c[1])
            elif m := WARP_LOAD.match(line):
                warp.append((m[1], m[2], m[3], int(m[4]) if m[4] else None, RESULTS[m[6]], float(m[5]), compile_ms))
                compile_ms = 0.0
        collected = self.rows(trace)
        assert warp and len(collected) == len(warp), (tag, collected, warp)
        log = os.path.join(self.tmp, tag + ".log")
        with open(log, "w") as f:
            f.write(stdout)
        imported_trace = os.path.join(self.tmp, tag + ".log.cstrace")
        self.cli("import", log, "-o", imported_trace)
        imported = self.rows(imported_trace)
        assert len(imported) == len(warp), (tag, imported, warp)
        for c, w, i in zip(collected, warp, imported):
            name, full_hash, device, block_dim, result, dur_ns, compile_ns = c
            assert len(full_hash) == 64 and full_hash.startswith(w[1]), (tag, c, w)  # the sha256, not 7 digits
            # Without LOG_DEBUG the line has no block_dim; the collector still knows it (1 on the CPU).
            assert (name, device, result) == (w[0], w[2], w[4]) and w[3] in (None, block_dim), (tag, c, w)
            assert i[:5] == w[:5], (tag, i, w)  # the importer's row: the log's facts
            assert within_print_resolution(dur_ns, w[5]) and within_print_resolution(i[5], w[5]), (tag, c, i, w)
            if result == RESULTS["compiled"]:
                # The native compile: as Warp's debug log printed it, else timed by the collector itself.
                assert compile_ns and 0 < compile_ns <= dur_ns, (tag, c)
                assert not w[6] or within_print_resolution(compile_ns, w[6]), (tag, c, w)
            else:
                assert not compile_ns, (tag, c)


def by_kind(findings, kind):
    return [f for f in findings if f["kind"] == kind]


def notes(finding):
    return " | ".join(e["note"] for e in finding["evidence"])


def cold_then_warm(h):
    cache = os.path.join(h.tmp, "cache-cold-warm")
    cold, _, facts = h.record("cold_warm.py", cache, "cold", "default")  # Warp's default log level
    warm, _, warm_facts = h.record("cold_warm.py", cache, "warm", "debug")
    loaded = {name: [e[0] for e in entries] for name, entries in facts["loaded"].items()}
    assert warm_facts == facts, (facts, warm_facts)  # the same identities both times
    for trace, result in ((cold, 1), (warm, 2)):
        rows = h.rows(trace)
        assert sorted((r[0], r[1]) for r in rows) == sorted((n, hs[0]) for n, hs in loaded.items()), (rows, loaded)
        assert [r[4] for r in rows] == [result] * len(loaded), rows
    explain = h.cli("explain", warm).stdout
    n = len(loaded)
    assert f"lookups {n}, misses 0, hits {n}, live entries {n}" in explain, explain
    # The warm run compiled nothing: check judges it by Warp's own loads and passes; the cold run
    # compiled each module under one hash and passes too.
    for trace in (cold, warm):
        out = h.cli("check", trace).stdout
        assert f"check {os.path.basename(trace)}: PASS" in out and "pass one compiled hash per module" in out, out
    assert f"0 compiled, {n} loaded from the kernel cache" in h.cli("check", warm).stdout
    assert not by_kind(h.findings(warm), "warp.cache_not_reused")


def churn(h, program, args, tag, kind, change_of):
    """A module built under the two hashes the program reports; the one finding of `kind` names the
    change that `change_of(facts)` words from the program's own facts."""
    trace, _, facts = h.record(program, os.path.join(h.tmp, "cache-" + tag), tag, *args)
    rows = h.rows(trace)
    assert [(r[0], r[1], r[4]) for r in rows] == [("__main__", hsh, 1) for hsh in facts["hashes"]], (rows, facts)
    assert facts["hashes"][0] != facts["hashes"][1], facts
    found = by_kind(h.findings(trace), kind)
    assert len(found) == 1, h.cli("findings", trace).stdout
    short = [hsh[:7] for hsh in facts["hashes"]]
    change = change_of(facts)
    assert f"new hash {short[0]} -> {short[1]}: {change}" in notes(found[0]), notes(found[0])
    modules = h.cli("modules", trace).stdout
    assert kind in modules and f"{short[1]}: {change}" in modules, modules
    # Compiled twice in one run: the acceptance check fails, in Warp's terms.
    out = h.cli("check", trace, expect=1).stdout
    assert "FAIL one compiled hash per module (Warp modules): __main__ compiled under 2 hashes on cpu" in out, out


def unique_modules(h):
    trace, _, facts = h.record("unique_modules.py", os.path.join(h.tmp, "cache-unique"), "unique")
    names = facts["modules"]
    rows = h.rows(trace)
    assert [(r[0], r[1], r[4]) for r in rows] == [(n, facts["loaded"][n][0][0], 1) for n in names], (rows, facts)
    findings = h.findings(trace)
    found = by_kind(findings, "warp.unique_modules")
    assert len(found) == 1, h.cli("findings", trace).stdout
    assert found[0]["title"] == f"{len(names)} hash-named modules, one per kernel (module=\"unique\")", found[0]
    assert sorted(e["note"].split()[0] for e in found[0]["evidence"]) == sorted(names), found[0]
    assert not by_kind(findings, "warp.unique_hash_mismatch"), findings


def main():
    if os.environ.get("COMPILESCOPE_SANITIZER_BUILD"):
        print("SKIPPED: sanitizer build; the Python collector is tested in the dev preset")
        return runtime_gate.SKIP
    binary, source_dir = sys.argv[1], sys.argv[2]
    probe = subprocess.run([PYTHON, "-c", "import warp; print(warp.__version__)"], capture_output=True, text=True)
    if probe.returncode != 0:
        return runtime_gate.missing("warp", (probe.stderr.strip().splitlines() or ["import failed"])[-1])
    print(f"warp {probe.stdout.strip()} from {PYTHON}")
    with tempfile.TemporaryDirectory() as tmp:
        h = Harness(binary, source_dir, tmp)
        cold_then_warm(h)
        churn(h, "late_change.py", ["kernel"], "late_kernel", "warp.kernel_defined_after_load",
              lambda facts: f"kernel added: {facts['added']}")
        churn(h, "late_change.py", ["option"], "late_option", "warp.option_set_after_load",
              lambda facts: f"option changed: {facts['option']} {facts['before']} -> {facts['after']}")
        unique_modules(h)
        churn(h, "late_overload.py", [], "late_overload", "warp.generic_instance_after_load",
              lambda facts: "generic instance added: " +
              ", ".join(sorted(set(facts["overloads"]) - set(facts["first_overloads"]))))
    print("real Warp: cold/warm, late kernel, late option, unique modules and late overload recorded as Warp "
          "reported them; collector rows equal the imported verbose log")
    return 0


if __name__ == "__main__":
    sys.exit(main())
