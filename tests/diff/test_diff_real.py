#!/usr/bin/env python3
"""`compilescope diff` on runs of real Numba and Warp programs (issue 36).

Usage: test_diff_real.py COMPILESCOPE_BINARY SOURCE_DIR

Why real runs: diff matches compiles across processes, so what it must survive is what changes
between two real processes of one program: Numba's dispatcher addresses, handles, timestamps, Warp's
cache state. Each case asserts what the runtime did, read from the traces themselves:
- Numba, base add(int, int) vs head add(int, int) + add(float, float): exactly one new compile, the
  float64 signature, and add recompiled 1 -> 2 times per run; `--fail-on new-recompile` exits 1, no
  gate exits 0; the JSON, Markdown and JUnit outputs name the same change; the JUnit case of the new
  signature fails and the int64 one passes; `report --baseline` opens with the same changes, in the
  same order, each linked to its row in the report, with paired compile-time bars.
- Numba, the same program three times a side (samples): no new or gone compile, and each cost change
  is judged against the noise band (never "slower" while inside it); `--fail-on new-compile` exits 0.
- Warp, a module whose second kernel is defined after the first load (head) against one defined
  before (base): head's extra identity of __main__ is a new compile, gated by new-compile; the
  kernel-defined-after-load finding is new.
- Warp cold against warm (one kernel cache): every module compiled -> served from the cache, nothing
  new, compiles N -> 0; the option-after-load mistake against its fix: the default-options identity
  gone with the build time it saves, __main__ compiled 2 -> 1 times, the finding resolved.
- PyTorch shape recompiles (3, 4, 5, automatic dynamic off) against mark_dynamic: the frame compiled
  3 -> 1 times, compiles 0/1 and 0/2 gone; diffed the other way, new-recompile fails the gate.
- Bad input: an unknown --fail-on condition and a missing trace are exit 2 with a message.
A missing runtime skips, or fails under COMPILESCOPE_REQUIRE_RUNTIMES=1 (runtime_gate.py).
"""
import json
import os
import re
import subprocess
import sys
import tempfile
import textwrap
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "collector"))
import runtime_gate  # noqa: E402

NUMBA_BASE = textwrap.dedent("""
    import numba
    @numba.njit
    def add(x, y):
        return x + y
    add(1, 2)
""")
NUMBA_HEAD = NUMBA_BASE + "add(1.0, 2.0)\n"

WARP_PRELUDE = textwrap.dedent("""
    import warp as wp
    wp.init()
    @wp.kernel
    def scale(a: wp.array(dtype=float)):
        i = wp.tid()
        a[i] = a[i] * 2.0
""")
WARP_LATE_KERNEL = textwrap.dedent("""
    @wp.kernel
    def shift(a: wp.array(dtype=float)):
        i = wp.tid()
        a[i] = a[i] + 1.0
""")
WARP_LAUNCHES = textwrap.dedent("""
    a = wp.ones(8, dtype=float, device="cpu")
    wp.launch(scale, dim=8, inputs=[a], device="cpu")
""")
WARP_SHIFT = 'wp.launch(shift, dim=8, inputs=[a], device="cpu")\nwp.synchronize()\n'
WARP_BASE = WARP_PRELUDE + WARP_LATE_KERNEL + WARP_LAUNCHES + WARP_SHIFT   # both kernels before the load
WARP_HEAD = WARP_PRELUDE + WARP_LAUNCHES + WARP_LATE_KERNEL + WARP_SHIFT   # shift after the first load


# The option-after-load mistake and its fix: the same kernel, max_unroll set after the first launch
# (a second module identity, compiled again) or before it.
WARP_OPTION_LATE = WARP_PRELUDE + WARP_LAUNCHES + textwrap.dedent("""
    wp.set_module_options({"max_unroll": 8})
    wp.launch(scale, dim=8, inputs=[a], device="cpu")
    wp.synchronize()
""")
WARP_OPTION_FIXED = WARP_PRELUDE + 'wp.set_module_options({"max_unroll": 8})\n' + WARP_LAUNCHES + textwrap.dedent("""
    wp.launch(scale, dim=8, inputs=[a], device="cpu")
    wp.synchronize()
""")

# Shape recompiles (sizes 3, 4, 5 with automatic dynamic shapes off) and the same program with the
# dimension marked dynamic: one compile.
TORCH_SHAPES = textwrap.dedent("""
    import torch
    torch._dynamo.config.automatic_dynamic_shapes = False
    @torch.compile(backend="eager")
    def norm(x):
        return (x - x.mean()) / (x.std() + 1e-6)
    for n in (3, 4, 5):
        x = torch.ones(n)
        MARK
        norm(x)
""")


def run(argv, expect=None, **kw):
    r = subprocess.run(argv, capture_output=True, text=True, timeout=600, **kw)
    if expect is not None:
        assert r.returncode == expect, (argv, r.returncode, r.stdout[-3000:], r.stderr[-3000:])
    return r


def sqlite_rows(trace, sql):
    import sqlite3
    db = sqlite3.connect(trace)
    try:
        return db.execute(sql).fetchall()
    finally:
        db.close()


def query(trace, sql):
    return sqlite_rows(trace, sql)[0][0]


def record(cs, runtime, source, trace, tmp, env):
    script = os.path.join(tmp, os.path.basename(trace) + ".py")
    with open(script, "w") as f:
        f.write(source)
    run([cs, "record", f"--{runtime}", "-o", trace, "--", sys.executable, script], expect=0, env=env)
    return trace


def numba_cases(cs, tmp, env):
    base = record(cs, "numba", NUMBA_BASE, os.path.join(tmp, "nb_base.cstrace"), tmp, env)
    head = record(cs, "numba", NUMBA_HEAD, os.path.join(tmp, "nb_head.cstrace"), tmp, env)
    text = run([cs, "diff", base, head], expect=0).stdout
    assert "1 -> 2 compiles" in text, text
    assert "New compiles:\n    cache lookup __main__.add (numba.dispatcher: type of arg 0 = float64; type of arg 1 = float64" in text, text
    assert "More recompiles:\n    cache lookup __main__.add: 1 -> 2 compiles per run" in text, text
    assert "int64" not in text.split("New compiles:")[1].split("More recompiles:")[0], text
    gated = run([cs, "diff", base, head, "--fail-on", "new-recompile"], expect=1).stdout
    assert "  ! cache lookup __main__.add: 1 -> 2 compiles per run" in gated, gated
    assert "1 change(s) fail the gate" in gated, gated

    doc = json.loads(run([cs, "diff", base, head, "--json", "--fail-on", "new-compile"], expect=1).stdout)
    assert doc["compiles"] == {"base": 1, "head": 2}, doc["compiles"]
    new = [c for c in doc["changes"] if c["kind"] == "new-compile"]
    assert len(new) == 1 and new[0]["gated"] and new[0]["identity"]["name"] == "__main__.add", new
    assert "type of arg 0 = float64" in new[0]["identity"]["key"], new
    assert new[0]["identity"]["head_row"].startswith(head + "#lookup-"), new
    assert doc["gated"] == 1, doc

    md = run([cs, "diff", base, head, "--format", "markdown", "--fail-on", "new-recompile"], expect=1).stdout
    assert md.startswith("### CompileScope diff: ❌ 1 gated change(s)"), md
    assert "| ❌ | new-recompile | cache lookup __main__.add | 1 -> 2 compiles per run |" in md, md

    xml = run([cs, "diff", base, head, "--format", "junit", "--fail-on", "new-compile"], expect=1).stdout
    suite = ET.fromstring(xml)
    assert suite.get("failures") == "1", xml
    cases = {c.get("name"): c for c in suite.iter("testcase")}
    failed = [n for n, c in cases.items() if c.find("failure") is not None]
    assert len(failed) == 1 and "float64" in failed[0], failed
    assert any("int64" in n and cases[n].find("failure") is None for n in cases), list(cases)
    assert int(suite.get("tests")) == len(cases), xml

    # report --baseline: the same changes, first in the report, linked to this run's rows.
    html_path = os.path.join(tmp, "r.html")
    run([cs, "report", head, "--baseline", base, "-o", html_path], expect=0)
    html = open(html_path, encoding="utf-8").read()
    all_changes = json.loads(run([cs, "diff", base, head, "--json"], expect=0).stdout)["changes"]
    m = re.search(r'<section id="changed" data-count="(\d+)"', html)
    assert m and int(m.group(1)) == len(all_changes), (m and m.group(0), len(all_changes))
    assert html.index('id="changed"') < html.index('id="summary"'), "Changed since baseline is not first"
    kinds = re.findall(r'<tr class="change" data-kind="([a-z-]+)"', html)
    assert kinds == [c["kind"] for c in all_changes], (kinds, all_changes)
    links = re.findall(r'<a href="#([^"]+)">this run</a>', html)
    assert links and all(f'id="{a}"' in html for a in links), links
    assert html.count('<svg class="pair"') >= 2, "no paired bars"

    # Samples: the same program three times a side. Nothing is new or gone; costs are judged by the
    # noise band of the base's three samples.
    bases = [record(cs, "numba", NUMBA_HEAD, os.path.join(tmp, f"s_base{i}.cstrace"), tmp, env) for i in range(3)]
    heads = [record(cs, "numba", NUMBA_HEAD, os.path.join(tmp, f"s_head{i}.cstrace"), tmp, env) for i in range(3)]
    doc = json.loads(run([cs, "diff", *bases, "--vs", *heads, "--json", "--fail-on", "new-compile,new-recompile"],
                         expect=0).stdout)
    kinds = {c["kind"] for c in doc["changes"]}
    assert not kinds & {"new-compile", "gone", "new-recompile", "fewer-recompiles"}, doc["changes"]
    for c in doc["changes"]:
        if c["kind"] in ("slower", "faster"):
            assert abs(c["head_median_ns"] - c["base_median_ns"]) > c["noise_band_ns"], c
        if c["kind"] == "inside-noise":
            assert abs(c["head_median_ns"] - c["base_median_ns"]) <= c["noise_band_ns"], c
    print(f"numba: new signature and recompile found, gated; 3 vs 3 samples: {sorted(kinds) or 'no change'}")


def warp_case(cs, tmp, env):
    wenv = dict(env, WARP_CACHE_PATH=os.path.join(tmp, "warp-base"))
    base = record(cs, "warp", WARP_BASE, os.path.join(tmp, "w_base.cstrace"), tmp, wenv)
    wenv = dict(env, WARP_CACHE_PATH=os.path.join(tmp, "warp-head"))
    head = record(cs, "warp", WARP_HEAD, os.path.join(tmp, "w_head.cstrace"), tmp, wenv)
    doc = json.loads(run([cs, "diff", base, head, "--json", "--fail-on", "new-compile"], expect=1).stdout)
    new = [c for c in doc["changes"] if c["kind"] == "new-compile" and c["identity"]["name"] == "__main__"]
    assert new and all(c["gated"] for c in new), doc["changes"]
    assert any(c["kind"] == "new-recompile" and c["subject"] == "module load __main__" for c in doc["changes"]), doc["changes"]
    found = [c for c in doc["changes"] if c["kind"] == "new-finding"]
    assert any(c["finding"] == "warp.kernel_defined_after_load" for c in found), found
    print(f"warp: {len(new)} new identity of __main__, the late-kernel finding new")


def warp_pairs(cs, tmp, env):
    # Cold against warm, one kernel cache: every module compiled -> served from the cache, nothing new.
    wenv = dict(env, WARP_CACHE_PATH=os.path.join(tmp, "warp-cw"))
    cold = record(cs, "warp", WARP_BASE, os.path.join(tmp, "w_cold.cstrace"), tmp, wenv)
    warm = record(cs, "warp", WARP_BASE, os.path.join(tmp, "w_warm.cstrace"), tmp, wenv)
    loads = query(cold, "SELECT count(*) FROM module_loads WHERE result = 1")
    doc = json.loads(run([cs, "diff", cold, warm, "--json", "--fail-on", "new-compile,new-recompile"], expect=0).stdout)
    reused = [c for c in doc["changes"] if c["kind"] == "now-reused"]
    assert len(reused) == loads and all(c["identity"]["kind"] == "module load" for c in reused), doc["changes"]
    assert all("compiled 1 -> served from the cache 1, saves " in c["detail"] for c in reused), reused
    assert not [c for c in doc["changes"] if c["kind"] in ("new-compile", "now-compiled", "new-recompile")], doc["changes"]
    assert doc["compiles"] == {"base": loads, "head": 0}, doc["compiles"]

    # The option set after the first load against the fix: the identity compiled with the default
    # options is gone, and its build time saved; __main__ compiles once instead of twice.
    late = record(cs, "warp", WARP_OPTION_LATE, os.path.join(tmp, "w_late.cstrace"),
                  tmp, dict(env, WARP_CACHE_PATH=os.path.join(tmp, "warp-late")))
    fixed = record(cs, "warp", WARP_OPTION_FIXED, os.path.join(tmp, "w_fixed.cstrace"),
                   tmp, dict(env, WARP_CACHE_PATH=os.path.join(tmp, "warp-fixed")))
    hashes = [h for (h,) in sqlite_rows(late, "SELECT h.str FROM module_loads m JOIN strings h ON h.id = m.hash_sid "
                                              "JOIN strings n ON n.id = m.name_sid WHERE n.str = '__main__' ORDER BY m.id")]
    assert len(hashes) == 2 and hashes[0] != hashes[1], hashes
    doc = json.loads(run([cs, "diff", late, fixed, "--json"], expect=0).stdout)
    gone = [c for c in doc["changes"] if c["kind"] == "gone"]
    assert len(gone) == 1 and gone[0]["identity"]["key"].startswith(hashes[0][:7]), (gone, hashes)
    assert ", saves " in gone[0]["detail"], gone
    assert any(c["kind"] == "fewer-recompiles" and c["subject"] == "module load __main__" and "2 -> 1" in c["detail"]
               for c in doc["changes"]), doc["changes"]
    assert not [c for c in doc["changes"] if c["kind"] == "new-compile"], doc["changes"]
    assert any(c["kind"] == "resolved-finding" and c["finding"] == "warp.option_set_after_load" for c in doc["changes"]), \
        doc["changes"]
    print("warp pairs: cold -> warm all now served from the cache; the late option's identity gone, build time saved")


def torch_pair(cs, tmp, env):
    shapes = record(cs, "torch", TORCH_SHAPES.replace("MARK", "pass"), os.path.join(tmp, "t_shapes.cstrace"), tmp, env)
    marked = record(cs, "torch", TORCH_SHAPES.replace("MARK", "torch._dynamo.mark_dynamic(x, 0)"),
                    os.path.join(tmp, "t_marked.cstrace"), tmp, env)
    doc = json.loads(run([cs, "diff", shapes, marked, "--json", "--fail-on", "new-recompile"], expect=0).stdout)
    fewer = [c for c in doc["changes"] if c["kind"] == "fewer-recompiles" and c["subject"] == "compile span norm"]
    assert len(fewer) == 1 and "3 -> 1 compiles per run" in fewer[0]["detail"], doc["changes"]
    gone = sorted(c["identity"]["key"] for c in doc["changes"] if c["kind"] == "gone" and c["identity"]["kind"] == "compile span")
    assert gone == ["compile 0/1", "compile 0/2"], doc["changes"]
    # ... and the gate would have failed the other way round.
    back = json.loads(run([cs, "diff", marked, shapes, "--json", "--fail-on", "new-recompile"], expect=1).stdout)
    assert any(c["kind"] == "new-recompile" and c["gated"] for c in back["changes"]), back["changes"]
    print("torch pair: mark_dynamic removes the two shape recompiles (0/1, 0/2)")


def main():
    if os.environ.get("COMPILESCOPE_SANITIZER_BUILD"):
        print("SKIPPED: sanitizer build; the Python collectors are tested in the dev preset")
        return 77
    cs = sys.argv[1]
    status = 0
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, NUMBA_CACHE_DIR=os.path.join(tmp, "numba-cache"))
        env.pop("PYTHONPATH", None)
        r = run([cs, "diff", "--fail-on", "newer-compile", "a.cstrace", "b.cstrace"], expect=2)
        assert 'unknown --fail-on condition "newer-compile"' in r.stderr, r.stderr
        r = run([cs, "diff", os.path.join(tmp, "none.cstrace"), os.path.join(tmp, "none2.cstrace")], expect=2)
        assert "none.cstrace" in r.stderr, r.stderr
        for runtime, case in (("numba", numba_cases), ("warp", warp_case), ("warp", warp_pairs), ("torch", torch_pair)):
            probe = run([sys.executable, "-c", f"import {runtime}"])
            if probe.returncode != 0:
                status = max(status, runtime_gate.missing(runtime, (probe.stderr.strip().splitlines() or ["?"])[-1]))
                continue
            case(cs, tmp, env)
    return status


if __name__ == "__main__":
    sys.exit(main())
