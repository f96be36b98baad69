"""Two modules (this file's and a named one), each loaded once: a cold run compiles both, a warm run
against the same WARP_CACHE_PATH finds both in the kernel cache. argv[1] "debug" turns on Warp 1.19's
verbose log (wp.config.verbose is gone); "default" keeps Warp's default log level."""
import sys

import warp as wp

import _facts

if sys.argv[1] == "debug":
    wp.config.log_level = wp.LOG_DEBUG


@wp.kernel
def scale(a: wp.array(dtype=float)):
    i = wp.tid()
    a[i] = a[i] * 2.0


@wp.kernel(module="cs_demo.ops")
def shift(a: wp.array(dtype=float)):
    i = wp.tid()
    a[i] = a[i] + 1.0


a = wp.ones(8, dtype=float, device="cpu")
wp.launch(scale, dim=8, inputs=[a], device="cpu")
wp.launch(shift, dim=8, inputs=[a], device="cpu")
assert a.numpy()[0] == 3.0
_facts.emit(loaded=_facts.loaded("__main__", "cs_demo.ops"))
