# SPDX-License-Identifier: MIT
"""CompileScope collector for PyTorch: torch.compile's structured trace, recorded as it happens.

Why the structured trace: it is the record PyTorch itself keeps of every compile (what TORCH_TRACE
writes and tlparse reads). Each record reaches the logger ``torch.__trace``
(torch/_logging/_internal.py ``trace_structured``) as a logging record with two attributes,
``metadata`` (the JSON envelope: ``{"dynamo_start": ...}``, ``{"artifact": {"name": ...}}``, plus
``frame_id`` / ``frame_compile_id`` / ``attempt``) and ``payload`` (a string or None). PyTorch builds
those records only while the logger has a handler, so installing ours is what turns them on, without
TORCH_TRACE and without files.

Each record is turned into the same rows the TORCH_TRACE importer makes of the printed file
(core/ingest/torch/torch_trace_builder.cpp; a test feeds one log to both and compares), so `explain`,
`findings`, the Cache view and the timeline read a live recording exactly as an imported one:
  dynamo_start .. compilation_metrics   one compile span (category compile) on track "torch compile",
                                        named by co_name, with compile_id, status (ok / failed /
                                        incomplete), the dynamo stack and every scalar metric as args
  chromium_event B / E                  one phase span per pair, with compile_id
  fx_graph_cache_* / aotautograd_cache_* one cache lookup in "fx graph cache (persistent)" or "aot
                                        autograd cache (persistent)", program "frame N", one key
                                        component per "[hash] name: value" of the payload, so the
                                        replay names the component that moved between two misses
  *_bypass                              a zero-length span with jit_event=cache_bypass and the reason
A compile still open when the process exits is written with status incomplete, never failed.
Real torch 2.15 (tests/collector/test_torch_real.py): an attempt "0/0" ended by a graph break's
restart ("0/0_1" begins) is written with status restarted; `recompile_reasons` become "guard failure N"
args, `dynamo_graph_break_reason` a graph_break arg; a compile that failed on the recompile limit is
tagged jit_event=recompile_limit and named after its frame's earlier compiles.

    import compilescope.torch
    compilescope.torch.install()   # or: compilescope record --torch -- python train.py
"""
import atexit
import json
import logging
import re
import threading
import time

import compilescope as _cs

_handler = None  # (logger, _TraceHandler) once installed

_CACHE_KINDS = (("fx_graph_cache_", "fx graph cache"), ("aotautograd_cache_", "aot autograd cache"),
                ("autograd_cache_", "aot autograd cache"))


def _integer(v):
    """An integral JSON number (ids, counters, ns), else None: never a bool or a fraction."""
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return None
    if isinstance(v, float) and (v != v or abs(v) > 2 ** 53 or v != int(v)):
        return None
    return int(v)


def _compile_id(md):
    """The envelope's compile id as the importer writes it ("0/1", "0/1_2", "!3/0/1") and its frame."""
    frame, comp, attempt = _integer(md.get("frame_id")), _integer(md.get("frame_compile_id")), _integer(md.get("attempt"))
    if frame is None or comp is None:
        return "", -1
    text = "%d/%d" % (frame, comp) + ("_%d" % attempt if attempt else "")
    ca = md.get("compiled_autograd_id")
    if _integer(ca) is not None:
        text = "!%d/%s" % (ca, text)
    return text, frame


def _previous_attempt(cid):
    """"0/1_2" -> "0/1_1", "0/1_1" -> "0/1"; "" for a first attempt."""
    slash, us = cid.rfind("/"), cid.rfind("_")
    if slash < 0 or us < slash or not cid[us + 1:].isdigit() or int(cid[us + 1:]) < 1:
        return ""
    n = int(cid[us + 1:])
    return cid[:us] if n == 1 else "%s_%d" % (cid[:us], n - 1)


def _frame_of(cid):
    return cid[:cid.rfind("/")] if "/" in cid else ""


def _after(s, key, stops):
    at = s.find(key)
    if at < 0:
        return ""
    at += len(key)
    end = min([i for i in (s.find(c, at) for c in stops) if i >= 0] or [len(s)])
    return s[at:end]


def _reasons(payload):
    """The recompile_reasons payload: a JSON list, or one reason as its text."""
    try:
        v = json.loads(payload)
        if isinstance(v, list):
            return [i for i in v if isinstance(i, str)]
        if isinstance(v, str):
            return [v]
    except ValueError:
        pass
    return [payload] if payload else []


_BLANKS = " \t\r\n"


def _expected_actual(rest):
    e = rest.find("expected ")
    if e < 0:
        return "", ""
    tail = rest[e + 9:]
    comma = tail.find(", actual ")
    if comma < 0:
        return tail.rstrip(_BLANKS), ""
    a = tail[comma + 9:]
    stop = a.find(". ")
    a = (a if stop < 0 else a[:stop]).rstrip(_BLANKS)
    return tail[:comma], a[:-1] if a.endswith(".") else a


def _guard_failure(raw):
    """One recompile reason -> (entry or None, subject, expected, actual, role), as the C++ importers
    read it (core/formats/torch_recompile_lines.cpp parseGuardFailure)."""
    t, entry = raw.strip(_BLANKS), None
    colon = t.find(": ")
    if 2 < colon < 24 and t[:1].isdigit():
        if "/" in t[:colon] and all(c.isdigit() or c in "/_" for c in t[:colon]):
            entry, t = t[:colon], t[colon + 2:]
    elif len(t) > 2 and t[:1].isdigit() and t.endswith(":") and "/" in t and " " not in t:
        entry, t = t[:-1], ""
    hash_ = t.find("  # ")
    if hash_ >= 0:
        t = t[:hash_]
    t = t.rstrip(_BLANKS)
    subject, expected, actual, role = t, "", "", _cs.ROLE_OTHER
    if t.startswith("tensor '"):
        mm = t.find(" mismatch")
        name_end = t.rfind("' ", 0, mm + 2) if mm >= 0 else -1
        if name_end > 8:
            what, after = t[name_end + 2:mm], t[mm + 9:]
            index = after[10:].split(".", 1)[0] if after.startswith(" at index ") else ""
            subject = what + " of " + t[8:name_end] + (" at index " + index if index else "")
            role = _cs.ROLE_SHAPE if what in ("size", "stride") else _cs.ROLE_TYPE if what == "dtype" else _cs.ROLE_OTHER
            expected, actual = _expected_actual(after)
        return entry, subject, expected, actual, role
    eq = t.find(" == ")
    if eq >= 0 and t.find(" == ", eq + 4) < 0:
        rhs = t[eq + 4:]
        lhs = rhs.find(", with LHS value: ")
        if lhs >= 0:
            actual, rhs = rhs[lhs + 18:].strip(_BLANKS), rhs[:lhs]
        subject, expected = t[:eq].strip(_BLANKS), rhs.strip(_BLANKS)
    return entry, subject, expected, actual, role


def _text(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (list, tuple)):
        return "; ".join(_text(i) for i in v)
    if isinstance(v, (str, int, float)):
        return str(v)
    return ""


def _tensor_summary(v):
    """"TensorMetadata(dtype=torch.float32, shape=torch.Size([2, 2]), stride=(2, 1), ...)" ->
    "float32[2, 2] stride (2, 1)"; "" when the value is not in that shape."""
    if not v.startswith("TensorMetadata("):
        return ""

    def field(key, opening, closing):
        at = v.find(key)
        if at < 0:
            return ""
        start = v.find(opening, at + len(key))
        end = v.find(closing, start) if start >= 0 else -1
        return v[start:end + 1] if end >= 0 else ""

    at = v.find("dtype=torch.")
    dtype = v[at + 12:v.find(",", at)] if at >= 0 and v.find(",", at) >= 0 else ""
    shape, stride = field("shape=torch.Size(", "[", "]"), field("stride=", "(", ")")
    if not dtype or not shape:
        return ""
    return dtype + shape + (" stride " + stride if stride else "")


def _short_value(hash_, value):
    summary = _tensor_summary(value)
    if summary:
        return "%s [%s]" % (summary, hash_[:10])
    first = value.split("\n", 1)[0]
    cut = "\n" in value or len(first.encode("utf-8")) > 160
    if len(first.encode("utf-8")) > 160:
        first = first.encode("utf-8")[:160].decode("utf-8", "ignore")
    return "%s... [%s]" % (first, hash_[:10]) if cut else first


def _role(name):
    if name.startswith("example_inputs") or name.startswith("inputs_to_check"):
        return _cs.ROLE_SHAPE
    if name == "gm":
        return _cs.ROLE_FUNCTION
    if name.startswith(("inductor_config", "fx_kwargs", "aot_config")) or "settings" in name:
        return _cs.ROLE_OPTION
    return _cs.ROLE_OTHER


def _component(text):
    """"[hash] name: value" -> (hash, name, value), or None."""
    if not isinstance(text, str) or len(text) < 4 or text[0] != "[":
        return None
    close = text.find("] ")
    if close <= 1:
        return None
    colon = text.find(": ", close + 2)
    name = text[close + 2:] if colon < 0 else text[close + 2:colon]
    value = "" if colon < 0 else text[colon + 2:]
    return (text[1:close], name, value) if name else None


class _Compile:
    __slots__ = ("id", "start", "end", "name", "stack", "failed", "restarted", "metrics", "guard_failures",
                 "graph_break", "fail_reason", "program")

    def __init__(self, cid, start):
        self.id, self.start, self.end = cid, start, None
        self.name, self.stack, self.failed, self.restarted, self.metrics = "torch compile", "", False, False, []
        self.guard_failures, self.graph_break, self.fail_reason, self.program = [], "", "", ""


class _TraceHandler(logging.Handler):
    """Receives torch.__trace records and records them through the collector."""

    def __init__(self):
        super().__init__(logging.DEBUG)
        self._lock = threading.Lock()
        self._track = _cs.track("torch compile")
        self._strings = {}    # interned file names: id -> name
        self._compiles = {}   # open compiles by id
        self._frame_names = {}  # "0" -> co_name of that frame's compiles
        self._guard_frames = {}  # frame -> [program, [(compile id, start)], {id: {subject: value}}, [(subject, role)]]
        self._open = {}       # (compile id, phase name) -> [start ns]
        self._chromium_offset = None  # collector clock - chromium clock (ns), from the first event
        self.records = 0

    def emit(self, record):
        t_enter = time.perf_counter_ns()
        md = getattr(record, "metadata", None)
        if not isinstance(md, dict) or not _cs.enabled():
            return
        try:
            with self._lock:
                self._dispatch(md, getattr(record, "payload", None), _cs.now_ns())
        except Exception:  # recording never breaks the compile
            pass
        _cs.self_time(time.perf_counter_ns() - t_enter)

    def _dispatch(self, md, payload, ts):
        cid, frame = _compile_id(md)
        if "str" in md:
            s = md["str"]
            if isinstance(s, (list, tuple)) and len(s) == 2 and isinstance(s[0], str) and _integer(s[1]) is not None:
                self._strings[_integer(s[1])] = s[0]
        elif "dynamo_start" in md:
            self._dynamo_start(cid, ts, md["dynamo_start"])
        elif isinstance(md.get("compilation_metrics"), dict):
            self._metrics(cid, ts, md["compilation_metrics"])
        elif "chromium_event" in md:
            event = self._json(payload)
            if isinstance(event, dict):
                self._chromium(cid, ts, event)
        elif isinstance(md.get("artifact"), dict):
            name = md["artifact"].get("name")
            kind = next((k for k in _CACHE_KINDS if isinstance(name, str) and name.startswith(k[0])), None)
            state = name[len(kind[0]):] if kind else None
            if name == "recompile_reasons" and isinstance(payload, str):
                self._compile(cid or "?", ts).guard_failures = _reasons(payload)
            elif name == "dynamo_graph_break_reason" and isinstance(payload, str):
                self._compile(cid or "?", ts).graph_break = payload.split("\n\n", 1)[0]
            elif state in ("hit", "miss", "bypass"):
                art = self._json(payload)
                if isinstance(art, dict):
                    self._cache(cid, frame, ts, kind[1], state, art)

    @staticmethod
    def _json(payload):
        try:
            return json.loads(payload) if isinstance(payload, str) else None
        except ValueError:
            return None

    def _compile(self, cid, ts):
        c = self._compiles.get(cid)
        if c is None:
            prev = self._compiles.pop(_previous_attempt(cid), None)
            if prev is not None:  # a new attempt: dynamo restarted the analysis of the one before
                prev.restarted, prev.end = True, max(ts, prev.start)
                self._write_compile(prev, ts)
            c = self._compiles[cid] = _Compile(cid, ts)
            c.name = self._frame_names.get(_frame_of(cid), c.name)
        return c

    def _dynamo_start(self, cid, ts, start):
        c = self._compile(cid or "?", ts)
        c.start = min(c.start, ts)
        stack = start.get("stack") if isinstance(start, dict) else None
        if not isinstance(stack, list):
            return
        lines = []
        for frame in stack:
            if not isinstance(frame, dict):
                continue
            f = frame.get("filename")
            if _integer(f) is not None:
                f = self._strings.get(_integer(f), "<str %s>" % f)
            elif not isinstance(f, str):
                f = "?"
            line = frame.get("line")
            lines.append("%s:%s in %s" % (f, "?" if line is None else _text(line), _text(frame.get("name", "?")) or "?"))
        c.stack = "\n".join(lines)
        last = stack[-1] if stack and isinstance(stack[-1], dict) else {}
        if c.name == "torch compile" and isinstance(last.get("name"), str) and last["name"]:
            c.name = last["name"]

    def _metrics(self, cid, ts, metrics):
        c = self._compile(cid or "?", ts)
        for k, v in metrics.items():
            if k in ("compile_id", "dynamo_config") or v is None or isinstance(v, dict) or (isinstance(v, list) and not v):
                continue
            if len(k) > 7 and k.endswith("_config") and (not isinstance(v, str) or v.startswith("{")):
                continue  # kilobytes of defaults, as JSON text
            c.metrics.append((k, v))
            if k == "co_name" and isinstance(v, str):
                c.name = self._frame_names[_frame_of(c.id)] = v
            if k == "fail_type":
                c.failed = True
            if k == "fail_reason" and isinstance(v, str):
                c.fail_reason = v
        f, line = metrics.get("co_filename"), metrics.get("co_firstlineno")
        if isinstance(f, str) and c.name != "torch compile" and _integer(line) is not None:
            c.program = "%s (%s:%s)" % (c.name, f, line)
        c.end = ts
        self._write_compile(c, ts)
        del self._compiles[c.id]

    def _chromium(self, cid, ts, event):
        name, ph, at = event.get("name"), event.get("ph"), event.get("ts")
        if not isinstance(name, str) or not isinstance(ph, str):
            return
        args = event.get("args")
        if isinstance(args, dict) and isinstance(args.get("compile_id"), str):
            cid = args["compile_id"]
        if isinstance(at, (int, float)) and not isinstance(at, bool) and abs(at) <= 9e15:
            ns = int(round(at * 1000.0))
            if self._chromium_offset is None:
                self._chromium_offset = ts - ns
            at = ns + self._chromium_offset
        else:
            at = ts
        key = (cid, name)
        if ph == "B":
            self._open.setdefault(key, []).append(at)
            if cid and name in ("dynamo", "entire_frame_compile"):
                c = self._compile(cid, at)
                c.start = min(c.start, at)
        elif ph == "E":
            starts = self._open.get(key)
            if not starts:
                return  # an end without its begin: recording started later
            start = starts.pop()
            _cs.span_complete(_cs.CAT_PHASE, name, start, max(at - start, 0), self._track)
            if cid:
                _cs.span_arg("compile_id", cid)
            self.records += 1

    def _cache(self, cid, frame, ts, label, state, art):
        if state == "bypass":
            _cs.span_complete(_cs.CAT_OTHER, label + " bypass", ts, 0, self._track)
            _cs.span_arg("jit_event", "cache_bypass")
            _cs.span_arg("cache", label)
            reason = art.get("cache_bypass_reason")
            _cs.span_arg("reason", reason if isinstance(reason, str) else "(no reason logged)")
            if cid:
                _cs.span_arg("compile_id", cid)
            self.records += 1
            return
        key = art.get("key") if isinstance(art.get("key"), str) else ""
        listed = art.get("components") if isinstance(art.get("components"), list) else []
        parts = [p for p in map(_component, listed) if p]
        if parts:
            comps = [(name, _role(name), h, _short_value(h, value)) for h, name, value in parts]
        else:
            comps = [("key", _cs.ROLE_OTHER, key, key)]
        taken = _integer(art.get("time_taken_ns"))
        _cs.cache_lookup(label + " (persistent)", "frame %d" % frame if frame >= 0 else "frame ?",
                         _cs.VERDICT_HIT if state == "hit" else _cs.VERDICT_MISS, key=comps, handle=cid or key,
                         compile_ns=taken if state == "miss" else None, ts_ns=ts, track_id=self._track)
        self.records += 1

    def _note_guards(self, c):
        """A compile that produced an entry, keyed by its guards (torch_trace_builder.h)."""
        if c.end is None or c.restarted or c.failed:
            return
        us = c.id.rfind("_")
        handle = c.id[:us] if us > c.id.rfind("/") else c.id
        f = self._guard_frames.setdefault(_frame_of(handle), [c.program or c.name, [], {}, []])
        f[1].append((handle, c.start))
        for reason in c.guard_failures:
            entry, subject, expected, actual, role = _guard_failure(reason)
            if entry is None:
                continue
            if subject not in [s for s, _ in f[3]]:
                f[3].append((subject, role))
            stated = bool(expected or actual)
            if expected or not stated:
                f[2].setdefault(entry, {}).setdefault(subject, expected if stated else "held")
            if actual or not stated:
                f[2].setdefault(handle, {})[subject] = actual if stated else "failed"

    def _write_guard_lookups(self):
        for program, entries, values, subjects in self._guard_frames.values():
            if not subjects:
                continue
            for handle, ts in entries:
                comps = []
                for subject, role in subjects:
                    v = values.get(handle, {}).get(subject, "(not logged at %s)" % handle)
                    comps.append((subject, role, v, v))
                _cs.cache_lookup("torch dynamo", program, _cs.VERDICT_MISS, key=comps, handle=handle, ts_ns=ts,
                                 track_id=self._track)
                self.records += 1
        self._guard_frames.clear()

    def _write_compile(self, c, last):
        self._note_guards(c)
        end = c.end if c.end is not None else max(last, c.start)
        _cs.span_complete(_cs.CAT_COMPILE, c.name, c.start, max(end - c.start, 0), self._track)
        _cs.span_arg("compile_id", c.id)
        _cs.span_arg("status", "incomplete" if c.end is None else "restarted" if c.restarted else
                     "failed" if c.failed else "ok")
        if c.end is None:
            _cs.span_arg("jit_event", "compile_incomplete")
        if c.stack:
            _cs.span_arg("stack", c.stack)
        for i, reason in enumerate(c.guard_failures):
            _cs.span_arg("guard failure %d" % (i + 1), reason)
        if c.graph_break:
            _cs.span_arg("graph_break", c.graph_break)
        limit = _after(c.fail_reason, "Limit type: ", " \n")
        if limit:
            _cs.span_arg("jit_event", "recompile_limit")
            _cs.span_arg("limit", limit)
            m = re.match(r"\d+", _after(c.fail_reason, "(currently set to ", ")"))
            _cs.span_arg("limit_value", int(m.group(0)) if m else 0)
            _cs.span_arg("function", c.name)
            _cs.span_arg("last_reason", c.guard_failures[0] if c.guard_failures else "")
        for k, v in c.metrics:
            # Integers stay integers; other numbers and lists are text, as the importer stores them.
            _cs.span_arg(k, v if _integer(v) is not None and not isinstance(v, float) else _text(v))
        self.records += 1

    def finish(self):
        """Writes what is still open (a process ending mid-compile): status incomplete."""
        with self._lock:
            if not _cs.enabled():
                return
            now = _cs.now_ns()
            for c in list(self._compiles.values()):
                self._write_compile(c, now)
            self._compiles.clear()
            for (cid, name), starts in self._open.items():
                for start in starts:
                    _cs.span_complete(_cs.CAT_PHASE, name, start, max(now - start, 0), self._track)
                    if cid:
                        _cs.span_arg("compile_id", cid)
                    _cs.span_arg("status", "incomplete")
            self._open.clear()
            self._write_guard_lookups()


def install(trace_logger=None):
    """Starts recording (joins `compilescope record` or $COMPILESCOPE_OUTPUT) and adds the handler to
    torch's structured-trace logger. Returns True when installed; False when this torch has no
    structured trace (before 2.2) or torch is not importable. Idempotent. `trace_logger` is for tests:
    a logger that receives records shaped as torch's."""
    global _handler
    if _handler is not None:
        return True
    if trace_logger is None:
        try:
            from torch._logging._internal import trace_log as trace_logger
        except Exception:
            return False
    _cs.start("torch")
    handler = _TraceHandler()
    trace_logger.addHandler(handler)
    trace_logger.setLevel(logging.DEBUG)  # torch keeps it at DEBUG; a test logger must be too
    _handler = (trace_logger, handler)
    atexit.register(_finish)
    return True


def _finish():
    if _handler is not None:
        _handler[1].finish()


def installed():
    return _handler is not None


def uninstall():
    """Writes what is open and removes the handler."""
    global _handler
    if _handler is not None:
        logger, handler = _handler
        handler.finish()
        logger.removeHandler(handler)
        _handler = None

