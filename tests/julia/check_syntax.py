"""Parses .jl files with the real Julia grammar (tree-sitter-julia) and reports every syntax error.

Why: CI has no Julia, yet a typo in the Julia package (collectors/julia) must still fail a test. The
grammar is the `tree_sitter` and `tree_sitter_julia` packages of the project's venv
(packaging/python-requirements.txt). Every ERROR or MISSING node is printed as FILE:LINE:COLUMN: ...

Usage: python check_syntax.py PATH...   (files, or folders searched for .jl files, in name order)
Exit 0: every file parses; 1: a syntax error, or no .jl file found; 77: the packages do not import
(the reason is printed); under COMPILESCOPE_REQUIRE_RUNTIMES=1 (packaging/test.sh, CI) that is 1 instead,
so a broken install never turns the check into a silent skip.
"""
import os
import sys

SKIP = 77


def files(path):
    if os.path.isdir(path):
        return [f for entry in sorted(os.listdir(path)) for f in files(os.path.join(path, entry))]
    return [path] if path.endswith(".jl") else []


def main(paths):
    if not paths:
        print("usage: check_syntax.py PATH...")
        return 2
    try:
        import tree_sitter
        import tree_sitter_julia
    except ImportError as e:
        where = (f"tree_sitter and tree_sitter_julia are not available to {sys.executable} ({e}); "
                 "packaging/install-deps.sh installs them in the venv")
        if os.environ.get("COMPILESCOPE_REQUIRE_RUNTIMES", "") not in ("", "0"):
            print(f"FAILED: {where}, and COMPILESCOPE_REQUIRE_RUNTIMES=1 forbids skipping")
            return 1
        print(f"SKIPPED: {where}")
        return SKIP
    parser = tree_sitter.Parser(tree_sitter.Language(tree_sitter_julia.language()))
    bad = count = 0
    for f in (f for p in paths for f in files(p)):
        count += 1
        with open(f, "rb") as source:
            tree = parser.parse(source.read())
        stack = [tree.root_node]
        while stack:
            n = stack.pop()
            if n.type == "ERROR" or n.is_missing:
                bad += 1
                what = f"missing {n.type}" if n.is_missing else "syntax error"
                print(f"{f}:{n.start_point.row + 1}:{n.start_point.column + 1}: {what}")
                continue
            if n.has_error:
                stack.extend(reversed(n.children))
    print(f"{count} Julia files parsed with tree-sitter-julia: {f'{bad} error(s)' if bad else 'ok'}")
    return 1 if bad or count == 0 else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
