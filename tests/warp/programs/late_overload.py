"""A generic kernel whose second overload is registered after the module first loaded: the new
instance joins the module's identity, so the module is built again."""
import typing

import warp as wp

import _facts

wp.config.log_level = wp.LOG_DEBUG


@wp.kernel
def scale(a: wp.array(dtype=typing.Any), s: typing.Any):
    i = wp.tid()
    a[i] = a[i] * s


wp.overload(scale, {"a": wp.array(dtype=wp.float32), "s": wp.float32})
a = wp.ones(8, dtype=wp.float32, device="cpu")
wp.launch(scale, dim=8, inputs=[a, wp.float32(2.0)], device="cpu")
first = _facts.current_hash("__main__")
first_overloads = sorted(str(k) for k in scale.overloads)

wp.overload(scale, {"a": wp.array(dtype=wp.float64), "s": wp.float64})   # after the first load
b = wp.ones(8, dtype=wp.float64, device="cpu")
wp.launch(scale, dim=8, inputs=[b, wp.float64(3.0)], device="cpu")
assert a.numpy()[0] == 2.0 and b.numpy()[0] == 3.0
_facts.emit(hashes=[first, _facts.current_hash("__main__")],
            first_overloads=first_overloads, overloads=sorted(str(k) for k in scale.overloads))
