# SPDX-License-Identifier: MIT
"""CompileScope collector for JAX: tracing-cache misses with their reasons, persistent-cache traffic
and compile times, recorded as they happen.

Why logging records: JAX has no API that reports a tracing-cache miss or the key of a persistent-cache
lookup; its loggers are the record (jax/_src/pjit.py, since JAX 0.10
jax/_src/interpreters/partial_eval.py, explains each tracing-cache miss when
``jax_explain_cache_misses`` is on; jax/_src/compiler.py and compilation_cache.py log persistent-cache
hits, misses and writes with the key; jax/_src/dispatch.py and interpreters/pxla.py log trace,
lowering and XLA compile times at DEBUG, or WARNING with ``jax_log_compiles``). ``install()`` turns the
explanations on, lowers those loggers to DEBUG so the records exist, and adds a handler that
records each one. Records below the level a logger had before still reach nobody else: the handler
forwards to the parent loggers only what they would have received, so the program's own logging
output does not change. ``jax.monitoring``'s duration listener adds what no log line says: the time
spent reading an entry from the persistent cache.

Each record becomes the rows the JAX log importer makes of the printed line
(core/ingest/jax/jax_log_importer.cpp; a test feeds one log to both and compares):
  TRACING CACHE MISS ...: + reasons           a lookup in "jax tracing cache" (verdict miss; key:
                                              function id, "type of x", "tracing context [6]",
                                              "static argument power", ...,
                                              so the replay names what changed) and a span with the
                                              reasons as args
  Persistent compilation cache hit / MISS     a lookup in "jax persistent compilation cache" keyed by
                                              the cache key (hit / miss)
  Writing ... to persistent compilation cache a span with jit_event=persistent_cache_write and the key
  Compiling jit(f) with global shapes ...     a span with jit_event=compiling and the shapes (DEBUG)
  Finished tracing / MLIR conversion / XLA    a span (inference / codegen / compile) ending at the
                                              record's time

    import compilescope.jax
    compilescope.jax.install()   # or: compilescope record --jax -- python train.py
"""
import logging
import threading
import time

import compilescope as _cs

# jax._src.pjit explained tracing-cache misses until JAX 0.10; jax._src.interpreters.partial_eval does since.
LOGGERS = ("jax._src.pjit", "jax._src.interpreters.partial_eval", "jax._src.compiler", "jax._src.compilation_cache",
           "jax._src.dispatch", "jax._src.interpreters.pxla")

_installed = None  # [(logger, handler, level, propagate)], listener
_handler = None    # the one _LogHandler while installed


def _quoted(s):
    """"'name' rest" -> ("name", " rest"), or (None, s)."""
    if not s.startswith("'"):
        return None, s
    end = s.find("'", 1)
    return (s[1:end], s[end + 1:]) if end > 0 else (None, s)


def _name_in_seconds(s):
    if not s.endswith(" sec"):
        return None, None
    s = s[:-4]
    at = s.rfind(" in ")
    try:
        return (s[:at], float(s[at + 4:])) if at >= 0 else (None, None)
    except ValueError:
        return None, None


def _now_before(s):
    if not s.startswith("now "):
        return None
    at = s.rfind(" and before ")
    if at < 4:
        return None
    before = s[at + 12:]
    url = before.find("}https://")  # a weak-type difference: JAX appends its documentation's address
    return s[4:at], before[:url + 1] if url >= 0 else before


def _static_value(s):
    """"<class '...Static'> with pytree metadata Static(val=3)" -> "3"."""
    at = s.find("Static(val=")
    return s[at + 11:-1] if at >= 0 and s.endswith(")") else None


# JAX 0.10's headings (jax/_src/interpreters/partial_eval.py diff_tracing_cache_keys), named as before.
_HEADINGS = (("Tracing context doesn't match", "different tracing context"),
             ("Debug info doesn't match", "different debug info"),
             ("cache miss explanation unavailable", "explanation unavailable"))


def miss_component(heading, subject, now, before):
    """A change line under its heading -> (name, role, value, reason); missComponent in
    core/formats/jax_log_lines.cpp."""
    reason = "%s: %s now %s and before %s" % (heading, subject, now, before)
    if heading == "different input types":
        return "type of " + subject, _cs.ROLE_SHAPE, now, reason
    if heading == "different tracing context":
        return "tracing context " + subject, _cs.ROLE_OPTION, now, reason
    if heading == "different input pytree" and subject.startswith("input path "):
        path = subject[11:]
        sn, sb = _static_value(now), _static_value(before)
        if sn is None or sb is None:
            return "pytree at " + path, _cs.ROLE_OTHER, now, reason
        arg = path
        if path.startswith("[1]['") and path.endswith("']") and len(path) > 7:
            arg = path[5:-2]
        elif path.startswith("[0][") and path.find("]", 4) == len(path) - 1:
            arg = "#" + path[4:-1]
        return ("static argument " + arg, _cs.ROLE_KEYWORD, sn,
                "different value of static argument %s: now %s and before %s" % (arg, sn, sb))
    return heading + " " + subject, _cs.ROLE_OTHER, now, reason


def parse_line(message):
    """One logged message's first line -> (kind, fields) with kind one of tracing_miss, persistent_hit,
    persistent_miss, persistent_write, trace_done, lowering_done, compile_done; (None, {}) otherwise.
    The grammar of core/formats/jax_log_lines.cpp."""
    m = message.strip()
    if m.startswith("TRACING CACHE MISS at "):
        rest = m[22:]
        because = rest.rfind(" because:")  # "... because:" before JAX 0.10; "<callsite>:" since
        if because >= 0:
            rest = rest[:because]
        elif len(rest) > 1 and rest.endswith(":"):
            rest = rest[:-1]
        else:
            return None, {}
        cost = -1.0
        at = rest.rfind(" costing ")
        if at >= 0:
            ms = rest[at + 9:]
            try:
                if ms.endswith(" ms") and len(ms) > 3:
                    cost = float(ms[:-3])
            except ValueError:
                pass
            rest = rest[:at]
        return "tracing_miss", {"callsite": rest, "cost_ms": cost}
    for prefix, kind in (("Persistent compilation cache hit for ", "persistent_hit"),
                         ("PERSISTENT COMPILATION CACHE MISS for ", "persistent_miss")):
        if m.startswith(prefix):
            function, rest = _quoted(m[len(prefix):])
            if function is None:
                return None, {}
            key = ""
            if rest.startswith(" with key "):
                key, rest = _quoted(rest[10:])
                if key is None:
                    return None, {}
            return kind, {"function": function, "key": key}
    if m.startswith("Writing "):
        to = m.find(" to persistent compilation cache with key ")
        key = _quoted(m[to + 42:])[0] if to >= 0 else None
        return ("persistent_write", {"function": m[8:to], "key": key}) if key is not None else (None, {})
    if m.startswith("Compiling ") and " with global shapes and types " in m:
        # DEBUG, jax/_src/interpreters/pxla.py: "Compiling jit(f) with global shapes and types (...). Argument mapping: ..."
        at = m.find(" with global shapes and types ")
        name, shapes = m[10:at], m[at + 30:]
        name = name[:-4] if name.endswith(" for") and len(name) > 4 else name
        arg = shapes.rfind(". Argument mapping: ")
        return "compiling", {"function": name, "shapes": shapes[:arg] if arg >= 0 else shapes}
    if m.startswith("Finished tracing "):
        # "Finished tracing + transforming f for pjit in" before JAX 0.10, "Finished tracing f for jit in" since.
        rest = m[17:]
        name, seconds = _name_in_seconds(rest[15:] if rest.startswith("+ transforming ") else rest)
        if name is None:
            return None, {}
        at = name.rfind(" for ")
        return "trace_done", {"function": name[:at] if at >= 0 else name, "seconds": seconds}
    for prefix, kind in (("Finished jaxpr to MLIR module conversion ", "lowering_done"),
                         ("Finished XLA compilation of ", "compile_done")):
        if m.startswith(prefix):
            name, seconds = _name_in_seconds(m[len(prefix):])
            return (kind, {"function": name, "seconds": seconds}) if name is not None else (None, {})
    return None, {}


def parse_miss_block(lines):
    """The indented lines of a TRACING CACHE MISS block -> function, defined_at, function_id,
    components [(name, role, value)], reasons."""
    out = {"function": "", "defined_at": "", "function_id": "", "components": [], "reasons": []}
    heading = ""
    for line in lines:
        t = line.strip()
        if t == "never seen function:":
            out["reasons"].append("never seen function")
        elif t.startswith("but seen another function defined on the same line"):
            out["reasons"].append("seen another function defined on the same line; maybe re-defined repeatedly")
        elif t.startswith("for ") and " defined at " in t:
            at = t.find(" defined at ")
            out["function"], out["defined_at"] = t[4:at], t[at + 12:]
        elif " id=" in t and " defined at " in t[t.find(" id="):]:
            i = t.find(" id=")
            at = t.find(" defined at ", i)
            out["function"], out["defined_at"] = t[:i], t[at + 12:]
            out["function_id"] = "%s id=%s" % (t[:i], t[i + 4:at])
        elif t.startswith("* key with "):
            h = t[11:]
            stops = [i for i in (h.find(","), h.find(":")) if i >= 0]
            heading = h[:min(stops)].strip() if stops else h.strip()
            out["reasons"].append(heading)
        elif t.startswith("different ") and t.endswith(":"):
            heading = t[:-1]
            out["reasons"].append(heading)
        elif any(t.startswith(text) for text, _ in _HEADINGS):
            heading = next(h for text, h in _HEADINGS if t.startswith(text))
            out["reasons"].append(heading)
        else:
            subject, change = None, None
            if t.startswith("* at ") and ", now " in t:
                comma = t.find(", now ")
                subject, change = t[5:comma], _now_before(t[comma + 2:])
                so = change[1].rfind(", so ") if change and subject.startswith("input path ") else -1
                if so >= 0:  # a pytree difference ends with JAX's explanation: "..., so the node types differ"
                    change = change[0], change[1][:so]
            elif t.startswith("[") and "]: " in t:
                colon = t.find("]: ")
                subject, change = t[:colon + 1], _now_before(t[colon + 3:])
            elif t.startswith("* ") and " differs: " in t:  # JAX 0.10: "* jax_enable_x64 differs: now True and before False"
                at = t.find(" differs: ")
                subject, change = t[2:at], _now_before(t[at + 10:])
            if change is None:
                continue
            name, role, value, reason = miss_component(heading, subject, *change)
            out["components"].append((name, role, value))
            out["reasons"].append(reason)
    return out


def _ns(seconds):
    return int(round(seconds * 1e9)) if seconds is not None and 0 <= seconds < 1e9 else 0


class _LogHandler(logging.Handler):
    """Records JAX's cache and compile log records; forwards what the program's logging would have
    shown."""

    def __init__(self):
        super().__init__(logging.DEBUG)
        self._lock = threading.Lock()
        self.track = _cs.track("jax")
        self.levels = {}  # logger name -> the effective level it had before install()
        self.records = 0

    def emit(self, record):
        t_enter = time.perf_counter_ns()
        try:
            if _cs.enabled():
                with self._lock:
                    self.record_message(record.getMessage(), _cs.now_ns())
        except Exception:  # recording never breaks the program
            pass
        _cs.self_time(time.perf_counter_ns() - t_enter)  # forwarding below is the program's own logging
        before = self.levels.get(record.name)
        logger = logging.getLogger(record.name)
        if before is not None and record.levelno >= before and logger.parent is not None:
            logger.parent.handle(record)

    def record_message(self, message, ts):
        first, _, rest = message.partition("\n")
        kind, f = parse_line(first)
        if kind == "tracing_miss":
            self._tracing_miss(ts, f, rest.split("\n") if rest else [])
        elif kind in ("persistent_hit", "persistent_miss"):
            key = f["key"] or f["function"]
            _cs.cache_lookup("jax persistent compilation cache", f["function"],
                             _cs.VERDICT_HIT if kind == "persistent_hit" else _cs.VERDICT_MISS,
                             key=[("key", _cs.ROLE_OTHER, key, key)], handle=key, ts_ns=ts, track_id=self.track)
            self.records += 1
        elif kind == "persistent_write":
            _cs.span_complete(_cs.CAT_OTHER, "persistent cache write " + f["function"], ts, 0, self.track)
            _cs.span_arg("jit_event", "persistent_cache_write")
            _cs.span_arg("key", f["key"])
            _cs.span_arg("function", f["function"])
            self.records += 1
        elif kind == "compiling":
            _cs.span_complete(_cs.CAT_OTHER, "Compiling " + f["function"], ts, 0, self.track)
            _cs.span_arg("jit_event", "compiling")
            _cs.span_arg("function", f["function"])
            _cs.span_arg("global shapes and types", f["shapes"])
            self.records += 1
        elif kind in ("trace_done", "lowering_done", "compile_done"):
            dur = _ns(f["seconds"])
            cat, what = {"trace_done": (_cs.CAT_INFERENCE, "trace "), "lowering_done": (_cs.CAT_CODEGEN, "lower "),
                         "compile_done": (_cs.CAT_COMPILE, "XLA compile ")}[kind]
            _cs.span_complete(cat, what + f["function"], ts - dur, dur, self.track)
            self.records += 1

    def _tracing_miss(self, ts, f, lines):
        b = parse_miss_block(lines)
        fn = b["function"]
        program = f["callsite"] if not fn else fn + (" (%s)" % b["defined_at"] if b["defined_at"] else "")
        cost = _ns(f["cost_ms"] / 1000.0) if f["cost_ms"] >= 0 else None
        key = []
        if b["function_id"]:
            key.append(("function id", _cs.ROLE_FUNCTION, b["function_id"], b["function_id"]))
        key += [(name, role, value, value) for name, role, value in b["components"]]
        _cs.cache_lookup("jax tracing cache", program, _cs.VERDICT_MISS, key=key, handle=f["callsite"],
                         compile_ns=cost, ts_ns=ts, track_id=self.track)
        _cs.span_complete(_cs.CAT_INFERENCE, "TRACING CACHE MISS " + (fn or f["callsite"]), ts, cost or 0, self.track)
        for i, reason in enumerate(b["reasons"]):
            _cs.span_arg("reason %d" % (i + 1), reason)
        self.records += 2


def _on_duration(event, duration_secs, **_kwargs):
    """jax.monitoring: the persistent cache's read time, which no log line gives."""
    try:
        if _cs.enabled() and event == "/jax/compilation_cache/cache_retrieval_time_sec":
            dur = _ns(duration_secs)
            _cs.span_complete(_cs.CAT_CACHE_LOAD, "persistent cache read", _cs.now_ns() - dur, dur,
                              _handler.track if _handler else 0)
    except Exception:
        pass


def install(loggers=None, explain=True):
    """Starts recording (joins `compilescope record` or $COMPILESCOPE_OUTPUT), turns on
    jax_explain_cache_misses (explain=True) and records JAX's cache and compile records. Returns True
    when installed; False when jax is not importable. Idempotent. `loggers` is for tests: names of
    loggers that receive records shaped as JAX's (jax itself is then not imported)."""
    global _installed, _handler
    if _installed is not None:
        return True
    jax = None
    if loggers is None:
        try:
            import jax
        except Exception:
            return False
        loggers = LOGGERS
        if explain:
            try:
                jax.config.update("jax_explain_cache_misses", True)
            except Exception:
                pass  # a jax before the explainer: the other records still come
    _cs.start("jax")
    handler = _LogHandler()
    attached = []
    for name in loggers:
        logger = logging.getLogger(name)
        # What the parents received before: records at or above this level, and only when it propagated.
        handler.levels[name] = logger.getEffectiveLevel() if logger.propagate else None
        attached.append((logger, handler, logger.level, logger.propagate))
        logger.addHandler(handler)
        logger.setLevel(logging.DEBUG)
        logger.propagate = False  # the handler forwards what the parents would have received
    listener = None
    if jax is not None:
        try:
            jax.monitoring.register_event_duration_secs_listener(_on_duration)
            listener = _on_duration
        except Exception:
            pass
    _installed = (attached, listener)
    _handler = handler
    return True


def installed():
    return _installed is not None


def uninstall():
    """Restores the loggers as they were."""
    global _installed, _handler
    if _installed is None:
        return
    for logger, handler, level, propagate in _installed[0]:
        logger.removeHandler(handler)
        logger.setLevel(level)
        logger.propagate = propagate
    _installed = _handler = None
