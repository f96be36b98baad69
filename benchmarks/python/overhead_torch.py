"""Overhead workload: torch.compile (eager backend, static shapes) recompiled for 12 input sizes.
Prints WORK_NS (the compiling section) and COMPILES."""
import time

import torch

torch._dynamo.config.automatic_dynamic_shapes = False
torch._dynamo.config.recompile_limit = 64


@torch.compile(backend="eager", dynamic=False)
def f(x):
    return (x * 2.0 + 1.0).sum()


f(torch.ones(1))  # dynamo's first compile imports and warms much: outside the timed section
t0 = time.perf_counter_ns()
for n in range(2, 14):
    f(torch.ones(n))
print(f"WORK_NS={time.perf_counter_ns() - t0} COMPILES=12")
