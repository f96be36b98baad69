#!/usr/bin/env python3
"""`compilescope fix` on Julia logs (issue 37): the precompile workload of a --trace-compile log, the
change for an invalidation tree, and a finding with no mechanical fix.

Usage: test_fix_julia.py COMPILESCOPE_BINARY SOURCE_DIR

Why imported logs: the inputs are text exactly as Julia and SnoopCompile print it (tests/data/julia,
sources in its README), so no Julia is needed. Checks:
- the workload file parses with tree-sitter-julia (no ERROR or MISSING node);
- its precompile statements are exactly the nameable statements of the log, each once; this test
  classifies the log's lines itself (docs/fix.md, "Julia": a `#` anywhere is a closure or gensym,
  `Main.` is a script's type, `Core.Compiler.` an internal, unbalanced brackets do not parse);
- `fix` prints the excluded count per reason, and the file lists each excluded statement;
- an invalidation tree gets the method to make more specific and the tree as evidence;
- findings without a mechanical fix: `no mechanical fix: <reason>`, and no file written.
tree_sitter / tree_sitter_julia missing: skip (77), or fail under COMPILESCOPE_REQUIRE_RUNTIMES=1.
"""
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "collector"))
import runtime_gate  # noqa: E402

REASONS = {  # the class names `fix` prints (core/engine/fix/julia_workload.cpp)
    "gensym": "closure or gensym'd name",
    "main": "defined in Main",
    "compiler": "Core.Compiler internals",
    "unparseable": "signature does not parse",
}
# Shaped as Julia's gf.c prints statements (timing prefix, `# recompile` tag), for the classes the
# real excerpts lack: a Core.Compiler internal, a cut-off signature, a Main closure, a repeat.
SYNTHETIC = """\
#=   12.3 ms =# precompile(Tuple{typeof(Core.Compiler.typeinf_ext_toplevel), Core.Compiler.NativeInterpreter, Core.MethodInstance})
#=    4.0 ms =# precompile(Tuple{typeof(Base.getindex), Base.Dict{Symbol, Any}, Symbol})
precompile(Tuple{Main.var"#1#2"{Int64}, Int64})
precompile(Tuple{typeof(Base.sort!), Array{Int64, 1}) # recompile
#=    4.0 ms =# precompile(Tuple{typeof(Base.getindex), Base.Dict{Symbol, Any}, Symbol})
precompile(Tuple{typeof(Statistics.mean), Array{Float64, 1}})
"""
STATEMENT = re.compile(r"^(?:#=\s*[\d.]+ ms =#\s*)?precompile\((.*)\)(?:\s*# recompile)?$")


def classify(sig):
    depth = 0
    for c in sig:
        depth += c in "({[" and 1 or (-1 if c in ")}]" else 0)
        if depth < 0:
            return "unparseable"
    if depth or not sig.startswith("Tuple{"):
        return "unparseable"
    if "#" in sig:
        return "gensym"
    if re.search(r"(?<![\w.])Main\.", sig):
        return "main"
    if "Core.Compiler." in sig:
        return "compiler"
    return None


def log_statements(path):
    sigs = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = STATEMENT.match(re.sub(r"\x1b\[[0-9;]*m", "", line).strip())
            if m and m.group(1) not in sigs:
                sigs.append(m.group(1))
    return sigs


def run(cs, *args, cwd):
    p = subprocess.run([cs, *args], cwd=cwd, capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, f"{args}: exit {p.returncode}\n{p.stdout}\n{p.stderr}"
    return p.stdout


def syntax_errors(parser, path):
    with open(path, "rb") as f:
        tree = parser.parse(f.read())
    bad, stack = [], [tree.root_node]
    while stack:
        n = stack.pop()
        if n.type == "ERROR" or n.is_missing:
            bad.append(f"{path}:{n.start_point.row + 1}:{n.start_point.column + 1}: {n.type}")
        elif n.has_error:
            stack.extend(n.children)
    return bad


def check_workload(cs, parser, log, tmp):
    name = os.path.splitext(os.path.basename(log))[0]
    run(cs, "import", log, "-o", f"{name}.cstrace", cwd=tmp)
    out = run(cs, "fix", f"{name}.cstrace", "-o", name, cwd=tmp)
    path = os.path.join(tmp, name, "trace-julia.snippet.jl")
    assert os.path.exists(path), out
    assert not syntax_errors(parser, path), syntax_errors(parser, path)
    text = open(path, encoding="utf-8").read()
    sigs = log_statements(log)
    nameable = [s for s in sigs if classify(s) is None]
    emitted = re.findall(r"^ {8}precompile\((.*)\)$", text, re.M)
    assert sorted(emitted) == sorted(nameable), f"{name}: emitted {emitted}\nexpected {nameable}"
    assert "@setup_workload begin" in text and "@compile_workload begin" in text and "using PrecompileTools" in text
    excluded = {}
    for s in sigs:
        if classify(s):
            excluded.setdefault(classify(s), []).append(s)
    assert f"{len(nameable)} nameable" in text and f"{len(sigs) - len(nameable)} left out" in text, text[:400]
    for cls, members in excluded.items():
        note = re.search(rf"note: left out (\d+) statement\(s\): {re.escape(REASONS[cls])}", out)
        assert note and int(note.group(1)) == len(members), f"{name}: {cls}: {members}\n{out}"
        for s in members:
            assert f"#   precompile({s})" in text, f"{name}: {s} not listed as left out"
    printed = len(re.findall(r"note: left out \d+ statement", out))
    assert printed == len(excluded), f"{name}: {printed} exclusion notes for {sorted(excluded)}\n{out}"
    return excluded


def check_invalidation_tree(cs, parser, src, tmp):
    run(cs, "import", os.path.join(src, "tests/data/julia/printed_trees.txt"), "-o", "trees.cstrace", cwd=tmp)
    out = run(cs, "fix", "trees.cstrace", "-o", "trees", cwd=tmp)
    tree_findings = re.findall(r"^finding (\d+) julia\.invalidation_tree: inserting (.*) invalidated", out, re.M)
    assert tree_findings, out
    n, method = tree_findings[0]
    assert f"make `{method}` more specific" in out, out
    snippet = open(os.path.join(tmp, "trees", f"finding-{n}-julia.snippet.jl"), encoding="utf-8").read()
    assert re.search(rf"^#   inserting {re.escape(method)} @ \S+ .* invalidated:$", snippet, re.M), snippet
    assert "backedges:" in snippet or "mt_backedges:" in snippet, snippet
    assert not syntax_errors(parser, os.path.join(tmp, "trees", f"finding-{n}-julia.snippet.jl"))


def check_no_mechanical_fix(cs, src, tmp):
    run(cs, "import", os.path.join(src, "tests/data/julia/time_imports_plots_manual.txt"), "-o", "ti.cstrace", cwd=tmp)
    findings = run(cs, "findings", "ti.cstrace", cwd=tmp)
    assert "julia.package_load_recompilation" in findings, findings
    out = run(cs, "fix", "ti.cstrace", "-o", "ti", cwd=tmp)
    m = re.match(r"fix \S+: (\d+) change\(s\), (\d+) finding\(s\) without a mechanical fix", out)
    assert m and m.group(1) == "0" and int(m.group(2)) > 0, out
    lines = re.findall(r"^finding \d+ (\S+): no mechanical fix: (.+)$", out, re.M)
    assert len(lines) == int(m.group(2)), out
    assert all(reason.strip() for _, reason in lines), out
    assert any(k == "julia.package_load_recompilation" for k, _ in lines), out
    assert "wrote " not in out and not os.path.exists(os.path.join(tmp, "ti")), out


def main(cs, src):
    try:
        import tree_sitter
        import tree_sitter_julia
    except ImportError as e:
        return runtime_gate.missing("tree_sitter / tree_sitter_julia", e)
    parser = tree_sitter.Parser(tree_sitter.Language(tree_sitter_julia.language()))
    with tempfile.TemporaryDirectory() as tmp:
        synthetic = os.path.join(tmp, "synthetic_trace_compile.txt")
        with open(synthetic, "w", encoding="utf-8") as f:
            f.write(SYNTHETIC)
        seen = set()
        for log in [os.path.join(src, "tests/data/julia/trace_compile_pysr_230.txt"),
                    os.path.join(src, "tests/data/julia/timing_mixed.txt"), synthetic]:
            seen |= set(check_workload(cs, parser, log, tmp))
        assert seen == set(REASONS), f"the logs exercised {sorted(seen)}, not every rule"
        check_invalidation_tree(cs, parser, src, tmp)
        check_no_mechanical_fix(cs, src, tmp)
    print("fix julia: workloads parse and hold exactly the nameable statements; tree and no-fix cases ok")
    return 0


if __name__ == "__main__":
    sys.exit(main(os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])))
