"""One change to module __main__ after its first load, named by argv[1]; either gives the module a new
identity, so Warp builds it again under a second hash:
  kernel  a kernel defined after the first load (the live kernel set grows);
  option  wp.set_module_options() after the first load (options are part of the identity)."""
import sys

import warp as wp

import _facts

wp.config.log_level = wp.LOG_DEBUG   # Warp 1.19's verbose log (wp.config.verbose is gone)
change = sys.argv[1]


@wp.kernel
def scale(a: wp.array(dtype=float)):
    i = wp.tid()
    a[i] = a[i] * 2.0


a = wp.ones(8, dtype=float, device="cpu")
wp.launch(scale, dim=8, inputs=[a], device="cpu")
first = _facts.current_hash("__main__")

if change == "kernel":
    @wp.kernel
    def late_shift(a: wp.array(dtype=float)):   # defined after __main__ loaded
        i = wp.tid()
        a[i] = a[i] + 1.0

    wp.launch(late_shift, dim=8, inputs=[a], device="cpu")
    assert a.numpy()[0] == 3.0
    _facts.emit(hashes=[first, _facts.current_hash("__main__")], added=late_shift.key)
elif change == "option":
    before = wp.get_module("__main__").options["max_unroll"]
    wp.set_module_options({"max_unroll": before + 1})   # after the first load
    wp.launch(scale, dim=8, inputs=[a], device="cpu")
    assert a.numpy()[0] == 4.0
    _facts.emit(hashes=[first, _facts.current_hash("__main__")], option="max_unroll", before=before,
                after=before + 1)
else:
    sys.exit(f"unknown change {change!r}: kernel or option")
