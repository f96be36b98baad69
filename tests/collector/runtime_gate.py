"""What a test does when a real runtime (Warp, PyTorch, JAX, Numba, tlparse) is missing.

Why one place: on a developer's machine without the venv a missing runtime is a skip with its reason
(exit 77, ctest's SKIP_RETURN_CODE); under COMPILESCOPE_REQUIRE_RUNTIMES=1, which packaging/test.sh
and so CI set, it is a failure, so that a broken install can never turn the real-runtime tests into
silent skips.
"""
import os
import sys

SKIP = 77


def required():
    return os.environ.get("COMPILESCOPE_REQUIRE_RUNTIMES", "") not in ("", "0")


def missing(what, reason):
    """Prints why `what` cannot run and returns the exit status to leave with."""
    where = f"{what} is not available to {sys.executable} ({reason}); packaging/install-deps.sh installs it"
    if required():
        print(f"FAILED: {where}, and COMPILESCOPE_REQUIRE_RUNTIMES=1 forbids skipping")
        return 1
    print(f"SKIPPED: {where}")
    return SKIP
