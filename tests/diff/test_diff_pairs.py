#!/usr/bin/env python3
"""`compilescope diff` on a real clang build and on Julia's @time_imports, before and after a change
(issue 36), and its JUnit output read by a JUnit XML parser.

Usage: test_diff_pairs.py COMPILESCOPE_BINARY SOURCE_DIR

Why these pairs: a C++ build has no cache lookups, so what diff must say there is which files got
slower and why (frontend or backend, which header or template set); a Julia package load has no
compile rows, so what it must say is the load time and the recompilation an invalidation fix
removed. Each case asserts entries computed here from the inputs themselves:
- clang++ -ftime-trace builds two files twice: the base header includes <string>, the head header
  also includes <regex> and compiles a std::regex. Both files are "slower", each naming its frontend
  and backend before -> after (the sums clang printed in the time traces) and the build's largest
  moves; the header regex is new; `--fail-on slower:10` fails exactly the two files, and the JUnit
  file, read by junitparser, lists one failure per gated change.
- @time @time_imports using Plots, as the Julia manual prints it, against the same load after the
  invalidation is fixed (tests/data/julia/time_imports_plots_fixed.txt): every package whose
  recompilation went away is faster with its recompilation -> 0, the @time total is faster, and the
  recompilation findings are resolved.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "collector"))
import runtime_gate  # noqa: E402

BASE_HEADER = '#pragma once\n#include <string>\ninline std::string greet(const std::string& s) { return "hi " + s; }\n'
HEAD_HEADER = ('#pragma once\n#include <string>\n#include <regex>\n'
               'inline std::string greet(const std::string& s) {\n'
               '  static const std::regex word("[a-z]+");\n'
               '  return std::regex_match(s, word) ? "hi " + s : s;\n}\n')
FILES = {"alpha.cpp": '#include "shared.h"\nstd::string alpha() { return greet("a"); }\n',
         "main.cpp": '#include "shared.h"\n#include <cstdio>\nstd::string alpha();\n'
                     'int main() { std::puts((alpha() + greet("b")).c_str()); }\n'}


def run(argv, expect=None, **kw):
    r = subprocess.run(argv, capture_output=True, text=True, timeout=600, **kw)
    if expect is not None:
        assert r.returncode == expect, (argv, r.returncode, r.stdout[-3000:], r.stderr[-3000:])
    return r


def clang_times(trace_json):
    """Frontend and backend of one time trace, as clang summed them ("Total Frontend" / "Total Backend")."""
    events = json.load(open(trace_json))["traceEvents"]
    total = {e["name"]: e["dur"] * 1000 for e in events if e.get("name") in ("Total Frontend", "Total Backend")}
    return total["Total Frontend"], total["Total Backend"]


def build(cs, clang, root, header):
    os.makedirs(root)
    with open(os.path.join(root, "shared.h"), "w") as f:
        f.write(header)
    for name, text in FILES.items():
        with open(os.path.join(root, name), "w") as f:
            f.write(text)
        run([clang, "-std=c++17", "-O1", "-ftime-trace", "-c", name, "-o", name[:-4] + ".o"], expect=0, cwd=root)
    traces = [os.path.join(root, n[:-4] + ".json") for n in FILES]
    out = os.path.join(root, "build.cstrace")
    run([cs, "import", *traces, "-o", out], expect=0)
    return out, {os.path.basename(t): clang_times(t) for t in traces}


def fmt_ms(ns):
    return ns / 1e6


def clang_pair(cs, tmp):
    clang = shutil.which("clang++") or shutil.which("clang++-14")
    if not clang:
        return runtime_gate.missing("clang++", "not on PATH (packaging/install-deps.sh installs clang)")
    base, base_times = build(cs, clang, os.path.join(tmp, "base"), BASE_HEADER)
    head, head_times = build(cs, clang, os.path.join(tmp, "head"), HEAD_HEADER)
    doc = json.loads(run([cs, "diff", base, head, "--json", "--fail-on", "slower:10"], expect=1).stdout)
    files = {c["identity"]["name"]: c for c in doc["changes"] if c.get("identity", {}).get("kind") == "C++ file"}
    assert sorted(files) == ["alpha.json", "main.json"], doc["changes"]
    for name, c in files.items():
        (bf, bb), (hf, hb) = base_times[name], head_times[name]
        assert c["kind"] == "slower" and c["gated"], c
        # The file's time is its frontend and backend; which moved is said, with clang's own sums.
        assert c["base_median_ns"] >= bf + bb - 1000 and c["head_median_ns"] >= hf + hb - 1000, (c, base_times, head_times)
        assert "frontend " in c["detail"] and "backend " in c["detail"], c
        assert "the build's largest moves: " in c["detail"], c
    new_headers = [c["identity"]["name"] for c in doc["changes"]
                   if c["kind"] == "new-compile" and c["identity"]["kind"] == "header"]
    assert "regex" in new_headers, new_headers
    new_sets = [c["identity"]["name"] for c in doc["changes"]
                if c["kind"] == "new-compile" and c["identity"]["kind"] == "template set"]
    assert any("basic_regex" in n for n in new_sets), new_sets
    # A finding whose figures changed (shared.h: its parse time grew) is the same finding: neither
    # resolved nor new; its cost is compared above.
    moved = [c for c in doc["changes"] if c["kind"] in ("new-finding", "resolved-finding") and "shared.h" in c["subject"]]
    assert not moved, moved
    # Headers and template sets are time inside the two files' compiles, never compiles themselves.
    assert doc["compiles"] == {"base": 2, "head": 2}, doc["compiles"]
    gated = [c for c in doc["changes"] if c["gated"]]

    # JUnit, read by a JUnit parser: one failure per gated change, each naming it.
    from junitparser import JUnitXml, Failure
    xml_path = os.path.join(tmp, "diff.xml")
    with open(xml_path, "w") as f:
        f.write(run([cs, "diff", base, head, "--format", "junit", "--fail-on", "slower:10"], expect=1).stdout)
    failures = []
    for suite in JUnitXml.fromfile(xml_path):
        for case in suite:
            failures += [(case.name, r.message) for r in case.result if isinstance(r, Failure)]
    assert len(failures) == len(gated), (failures, gated)
    for c in gated:
        assert any(c["identity"]["name"] in name for name, _ in failures), (c, failures)
    # report --baseline: the same changes first, and the notes of what the lists leave out.
    html_path = os.path.join(tmp, "build.html")
    run([cs, "report", head, "--baseline", base, "-o", html_path], expect=0)
    html = open(html_path, encoding="utf-8").read()
    for note in doc["notes"]:
        assert f'<p class="muted diff-note">{note}</p>' in html, (note, "not in the report")
    assert doc["notes"] and any(n.endswith(")") and "more headers changed" in n for n in doc["notes"]), doc["notes"]
    print(f"clang pair: 2 files slower (gated), header regex new, {len(failures)} JUnit failures")
    return 0


def julia_pair(cs, src, tmp):
    data = os.path.join(src, "tests", "data", "julia")
    base, head = os.path.join(tmp, "ti_base.cstrace"), os.path.join(tmp, "ti_head.cstrace")
    run([cs, "import", os.path.join(data, "time_imports_plots_manual.txt"), "-o", base], expect=0)
    run([cs, "import", os.path.join(data, "time_imports_plots_fixed.txt"), "-o", head], expect=0)
    doc = json.loads(run([cs, "diff", base, head, "--json"], expect=0).stdout)
    by_name = {c["identity"]["name"]: c for c in doc["changes"] if "identity" in c}
    # Load time in ms as each file prints it: package -> (before, after).
    expected = {"SuiteSparse_jll": (90.1, 12.6), "SparseArrays": (166.9, 125.6), "p7zip_jll": (79.4, 5.7),
                "GR": (43.0, 15.4)}
    for name, (before, after) in expected.items():
        c = by_name[name]
        assert c["identity"]["kind"] == "package load" and c["kind"] == "faster", c
        assert abs(c["base_median_ns"] / 1e6 - before) < 0.05 and abs(c["head_median_ns"] / 1e6 - after) < 0.05, c
        assert "recompilation " in c["detail"] and c["detail"].endswith(" -> 0 ns"), c
    total = by_name["@time_imports using Plots"]
    assert total["kind"] == "faster" and abs(total["base_median_ns"] / 1e9 - 1.795602) < 1e-6, total
    resolved = sorted(c["finding"] for c in doc["changes"] if c["kind"] == "resolved-finding")
    # SparseArrays too: findings fire on the time recompiled, 39.6 ms at 24 % of its load (issue 35)
    assert resolved.count("julia.package_load_recompilation") == 4 and "julia.time_recompilation" in resolved, resolved
    assert not any(c["kind"] in ("new-finding", "slower", "new-compile") for c in doc["changes"]), doc["changes"]
    print("julia pair: 4 package loads and the @time total faster, recompilation -> 0, findings resolved")
    return 0


def main():
    cs, src = sys.argv[1], sys.argv[2]
    try:
        import junitparser  # noqa: F401
    except ImportError as e:
        return runtime_gate.missing("junitparser", str(e))
    with tempfile.TemporaryDirectory() as tmp:
        return max(clang_pair(cs, tmp), julia_pair(cs, src, tmp))


if __name__ == "__main__":
    sys.exit(main())
