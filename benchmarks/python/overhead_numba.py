"""Overhead workload: 40 Numba dispatcher compiles (one function, 40 argument-type combinations
spread over 20 functions), no disk cache. Prints WORK_NS (the compiling section) and COMPILES."""
import time

import numba

t0 = time.perf_counter_ns()
compiles = 0
for i in range(20):
    f = numba.njit(eval(f"lambda x, y: x * {i} + y"))
    f(1, 2)
    f(1.0, 2.0)
    compiles += 2
print(f"WORK_NS={time.perf_counter_ns() - t0} COMPILES={compiles}")
