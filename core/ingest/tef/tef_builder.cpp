#include "core/ingest/tef/tef_builder.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <string_view>

namespace cs::ingest {

namespace {
constexpr size_t kMaxOpenFrames = 10000;  // per thread; deeper B nesting is counted as malformed

void appendId(std::string& key, const TefId& id) {
    if (!id.present) key += '0';
    else if (id.numeric) key += std::to_string(id.num);
    else {
        key += '"';
        key += id.text;
    }
}

std::string idText(const TefId& id) {
    if (!id.present) return "0";
    return id.numeric ? std::to_string(id.num) : id.text;
}

// Event names of clang -ftime-trace and nvcc / NVRTC -fdevice-time-trace (docs/formats.md 5.5, 6.2):
// events with these names and no `cat` are compiler phases.
bool isCompilerPhaseName(std::string_view n) {
    static constexpr std::array<std::string_view, 36> kNames = {
        "Source", "ParseClass", "ParseTemplate", "ParseDeclarationOrFunctionDefinition", "ParseFunctionDefinition",
        "InstantiateClass", "InstantiateFunction", "CodeGen Function", "DebugType", "DebugFunction",
        "DebugGlobalVariable", "PerformPendingInstantiations", "Frontend", "Backend", "OptModule", "OptFunction",
        "RunPass", "RunLoopPass", "CodeGenPasses", "ExecuteCompiler", "Optimizer", "Module to Object",
        "Scanning Function Body", "Processing Header File", "Instantiating Template Function/Class",
        "CUDA C++ Front-End", "NVVM Optimizer", "NVVM CodeGen", "LibNVVM", "Phase I", "Phase II",
        "Total PTXAS Time", "PTX parsing and setup time", "Optimizing compilation unit", "Post processing",
        "ptxas"};
    if (n.starts_with("Total ")) return true;  // clang's per-name totals
    return std::find(kNames.begin(), kNames.end(), n) != kNames.end();
}

// `cat` is a comma-separated list of free words; a few common ones map onto our categories.
int categoryFromCat(std::string_view cat) {
    struct Word {
        std::string_view word;
        int category;
    };
    // The last three are our own category names, which `compilescope export --format tef` writes.
    static constexpr std::array<Word, 16> kWords = {{{"compile", CS_CAT_COMPILE}, {"compiler", CS_CAT_COMPILE},
                                                     {"jit", CS_CAT_COMPILE}, {"link", CS_CAT_LINK},
                                                     {"gc", CS_CAT_GC}, {"launch", CS_CAT_LAUNCH},
                                                     {"kernel", CS_CAT_LAUNCH}, {"import", CS_CAT_IMPORT},
                                                     {"init", CS_CAT_INIT}, {"step", CS_CAT_STEP},
                                                     {"codegen", CS_CAT_CODEGEN}, {"inference", CS_CAT_INFERENCE},
                                                     {"phase", CS_CAT_PHASE}, {"cache-load", CS_CAT_CACHE_LOAD},
                                                     {"module-load", CS_CAT_MODULE_LOAD}, {"other", CS_CAT_OTHER}}};
    while (!cat.empty()) {
        size_t comma = cat.find(',');
        std::string_view w = cat.substr(0, comma);
        while (!w.empty() && w.front() == ' ') w.remove_prefix(1);
        while (!w.empty() && w.back() == ' ') w.remove_suffix(1);
        for (const Word& k : kWords) {
            if (w.size() != k.word.size()) continue;
            bool eq = true;
            for (size_t i = 0; i < w.size() && eq; ++i)
                eq = (w[i] | 0x20) == k.word[i];
            if (eq) return k.category;
        }
        if (comma == std::string_view::npos) break;
        cat.remove_prefix(comma + 1);
    }
    return -1;
}

bool toNs(double us, std::int64_t& ns) {
    double v = us * 1000.0;
    if (!std::isfinite(v) || v > 9.0e18 || v < -9.0e18) return false;
    ns = std::llround(v);
    return true;
}
}  // namespace

TefBuilder::TefBuilder(ImportContext& ctx, ImportSummary& summary, std::string_view source)
    : m_ctx(ctx), m_summary(summary), m_source(source), m_flows(ctx.writer) {
    m_catKey = ctx.writer.intern("cat");
    m_scopeKey = ctx.writer.intern("scope");
}

void TefBuilder::malformed(EventPos where, std::string_view why) {
    m_ctx.malformed(where.text(), why, m_source);
    ++m_summary.malformed;
}

void TefBuilder::covered(std::int64_t startNs, std::int64_t endNs) {
    if (!m_anyTime) {
        m_summary.firstNs = startNs;
        m_summary.lastNs = endNs;
        m_anyTime = true;
        return;
    }
    m_summary.firstNs = std::min(m_summary.firstNs, startNs);
    m_summary.lastNs = std::max(m_summary.lastNs, endNs);
}

TefBuilder::Process& TefBuilder::process(const TefEvent& ev) {
    m_key.clear();
    appendId(m_key, ev.pid);
    auto it = m_processes.find(m_key);
    if (it != m_processes.end()) return it->second;
    auto& w = m_ctx.writer;
    Process p;
    p.trackId = w.addTrack({.sessionId = m_ctx.sessionId,
                            .kind = CS_TRACK_PROCESS,
                            .tid = ev.pid.numeric && ev.pid.present ? trace::OptInt(ev.pid.num) : std::nullopt,
                            .name = w.intern("process " + idText(ev.pid))});
    return m_processes.emplace(m_key, p).first->second;
}

TefBuilder::Interned& TefBuilder::interned(std::string_view s) {
    auto it = m_interned.find(s);
    if (it == m_interned.end()) it = m_interned.emplace(std::string(s), Interned{m_ctx.writer.intern(s)}).first;
    return it->second;
}

TefBuilder::Track& TefBuilder::track(const TefEvent& ev) {
    // Fast path: integer pid / tid, the usual case, without building a key string.
    const bool numeric = (!ev.pid.present || ev.pid.numeric) && (!ev.tid.present || ev.tid.numeric);
    const std::pair<std::int64_t, std::int64_t> numKey{ev.pid.present ? ev.pid.num : 0, ev.tid.present ? ev.tid.num : 0};
    if (numeric) {
        auto hit = m_numericTracks.find(numKey);
        if (hit != m_numericTracks.end()) return *hit->second;
    }
    m_key.clear();
    appendId(m_key, ev.pid);
    m_key += '/';
    appendId(m_key, ev.tid);
    auto it = m_tracks.find(m_key);
    if (it == m_tracks.end()) {
        std::string key = m_key;
        std::int64_t parent = process(ev).trackId;  // reuses m_key
        auto& w = m_ctx.writer;
        Track t;
        t.id = w.addTrack({.sessionId = m_ctx.sessionId,
                           .kind = CS_TRACK_THREAD,
                           .tid = ev.tid.numeric && ev.tid.present ? trace::OptInt(ev.tid.num) : std::nullopt,
                           .name = w.intern("thread " + idText(ev.tid)),
                           .parentTrackId = parent});
        t.local = m_nextLocal++;
        it = m_tracks.emplace(key, std::move(t)).first;
    }
    if (numeric) m_numericTracks.emplace(numKey, &it->second);
    return it->second;
}

TefBuilder::Track& TefBuilder::asyncTrack(const TefEvent& ev) {
    std::string key;
    appendId(key, ev.pid);
    key += '/';
    key += ev.name;
    auto it = m_asyncTracks.find(key);
    if (it != m_asyncTracks.end()) return it->second;
    std::int64_t parent = process(ev).trackId;
    auto& w = m_ctx.writer;
    Track t;
    t.id = w.addTrack({.sessionId = m_ctx.sessionId,
                       .kind = CS_TRACK_RUNTIME,
                       .name = w.intern("async " + ev.name),
                       .parentTrackId = parent});
    t.local = m_nextLocal++;
    return m_asyncTracks.emplace(key, std::move(t)).first->second;
}

int TefBuilder::category(const std::string& cat, const std::string& name) {
    if (!cat.empty()) {
        int c = categoryFromCat(cat);
        if (c >= 0) return c;
    }
    if (m_compilerTrace) return CS_CAT_PHASE;
    if (name.empty()) return CS_CAT_OTHER;
    Interned& n = interned(name);
    if (n.nameCategory < 0) n.nameCategory = isCompilerPhaseName(name) ? CS_CAT_PHASE : CS_CAT_OTHER;
    return n.nameCategory;
}

std::int64_t TefBuilder::writeSpan(Track& t, const std::string& name, const std::string& cat, std::int64_t startNs,
                                   std::optional<std::int64_t> durNs, const TefArg* args, size_t argCount) {
    auto& w = m_ctx.writer;
    // args.detail (clang, nvcc, NVRTC: the file, function or pass a phase worked on) is the span's
    // detail column: one interned id instead of an argument row with the text.
    size_t detailArg = argCount;
    for (size_t i = 0; i < argCount && detailArg == argCount; ++i)
        if (args[i].kind == TefArg::Kind::Text && args[i].key == "detail") detailArg = i;
    std::int64_t span = w.addSpan({.trackId = t.id,
                                   .startNs = startNs,
                                   .durNs = durNs,
                                   .category = category(cat, name),
                                   .name = intern(name),
                                   .detail = detailArg < argCount ? w.intern(args[detailArg].s) : 0});
    if (!cat.empty()) w.addSpanArg(span, m_catKey, std::string_view(cat));
    for (size_t i = 0; i < argCount; ++i) {
        if (i == detailArg) continue;
        const TefArg& a = args[i];
        auto key = intern(a.key);
        switch (a.kind) {
        case TefArg::Kind::Int: w.addSpanArg(span, key, a.i); break;
        case TefArg::Kind::Real: w.addSpanArg(span, key, a.d); break;
        case TefArg::Kind::Text: w.addSpanArg(span, key, std::string_view(a.s)); break;
        }
    }
    ++m_summary.records;
    // Callers clamp durNs so that start + dur fits; saturate anyway, this is the last line of defence.
    const std::int64_t endNs = util::satAdd(startNs, durNs.value_or(0));
    covered(startNs, endNs);
    if (durNs) m_flows.onSlice(t.local, span, startNs, endNs);
    return span;
}

std::int64_t TefBuilder::clampDuration(std::int64_t startNs, std::int64_t durNs, EventPos where) {
    if (util::checkedAdd(startNs, durNs)) return durNs;
    // The end lies past the int64 nanosecond range (about 292 years): keep the span, end it at the
    // limit, and count it; wrapping would put the end before the start.
    ++m_clamped;
    if (m_clampedExample.empty())
        m_clampedExample = m_ctx.sourceName + " " + where.text() + ": end beyond the int64 ns range; clamped";
    return util::kInt64Max - startNs;
}

std::optional<std::int64_t> TefBuilder::duration(std::int64_t startNs, std::int64_t endNs, EventPos where) {
    if (auto d = util::checkedSub(endNs, startNs)) return d;
    // B and E (or b and e) further apart than int64 nanoseconds: clamp, count.
    ++m_clamped;
    if (m_clampedExample.empty())
        m_clampedExample = m_ctx.sourceName + " " + where.text() + ": begin and end further apart than the int64 ns range; clamped";
    return util::kInt64Max;  // only reachable with startNs < 0, so startNs + max still fits
}

bool TefBuilder::timestamp(const TefEvent& ev, EventPos where, std::int64_t& ns) {
    if (!ev.hasTs) {
        malformed(where, "\"" + ev.ph + "\" event without \"ts\"");
        return false;
    }
    if (!toNs(ev.ts, ns)) {
        malformed(where, "\"ts\" out of range");
        return false;
    }
    auto placed = util::checkedAdd(ns, m_originNs);
    if (!placed) {
        malformed(where, "\"ts\" plus \"beginningOfTime\" out of range");
        return false;
    }
    ns = *placed;
    return true;
}

// clang's "Total <name>" events (one per event name, on a thread of their own, ts 0, args count and
// "avg ms") summarise the file's other events: each is the time spent in <name>, nested repeats
// counted once. Drawn as spans they made one lane per name and summed with the spans they summarise
// (the issue measured 2960 s of "phases" for 240 s of compiling). They are per-file phase totals:
// phase_timings rows of tool clang, without a start, which no compile figure adds up.
bool TefBuilder::summaryTotal(const TefEvent& ev, std::int64_t durNs) {
    if (!ev.name.starts_with("Total ") || ev.name.size() == 6) return false;
    bool counted = m_originNs != 0;  // a clang file: every "Total " event is one of these
    for (size_t i = 0; i < ev.argCount && !counted; ++i) counted = ev.args[i].key == "count";
    if (!counted) return false;
    auto& w = m_ctx.writer;
    std::string_view input = m_ctx.sourceName;
    if (input.ends_with(".json")) input.remove_suffix(5);
    w.addPhaseTiming({.sessionId = m_ctx.sessionId,
                      .tool = CS_PHASE_TOOL_CLANG,
                      .input = intern(input),
                      .phase = intern(std::string_view(ev.name).substr(6)),
                      .durNs = durNs});
    ++m_summary.records;
    return true;
}

void TefBuilder::complete(const TefEvent& ev, EventPos where) {
    std::int64_t start = 0, dur = 0;
    if (!timestamp(ev, where, start)) return;
    if (!ev.hasDur) return malformed(where, "\"X\" event without \"dur\"");
    if (!toNs(ev.dur, dur) || dur < 0) return malformed(where, "\"dur\" negative or out of range");
    if (summaryTotal(ev, dur)) return;
    dur = clampDuration(start, dur, where);
    std::int64_t span = writeSpan(track(ev), ev.name, ev.cat, start, dur, ev.args.data(), ev.argCount);
    if (ev.hasBindId) m_flows.onBindId(ev.bindId, span, ev.flowOut, ev.flowIn);
}

void TefBuilder::begin(const TefEvent& ev, EventPos where) {
    std::int64_t start = 0;
    if (!timestamp(ev, where, start)) return;
    Track& t = track(ev);
    if (t.open.size() >= kMaxOpenFrames) return malformed(where, "more than 10000 nested \"B\" events on one thread");
    t.open.push_back({ev.name, ev.cat, start,
                      std::vector<TefArg>(ev.args.begin(), ev.args.begin() + static_cast<std::ptrdiff_t>(ev.argCount)),
                      ev.bindId, ev.flowIn, ev.flowOut, ev.hasBindId});
}

void TefBuilder::end(const TefEvent& ev, EventPos where) {
    std::int64_t endNs = 0;
    if (!timestamp(ev, where, endNs)) return;
    Track& t = track(ev);
    if (t.open.empty()) return malformed(where, "\"E\" event without a matching \"B\"");
    Frame f = std::move(t.open.back());
    t.open.pop_back();
    if (endNs < f.startNs) return malformed(where, "\"E\" event earlier than its \"B\"");
    // E's args complete B's (the spec merges them).
    for (size_t i = 0; i < ev.argCount; ++i) f.args.push_back(ev.args[i]);
    std::int64_t span = writeSpan(t, f.name.empty() ? ev.name : f.name, f.cat, f.startNs, duration(f.startNs, endNs, where),
                                  f.args.data(), f.args.size());
    if (f.hasBindId) m_flows.onBindId(f.bindId, span, f.flowOut, f.flowIn);
    else if (ev.hasBindId) m_flows.onBindId(ev.bindId, span, ev.flowOut, ev.flowIn);
}

void TefBuilder::instant(const TefEvent& ev, EventPos where) {
    std::int64_t ts = 0;
    if (!timestamp(ev, where, ts)) return;
    std::int64_t span = writeSpan(track(ev), ev.name, ev.cat, ts, 0, ev.args.data(), ev.argCount);
    if (!ev.scope.empty()) m_ctx.writer.addSpanArg(span, m_scopeKey, std::string_view(ev.scope));
}

void TefBuilder::counter(const TefEvent& ev, EventPos where) {
    std::int64_t ts = 0;
    if (!timestamp(ev, where, ts)) return;
    auto& w = m_ctx.writer;
    std::string scope = ev.name;
    if (ev.hasId) scope += " " + ev.id;  // "ctr 1": counters with an id are separate series
    auto scopeId = intern(scope);
    size_t written = 0;
    for (size_t i = 0; i < ev.argCount; ++i) {
        const TefArg& a = ev.args[i];
        std::int64_t value = 0;
        if (a.kind == TefArg::Kind::Int) value = a.i;
        else if (a.kind == TefArg::Kind::Real) {
            if (!(std::fabs(a.d) < 9.0e18)) continue;
            value = std::llround(a.d);
            if (static_cast<double>(value) != a.d) ++m_rounded;
        } else {
            continue;
        }
        w.addCounter({.sessionId = m_ctx.sessionId, .tsNs = ts, .scope = scopeId, .name = intern(a.key), .value = value});
        ++written;
    }
    if (written == 0) return malformed(where, "\"C\" event without numeric values in \"args\"");
    m_summary.records += static_cast<std::int64_t>(written);
    covered(ts, ts);
}

void TefBuilder::metadata(const TefEvent& ev, EventPos) {
    // process_name / thread_name rename tracks; sort indexes and labels only order a viewer's lanes.
    const TefArg* nameArg = nullptr;
    for (size_t i = 0; i < ev.argCount; ++i)
        if (ev.args[i].key == "name" && ev.args[i].kind == TefArg::Kind::Text) nameArg = &ev.args[i];
    if (!nameArg) return;
    auto& w = m_ctx.writer;
    if (ev.name == "process_name") {
        Process& p = process(ev);
        w.setTrackName(p.trackId, w.intern(nameArg->s));
        p.named = true;
    } else if (ev.name == "thread_name") {
        w.setTrackName(track(ev).id, w.intern(nameArg->s));
    }
}

void TefBuilder::flow(const TefEvent& ev, EventPos where) {
    std::int64_t ts = 0;
    if (!timestamp(ev, where, ts)) return;
    if (!ev.hasId) return malformed(where, "flow event \"" + ev.ph + "\" without \"id\"");
    char phase = ev.ph[0];
    bool enclosing = phase != 'f' || ev.bindPoint == "e";
    Track& t = track(ev);
    std::string key = ev.cat + '\x1f' + ev.id;
    auto name = intern(ev.name);
    if (!m_flows.onFlowEvent(t.local, phase, key, ts, enclosing, !t.open.empty(), name))
        malformed(where, "flow event \"" + ev.ph + "\" with id " + ev.id + " but no \"s\" before it");
}

void TefBuilder::async(const TefEvent& ev, EventPos where) {
    std::int64_t ts = 0;
    if (!timestamp(ev, where, ts)) return;
    if (!ev.hasId) return malformed(where, "async event \"" + ev.ph + "\" without \"id\"");
    std::string key;
    appendId(key, ev.pid);
    key += '\x1f' + ev.cat + '\x1f' + ev.id + '\x1f' + ev.name;
    char phase = ev.ph[0];
    if (phase == 'n') {
        writeSpan(asyncTrack(ev), ev.name, ev.cat, ts, 0, ev.args.data(), ev.argCount);
    } else if (phase == 'b') {
        m_openAsync[key] = Frame{ev.name, ev.cat, ts,
                                 std::vector<TefArg>(ev.args.begin(),
                                                     ev.args.begin() + static_cast<std::ptrdiff_t>(ev.argCount)),
                                 {}, false, false, false};
    } else {
        auto it = m_openAsync.find(key);
        if (it == m_openAsync.end()) return malformed(where, "async \"e\" with id " + ev.id + " without a matching \"b\"");
        Frame f = std::move(it->second);
        m_openAsync.erase(it);
        if (ts < f.startNs) return malformed(where, "async \"e\" earlier than its \"b\"");
        for (size_t i = 0; i < ev.argCount; ++i) f.args.push_back(ev.args[i]);
        writeSpan(asyncTrack(ev), f.name, f.cat, f.startNs, duration(f.startNs, ts, where), f.args.data(), f.args.size());
    }
}

void TefBuilder::add(const TefEvent& ev, EventPos where) {
    if (ev.keys == 0) return;  // the `{}` that nvcc and NVRTC write first: not an event
    if (!ev.problem.empty()) return malformed(where, ev.problem);
    if (ev.ph.empty()) return malformed(where, "event without \"ph\"");
    m_droppedArgs += static_cast<std::int64_t>(ev.droppedArgs);
    if (ev.ph.size() != 1) return malformed(where, "unknown phase \"" + ev.ph + "\"");
    switch (ev.ph[0]) {
    case 'X': return complete(ev, where);
    case 'B': return begin(ev, where);
    case 'E': return end(ev, where);
    case 'i':
    case 'I':
    case 'R': return instant(ev, where);
    case 'C': return counter(ev, where);
    case 'M': return metadata(ev, where);
    case 's':
    case 't':
    case 'f': return flow(ev, where);
    case 'b':
    case 'e':
    case 'n': return async(ev, where);
    // Known phases with no table here: legacy async, objects, samples, memory dumps, contexts, clock sync.
    case 'S': case 'T': case 'p': case 'F': case 'N': case 'O': case 'D': case 'P':
    case 'V': case 'v': case '(': case ')': case 'c':
        ++m_skipped;
        if (m_skippedExample.empty()) m_skippedExample = m_ctx.sourceName + " " + where.text() + ": phase \"" + ev.ph + "\"";
        return;
    default: return malformed(where, "unknown phase \"" + ev.ph + "\"");
    }
}

void TefBuilder::memberBeginningOfTime(bool number, double value, bool sawEvents, std::optional<std::int64_t>& origin) {
    const bool usable = number && value >= 1 && value < 9.0e15;
    if (usable && !sawEvents) {
        origin = static_cast<std::int64_t>(value) * 1000;
        setTimeOrigin(*origin);
        return;
    }
    m_ctx.malformed("\"beginningOfTime\"",
                    usable ? "came after the events and could not be read first; times kept relative"
                           : "is not a number of microseconds since the epoch (below 9e15); times kept relative",
                    m_source);
    ++m_summary.malformed;
}

void TefBuilder::finish() {
    auto& w = m_ctx.writer;
    std::int64_t unfinished = 0;
    auto close = [&](Track& t, Frame& f) {
        writeSpan(t, f.name, f.cat, f.startNs, std::nullopt, f.args.data(), f.args.size());
        ++unfinished;
    };
    for (auto& [key, t] : m_tracks) {
        for (Frame& f : t.open) close(t, f);
        t.open.clear();
    }
    for (auto& [key, f] : m_openAsync) {
        TefEvent ev;
        ev.name = f.name;
        // The async lane is keyed by pid and name; the pid is the key's first field.
        std::string pid = key.substr(0, key.find('\x1f'));
        ev.pid.present = true;
        ev.pid.numeric = !pid.empty() && pid[0] != '"';
        if (ev.pid.numeric) ev.pid.num = std::stoll(pid);
        else ev.pid.text = pid.substr(1);
        close(asyncTrack(ev), f);
    }
    m_openAsync.clear();
    if (unfinished)
        w.addStat(m_ctx.sessionId, "unfinished_slice", m_source, unfinished,
                  m_ctx.sourceName + ": \"B\" / \"b\" events without an end; kept with NULL dur_ns");
    if (auto n = m_flows.unbound())
        w.addStat(m_ctx.sessionId, "unbound_flow", m_source, n,
                  m_ctx.sourceName + ": flow endpoints with no slice to bind to");
    if (m_skipped) w.addStat(m_ctx.sessionId, "skipped_event", m_source, m_skipped, m_skippedExample);
    if (m_droppedArgs)
        w.addStat(m_ctx.sessionId, "dropped_arg", m_source, m_droppedArgs,
                  m_ctx.sourceName + ": arguments beyond 512 per event");
    if (m_clamped) w.addStat(m_ctx.sessionId, "clamped_time", m_source, m_clamped, m_clampedExample);
    if (m_rounded)
        w.addStat(m_ctx.sessionId, "rounded_counter_value", m_source, m_rounded,
                  m_ctx.sourceName + ": fractional \"C\" values stored rounded to integers");
    m_summary.records += m_flows.flowsWritten();
}

}  // namespace cs::ingest
