#include "core/ingest/torch/torch_trace_builder.h"

#include "core/formats/torch_recompile_lines.h"
#include "core/util/saturating.h"
#include "core/util/utf8.h"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace cs::ingest::torch {

namespace {
// "TensorMetadata(dtype=torch.float32, shape=torch.Size([2, 2]), stride=(2, 1), ...)" -> "float32[2, 2]
// stride (2, 1)": what moves between two lookups of a recompiling frame; "" when not in that shape.
std::string tensorSummary(const std::string& v) {
    if (v.rfind("TensorMetadata(", 0) != 0) return {};
    auto field = [&](const std::string& key, char open, char close) -> std::string {
        auto at = v.find(key);
        if (at == std::string::npos) return {};
        auto from = v.find(open, at + key.size());
        auto to = from == std::string::npos ? from : v.find(close, from);
        return to == std::string::npos ? std::string() : v.substr(from, to - from + 1);
    };
    std::string dtype;
    if (auto at = v.find("dtype=torch."); at != std::string::npos) dtype = v.substr(at + 12, v.find(',', at) - at - 12);
    auto shape = field("shape=torch.Size(", '[', ']');
    auto stride = field("stride=", '(', ')');
    if (dtype.empty() || shape.empty()) return {};
    return dtype + shape + (stride.empty() ? "" : " stride " + stride);
}

std::string shortValue(const CacheComponent& c) {
    if (auto t = tensorSummary(c.value); !t.empty()) return t + " [" + c.hash.substr(0, 10) + "]";
    // Values can be a whole graph module: keep the first line, and the component's own hash so two
    // values that print alike but differ later are still told apart.
    auto nl = c.value.find('\n');
    std::string first = c.value.substr(0, nl);
    bool cut = nl != std::string::npos || first.size() > 160;
    if (first.size() > 160) first = std::string(util::utf8Prefix(first, 160));
    if (!cut) return first;
    return first + "... [" + c.hash.substr(0, 10) + "]";
}

int roleOf(const std::string& name) {
    if (name.rfind("example_inputs", 0) == 0 || name.rfind("inputs_to_check", 0) == 0) return CS_ROLE_SHAPE;
    if (name == "gm") return CS_ROLE_FUNCTION;
    if (name.rfind("inductor_config", 0) == 0 || name.rfind("fx_kwargs", 0) == 0 || name.find("settings") != std::string::npos ||
        name.rfind("aot_config", 0) == 0)
        return CS_ROLE_OPTION;
    return CS_ROLE_OTHER;
}

std::string text(const util::JsonValue& v) {
    if (v.isString() || v.isNumber()) return v.str;
    if (v.type == util::JsonValue::Type::Bool) return v.boolean ? "true" : "false";
    if (v.isArray()) {
        std::string out;
        for (const auto& i : v.items) out += (out.empty() ? "" : "; ") + text(i);
        return out;
    }
    return {};
}

// "0/1_2" -> "0/1_1", "0/1_1" -> "0/1", "!3/0/1_1" -> "!3/0/1"; "" for a first attempt.
std::string previousAttempt(const std::string& id) {
    auto slash = id.rfind('/');
    auto us = id.rfind('_');
    if (slash == std::string::npos || us == std::string::npos || us < slash) return {};
    long long n = 0;
    for (char ch : id.substr(us + 1)) {
        if (ch < '0' || ch > '9' || n > 1000000) return {};
        n = n * 10 + (ch - '0');
    }
    if (n < 1 || us + 1 == id.size()) return {};
    return n == 1 ? id.substr(0, us) : id.substr(0, us + 1) + std::to_string(n - 1);
}

// The frame part of a compile id: "0/1_1" -> "0", "!3/0/1" -> "!3/0".
std::string frameOf(const std::string& id) {
    auto slash = id.rfind('/');
    return slash == std::string::npos ? std::string() : id.substr(0, slash);
}

// "Limit type: recompile_limit" and "(currently set to 2)" in the fail_reason of a limit hit.
std::string after(const std::string& s, const std::string& key, const std::string& stops) {
    auto at = s.find(key);
    if (at == std::string::npos) return {};
    at += key.size();
    return s.substr(at, s.find_first_of(stops, at) - at);
}
}  // namespace

TraceBuilder::TraceBuilder(ImportContext& ctx) : m_ctx(ctx) {
    auto& w = ctx.writer;
    m_track = w.addTrack({.sessionId = ctx.sessionId, .kind = CS_TRACK_RUNTIME, .name = w.intern("torch compile")});
}

void TraceBuilder::internString(std::int64_t id, std::string s) { m_strings[id] = std::move(s); }

TraceBuilder::Compile& TraceBuilder::compile(const std::string& id, std::int64_t tsNs) {
    auto it = m_compiles.find(id);
    if (it == m_compiles.end()) {
        // A new attempt of a compile ends the one before it: dynamo restarted the analysis.
        if (auto prev = m_compiles.find(previousAttempt(id)); prev != m_compiles.end()) {
            prev->second.restarted = true;
            prev->second.endNs = std::max(tsNs, prev->second.startNs);
            writeCompile(prev->second, tsNs);
            m_compiles.erase(prev);
        }
        it = m_compiles.emplace(id, Compile{}).first;
        it->second.id = id;
        it->second.startNs = tsNs;
        if (auto n = m_frameNames.find(frameOf(id)); n != m_frameNames.end()) it->second.name = n->second;
    }
    return it->second;
}

void TraceBuilder::dynamoStart(const std::string& id, std::int64_t tsNs, const util::JsonValue& start) {
    auto& c = compile(id.empty() ? "?" : id, tsNs);
    c.startNs = std::min(c.startNs, tsNs);
    const auto* stack = start.get("stack");
    if (!stack || !stack->isArray()) return;
    c.stack.clear();
    for (const auto& frame : stack->items) {
        const auto* line = frame.get("line");
        const auto* name = frame.get("name");
        const auto* file = frame.get("filename");
        std::string f = "?";
        if (auto fileId = jsonInteger(file)) {
            auto s = m_strings.find(*fileId);
            f = s != m_strings.end() ? s->second : "<str " + file->str + ">";
        } else if (file && file->isString()) {
            f = file->str;
        }
        c.stack += (c.stack.empty() ? "" : "\n") + f + ":" + (line ? text(*line) : "?") + " in " + (name ? text(*name) : "?");
    }
    // Until compilation_metrics names the code (a restarted attempt never gets it): the innermost frame.
    if (c.name == "torch compile" && !stack->items.empty())
        if (const auto* name = stack->items.back().get("name"); name && name->isString() && !name->str.empty()) c.name = name->str;
}

void TraceBuilder::compilationMetrics(const std::string& id, std::int64_t tsNs, const util::JsonValue& metrics) {
    auto& c = compile(id.empty() ? "?" : id, tsNs);
    for (const auto& [k, v] : metrics.members) {
        // The configs are kilobytes of defaults (dynamo_config, and inductor_ / functorch_ / compiler_config
        // as JSON text since 2.6); compile_id is the envelope's without the attempt: ours is written.
        if (k == "compile_id" || k == "dynamo_config" || v.isNull() || v.isObject()) continue;
        if (k.size() > 7 && k.compare(k.size() - 7, 7, "_config") == 0 && (!v.isString() || v.str.rfind('{', 0) == 0)) continue;
        if (v.isArray() && v.items.empty()) continue;
        c.metrics.emplace_back(k, v);
        if (k == "co_name" && v.isString()) c.name = m_frameNames[frameOf(c.id)] = v.str;
        if (k == "fail_type") c.failed = true;
        if (k == "fail_reason" && v.isString()) c.failReason = v.str;
    }
    if (const auto* file = metrics.get("co_filename"); file && file->isString() && c.name != "torch compile")
        if (const auto* line = metrics.get("co_firstlineno"); line && line->isNumber())
            c.program = c.name + " (" + file->str + ":" + line->str + ")";
    c.endNs = tsNs;
    writeCompile(c, tsNs);
    m_compiles.erase(c.id);
}

void TraceBuilder::recompileReasons(const std::string& id, std::int64_t tsNs, const std::string& payload) {
    auto& c = compile(id.empty() ? "?" : id, tsNs);
    c.guardFailures.clear();
    try {
        auto v = util::parseJson(payload);
        if (v.isArray()) {
            for (const auto& i : v.items)
                if (i.isString()) c.guardFailures.push_back(i.str);
            return;
        }
        if (v.isString()) {
            c.guardFailures.push_back(v.str);
            return;
        }
    } catch (const std::exception&) {
        // One reason is written as its text, although the artifact says json.
    }
    if (!payload.empty()) c.guardFailures.push_back(payload);
}

void TraceBuilder::graphBreakReason(const std::string& id, std::int64_t tsNs, const std::string& payload) {
    auto& c = compile(id.empty() ? "?" : id, tsNs);
    // "Graph break in user code at f.py:5\nGraph Break Reason: ...\n\n<hints, traceback>": the first paragraph.
    c.graphBreak = payload.substr(0, payload.find("\n\n"));
}

std::int64_t TraceBuilder::chromiumNs(double tsUs, std::int64_t glogNs) {
    if (!std::isfinite(tsUs) || std::fabs(tsUs) > 9e15) return glogNs;
    auto ns = static_cast<std::int64_t>(std::llround(tsUs * 1000.0));
    if (!m_chromiumOffsetNs) m_chromiumOffsetNs = util::satSub(glogNs, ns);
    return util::satAdd(ns, *m_chromiumOffsetNs);
}

void TraceBuilder::chromiumEvent(const std::string& id, std::int64_t tsNs, const util::JsonValue& e) {
    const auto* name = e.get("name");
    const auto* ph = e.get("ph");
    const auto* ts = e.get("ts");
    if (!name || !name->isString() || !ph || !ph->isString()) return;
    std::string cid = id;
    if (const auto* args = e.get("args"); args && args->isObject())
        if (const auto* c = args->get("compile_id"); c && c->isString()) cid = c->str;
    const std::int64_t at = ts && ts->isNumber() ? chromiumNs(ts->num, tsNs) : tsNs;
    const std::string key = cid + '\x1f' + name->str;
    auto& w = m_ctx.writer;
    if (ph->str == "B") {
        m_open[key].push_back({name->str, at});
        if (!cid.empty() && (name->str == "dynamo" || name->str == "entire_frame_compile")) {
            auto& c = compile(cid, at);
            c.startNs = std::min(c.startNs, at);
        }
    } else if (ph->str == "E") {
        auto it = m_open.find(key);
        if (it == m_open.end() || it->second.empty()) return;  // an end without its begin: the log started later
        auto p = it->second.back();
        it->second.pop_back();
        auto span = w.addSpan({.trackId = m_track, .startNs = p.startNs, .durNs = std::max<std::int64_t>(util::satSub(at, p.startNs), 0),
                               .category = CS_CAT_PHASE, .name = w.intern(p.name)});
        if (!cid.empty()) w.addSpanArg(span, w.intern("compile_id"), std::string_view(cid));
        ++m_records;
    }
}

void TraceBuilder::cacheArtifact(const std::string& id, std::int64_t frame, std::int64_t tsNs, const CacheArtifact& a) {
    auto& w = m_ctx.writer;
    if (a.state == "bypass") {
        auto span = w.addSpan({.trackId = m_track, .startNs = tsNs, .durNs = 0, .category = CS_CAT_OTHER,
                               .name = w.intern(a.label + " bypass")});
        w.addSpanArg(span, w.intern("jit_event"), std::string_view("cache_bypass"));
        w.addSpanArg(span, w.intern("cache"), std::string_view(a.label));
        w.addSpanArg(span, w.intern("reason"), std::string_view(a.bypassReason.empty() ? "(no reason logged)" : a.bypassReason));
        if (!id.empty()) w.addSpanArg(span, w.intern("compile_id"), std::string_view(id));
        ++m_records;
        return;
    }
    // One key family per cache and frame: the lookups a frame's compiles make of one cache.
    auto lookup = w.addCacheLookup({.sessionId = m_ctx.sessionId, .trackId = m_track, .tsNs = tsNs, .cache = w.intern(a.cache),
                                    .program = w.intern(frame >= 0 ? "frame " + std::to_string(frame) : std::string("frame ?")),
                                    .handle = w.intern(id.empty() ? a.key : id),
                                    .verdict = a.state == "hit" ? CS_VERDICT_HIT : CS_VERDICT_MISS,
                                    .compileNs = a.state == "miss" ? a.timeTakenNs : std::nullopt});
    ++m_records;
    std::int64_t ordinal = 0;
    if (a.components.empty()) {
        w.addKeyComponent({.lookupId = lookup, .ordinal = 0, .name = w.intern("key"), .role = CS_ROLE_OTHER,
                           .digest = w.intern(a.key), .value = w.intern(a.key)});
        return;
    }
    for (const auto& c : a.components)
        w.addKeyComponent({.lookupId = lookup, .ordinal = ordinal++, .name = w.intern(c.name), .role = roleOf(c.name),
                           .digest = w.intern(c.hash), .value = w.intern(shortValue(c))});
}

void TraceBuilder::noteGuards(const Compile& c) {
    if (!c.endNs || c.restarted || c.failed) return;  // only compiles that produced a cache entry
    auto us = c.id.rfind('_');
    const std::string handle = us != std::string::npos && us > c.id.rfind('/') ? c.id.substr(0, us) : c.id;
    const std::string frame = frameOf(handle);
    auto [it, fresh] = m_guardFrames.try_emplace(frame);
    if (fresh) m_guardOrder.push_back(frame);
    auto& f = it->second;
    if (f.program.empty()) f.program = c.program.empty() ? c.name : c.program;
    f.entries.emplace_back(handle, c.startNs);
    for (const auto& reason : c.guardFailures) {
        auto g = parseGuardFailure(reason);
        if (!g.entry) continue;
        if (std::find_if(f.subjects.begin(), f.subjects.end(), [&](const auto& s) { return s.first == g.subject; }) == f.subjects.end())
            f.subjects.emplace_back(g.subject, g.role);
        // A guard that states no values held on the entry and fails now (as torch_recompiles_importer.cpp).
        const bool stated = !g.expected.empty() || !g.actual.empty();
        if (!g.expected.empty() || !stated) f.values[*g.entry].emplace(g.subject, stated ? g.expected : "held");
        if (!g.actual.empty() || !stated) f.values[handle][g.subject] = stated ? g.actual : "failed";
    }
}

void TraceBuilder::writeCompile(const Compile& c, std::int64_t lastNs) {
    noteGuards(c);
    auto& w = m_ctx.writer;
    const bool incomplete = !c.endNs;
    const std::int64_t end = c.endNs.value_or(std::max(lastNs, c.startNs));
    auto span = w.addSpan({.trackId = m_track, .startNs = c.startNs, .durNs = std::max<std::int64_t>(util::satSub(end, c.startNs), 0), .category = CS_CAT_COMPILE,
                           .name = w.intern(c.name)});
    w.addSpanArg(span, w.intern("compile_id"), std::string_view(c.id));
    w.addSpanArg(span, w.intern("status"), std::string_view(incomplete ? "incomplete" : c.restarted ? "restarted" : c.failed ? "failed" : "ok"));
    if (incomplete) w.addSpanArg(span, w.intern("jit_event"), std::string_view("compile_incomplete"));
    if (!c.stack.empty()) w.addSpanArg(span, w.intern("stack"), std::string_view(c.stack));
    for (size_t i = 0; i < c.guardFailures.size(); ++i)
        w.addSpanArg(span, w.intern("guard failure " + std::to_string(i + 1)), std::string_view(c.guardFailures[i]));
    if (!c.graphBreak.empty()) w.addSpanArg(span, w.intern("graph_break"), std::string_view(c.graphBreak));
    if (auto limit = after(c.failReason, "Limit type: ", " \n"); !limit.empty()) {
        w.addSpanArg(span, w.intern("jit_event"), std::string_view("recompile_limit"));
        w.addSpanArg(span, w.intern("limit"), std::string_view(limit));
        std::int64_t value = 0;
        auto digits = after(c.failReason, "(currently set to ", ")");
        std::from_chars(digits.data(), digits.data() + digits.size(), value);
        w.addSpanArg(span, w.intern("limit_value"), value);
        w.addSpanArg(span, w.intern("function"), std::string_view(c.name));
        w.addSpanArg(span, w.intern("last_reason"), std::string_view(c.guardFailures.empty() ? "" : c.guardFailures.front()));
    }
    for (const auto& [k, v] : c.metrics) {
        if (auto i = jsonInteger(&v); i && v.str.find_first_of(".eE") == std::string::npos)
            w.addSpanArg(span, w.intern(k), *i);
        else if (v.isNumber())
            w.addSpanArg(span, w.intern(k), v.num);
        else
            w.addSpanArg(span, w.intern(k), std::string_view(text(v)));
    }
    ++m_records;
}

std::int64_t TraceBuilder::finish(std::int64_t lastNs) {
    for (const auto& [id, c] : m_compiles) writeCompile(c, lastNs);
    m_compiles.clear();
    auto& w = m_ctx.writer;
    for (const auto& [key, stack] : m_open) {
        for (const auto& p : stack) {
            auto span = w.addSpan({.trackId = m_track, .startNs = p.startNs, .durNs = std::max<std::int64_t>(util::satSub(lastNs, p.startNs), 0),
                                   .category = CS_CAT_PHASE, .name = w.intern(p.name)});
            auto cid = key.substr(0, key.find('\x1f'));
            if (!cid.empty()) w.addSpanArg(span, w.intern("compile_id"), std::string_view(cid));
            w.addSpanArg(span, w.intern("status"), std::string_view("incomplete"));
            ++m_records;
        }
    }
    m_open.clear();
    const auto cache = w.intern("torch dynamo");
    for (const auto& frame : m_guardOrder) {
        const auto& f = m_guardFrames[frame];
        if (f.subjects.empty()) continue;  // never recompiled: nothing to key
        const auto program = w.intern(f.program);
        for (const auto& [handle, ts] : f.entries) {
            auto lookup = w.addCacheLookup({.sessionId = m_ctx.sessionId, .trackId = m_track, .tsNs = ts, .cache = cache,
                                            .program = program, .handle = w.intern(handle), .verdict = CS_VERDICT_MISS});
            ++m_records;
            std::int64_t ordinal = 0;
            const auto values = f.values.find(handle);
            for (const auto& [subject, role] : f.subjects) {
                std::string value = "(not logged at " + handle + ")";
                if (values != f.values.end())
                    if (auto v = values->second.find(subject); v != values->second.end()) value = v->second;
                w.addKeyComponent({.lookupId = lookup, .ordinal = ordinal++, .name = w.intern(subject), .role = role,
                                   .digest = w.intern(value), .value = w.intern(value)});
            }
        }
    }
    m_guardFrames.clear();
    m_guardOrder.clear();
    return m_records;
}

}  // namespace cs::ingest::torch
