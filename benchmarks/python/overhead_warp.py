"""Overhead workload: four Warp modules compiled for the CPU (a private, empty kernel cache per run).
Prints WORK_NS (the compiling section) and COMPILES."""
import time

import warp as wp

wp.init()
kernels = []
for i in range(4):
    def body(a: wp.array(dtype=float)):
        t = wp.tid()
        a[t] = a[t] * 2.0 + 1.0
    kernels.append(wp.Kernel(body, key=f"k{i}", module=wp.get_module(f"overhead_{i}")))
a = wp.ones(16, dtype=float, device="cpu")
t0 = time.perf_counter_ns()
for k in kernels:
    wp.launch(k, dim=16, inputs=[a], device="cpu")
wp.synchronize()
print(f"WORK_NS={time.perf_counter_ns() - t0} COMPILES=4")
