# SPDX-License-Identifier: MIT
"""CompileScope collector for Numba: every dispatcher compile, and why it happened.

Why it hooks `Dispatcher.compile`: Numba compiles one overload per argument-type signature, lazily,
on the first call with new types; with ``cache=True`` it first looks in its on-disk cache. The
``numba:compile`` event (numba.core.event) fires only for real compiles, never for disk-cache loads,
so it cannot tell a user that a cached overload was reused. `Dispatcher.compile(sig)` is the single
entry both paths go through, and the dispatcher's own ``_cache_hits`` counter says which path ran.

Each compile becomes one cache lookup in the trace (cache "numba.dispatcher", verdict miss):
  program  the function's qualified name (module.qualname)
  key      "dispatcher" (role function: two dispatchers of one qualname, such as closures Numba
           makes per overload, are different functions), "arg types" (role type) and the target
           options (role option), so the replay engine names the moving component of a recompile,
           e.g. "arg types: (int64,) -> (float64,)"
and one span (category compile). An overload loaded from the on-disk cache (``cache=True``) is a span
of category cache-load with argument disk_cache=hit, and no lookup: that cache outlives the process,
and a lookup would claim an in-process entry the replay cannot see.

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
    key = [("dispatcher", _cs.ROLE_FUNCTION, None, "0x%x" % id(dispatcher)),
           ("arg types", _cs.ROLE_TYPE, None, str(sig))]
    options = getattr(dispatcher, "targetoptions", None) or {}
    for name in sorted(options):
        key.append((name, _cs.ROLE_OPTION, None, repr(options[name])))
    return key


def _record(dispatcher, sig, start_ns, dur_ns, hit):
    program = _program_name(dispatcher)
    name = "%s%s" % (program, sig)
    _cs.span_complete(_cs.CAT_CACHE_LOAD if hit else _cs.CAT_COMPILE, name, start_ns, dur_ns)
    if hit:
        _cs.span_arg("disk_cache", "hit")
        return
    _cs.cache_lookup("numba.dispatcher", program, _cs.VERDICT_MISS, key=_key(dispatcher, sig),
                     handle="%s@%x" % (program, id(dispatcher)), compile_ns=dur_ns, ts_ns=start_ns)


def _already_compiled(dispatcher, sig):
    try:
        from numba.core import sigutils
        args, _ = sigutils.normalize_signature(sig)
        return tuple(args) in dispatcher.overloads
    except Exception:
        return False


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
        if not _cs.enabled() or _already_compiled(self, sig):
            return original(self, sig)  # an existing overload: Numba returns it without compiling
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
