#!/usr/bin/python3
"""Checks the Julia package's calls into the collector's C ABI against the real header.

Julia cannot be installed on this kind of machine, so CompileScope.jl's `ccall`s have never run. This
check does what can be done without Julia: every `ccall(sym(:cs_...), Ret, (Args...), ...)` must name
a function the header declares, with the same arity and, per argument and for the result, the same
size and kind (integer, floating point, pointer, void). Every Julia struct passed by reference must
have the layout of its C struct, field by field: the C offsets come from the real compiler
(offsetof, compiled against compilescope.h), the Julia ones from the C layout rules Julia's
isbits structs follow.

Usage: check_ccalls.py JULIA_SRC_DIR HEADER_DIR   (exit 0: all agree; 1: the differences are printed)
"""
import os
import re
import subprocess
import sys
import tempfile

JULIA_TYPES = {  # name -> (size, kind)
    "Cint": (4, "int"), "Int32": (4, "int"), "UInt32": (4, "int"), "Cuint": (4, "int"),
    "Int64": (8, "int"), "UInt64": (8, "int"), "Csize_t": (8, "int"), "Clong": (8, "int"),
    "Int16": (2, "int"), "UInt16": (2, "int"), "Int8": (1, "int"), "UInt8": (1, "int"),
    "Float64": (8, "float"), "Cdouble": (8, "float"), "Float32": (4, "float"), "Cfloat": (4, "float"),
    "Cvoid": (0, "void"), "Cstring": (8, "ptr"),
}
C_TYPES = {
    "int": (4, "int"), "int32_t": (4, "int"), "uint32_t": (4, "int"), "unsigned": (4, "int"),
    "int64_t": (8, "int"), "uint64_t": (8, "int"), "size_t": (8, "int"), "long": (8, "int"),
    "int16_t": (2, "int"), "uint16_t": (2, "int"), "int8_t": (1, "int"), "uint8_t": (1, "int"),
    "double": (8, "float"), "float": (4, "float"), "void": (0, "void"),
}


def julia_type(t, structs):
    t = t.strip()
    if t.startswith(("Ptr{", "Ref{")):
        return (8, "ptr")
    if t in JULIA_TYPES:
        return JULIA_TYPES[t]
    if t in structs:
        return ("struct", t)
    raise ValueError("unknown Julia type " + t)


def c_type(t, typedefs):
    t = re.sub(r"\bconst\b", "", t).strip()
    if "*" in t:
        return (8, "ptr")
    t = typedefs.get(t, t)
    if t in C_TYPES:
        return C_TYPES[t]
    raise ValueError("unknown C type " + t)


def split_args(s):
    out, depth, cur = [], 0, ""
    for ch in s:
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur)
    return [a.strip() for a in out]


def parse_header(header_dir):
    text = open(os.path.join(header_dir, "compilescope", "compilescope.h")).read()
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    typedefs = {}
    for m in re.finditer(r"typedef\s+([a-z0-9_ ]+?)\s+(cs_[a-z_]+)\s*;", text):
        typedefs[m.group(2)] = m.group(1).strip()
    funcs = {}
    for m in re.finditer(r"CS_API\s+([a-zA-Z0-9_ *]+?)\s*\b(cs_[a-z0-9_]+)\s*\(([^)]*)\)\s*;", text):
        params = [] if m.group(3).strip() in ("", "void") else [re.sub(r"\s*\b\w+$", "", p.strip()) for p in m.group(3).split(",")]
        funcs[m.group(2)] = (m.group(1).strip(), params)
    structs = {}
    for m in re.finditer(r"typedef\s+struct\s+(cs_[a-z_]+)\s*\{(.*?)\}\s*\1\s*;", text, flags=re.S):
        fields = []
        for line in m.group(2).split(";"):
            line = line.strip()
            if not line:
                continue
            fm = re.match(r"(.+?)\s*\b(\w+)(\[\d+\])?$", line)
            if not fm:
                raise SystemExit("cannot read field '%s' of %s in compilescope.h" % (line, m.group(1)))
            fields.append((fm.group(1).strip(), fm.group(2)))
        structs[m.group(1)] = fields
    return typedefs, funcs, structs


def parse_julia(src_dir):
    text = ""
    for name in sorted(os.listdir(src_dir)):
        if name.endswith(".jl"):
            text += open(os.path.join(src_dir, name)).read() + "\n"
    structs = {}
    for m in re.finditer(r"^struct\s+(\w+)\n(.*?)^end", text, flags=re.S | re.M):
        fields = re.findall(r"^\s+(\w+)::(\S+)", m.group(2), flags=re.M)
        structs[m.group(1)] = fields
    calls = []
    for m in re.finditer(r"ccall\(\s*(?:Native\.)?sym\(:(cs_\w+)\),\s*([^,]+),\s*\(([^)]*)\)", text):
        calls.append((m.group(1), m.group(2).strip(), split_args(m.group(3))))
    return structs, calls


def c_struct_name(julia_name):
    return "cs_" + re.sub(r"(?<!^)([A-Z])", r"_\1", julia_name).lower()


def julia_layout(name, structs):
    offset, align_max, out = 0, 1, []
    for fname, ftype in structs[name]:
        size, _ = julia_type(ftype, structs)
        offset = (offset + size - 1) // size * size
        out.append((fname, offset, size))
        offset += size
        align_max = max(align_max, size)
    return out, (offset + align_max - 1) // align_max * align_max


def c_layouts(header_dir, cstructs):
    src = ["#include <compilescope/compilescope.h>", "#include <stddef.h>", "#include <stdio.h>", "int main(void) {"]
    for name, fields in cstructs.items():
        src.append('printf("%s size %%zu\\n", sizeof(%s));' % (name, name))
        for _, f in fields:
            src.append('printf("%s %s %%zu %%zu\\n", offsetof(%s, %s), sizeof(((%s*)0)->%s));' % (name, f, name, f, name, f))
    src.append("return 0; }")
    with tempfile.TemporaryDirectory() as d:
        c = os.path.join(d, "layout.c")
        open(c, "w").write("\n".join(src))
        exe = os.path.join(d, "layout")
        subprocess.run(["cc", "-std=c11", "-I", header_dir, c, "-o", exe], check=True)
        out = subprocess.run([exe], check=True, capture_output=True, text=True).stdout
    layout = {}
    for line in out.splitlines():
        parts = line.split()
        if parts[1] == "size":
            layout.setdefault(parts[0], {"fields": []})["size"] = int(parts[2])
        else:
            layout.setdefault(parts[0], {"fields": []})["fields"].append((parts[1], int(parts[2]), int(parts[3])))
    return layout


def main():
    src_dir, header_dir = sys.argv[1], sys.argv[2]
    typedefs, funcs, cstructs = parse_header(header_dir)
    jstructs, calls = parse_julia(src_dir)
    problems = []
    if not calls:
        problems.append("no ccall into the collector found in " + src_dir)
    for name, ret, args in calls:
        if name not in funcs:
            problems.append("%s: not declared in compilescope.h" % name)
            continue
        cret, cparams = funcs[name]
        if len(args) != len(cparams):
            problems.append("%s: %d arguments in Julia, %d in C" % (name, len(args), len(cparams)))
            continue
        try:
            if julia_type(ret, jstructs) != c_type(cret, typedefs):
                problems.append("%s: returns %s in Julia, %s in C" % (name, ret, cret))
            for i, (ja, cp) in enumerate(zip(args, cparams)):
                if julia_type(ja, jstructs) != c_type(cp, typedefs):
                    problems.append("%s: argument %d is %s in Julia, %s in C" % (name, i + 1, ja, cp))
        except ValueError as e:
            problems.append("%s: %s" % (name, e))
    layouts = c_layouts(header_dir, cstructs)
    checked = 0
    for jname in jstructs:
        cname = c_struct_name(jname)
        if cname not in layouts:
            continue
        checked += 1
        jl, jsize = julia_layout(jname, jstructs)
        cl = layouts[cname]
        if len(jl) != len(cl["fields"]):
            problems.append("%s: %d fields in Julia, %d in %s" % (jname, len(jl), len(cl["fields"]), cname))
            continue
        for (jf, joff, jsz), (cf, coff, csz) in zip(jl, cl["fields"]):
            if (joff, jsz) != (coff, csz):
                problems.append("%s.%s at offset %d (%d bytes), %s.%s at %d (%d bytes)" % (jname, jf, joff, jsz, cname, cf, coff, csz))
        if jsize != cl["size"]:
            problems.append("%s: %d bytes in Julia, %s: %d" % (jname, jsize, cname, cl["size"]))
    if checked == 0:
        problems.append("no Julia struct matched a C struct")
    for p in problems:
        print("ABI mismatch: " + p)
    print("%d ccalls and %d structs checked against compilescope.h: %s" % (len(calls), checked, "FAIL" if problems else "ok"))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
