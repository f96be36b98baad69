"""A Numba function compiled for two argument types, its disk cache written on the first run.

compilescope record --numba -o numba.cstrace -- python examples/python/numba_app.py
compilescope explain numba.cstrace     # the argument whose type moved between the compiles
"""
import numba


@numba.njit(cache=True)
def add(x, y):
    return x + y


add(1, 2)
add(1.0, 2.0)
print("numba_app: done")
