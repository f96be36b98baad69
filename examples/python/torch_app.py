"""A torch.compile function called with three input sizes: dynamo recompiles on the second size.

compilescope record --torch -o torch.cstrace -- python examples/python/torch_app.py
compilescope explain torch.cstrace     # the guard that failed: the tensor's size
"""
import torch


@torch.compile(backend="eager")
def norm(x):
    return (x - x.mean()) / (x.std() + 1e-6)


for n in (3, 4, 5):
    norm(torch.ones(n))
print("torch_app: done")
