# SPDX-License-Identifier: MIT
"""CompileScope collector for Python: pure ctypes over the C ABI of libcompilescope_collector.

Why ctypes and no extension module: nothing to build, so any Python (CPython, a venv, an embedded
interpreter) can record. Every call goes straight to the C library, which buffers the event in the
calling thread's ring (see docs/collector.md); ctypes releases the GIL during the call.

The library is found through $COMPILESCOPE_LIBRARY (set by `compilescope record`), then next to this
package in a build or install tree, then the system loader. When it cannot be found, every function
here does nothing and `available()` is False: instrumentation never breaks the host program.

    import compilescope as cs
    cs.start("numba")                       # joins `compilescope record`, or $COMPILESCOPE_OUTPUT
    with cs.span(cs.CAT_COMPILE, "my_kernel"):
        ...
    cs.cache_lookup("numba.dispatcher", "my_kernel", cs.VERDICT_MISS,
                    key=[("arg types", cs.ROLE_TYPE, None, "(float64[:],)")])
"""
import contextlib
import ctypes
import ctypes.util
import os
import threading

__all__ = [
    "available", "start", "stop", "enabled", "flush", "dropped_count", "now_ns", "intern", "track",
    "span", "span_begin", "span_end", "span_complete", "span_arg", "step", "cache_lookup",
    "closure_add", "counter", "method", "invalidation_item", "module_load", "NONE", "NOW",
]

# Codes of trace_constants.h (a test checks they match the header).
CAT_OTHER, CAT_COMPILE, CAT_CACHE_LOAD, CAT_MODULE_LOAD, CAT_LAUNCH, CAT_IMPORT, CAT_INIT, CAT_STEP, \
    CAT_INFERENCE, CAT_CODEGEN, CAT_LINK, CAT_PHASE, CAT_GC = range(13)
VERDICT_UNKNOWN, VERDICT_HIT, VERDICT_MISS = range(3)
ROLE_OTHER, ROLE_FUNCTION, ROLE_WORLD, ROLE_SHAPE, ROLE_GRAPHCONST, ROLE_KEYWORD, ROLE_DEVICE, \
    ROLE_HOST, ROLE_TYPE, ROLE_OPTION = range(10)
MODULE_UNKNOWN, MODULE_COMPILED, MODULE_CACHED, MODULE_ERROR = range(4)
TRACK_THREAD, TRACK_DEVICE, TRACK_STREAM, TRACK_RUNTIME, TRACK_PROCESS = range(5)
METHOD_DEFINE, METHOD_REDEFINE, METHOD_DELETE = range(3)
INVLIST_METHODS, INVLIST_EDGES, INVLIST_PRINTED = range(3)

NOW = 0                 # CS_NOW: "take the time now"
NONE = -(2 ** 63)       # CS_NONE: "not known"

_i64 = ctypes.c_int64
_u32 = ctypes.c_uint32


class _KeyComponent(ctypes.Structure):
    _fields_ = [("name", _u32), ("role", ctypes.c_int32), ("digest", _u32), ("value", _u32)]


class _ClosureEntry(ctypes.Structure):
    _fields_ = [("method", _u32), ("pad", ctypes.c_int32), ("world", _i64)]


class _CacheLookup(ctypes.Structure):
    _fields_ = [("ts_ns", _i64), ("cache", _u32), ("program", _u32), ("handle", _u32),
                ("verdict", ctypes.c_int32), ("compile_ns", _i64), ("fingerprint", _u32), ("track", _u32),
                ("step", _i64), ("key", ctypes.POINTER(_KeyComponent)), ("key_count", _u32),
                ("closure_count", _u32), ("closure", ctypes.POINTER(_ClosureEntry))]


class _MethodInfo(ctypes.Structure):
    _fields_ = [("ts_ns", _i64), ("event", ctypes.c_int32), ("method", _u32), ("signature", _u32),
                ("module", _u32), ("file", _u32), ("pad", ctypes.c_int32), ("line", _i64), ("world", _i64)]


class _ModuleOption(ctypes.Structure):
    _fields_ = [("key", _u32), ("value", _u32)]


class _ModuleKernel(ctypes.Structure):
    _fields_ = [("kernel", _u32), ("digest", _u32), ("generic", _u32), ("pad", ctypes.c_int32)]


class _ModuleLoad(ctypes.Structure):
    _fields_ = [("start_ns", _i64), ("dur_ns", _i64), ("name", _u32), ("hash", _u32), ("device", _u32),
                ("result", ctypes.c_int32), ("block_dim", _i64), ("compile_ns", _i64), ("source_bytes", _i64),
                ("lto_artifacts", _i64), ("track", _u32), ("option_count", _u32),
                ("options", ctypes.POINTER(_ModuleOption)), ("kernels", ctypes.POINTER(_ModuleKernel)),
                ("kernel_count", _u32), ("pad", ctypes.c_int32)]


def _candidates():
    env = os.environ.get("COMPILESCOPE_LIBRARY")
    if env:
        yield env
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.normpath(os.path.join(here, "..", "..", ".."))
    for rel in ("build/release/collectors", "build/dev/collectors", "lib", "../lib"):
        yield os.path.join(root, rel, "libcompilescope_collector.so")
    found = ctypes.util.find_library("compilescope_collector")
    if found:
        yield found


def _load():
    for path in _candidates():
        try:
            lib = ctypes.CDLL(path)
        except OSError:
            continue
        sigs = {
            "cs_start": (ctypes.c_int, [ctypes.c_char_p, ctypes.c_char_p]),
            "cs_stop": (None, []),
            "cs_enabled": (ctypes.c_int, []),
            "cs_flush": (None, []),
            "cs_dropped_count": (ctypes.c_uint64, []),
            "cs_now_ns": (_i64, []),
            "cs_intern_n": (_u32, [ctypes.c_char_p, ctypes.c_size_t]),
            "cs_track_create": (_u32, [_u32, ctypes.c_int, _i64]),
            "cs_span_begin": (None, [_u32, ctypes.c_int, _u32]),
            "cs_span_end": (None, [_u32]),
            "cs_span_complete": (None, [_u32, ctypes.c_int, _u32, _i64, _i64]),
            "cs_span_arg_int": (None, [_u32, _i64]),
            "cs_span_arg_str": (None, [_u32, _u32]),
            "cs_step": (None, [_i64, _i64, _u32]),
            "cs_cache_lookup_record": (ctypes.c_uint64, [ctypes.POINTER(_CacheLookup)]),
            "cs_closure_add": (None, [ctypes.c_uint64, _u32, _i64]),
            "cs_counter": (None, [_u32, _u32, _i64]),
            "cs_method": (None, [ctypes.POINTER(_MethodInfo)]),
            "cs_invalidation_item": (None, [ctypes.c_int, _i64, ctypes.c_int, ctypes.c_char_p]),
            "cs_module_load_record": (None, [ctypes.POINTER(_ModuleLoad)]),
        }
        for name, (res, args) in sigs.items():
            fn = getattr(lib, name)
            fn.restype = res
            fn.argtypes = args
        return lib
    return None


_lib = _load()
_strings = {}
_strings_lock = threading.Lock()


def available():
    """True when the collector library was loaded."""
    return _lib is not None


def start(runtime="python", output=None):
    """Starts recording this process (see cs_start). Returns True when recording."""
    if _lib is None:
        return False
    return bool(_lib.cs_start(runtime.encode(), output.encode() if output else None))


def stop():
    if _lib is not None:
        _lib.cs_stop()


def enabled():
    return _lib is not None and bool(_lib.cs_enabled())


def flush():
    if _lib is not None:
        _lib.cs_flush()


def dropped_count():
    return _lib.cs_dropped_count() if _lib is not None else 0


def now_ns():
    return _lib.cs_now_ns() if _lib is not None else 0


def intern(s):
    """The cs_str handle of `s` (cached per process; 0 for None or when not recording)."""
    if s is None or _lib is None:
        return 0
    h = _strings.get(s)
    if h:
        return h
    b = s.encode("utf-8", "replace") if isinstance(s, str) else bytes(s)
    h = _lib.cs_intern_n(b, len(b))
    if h:
        with _strings_lock:
            _strings[s] = h
    return h


def _opt(v):
    return NONE if v is None else int(v)


def track(name, kind=TRACK_RUNTIME, tid=0):
    return _lib.cs_track_create(intern(name), kind, tid) if _lib is not None else 0


def span_begin(category, name, track_id=0):
    if _lib is not None:
        _lib.cs_span_begin(track_id, category, intern(name))


def span_end(track_id=0):
    if _lib is not None:
        _lib.cs_span_end(track_id)


@contextlib.contextmanager
def span(category, name, track_id=0):
    """A span around a `with` block on the calling thread."""
    span_begin(category, name, track_id)
    try:
        yield
    finally:
        span_end(track_id)


def span_complete(category, name, start_ns, dur_ns, track_id=0):
    if _lib is not None:
        _lib.cs_span_complete(track_id, category, intern(name), start_ns, dur_ns)


def span_arg(key, value):
    """Attaches key=value (int or str) to the span most recently begun or completed on this thread."""
    if _lib is None:
        return
    if isinstance(value, int):
        _lib.cs_span_arg_int(intern(key), value)
    else:
        _lib.cs_span_arg_str(intern(key), intern(str(value)))


def step(number, epoch=None, label=None):
    if _lib is not None:
        _lib.cs_step(number, _opt(epoch), intern(label))


def cache_lookup(cache, program, verdict, key=(), handle=None, compile_ns=None, fingerprint=None,
                 step_number=None, closure=(), ts_ns=NOW, track_id=0):
    """Records a cache lookup. key: (name, role, digest, value) tuples; closure: (method, world) pairs;
    track_id: a track from track() (0: the calling thread's). Returns a handle for closure_add (0 when
    not recorded)."""
    if _lib is None:
        return 0
    keys = (_KeyComponent * max(len(key), 1))()
    for i, (name, role, digest, value) in enumerate(key):
        keys[i] = _KeyComponent(intern(name), role, intern(digest), intern(value))
    clos = (_ClosureEntry * max(len(closure), 1))()
    for i, (m, world) in enumerate(closure):
        clos[i] = _ClosureEntry(intern(m), 0, _opt(world))
    rec = _CacheLookup(ts_ns, intern(cache), intern(program), intern(handle), verdict, _opt(compile_ns),
                       intern(fingerprint), track_id, _opt(step_number), keys, len(key), len(closure), clos)
    return _lib.cs_cache_lookup_record(ctypes.byref(rec))


def closure_add(lookup, method_name, world=None):
    if _lib is not None:
        _lib.cs_closure_add(lookup, intern(method_name), _opt(world))


def counter(scope, name, value):
    if _lib is not None:
        _lib.cs_counter(intern(scope), intern(name), value)


def method(event, name, signature=None, module=None, file=None, line=None, world=None, ts_ns=NOW):
    if _lib is not None:
        info = _MethodInfo(ts_ns, event, intern(name), intern(signature), intern(module), intern(file), 0,
                           _opt(line), _opt(world))
        _lib.cs_method(ctypes.byref(info))


def invalidation_item(list_id, ordinal, kind, text):
    if _lib is not None:
        _lib.cs_invalidation_item(list_id, ordinal, kind, text.encode("utf-8", "replace"))


def module_load(name, result, module_hash=None, device=None, block_dim=None, start_ns=NOW, dur_ns=None,
                compile_ns=None, source_bytes=None, options=(), kernels=(), lto_artifacts=None):
    """Records a Warp-style module load. options: (key, value) pairs; kernels: (name, digest, generic)."""
    if _lib is None:
        return
    opts = (_ModuleOption * max(len(options), 1))()
    for i, (k, v) in enumerate(options):
        opts[i] = _ModuleOption(intern(k), intern(None if v is None else str(v)))
    kers = (_ModuleKernel * max(len(kernels), 1))()
    for i, (k, d, g) in enumerate(kernels):
        kers[i] = _ModuleKernel(intern(k), intern(d), intern(g), 0)
    rec = _ModuleLoad(start_ns, _opt(dur_ns), intern(name), intern(module_hash), intern(device), result,
                      _opt(block_dim), _opt(compile_ns), _opt(source_bytes), _opt(lto_artifacts), 0, len(options), opts, kers,
                      len(kernels), 0)
    _lib.cs_module_load_record(ctypes.byref(rec))


# The collectors' own cost, for the overhead benchmark (scripts/bench_python_overhead.py): with
# COMPILESCOPE_SELF_TIME=1 each hook adds the time it spent outside the runtime's own code, and the
# process prints the total and the number of hook calls to stderr at exit. Off, a hook pays two clock
# reads and this one check.
_self = {"ns": 0, "calls": 0} if os.environ.get("COMPILESCOPE_SELF_TIME") else None


def self_time(ns):
    """Adds `ns` nanoseconds of collector work (only under COMPILESCOPE_SELF_TIME=1)."""
    if _self is not None:
        _self["ns"] += ns
        _self["calls"] += 1


if _self is not None:
    import atexit
    import sys as _sys

    @atexit.register
    def _print_self_time():
        _sys.stderr.write("COMPILESCOPE_SELF_NS=%d CALLS=%d\n" % (_self["ns"], _self["calls"]))
