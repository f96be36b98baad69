"""A Warp program whose module compiles twice: `shift` is defined after `scale` loaded __main__.

compilescope record --warp -o warp.cstrace -- python examples/python/warp_app.py
compilescope modules warp.cstrace      # two identities of __main__, and which kernel moved the hash
"""
import warp as wp

wp.init()


@wp.kernel
def scale(a: wp.array(dtype=float)):
    i = wp.tid()
    a[i] = a[i] * 2.0


a = wp.ones(8, dtype=float, device="cpu")
wp.launch(scale, dim=8, inputs=[a], device="cpu")


@wp.kernel
def shift(a: wp.array(dtype=float)):  # defined after __main__ first loaded: a second module hash
    i = wp.tid()
    a[i] = a[i] + 1.0


wp.launch(shift, dim=8, inputs=[a], device="cpu")
wp.synchronize()
print("warp_app: a[0] =", a.numpy()[0])
