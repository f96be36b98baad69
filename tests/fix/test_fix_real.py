#!/usr/bin/env python3
"""`compilescope fix` on real Warp, PyTorch, JAX and Numba programs (issue 37).

Usage: test_fix_real.py COMPILESCOPE_BINARY SOURCE_DIR

Why real runs: the change must apply to the user's file and remove the compiles in the runtime
itself, which no stand-in shows. Each case runs the loop the issue asks for: record the program,
`fix -o DIR`, apply the emitted .patch with `patch`, check that the patched file still compiles
(`python -m py_compile`), record again, and `diff` the two runs: the finding is resolved and its
compiles are gone (Numba: no compile waits for a call any more; they moved to the definition).
- Warp: max_unroll set after the first launch -> the set_module_options line moved before it.
- PyTorch: a frame recompiled for sizes 3, 4, 5 -> mark_dynamic before its call.
- JAX: static argument n churning 3, 5, 7 -> dropped from static_argnums.
- Numba: add compiled at call time for three type tuples -> an explicit signature list.
- A trace whose finding has no mechanical fix (a Numba dispatcher compiled twice, recorded with no
  churn) and a trace without findings: fix says so and writes no file; bad input is exit 2.
- fix --verify: first run records and prints the change, second run (after patch) says resolved.
A missing runtime skips, or fails under COMPILESCOPE_REQUIRE_RUNTIMES=1 (runtime_gate.py).
"""
import glob
import os
import re
import subprocess
import sys
import tempfile
import textwrap

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "collector"))
import runtime_gate  # noqa: E402

WARP = textwrap.dedent("""
    import warp as wp
    wp.init()
    @wp.kernel
    def scale(a: wp.array(dtype=float)):
        i = wp.tid()
        a[i] = a[i] * 2.0
    a = wp.ones(8, dtype=float, device="cpu")
    wp.launch(scale, dim=8, inputs=[a], device="cpu")
    wp.set_module_options({"max_unroll": 8})
    wp.launch(scale, dim=8, inputs=[a], device="cpu")
    wp.synchronize()
""")
TORCH = textwrap.dedent("""
    import torch
    torch._dynamo.config.automatic_dynamic_shapes = False
    @torch.compile(backend="eager")
    def norm(x):
        return (x - x.mean()) / (x.std() + 1e-6)
    for n in (3, 4, 5):
        x = torch.ones(n)
        norm(x)
""")
JAX = textwrap.dedent("""
    from functools import partial
    import jax
    import jax.numpy as jnp
    @partial(jax.jit, static_argnums=(1,))
    def power(x, n):
        return x ** n
    x = jnp.ones(4)
    for n in (2, 3, 5, 7):
        print(float(power(x, n).sum()))
""")
NUMBA = textwrap.dedent("""
    import numba
    @numba.njit
    def add(x, y):
        return x + y
    print(add(1, 2), add(1.0, 2.0), add(1, 2.0))
""")
NUMBA_TWICE = NUMBA.replace(", add(1, 2.0)", "")

CASES = [  # runtime, module to import, program, finding kind, what the diff must say
    ("warp", "warp", WARP, "warp.option_set_after_load", r"Gone:\n\s+module load __main__ \(\w+, block_dim 1, cpu\): 1 -> 0 compiles"),
    ("torch", "torch", TORCH, "jit.shape_churn", r"Fewer recompiles:\n\s+compile span norm: 3 -> 1 compiles per run"),
    ("jax", "jax", JAX, "jit.static_arg_churn", r"cache lookup power \(jax_prog\.py:\d+\): 4 -> 1 compiles per run"),
    ("numba", "numba", NUMBA, "numba.type_churn", None),
]


def run(argv, expect=None, **kw):
    r = subprocess.run(argv, capture_output=True, text=True, timeout=600, **kw)
    if expect is not None:
        assert r.returncode == expect, (argv, r.returncode, r.stdout[-3000:], r.stderr[-3000:])
    return r


def kinds(cs, trace):
    return re.findall(r"^\[\w+\] (\S+):", run([cs, "findings", trace], expect=0).stdout, re.M)


def record(cs, runtime, script, trace, env):
    run([cs, "record", f"--{runtime}", "-o", trace, "--", sys.executable, script], expect=0, env=env)


def call_time_numba_compiles(cs, trace):
    out = run([cs, "sql", trace, "SELECT count(*) FROM key_components k JOIN strings n ON n.id = k.name_sid "
               "JOIN strings v ON v.id = k.value_sid WHERE n.str = 'trigger' AND v.str = 'call'",
               "--format", "csv"], expect=0).stdout
    return int(out.split()[-1])


def loop(cs, tmp, env, runtime, program, kind, expected):
    script = os.path.join(tmp, f"{runtime}_prog.py")
    with open(script, "w") as f:
        f.write(program)
    before, after, out = (os.path.join(tmp, f"{runtime}_{n}") for n in ("before.cstrace", "after.cstrace", "fix"))
    record(cs, runtime, script, before, env)
    assert kind in kinds(cs, before), (runtime, kinds(cs, before))
    text = run([cs, "fix", before, "--finding", kind, "-o", out], expect=0).stdout
    assert "finding " in text and kind in text and "saving: " in text and "verify: " in text, text
    patches = glob.glob(os.path.join(out, "*.patch"))
    assert len(patches) == 1, (os.listdir(out), text)
    with open(patches[0]) as f:
        body = f.read()
    assert f"({kind})" in body and "# saving: " in body and "# verify: " in body, body
    run(["patch", script, patches[0]], expect=0)
    run([sys.executable, "-m", "py_compile", script], expect=0)
    record(cs, runtime, script, after, env)
    assert kind not in kinds(cs, after), (runtime, kinds(cs, after), open(script).read())
    diff = run([cs, "diff", before, after], expect=0).stdout
    assert "Resolved findings:" in diff and kind in diff.split("Resolved findings:")[1], diff
    if expected:
        assert re.search(expected, diff), diff
    else:  # Numba: the three overloads still compile, at definition, none at a call
        assert call_time_numba_compiles(cs, before) == 3 and call_time_numba_compiles(cs, after) == 0
    print(f"ok {runtime}: {kind} resolved by {os.path.basename(patches[0])}")


def no_fix_cases(cs, tmp, env):
    script = os.path.join(tmp, "numba_twice.py")
    with open(script, "w") as f:
        f.write(NUMBA_TWICE)
    trace = os.path.join(tmp, "twice.cstrace")
    record(cs, "numba", script, trace, env)
    out = os.path.join(tmp, "twice_fix")
    text = run([cs, "fix", trace, "-o", out], expect=0).stdout
    assert "0 change(s)" in text and not os.path.exists(out), text
    assert run([cs, "fix", os.path.join(tmp, "missing.cstrace")]).returncode == 2
    assert run([cs, "fix", trace, "--finding", "99"]).returncode == 2
    assert run([cs, "fix", "--verify"]).returncode == 2


def verify_case(cs, tmp, env):
    script = os.path.join(tmp, "verify_prog.py")
    with open(script, "w") as f:
        f.write(NUMBA)
    state = os.path.join(tmp, "verify")
    cmd = [cs, "fix", "--verify", "--numba", "-o", state, "--", sys.executable, script]
    first = run(cmd, expect=0, env=env).stdout
    assert "numba.type_churn" in first and "Apply the changes" in first, first
    patch = glob.glob(os.path.join(state, "*.patch"))
    assert len(patch) == 1, os.listdir(state)
    run(["patch", script, patch[0]], expect=0)
    second = run(cmd, expect=0, env=env).stdout
    assert re.search(r"^finding 1 numba.type_churn: resolved", second, re.M), second
    assert "Resolved findings:" in second, second


def main(cs, source_dir):
    env = dict(os.environ)
    for runtime, module, *_ in CASES:
        if run([sys.executable, "-c", f"import {module}"]).returncode != 0:
            return runtime_gate.missing(module, "import failed")
    with tempfile.TemporaryDirectory() as tmp:
        env.update(WARP_CACHE_PATH=os.path.join(tmp, "warp"), NUMBA_CACHE_DIR=os.path.join(tmp, "numba"))
        for runtime, _, program, kind, expected in CASES:
            loop(cs, tmp, env, runtime, program, kind, expected)
        no_fix_cases(cs, tmp, env)
        verify_case(cs, tmp, env)
    print("fix_real: all cases passed")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
