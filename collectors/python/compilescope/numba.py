# SPDX-License-Identifier: MIT
"""CompileScope collector for Numba: every dispatcher compile, and why it happened.

Why it hooks `Dispatcher.compile`: Numba compiles one overload per argument-type signature, lazily,
on the first call with new types; with ``cache=True`` it first looks in its on-disk cache. The
``numba:compile`` event (numba.core.event) fires only for real compiles, never for disk-cache loads,
so it cannot tell a user that a cached overload was reused. `Dispatcher.compile(sig)` is the single
entry both paths go through, and the dispatcher's own ``_cache_hits`` counter says which path ran.

Each call becomes one cache lookup in the trace:
  cache    "numba.disk_cache" when the function has ``cache=True``, else "numba.dispatcher"
  program  the function's qualified name (module.qualname)
  key      "arg types" (role type) plus the dispatcher's target options (role option), so the replay
           engine names the moving component of a recompile, e.g. "arg types: (int64,) -> (float64,)"
  verdict  hit when the overload came from the disk cache, miss when it was compiled
and one span (category compile, or cache-load for a disk hit) with the same name and signature.

Calls with an already compiled signature never reach `compile` and are not recorded: they cost
nothing to compile. Recording never changes what Numba does: every error inside the hook is
swallowed and counted by the C library as a drop at most.

    import compilescope.numba
    compilescope.numba.install()   # or: compilescope record --numba -- python script.py
"""
import time

import compilescope as _cs

_installed = None  # (Dispatcher class, original compile)


def _program_name(dispatcher):
    fn = getattr(dispatcher, "py_func", None)
    if fn is None:
        return repr(dispatcher)
    return "%s.%s" % (getattr(fn, "__module__", "?"), getattr(fn, "__qualname__", getattr(fn, "__name__", "?")))


def _key(dispatcher, sig):
    key = [("arg types", _cs.ROLE_TYPE, None, str(sig))]
    options = getattr(dispatcher, "targetoptions", None) or {}
    for name in sorted(options):
        key.append((name, _cs.ROLE_OPTION, None, repr(options[name])))
    return key


def _record(dispatcher, sig, start_ns, dur_ns, hit):
    program = _program_name(dispatcher)
    disk = getattr(dispatcher, "_cache", None)
    uses_disk = disk is not None and type(disk).__name__ != "NullCache"
    cache = "numba.disk_cache" if uses_disk else "numba.dispatcher"
    name = "%s%s" % (program, sig)
    _cs.span_complete(_cs.CAT_CACHE_LOAD if hit else _cs.CAT_COMPILE, name, start_ns, dur_ns)
    _cs.cache_lookup(cache, program, _cs.VERDICT_HIT if hit else _cs.VERDICT_MISS, key=_key(dispatcher, sig),
                     handle="%s@%x" % (program, id(dispatcher)), compile_ns=None if hit else dur_ns,
                     ts_ns=start_ns)


def install():
    """Starts recording (joins `compilescope record` or $COMPILESCOPE_OUTPUT) and hooks Numba's
    dispatcher. Returns True when hooked; False when Numba is not importable. Idempotent."""
    global _installed
    if _installed is not None:
        return True
    try:
        from numba.core import dispatcher as _dispatcher
    except ImportError:
        return False
    _cs.start("numba")
    cls = _dispatcher.Dispatcher
    original = cls.compile

    def compile(self, sig):
        if not _cs.enabled():
            return original(self, sig)
        try:
            hits_before = sum(self._cache_hits.values())
        except Exception:  # a Numba without the counter: everything counts as a compile
            hits_before = None
        start = _cs.now_ns()
        t0 = time.perf_counter_ns()
        try:
            return original(self, sig)
        finally:
            dur = time.perf_counter_ns() - t0
            try:
                hit = hits_before is not None and sum(self._cache_hits.values()) > hits_before
                _record(self, sig, start, dur, hit)
            except Exception:
                pass

    compile.__wrapped__ = original
    cls.compile = compile
    _installed = (cls, original)
    return True


def uninstall():
    """Restores Numba's own dispatcher compile."""
    global _installed
    if _installed is not None:
        cls, original = _installed
        cls.compile = original
        _installed = None
