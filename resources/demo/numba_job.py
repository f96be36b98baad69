"""A small real Numba workload for the demo trace: one function called with two argument types (two
compiles, the second explained by its moved "arg types"), one cached function (a disk-cache load on
the warm run) and one parallel loop."""
import numpy as np

import compilescope.numba

compilescope.numba.install()

import numba  # noqa: E402


@numba.njit(cache=True)
def saxpy(a, x, y):
    return a * x + y


@numba.njit(parallel=True)
def row_sums(m):
    out = np.empty(m.shape[0])
    for i in numba.prange(m.shape[0]):
        out[i] = m[i].sum()
    return out


x = np.arange(1000, dtype=np.float64)
saxpy(2.0, x, x)
saxpy(2, x.astype(np.int64), x.astype(np.int64))  # a new signature: compiles again
row_sums(np.ones((64, 64)))
