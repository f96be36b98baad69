"""Shared by the real-Warp programs: print what Warp's own Module objects say, one line, so the test
compares the recording against the runtime instead of against hard-coded numbers."""
import json

import warp as wp


def loaded(*names):
    """{name: [full hex hash, device, block_dim] of each executable Warp holds loaded for the module}.

    The executable's hash is the identity Warp loaded; a hash recomputed here would use the module's
    default block_dim (256), while CPU launches load block_dim 1."""
    out = {}
    for n in names:
        execs = wp.get_module(n).execs.values()
        out[n] = sorted([e.module_hash.hex(), str(e.device), e.block_dim] for e in execs)
    return out


def current_hash(name):
    """The full hash of the one executable `name` has loaded now."""
    (entry,) = loaded(name)[name]
    return entry[0]


def emit(**facts):
    print("CS-FACTS " + json.dumps(facts, sort_keys=True), flush=True)
