# SPDX-License-Identifier: MIT
"""compilescope.warp: records every NVIDIA Warp module load into the CompileScope trace.

Why inside the process: Warp's log names a module, a 7-digit hash, the device, the block_dim and
whether it was compiled or cached, but not why the hash moved. A module's identity is its live kernel
set x module options x CUDA block_dim x generic instances (NVIDIA/warp's warp-compile-time-optimizer skill; docs/warp.md), and all four are visible on the
Module object at load time. So this wraps Module.load and records, per load that really happened:
name, full hash, device, block_dim, resolved options, the live kernels with their per-kernel hashes,
generic instances, compiled / cached / error, duration, native compile time, generated source size
and LTO artifacts. CompileScope's Warp analysis then diffs identities (kernel added / changed,
option set after load, generic instance) instead of only counting hashes.

How the result is known without parsing text: Warp times each load with a ScopedTimer whose
`extra_msg` it sets to " (compiled)", " (cached)" or " (error)", and times native compiles with
"Compile x86" / "Compile CUDA ..." timers. ScopedTimer.__exit__ is wrapped to hand those to the load
running on the same thread; a timer Warp left inactive (its log level too high: Warp 1.19 runs the
Compile timers only at LOG_DEBUG) is timed by the wrapped __enter__ / __exit__ instead, so the
native compile time is recorded at every log level. Loads that find a current executable (no timer) are not loads and are
not recorded. Everything is defensive: a Warp version without some attribute records less, never
fails, and the wrapped functions always run the original.

    import compilescope.warp
    compilescope.warp.install()     # before or after `import warp`; joins `compilescope record`
"""
import functools
import os
import sys
import threading
import time

import compilescope as _cs

__all__ = ["install", "installed"]

_tls = threading.local()
_lock = threading.Lock()
_state = {"installed": False}


def installed():
    """True once Module.load is wrapped."""
    return _state["installed"]


def _frames():
    stack = getattr(_tls, "stack", None)
    if stack is None:
        stack = _tls.stack = []
    return stack


def _context_module(warp):
    for name in ("warp._src.context", "warp.context"):
        mod = sys.modules.get(name)
        if mod is not None and hasattr(mod, "Module"):
            return mod
    return getattr(warp, "context", None)


def _timer_class(warp):
    for name in ("warp._src.utils", "warp.utils"):
        mod = sys.modules.get(name)
        if mod is not None and hasattr(mod, "ScopedTimer"):
            return mod.ScopedTimer
    return getattr(warp, "ScopedTimer", None)


def _hex(digest):
    if digest is None:
        return None
    return digest.hex() if isinstance(digest, (bytes, bytearray)) else str(digest)


def _module_hash(module, block_dim):
    for call in (lambda: module.get_module_hash(block_dim), lambda: module.get_module_hash(), lambda: module.hash_module()):
        try:
            return _hex(call())
        except Exception:
            continue
    return None


def _options(module, block_dim):
    resolved = getattr(module, "resolved_options", None)
    opts = resolved.get(block_dim) if isinstance(resolved, dict) else None
    if not opts:
        opts = getattr(module, "options", None) or {}
    try:
        return sorted((str(k), str(v)) for k, v in opts.items())
    except Exception:
        return []


def _kernels(module):
    """(name, per-kernel hash, generic instance signature or None) for the live kernel set."""
    try:
        live = module._get_live_kernels() if hasattr(module, "_get_live_kernels") else list(module.kernels.values())
    except Exception:
        return []
    out = []
    for kernel in live:
        key = str(getattr(kernel, "key", kernel))
        if getattr(kernel, "is_generic", False):
            for sig, overload in dict(getattr(kernel, "overloads", {}) or {}).items():
                out.append((key, _hex(getattr(overload, "hash", None)), str(sig)))
        else:
            out.append((key, _hex(getattr(kernel, "hash", None)), None))
    return sorted(out, key=lambda k: (k[0], k[2] or "", k[1] or ""))


def _cache_facts(warp, module, block_dim, module_hash):
    """Generated source bytes (.cu / .cpp) and LTO artifacts (.lto / .ltoir) in the module's
    kernel-cache directory; (None, None) when the directory is not known or not there."""
    try:
        ident = module.get_module_identifier(block_dim)
    except Exception:
        ident = f"wp_{module.name}_{module_hash[:7]}" if module_hash else f"wp_{module.name}"
    root = getattr(getattr(warp, "config", None), "kernel_cache_dir", None)
    if not root:
        return None, None
    folder = os.path.join(root, ident)
    try:
        names = os.listdir(folder)
    except OSError:
        return None, None
    source = lto = 0
    for name in names:
        if name.endswith((".lto", ".ltoir")):
            lto += 1
        elif name.endswith((".cu", ".cpp")):
            try:
                source += os.path.getsize(os.path.join(folder, name))
            except OSError:
                pass
    return source, lto


def _device_name(ctx, device):
    try:
        return str(ctx.runtime.get_device(device))
    except Exception:
        return None if device is None else str(device)


_RESULTS = {"(compiled)": _cs.MODULE_COMPILED, "(cached)": _cs.MODULE_CACHED, "(error)": _cs.MODULE_ERROR}


def _record(warp, ctx, module, device, block_dim, frame, start_ns, wall_ns, failed):
    if frame["status"] is None and not failed:
        return  # the executable was current: no load happened
    if block_dim is None:
        block_dim = (getattr(module, "options", None) or {}).get("block_dim")
    result = _RESULTS.get((frame["status"] or "").strip(), _cs.MODULE_ERROR if failed else _cs.MODULE_UNKNOWN)
    module_hash = _module_hash(module, block_dim)
    source, lto = _cache_facts(warp, module, block_dim, module_hash)
    dur = frame["elapsed_ns"] or wall_ns
    name = str(getattr(module, "name", "?"))
    _cs.module_load(name, result, module_hash=module_hash, device=_device_name(ctx, device), block_dim=block_dim,
                    start_ns=start_ns, dur_ns=dur, compile_ns=frame["compile_ns"] if frame["compiles"] else None,
                    source_bytes=source, options=_options(module, block_dim), kernels=_kernels(module),
                    lto_artifacts=lto)


def _wrap_timer(timer_cls):
    original = timer_cls.__exit__
    if getattr(original, "_compilescope", False):
        return
    original_enter = timer_cls.__enter__

    @functools.wraps(original_enter)
    def __enter__(self):
        if _frames():
            try:
                self._compilescope_t0 = time.perf_counter_ns()
            except Exception:
                pass
        return original_enter(self)

    @functools.wraps(original)
    def __exit__(self, *exc):
        try:
            return original(self, *exc)
        finally:
            stack = _frames()
            if stack:
                try:
                    frame = stack[-1]
                    name = str(getattr(self, "name", ""))
                    elapsed_ns = int(float(getattr(self, "elapsed", 0.0) or 0.0) * 1e6)
                    t0 = getattr(self, "_compilescope_t0", None)
                    if not elapsed_ns and t0 is not None:
                        # An inactive timer (Warp 1.19 runs "Compile x86" only at LOG_DEBUG) keeps
                        # elapsed 0: time its block here rather than record a 0 ns compile.
                        elapsed_ns = time.perf_counter_ns() - t0
                    if name.startswith("Module "):
                        frame["status"] = getattr(self, "extra_msg", "") or ""
                        frame["elapsed_ns"] = elapsed_ns
                    elif name.startswith("Compile "):
                        frame["compiles"] += 1
                        frame["compile_ns"] += elapsed_ns
                except Exception:
                    pass

    __exit__._compilescope = True
    timer_cls.__enter__ = __enter__
    timer_cls.__exit__ = __exit__


def _wrap_load(warp, ctx):
    module_cls = ctx.Module
    original = module_cls.load
    if getattr(original, "_compilescope", False):
        return

    @functools.wraps(original)
    def load(self, device, *args, **kwargs):
        # Pass the call through exactly as made: before 1.9 load() took no block_dim at all.
        if not _cs.enabled():
            return original(self, device, *args, **kwargs)
        t_enter = time.perf_counter_ns()
        block_dim = kwargs.get("block_dim", args[0] if args else None)
        frame = {"status": None, "elapsed_ns": 0, "compile_ns": 0, "compiles": 0}
        stack = _frames()
        stack.append(frame)
        start_ns = _cs.now_ns()
        t0 = time.perf_counter_ns()
        failed = False
        try:
            return original(self, device, *args, **kwargs)
        except BaseException:
            failed = True
            raise
        finally:
            t1 = time.perf_counter_ns()
            stack.pop()
            try:
                _record(warp, ctx, self, device, block_dim, frame, start_ns, t1 - t0, failed)
            except Exception:
                pass
            _cs.self_time(time.perf_counter_ns() - t1 + t0 - t_enter)

    load._compilescope = True
    module_cls.load = load


def install(output=None):
    """Wraps Warp's module load (importing warp) and starts recording. Returns True when recording.

    `output`: trace file when not run under `compilescope record` (default: $COMPILESCOPE_OUTPUT).
    Without Warp, or without the collector library, returns False and changes nothing."""
    with _lock:
        if _state["installed"]:
            return True
        try:
            import warp
        except Exception:
            return False
        ctx = _context_module(warp)
        timer_cls = _timer_class(warp)
        if ctx is None or not hasattr(ctx, "Module") or timer_cls is None:
            return False
        if not _cs.available():
            return False
        if not _cs.enabled():
            _cs.start("warp", output)
        _wrap_timer(timer_cls)
        _wrap_load(warp, ctx)
        _state["installed"] = True
        # The wrappers stay in place either way; they record from the moment recording runs.
        return _cs.enabled()
