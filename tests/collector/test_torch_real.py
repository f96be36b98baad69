#!/usr/bin/env python3
"""PyTorch for real: torch.compile on the CPU, recorded live, imported from TORCH_TRACE, read by tlparse.

Usage: test_torch_real.py COMPILESCOPE_BINARY SOURCE_DIR

Why: `record --torch` and the TORCH_TRACE importer were written from public logs and a stand-in
module. Here each scenario is a small real torch.compile program, run once under
`compilescope record --torch` with TORCH_TRACE set, so that the live recording, the import of the
structured log written by the same process, and tlparse's report of that log describe the same
compiles. Every expected fact is read from torch's own output (the TORCH_TRACE records, tlparse's
compile_directory.json, recompile_reasons_N.json and failures_and_restarts.html), so a change in
torch's wording moves both sides; only what torch must do in each scenario is pinned:
  shapes      default inductor, sizes 3, 4, 5, automatic dynamic shapes on (torch's default): 0/0
              static, 0/1 after "size mismatch at index 0. expected 3, actual 4", and size 5 reuses
              the dynamic 0/1 (two compiles, not three); the FX graph cache misses of the trace are
              our lookups, and explain names example_inputs moving
  intspec     eager, automatic_dynamic_shapes=False, k = 2, 3, 4, 5: a compile per value, each
              recompile's guard failure names `k == <previous value>`, and jit.int_specialisation_churn
              names k (2, 3, 4) from the "torch dynamo" lookups the reasons key
  limit       eager, recompile_limit = 2, automatic_dynamic_shapes=False, sizes 3, 4, 5, 6: 0/2 fails
              with the limit, size 6 compiles nothing; the finding jit.recompile_limit_hit names 2 and
              `step`; explain names "size of x at index 0: 3 -> 4" (the guard lookups)
  graph_break eager, print() inside: 0/0 restarted (graph_break arg), 0/0_1 ok with the restart reason,
              1/0 the resume function
  fullgraph   eager, fullgraph=True with print(): 0/0 failed (Unsupported), the call raised
Compared for each: (1) the live and imported traces hold the same compile spans with the same args
(times left out) and the same cache lookups; (2) our compile ids are tlparse's, our "guard failure
N" args are tlparse's recompile reasons, our failed / restarted compiles are tlparse's failures page
rows; (3) `compilescope report` lists every compile id with why it failed or restarted.
Each run uses a private TORCHINDUCTOR_CACHE_DIR. A missing torch or tlparse skips (77), or fails
under COMPILESCOPE_REQUIRE_RUNTIMES=1 (runtime_gate.py).
"""
import glob
import html
import json
import os
import re
import sqlite3
import subprocess
import sys
import tempfile
import textwrap
import time

import runtime_gate
import test_torch_jax_collectors as parity

PYTHON = sys.executable
FLOAT = re.compile(r"-?\d+\.\d*(e-?\d+)?")

SCENARIOS = {
    "shapes": """
        import torch
        def norm(x):
            return (x - x.mean()) / (x.std() + 1e-6)
        f = torch.compile(norm)  # the default backend, inductor
        for n in (3, 4, 5):
            f(torch.ones(n))
    """,
    "intspec": """
        import torch
        torch._dynamo.config.automatic_dynamic_shapes = False
        @torch.compile(backend="eager")
        def scale(x, k):
            return x * k
        for k in (2, 3, 4, 5):
            scale(torch.ones(4), k)
    """,
    "limit": """
        import torch
        torch._dynamo.config.recompile_limit = 2
        torch._dynamo.config.automatic_dynamic_shapes = False
        @torch.compile(backend="eager")
        def step(x):
            return x.sin() + 1
        for n in (3, 4, 5, 6):
            step(torch.ones(n))
    """,
    "graph_break": """
        import torch
        @torch.compile(backend="eager")
        def split(x):
            y = x.cos()
            print("graph break here")
            return y + 1
        split(torch.ones(4))
    """,
    "fullgraph": """
        import torch
        @torch.compile(backend="eager", fullgraph=True)
        def strict(x):
            y = x.cos()
            print("graph break here")
            return y + 1
        try:
            strict(torch.ones(4))
        except Exception as e:
            print("fullgraph raised", type(e).__name__)
    """,
}


def run(cmd, env, timeout=300):
    r = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=timeout)
    assert r.returncode == 0, (cmd, r.returncode, r.stdout[-3000:], r.stderr[-3000:])
    return r


def records(log):
    """The TORCH_TRACE file as [(envelope, payload)]."""
    return [(md, payload or "") for md, payload in parity.torch_records(log)]


def compile_id(md):
    if md.get("frame_id") is None or md.get("frame_compile_id") is None:
        return None
    cid = "%d/%d" % (md["frame_id"], md["frame_compile_id"]) + ("_%d" % md["attempt"] if md.get("attempt") else "")
    return cid if md.get("compiled_autograd_id") is None else "!%d/%s" % (md["compiled_autograd_id"], cid)


def reasons(text):
    """A recompile_reasons payload (or tlparse's copy of it): a JSON list, or one reason as text."""
    try:
        v = json.loads(text)
        return v if isinstance(v, list) else [v]
    except ValueError:
        return [text] if text else []


def plain(text):
    """HTML text and ours compared alike: tags (tlparse leaves `<class ...>` unescaped) and runs of blanks gone."""
    return " ".join(re.sub(r"<[^>]*>", " ", html.unescape(re.sub(r"<[^>]*>", " ", text))).split())


def compiles(trace):
    """compile id -> {arg: value} of the compile spans on the "torch compile" track."""
    db = sqlite3.connect(trace)
    out = {}
    for sid, name in db.execute("SELECT s.id, n.str FROM spans s JOIN strings n ON n.id = s.name_sid JOIN tracks t "
                                "ON t.id = s.track_id JOIN strings tn ON tn.id = t.name_sid "
                                "WHERE tn.str = 'torch compile' AND s.category = (SELECT category FROM spans "
                                "WHERE id = (SELECT span_id FROM span_args a JOIN strings k ON k.id = a.key_sid "
                                "WHERE k.str = 'status' LIMIT 1))"):
        # Floats as one text: the binding writes them as text, the importer as reals (parity.normalised).
        args = {k: repr(float(v)) if isinstance(v, float) or isinstance(v, str) and FLOAT.fullmatch(v) else v
                for k, v in db.execute("SELECT k.str, a.value FROM span_args a JOIN strings k ON k.id = a.key_sid "
                                       "WHERE a.span_id = ?", (sid,))}
        if "status" in args:
            assert args["compile_id"] not in out, ("compile id twice", args["compile_id"])
            out[args["compile_id"]] = dict(args, name=name)
    db.close()
    return out


def guard_failures(args):
    n, out = 1, []
    while "guard failure %d" % n in args:
        out.append(args["guard failure %d" % n])
        n += 1
    return out


def tlparse_facts(outdir):
    """tlparse's compile ids, recompile reasons per id, and failures page rows."""
    directory = json.load(open(os.path.join(outdir, "compile_directory.json")))
    ids = [k[1:-1] for k in directory if k != "[-/-]"]
    recompiles = {}
    for key, entry in directory.items():
        for a in entry.get("artifacts", []):
            if a["name"].startswith("recompile_reasons_"):
                recompiles[key[1:-1]] = reasons(open(os.path.join(outdir, a["url"]), encoding="utf-8").read())
    page = open(os.path.join(outdir, "failures_and_restarts.html"), encoding="utf-8").read()
    failures = {}
    for m in re.finditer(r"<tr>\s*<td>\s*<a [^>]*>\[([^\]]+)\]</a>\s*</td>\s*<td>(.*?)</td>\s*<td>(.*?)</td>\s*<td>(.*?)</td>",
                         page, re.S):
        failures[m.group(1)] = (plain(m.group(2)), plain(m.group(3)), plain(m.group(4)))
    return ids, recompiles, failures


def our_failures(ours):
    """Our compile spans as tlparse's failures page rows: failed compiles, and compiles after a restart."""
    out = {}
    for cid, a in ours.items():
        if a["status"] == "failed":
            where = "N/A:0" if a.get("fail_user_frame_filename") is None else "%s:%s" % (
                a["fail_user_frame_filename"], a["fail_user_frame_lineno"])
            out[cid] = (plain(a["fail_type"]), plain(a["fail_reason"]), where)
        elif a.get("restart_reasons"):
            out[cid] = ("RestartAnalysis", plain(a["restart_reasons"]), "Not availble for restarts(yet)!")
    return out


def scenario(binary, tlparse, env, tmp, name):
    script = os.path.join(tmp, name + ".py")
    with open(script, "w") as f:
        f.write(textwrap.dedent(SCENARIOS[name]))
    tt_dir, live, imported = (os.path.join(tmp, name + s) for s in ("_trace", "_live.cstrace", "_import.cstrace"))
    run_env = dict(env, TORCH_TRACE=tt_dir, TORCHINDUCTOR_CACHE_DIR=os.path.join(tmp, name + "_inductor"))
    started = time.monotonic()
    r = run([binary, "record", "--torch", "-o", live, "--", PYTHON, script], run_env)
    logs = glob.glob(os.path.join(tt_dir, "*.log"))
    assert len(logs) == 1, logs
    run([binary, "import", logs[0], "-o", imported], env)
    outdir = os.path.join(tmp, name + "_tlparse")
    run([tlparse, logs[0], "-o", outdir, "--no-browser", "--overwrite"], env)

    # (1) The live recording and the import of the same process's TORCH_TRACE agree.
    lf, imf = parity.facts(live), parity.facts(imported)
    assert lf[0] == imf[0], (name, "lookups differ", lf[0], imf[0])
    assert parity.normalised(lf[1]) == parity.normalised(imf[1]), (
        name, "spans differ", sorted(set(parity.normalised(lf[1]).items()) ^ set(parity.normalised(imf[1]).items())))
    ours = compiles(imported)
    live_compiles = compiles(live)
    assert ours == live_compiles, (name, {c: set(a.items()) ^ set(live_compiles.get(c, {}).items()) for c, a in ours.items()})

    # (2) tlparse's report of that TORCH_TRACE: the same compile ids, reasons and failures.
    ids, recompiles, failures = tlparse_facts(outdir)
    assert sorted(ids) == sorted(ours), (name, ids, sorted(ours))
    for cid, a in ours.items():
        assert guard_failures(a) == recompiles.get(cid, []), (name, cid, guard_failures(a), recompiles.get(cid))
    assert our_failures(ours) == failures, (name, our_failures(ours), failures)
    # ... and both are what the TORCH_TRACE records say.
    recs = records(logs[0])
    traced = {compile_id(md): reasons(p) for md, p in recs if md.get("artifact", {}).get("name") == "recompile_reasons"}
    assert traced == {c: guard_failures(a) for c, a in ours.items() if guard_failures(a)}, (name, traced)
    metrics = {compile_id(md): md["compilation_metrics"] for md, _ in recs if "compilation_metrics" in md}
    for cid, a in ours.items():
        m = metrics.get(cid)
        if m is None:
            assert a["status"] == "restarted", (name, cid, a["status"])
        else:
            assert a["status"] == ("failed" if m.get("fail_type") else "ok"), (name, cid, a["status"], m.get("fail_type"))
            assert a["name"] == (m.get("co_name") or a["name"]), (name, cid)

    # (3) The report's compile index lists each compile id, with why it failed or restarted.
    report = os.path.join(tmp, name + ".html")
    run([binary, "report", imported, "-o", report], env)
    page = plain(open(report, encoding="utf-8").read())
    for cid, a in ours.items():
        assert "compile " + cid in page, (name, cid)
        if a["status"] == "failed":
            assert "failed: " + a["fail_type"] in page, (name, cid)
        if a["status"] == "restarted":
            assert "restarted: " + plain(a["graph_break"].split("\n")[0]) in page, (name, cid)
    findings = json.loads(run([binary, "findings", "--json", imported], env).stdout)
    print("%s: %d compiles %s, %d recompile reasons, %d failures/restarts, live = imported = tlparse (%.1f s)" % (
        name, len(ours), sorted(ours), sum(len(v) for v in recompiles.values()), len(failures), time.monotonic() - started))
    return ours, recs, r.stdout, findings, imported


def kinds(findings):
    items = findings["findings"] if isinstance(findings, dict) else findings
    return {f["kind"]: f for f in items}


def main():
    if os.environ.get("COMPILESCOPE_SANITIZER_BUILD"):
        print("SKIPPED: sanitizer build; the Python collectors are tested in the dev preset")
        return runtime_gate.SKIP
    binary, source_dir = sys.argv[1], sys.argv[2]
    probe = subprocess.run([PYTHON, "-c", "import torch; from torch._logging._internal import trace_log"],
                           capture_output=True, text=True)
    if probe.returncode != 0:
        return runtime_gate.missing("torch", (probe.stderr.strip().splitlines() or ["import failed"])[-1])
    tlparse = os.path.join(os.path.dirname(PYTHON), "tlparse")
    if not os.access(tlparse, os.X_OK):
        return runtime_gate.missing("tlparse", "no %s" % tlparse)
    env = dict(os.environ, COMPILESCOPE_BUFFER_POLICY="block")
    env.pop("TORCH_TRACE", None)
    env.pop("TORCH_LOGS", None)
    with tempfile.TemporaryDirectory() as tmp:
        ours, recs, _, _, imported = scenario(binary, tlparse, env, tmp, "shapes")
        # Automatic dynamic shapes: the first recompile made the size symbolic, so size 5 compiled nothing.
        assert sorted(ours) == ["0/0", "0/1"], ours
        assert guard_failures(ours["0/1"]) == ["0/0: tensor 'x' size mismatch at index 0. expected 3, actual 4"], ours["0/1"]
        fx = [md["artifact"]["name"] for md, _ in recs if md.get("artifact", {}).get("name", "").startswith("fx_graph_cache_")]
        assert fx == ["fx_graph_cache_miss"] * 2, fx
        db = sqlite3.connect(imported)
        lookups = db.execute("SELECT l.verdict FROM cache_lookups l JOIN strings c ON c.id = l.cache_sid "
                             "WHERE c.str = 'fx graph cache (persistent)'").fetchall()
        db.close()
        assert lookups == [(2,), (2,)], lookups
        explained = run([binary, "explain", imported], env).stdout
        assert "example_inputs[0]" in explained and "float32[3]" in explained, explained

        ours, _, _, findings, _ = scenario(binary, tlparse, env, tmp, "intspec")
        assert sorted(ours) == ["0/0", "0/1", "0/2", "0/3"], ours
        for n, k in ((1, 2), (2, 3), (3, 4)):
            first = guard_failures(ours["0/%d" % n])[0]
            assert re.match(r"0/%d: k == %d\b" % (n - 1, k), first), first
        # The guards are the key of an eager compile: one "torch dynamo" lookup per compile, k = 2, 3, 4
        # on the entries the reasons name (0/3's own value no later reason states).
        churn = kinds(findings).get("jit.int_specialisation_churn")
        assert churn and "a compile per value of k (2, 3, 4)" in churn["title"], findings

        ours, _, _, findings, _ = scenario(binary, tlparse, env, tmp, "limit")
        assert sorted(ours) == ["0/0", "0/1", "0/2"], ours   # size 6 ran eagerly: no compile
        assert ours["0/2"]["status"] == "failed" and ours["0/2"]["limit_value"] == 2, ours["0/2"]
        explained = run([binary, "explain", os.path.join(tmp, "limit_live.cstrace")], env).stdout
        assert "size of x at index 0: 3 -> 4" in explained, explained
        hit = kinds(findings).get("jit.recompile_limit_hit")
        assert hit and "recompile_limit (2)" in hit["title"] and "'step'" in hit["title"], findings

        ours, _, _, findings, _ = scenario(binary, tlparse, env, tmp, "graph_break")
        assert sorted(ours) == ["0/0", "0/0_1", "1/0"], ours
        assert ours["0/0"]["status"] == "restarted", ours["0/0"]
        assert ours["0/0"]["graph_break"].startswith("Graph break in user code at "), ours["0/0"]
        assert ours["0/0_1"]["status"] == "ok" and ours["1/0"]["name"].startswith("torch_dynamo_resume_in_split"), ours
        assert "jit.compile_incomplete" not in kinds(findings), findings

        ours, _, out, _, _ = scenario(binary, tlparse, env, tmp, "fullgraph")
        assert sorted(ours) == ["0/0"] and ours["0/0"]["status"] == "failed", ours
        assert "fullgraph raised Unsupported" in out, out
    return 0


if __name__ == "__main__":
    sys.exit(main())
