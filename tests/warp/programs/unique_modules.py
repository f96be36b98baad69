"""Stable kernels declared with module="unique": each gets a module of its own, named after its
hash, and pays the fixed per-module build cost."""
import warp as wp

import _facts

wp.config.log_level = wp.LOG_DEBUG


@wp.kernel(module="unique")
def double_it(a: wp.array(dtype=float)):
    i = wp.tid()
    a[i] = a[i] * 2.0


@wp.kernel(module="unique")
def add_one(a: wp.array(dtype=float)):
    i = wp.tid()
    a[i] = a[i] + 1.0


@wp.kernel(module="unique")
def negate(a: wp.array(dtype=float)):
    i = wp.tid()
    a[i] = -a[i]


a = wp.ones(8, dtype=float, device="cpu")
for k in (double_it, add_one, negate):
    wp.launch(k, dim=8, inputs=[a], device="cpu")
assert a.numpy()[0] == -3.0
names = [k.module.name for k in (double_it, add_one, negate)]
_facts.emit(modules=names, loaded=_facts.loaded(*names))
