#!/usr/bin/env python3
"""Every document the code cites is in the repository (issue 38, docs/practices.md 18).

Why: the project began from design notes that were never part of the repository; comments that cite
them send a newcomer to files they cannot open. What those notes said that the code relies on now
lives in docs/ (practices.md, formats.md, architecture.md, cache-replay.md, ...). This check fails
  - on any mention of the outside notes (their file names, their seed documents, the folder beside
    the checkout they lived in);
  - on a citation `docs/NAME.md` whose file does not exist;
  - on a numbered citation (`docs/practices.md 8`, `docs/formats.md 5.3`, `docs/formats.md 1.1-1.2`,
    `docs/practices.md 10-12`, `docs/formats.md sections 3 and 4`) that names no numbered item of
    that file: a practice `N. **...` or a heading `## N` / `### N.M`.
  - on a relative Markdown link inside docs/ whose target file does not exist.

Usage: check_citations.py ROOT   (exit 0 clean, 1 with one line per problem)
"""
import os
import re
import sys

SKIP_DIRS = {".git", "build", "out", "__pycache__", ".venv", "venv", "node_modules"}
TEXT_EXT = {".cpp", ".h", ".hpp", ".c", ".cc", ".py", ".sh", ".cmake", ".txt", ".md", ".jl", ".scn",
            ".in", ".toml", ".yml", ".yaml", ".json", ".qrc", ".ui"}

# Built from parts so that this file does not match itself.
_MD = r"\.md\b"
OUTSIDE = [
    (re.compile(r"\b(?:DES" + r"IGN|STY" + r"LE|FORM" + r"ATS)" + _MD), "an outside design note"),
    (re.compile(r"\bse" + r"eds/"), "the outside seed folder"),
    (re.compile(r"\bse" + r"eds? \d{3}\b", re.IGNORECASE), "an outside seed document"),
    (re.compile(r"\.\./sha" + r"red\b"), "the folder beside the checkout"),
]

CITATION = re.compile(r"\bdocs/([A-Za-z0-9_.-]+?\.md)\b")
NUMBERED = re.compile(
    r"\bdocs/([A-Za-z0-9_-]+\.md),?[ \t]+(?:sections?[ \t]+|practices?[ \t]+)?"
    r"(\d+(?:\.\d+)?(?:[ \t]*(?:-|,|/|and)[ \t]*\d+(?:\.\d+)?)*)")
MD_LINK = re.compile(r"\]\(([^)#:\s]+\.md)(?:#[^)]*)?\)")


def numbered_items(path):
    """Numbers a file offers to citations: `N. **` list items and `## N` / `### N.M` headings."""
    items = set()
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = re.match(r"^(\d+)\. \*\*", line) or re.match(r"^#{2,4} (\d+(?:\.\d+)?)\.?\s", line)
            if m:
                items.add(m.group(1))
    return items


def expand(spec):
    """'1.1-1.2' -> ['1.1', '1.2']; '10-12' -> ['10', '11', '12']; '3 and 4' -> ['3', '4']."""
    out = []
    for part in re.split(r"[ \t]*(?:,|/|and)[ \t]*", spec):
        if "-" in part:
            a, b = [s.strip() for s in part.split("-", 1)]
            if "." not in a and "." not in b and a.isdigit() and b.isdigit() and int(a) <= int(b):
                out.extend(str(n) for n in range(int(a), int(b) + 1))
            else:
                out.extend([a, b])
        elif part.strip():
            out.append(part.strip())
    return out


def text_files(root):
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS and not d.startswith("build"))
        for name in sorted(filenames):
            if name == "CMakeLists.txt" or os.path.splitext(name)[1] in TEXT_EXT:
                yield os.path.join(dirpath, name)


def check(root):
    problems = []
    docs = os.path.join(root, "docs")
    items_cache = {}
    this = os.path.realpath(__file__)
    for path in text_files(root):
        if os.path.realpath(path) == this:
            continue
        try:
            with open(path, encoding="utf-8") as f:
                text = f.read()
        except (UnicodeDecodeError, OSError):
            continue
        rel = os.path.relpath(path, root)
        for lineno, line in enumerate(text.splitlines(), 1):
            for pattern, what in OUTSIDE:
                m = pattern.search(line)
                if m:
                    problems.append(f"{rel}:{lineno}: cites {what} ({m.group(0)!r}); cite docs/ instead")
            for m in CITATION.finditer(line):
                if not os.path.isfile(os.path.join(docs, m.group(1))):
                    problems.append(f"{rel}:{lineno}: cites docs/{m.group(1)}, which does not exist")
            for m in NUMBERED.finditer(line):
                target = os.path.join(docs, m.group(1))
                if not os.path.isfile(target):
                    continue  # reported above
                if target not in items_cache:
                    items_cache[target] = numbered_items(target)
                if not items_cache[target]:
                    continue  # an unnumbered document: a number after its name is not a section
                for number in expand(m.group(2)):
                    if number not in items_cache[target]:
                        problems.append(f"{rel}:{lineno}: cites docs/{m.group(1)} {number}, "
                                        "which that file does not number")
            if rel.startswith("docs" + os.sep) and rel.endswith(".md"):
                for m in MD_LINK.finditer(line):
                    link = os.path.normpath(os.path.join(os.path.dirname(path), m.group(1)))
                    if not os.path.isfile(link):
                        problems.append(f"{rel}:{lineno}: links {m.group(1)}, which does not exist")
    return problems


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    root = sys.argv[1]
    if not os.path.isfile(os.path.join(root, "docs", "practices.md")):
        print(f"{root}: no docs/practices.md here; is this the source root?", file=sys.stderr)
        return 2
    problems = check(root)
    for p in problems:
        print(p)
    if problems:
        print(f"{len(problems)} citation problem(s)")
        return 1
    print("every cited document is in the repository")
    return 0


if __name__ == "__main__":
    sys.exit(main())
