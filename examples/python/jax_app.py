"""A jitted JAX function called with a new shape and a new dtype: two cache misses JAX explains.

compilescope record --jax -o jax.cstrace -- python examples/python/jax_app.py
compilescope explain jax.cstrace       # the input type that moved between the compiles
"""
import jax
import jax.numpy as jnp


@jax.jit
def norm(x):
    return (x - x.mean()) / (x.std() + 1e-6)


norm(jnp.ones(3)).block_until_ready()
norm(jnp.ones(4)).block_until_ready()                     # new shape
norm(jnp.ones(4, dtype=jnp.int32)).block_until_ready()    # new dtype
print("jax_app: done")
