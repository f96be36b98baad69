"""Overhead workload: one jitted JAX function traced and compiled for 30 input shapes. Prints
WORK_NS (the compiling section) and COMPILES."""
import time

import jax
import jax.numpy as jnp


@jax.jit
def f(x):
    return (x * 2.0 + 1.0).sum()


x0 = jnp.ones(1)
f(x0).block_until_ready()  # the first call compiles jax's own helpers too: outside the timed section
t0 = time.perf_counter_ns()
for n in range(2, 32):
    f(jnp.ones(n)).block_until_ready()
print(f"WORK_NS={time.perf_counter_ns() - t0} COMPILES=30")
