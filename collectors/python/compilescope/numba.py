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
           makes per overload, are different functions), one component per argument, "type of
           arg 0", "type of arg 1", ... (role type), and the target options (role option), so the replay engine
           names the argument that moved in a recompile, e.g. "type of arg 0: int64 -> float64"
and two host components, recorded for display and never compared: "source" (the function's
``file:line``, where ``compilescope fix`` writes an explicit signature list) and "trigger" (``call``
when a call with new argument types compiled lazily, ``ahead`` when a signature list or an explicit
``compile`` did it before any call); and one span (category compile) on the calling thread's track. Numba compiles callees and
``@overload`` implementations inside the caller's compile: those spans lie inside the caller's span
(argument ``nested_in`` names the caller), and the engine counts the time once (the union of compile
intervals, docs/accounting.md), never inner + outer.

An overload loaded from the on-disk cache (``cache=True``) is a span of category cache-load with
argument disk_cache=hit and a lookup in cache "numba.disk_cache" with verdict hit (key: program,
arguments and options, no dispatcher: that cache outlives the process, and the replay counts a hit
there on a key it never saw compiled as a load from an earlier run's store), so ``check`` judges a
fully warm run too.

A compile that raises (a TypingError for argument types the function cannot take) created no
overload: it is a compile span with argument ``failed`` = the exception's class name, and no lookup,
so retrying the same failing types is not mistaken for a cache that forgot an entry.

Calls with an already compiled signature never reach `compile` and are not recorded: they cost
nothing to compile. Recording never changes what Numba does: every error inside the hook is
swallowed and counted by the C library as a drop at most.

    import compilescope.numba
    compilescope.numba.install()   # or: compilescope record --numba -- python script.py
"""
import os
import sys
import threading
import time

import compilescope as _cs

_installed = None  # (Dispatcher class, original compile)
_stack = threading.local()  # .names: the compiles running on this thread, outermost first


def _program_name(dispatcher):
    fn = getattr(dispatcher, "py_func", None)
    if fn is None:
        return repr(dispatcher)
    return "%s.%s" % (getattr(fn, "__module__", "?"), getattr(fn, "__qualname__", getattr(fn, "__name__", "?")))


def _arg_types(sig):
    """The argument types of a signature as strings, one per argument."""
    try:
        from numba.core import sigutils
        args, _ = sigutils.normalize_signature(sig)
        return [str(a) for a in args]
    except Exception:
        return [str(a) for a in sig] if isinstance(sig, tuple) else [str(sig)]


def _source(dispatcher):
    code = getattr(getattr(dispatcher, "py_func", None), "__code__", None)
    if code is None:
        return None
    # Shown to people and shared with traces: a file under the working directory is named from it
    # (where the program was recorded, and where `compilescope fix` runs), a library file from its
    # package, so a trace names no directory of the machine that made it.
    path = code.co_filename
    cwd = os.getcwd() + os.sep
    if path.startswith(cwd):
        path = path[len(cwd):]
    else:
        marker = os.sep + "site-packages" + os.sep
        at = path.rfind(marker)
        if at >= 0:
            path = path[at + len(marker):]
    return "%s:%d" % (path, code.co_firstlineno)


def _key(dispatcher, sig, with_dispatcher=True, trigger=None):
    key = [("dispatcher", _cs.ROLE_FUNCTION, None, "0x%x" % id(dispatcher))] if with_dispatcher else []
    for i, t in enumerate(_arg_types(sig)):
        key.append(("type of arg %d" % i, _cs.ROLE_TYPE, None, t))
    options = getattr(dispatcher, "targetoptions", None) or {}
    for name in sorted(options):
        key.append((name, _cs.ROLE_OPTION, None, repr(options[name])))
    source = _source(dispatcher)
    if with_dispatcher and source is not None:
        key.append(("source", _cs.ROLE_HOST, None, source))
    if with_dispatcher and trigger is not None:
        key.append(("trigger", _cs.ROLE_HOST, None, trigger))
    return key


def _record(dispatcher, sig, start_ns, dur_ns, hit, failed=None, caller=None, trigger=None):
    program = _program_name(dispatcher)
    name = "%s%s" % (program, sig)
    _cs.span_complete(_cs.CAT_CACHE_LOAD if hit else _cs.CAT_COMPILE, name, start_ns, dur_ns)
    if caller is not None:
        _cs.span_arg("nested_in", caller)
    if failed is not None:
        _cs.span_arg("failed", failed)
        return
    if hit:
        _cs.span_arg("disk_cache", "hit")
        _cs.cache_lookup("numba.disk_cache", program, _cs.VERDICT_HIT, key=_key(dispatcher, sig, False),
                         ts_ns=start_ns)
        return
    _cs.cache_lookup("numba.dispatcher", program, _cs.VERDICT_MISS, key=_key(dispatcher, sig, trigger=trigger),
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
        t_enter = time.perf_counter_ns()
        if not _cs.enabled() or _already_compiled(self, sig):
            return original(self, sig)  # an existing overload: Numba returns it without compiling
        try:  # Numba's lazy path is Dispatcher._compile_for_args; a signature list calls compile directly
            trigger = "call" if sys._getframe(1).f_code.co_name == "_compile_for_args" else "ahead"
        except Exception:
            trigger = None
        try:
            hits_before = sum(self._cache_hits.values())
        except Exception:  # a Numba without the counter: everything counts as a compile
            hits_before = None
        names = getattr(_stack, "names", None)
        if names is None:
            names = _stack.names = []
        caller = names[-1] if names else None
        try:
            names.append("%s%s" % (_program_name(self), sig))
        except Exception:
            names.append("?")
        failed = None
        start = _cs.now_ns()
        t0 = time.perf_counter_ns()
        try:
            return original(self, sig)
        except BaseException as e:
            failed = type(e).__name__
            raise
        finally:
            t1 = time.perf_counter_ns()
            dur = t1 - t0
            names.pop()
            try:
                hit = failed is None and hits_before is not None and sum(self._cache_hits.values()) > hits_before
                _record(self, sig, start, dur, hit, failed, caller, trigger)
            except Exception:
                pass
            _cs.self_time(time.perf_counter_ns() - t1 + t0 - t_enter)

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
