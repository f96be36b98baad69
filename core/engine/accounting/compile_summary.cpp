#include "core/engine/accounting/compile_summary.h"

#include "core/engine/timeline/timeline_data.h"
#include "core/engine/common/analysis_counters.h"
#include "core/engine/accounting/session_clocks.h"
#include "core/engine/accounting/session_labels.h"
#include "core/trace/reader.h"
#include "core/trace/row.h"
#include "core/trace/table_readers.h"
#include "core/util/saturating.h"

#include <compilescope/trace_constants.h>

#include <algorithm>
#include <functional>
#include <iterator>
#include <map>
#include <queue>

namespace cs::engine {

std::optional<double> CompileSummary::compileShare() const {
    if (!wallClock || wallNs <= 0) return std::nullopt;
    return static_cast<double>(clockedCompileNs) / static_cast<double>(wallNs);
}

std::optional<double> CompileSummary::recompileShare() const {
    if (reportedCompileNs <= 0) return std::nullopt;
    return static_cast<double>(recompileNs) / static_cast<double>(reportedCompileNs);
}

int CompileSummary::sessionsOf(TimeBase base) const {
    int n = 0;
    for (const auto& s : sessions) n += s.base == base;
    return n;
}

namespace {

using trace::colInt;
using trace::colOpt;

struct Interval {
    std::int64_t start, end;
};

// Length of the union of intervals that arrive in start order: O(1) memory and time per interval.
class UnionLength {
public:
    void add(std::int64_t start, std::int64_t end) {
        if (m_open && start <= m_end) {
            m_end = std::max(m_end, end);
            return;
        }
        if (m_open) m_total = util::satAdd(m_total, util::satSub(m_end, m_start));
        m_start = start;
        m_end = end;
        m_open = true;
    }
    std::int64_t length() const { return util::satAdd(m_total, m_open ? util::satSub(m_end, m_start) : 0); }

private:
    std::int64_t m_start = 0, m_end = 0, m_total = 0;
    bool m_open = false;
};

// What a fact counts toward, by the label it is summed under.
enum class Kind { Compile, CacheLoad };
struct Label {
    const char* name;
    Kind kind;
};
const Label kLabels[] = {{"compile", Kind::Compile},          {"inference", Kind::Compile},
                         {"codegen", Kind::Compile},          {"link", Kind::Compile},
                         {"compiler phase", Kind::Compile},   {"module build", Kind::Compile},
                         {"NVRTC", Kind::Compile},            {"nvJitLink", Kind::Compile},
                         {"driver JIT", Kind::Compile},       {"program compile", Kind::Compile},
                         {"Julia compile share", Kind::Compile}, {"cache load", Kind::CacheLoad},
                         {"cached module load", Kind::CacheLoad}, {"driver JIT cache load", Kind::CacheLoad}};
constexpr int kLabelCount = static_cast<int>(std::size(kLabels));
int labelIndex(std::string_view label) {
    for (int i = 0; i < kLabelCount; ++i)
        if (label == kLabels[i].name) return i;
    return -1;
}
// Span categories that are compile or cache-load work. A module-load span is neither: the
// module_loads row beside it says whether it compiled or came from the cache.
int categoryLabel(std::int64_t c) {
    switch (c) {
    case CS_CAT_COMPILE: return labelIndex("compile");
    case CS_CAT_CACHE_LOAD: return labelIndex("cache load");
    case CS_CAT_INFERENCE: return labelIndex("inference");
    case CS_CAT_CODEGEN: return labelIndex("codegen");
    case CS_CAT_LINK: return labelIndex("link");
    case CS_CAT_PHASE: return labelIndex("compiler phase");
    default: return -1;
    }
}

// A timed fact from a table other than spans.
struct OtherFact {
    std::size_t session;  // index into the sessions; == their count when unknown
    int label;
    Interval iv;
};

struct Extent {
    bool any = false;
    std::int64_t minStart = 0, maxEnd = 0;
    void add(std::int64_t lo, std::int64_t hi) {
        minStart = any ? std::min(minStart, lo) : lo;
        maxEnd = any ? std::max(maxEnd, hi) : hi;
        any = true;
    }
};

}  // namespace

struct CompileSummaryBuilder::Impl {
    const trace::TraceReader& reader;
    CompileSummary s;
    std::vector<std::int64_t> trackIds;      // sorted
    std::vector<std::size_t> trackSession;  // parallel to trackIds
    std::vector<OtherFact> others;          // sorted by start before the sweep
    std::vector<std::size_t> domainOf;      // per session (+1 for unknown sessions)
    std::size_t domains = 0;
    std::int64_t untimed[kLabelCount] = {}, items[kLabelCount] = {};
    std::int64_t untimedCompile = 0, untimedCacheLoad = 0;
    std::vector<std::int64_t> untimedSession;  // compile durations without timestamps, per session
    // Results of the sweep: one union per domain (all compile, all cache loads, each label), per session.
    std::vector<UnionLength> compileAll, cacheAll, byLabel, bySession;
    std::vector<Extent> extent;
    std::int64_t spans = 0;
    bool swept = false;

    explicit Impl(const trace::TraceReader& r) : reader(r) {}

    std::size_t sessionIndex(std::int64_t id) const {
        auto it = std::lower_bound(s.sessions.begin(), s.sessions.end(), id,
                                   [](const SessionSummary& a, std::int64_t v) { return a.id < v; });
        return it != s.sessions.end() && it->id == id ? static_cast<std::size_t>(it - s.sessions.begin()) : s.sessions.size();
    }
    // A duration printed as 0 (Julia's "#=    0.0 ms =#", an "@time" at 0 % compilation) is 0 ns,
    // recorded; only a missing or damaged one is "time not recorded" (docs/accounting.md).
    void timed(std::int64_t session, const char* label, std::int64_t start, std::optional<std::int64_t> dur) {
        int l = labelIndex(label);
        if (!dur || *dur < 0) {
            if (kLabels[l].kind == Kind::Compile) ++s.untimedCompiles;
            return;
        }
        if (*dur == 0) return;
        others.push_back({sessionIndex(session), l, {start, util::satAdd(start, *dur)}});  // an unknown session counts in totals only
        ++items[l];
    }
    void untimedFact(std::int64_t session, const char* label, std::optional<std::int64_t> dur) {
        int l = labelIndex(label);
        if (!dur || *dur < 0) {
            if (kLabels[l].kind == Kind::Compile) ++s.untimedCompiles;
            return;
        }
        if (*dur == 0) return;
        untimed[l] = util::satAdd(untimed[l], *dur);
        if (kLabels[l].kind == Kind::Compile) {
            untimedCompile = util::satAdd(untimedCompile, *dur);
            if (std::size_t si = sessionIndex(session); si < untimedSession.size())
                untimedSession[si] = util::satAdd(untimedSession[si], *dur);
        } else {
            untimedCacheLoad = util::satAdd(untimedCacheLoad, *dur);
        }
        ++items[l];
    }
    // One interval, in start order over the whole trace.
    void fold(std::size_t session, int label, std::int64_t start, std::int64_t end) {
        const std::size_t d = domainOf[std::min(session, s.sessions.size())];
        if (session < extent.size()) extent[session].add(start, end);
        (kLabels[label].kind == Kind::Compile ? compileAll : cacheAll)[d].add(start, end);
        byLabel[d * kLabelCount + static_cast<std::size_t>(label)].add(start, end);
        if (kLabels[label].kind == Kind::Compile && session < bySession.size()) bySession[session].add(start, end);
    }
    void assignDomains(const SessionClocks& clocks);
    void readOtherTables();
    std::int64_t phaseSpans = 0;  // category phase, as swept
    void sweep(const std::vector<std::int64_t>& ids, const std::vector<TrackSpans>& tracks);
};

// One domain per shared clock name, one per other session, one for facts of unknown sessions.
void CompileSummaryBuilder::Impl::assignDomains(const SessionClocks& clocks) {
    std::map<std::string, std::size_t> shared;
    domainOf.assign(s.sessions.size() + 1, 0);
    for (std::size_t i = 0; i < s.sessions.size(); ++i) {
        SessionSummary& ses = s.sessions[i];
        ses.offsetNs = clocks.offsetOf(ses.id);
        if (ses.base == TimeBase::Recorded) {
            auto [it, fresh] = shared.emplace(ses.clock, domains);
            if (fresh) ++domains;
            domainOf[i] = it->second;
        } else {
            domainOf[i] = domains++;
        }
    }
    domainOf[s.sessions.size()] = domains++;
    compileAll.assign(domains, {});
    cacheAll.assign(domains, {});
    byLabel.assign(domains * kLabelCount, {});
}

void CompileSummaryBuilder::Impl::readOtherTables() {
    // A module build's native compile time when logged, else the whole load if it compiled; a cached
    // load is cache-load time.
    reader.query("SELECT session_id, start_ns, result, compile_ns, dur_ns FROM module_loads", [&](const trace::Row& st) {
        const auto result = colInt(st, 2);
        const bool compiled = result == CS_MODULE_COMPILED, cached = result == CS_MODULE_CACHED;
        if (!compiled && !cached) return;
        const char* label = compiled ? "module build" : "cached module load";
        auto dur = compiled ? (colOpt(st, 3) ? colOpt(st, 3) : colOpt(st, 4)) : colOpt(st, 4);
        if (auto start = colOpt(st, 1)) timed(colInt(st, 0), label, *start, dur);
        else untimedFact(colInt(st, 0), label, dur);
    });
    reader.query("SELECT session_id, api, start_ns, dur_ns FROM cuda_programs", [&](const trace::Row& st) {
        timed(colInt(st, 0), colInt(st, 1) == CS_CUDA_NVJITLINK ? "nvJitLink" : "NVRTC", colInt(st, 2), colOpt(st, 3));
    });
    reader.query("SELECT session_id, start_ns, dur_ns, operation FROM cuda_jit WHERE operation IN (" +
                     std::to_string(CS_JIT_OP_COMPILE) + ", " + std::to_string(CS_JIT_OP_CACHE_LOAD) + ")",
                 [&](const trace::Row& st) {
                     const char* label = colInt(st, 3) == CS_JIT_OP_COMPILE ? "driver JIT" : "driver JIT cache load";
                     if (auto start = colOpt(st, 1)) timed(colInt(st, 0), label, *start, colOpt(st, 2));
                     else untimedFact(colInt(st, 0), label, colOpt(st, 2));
                 });
    // clang's per-file totals (tool clang) summarise the file's spans, which count already.
    reader.query("SELECT session_id, start_ns, dur_ns FROM phase_timings WHERE parent_id IS NULL AND tool <> " +
                     std::to_string(CS_PHASE_TOOL_CLANG),
                 [&](const trace::Row& st) {
                     if (auto start = colOpt(st, 1)) timed(colInt(st, 0), "compiler phase", *start, colOpt(st, 2));
                     else untimedFact(colInt(st, 0), "compiler phase", colOpt(st, 2));
                 });
    // A miss whose compile time the runtime reported: the compile runs from the lookup on. Where a
    // compile span covers the same time, the union counts it once.
    reader.query("SELECT session_id, ts_ns, compile_ns FROM cache_lookups WHERE verdict = " +
                     std::to_string(CS_VERDICT_MISS) + " AND compile_ns IS NOT NULL",
                 [&](const trace::Row& st) { timed(colInt(st, 0), "program compile", colInt(st, 1), colOpt(st, 2)); });
    // Julia's @time / @time_imports compile shares (span args written by the Julia timing importer),
    // placed at the start of the span that reported them.
    reader.query("SELECT t.session_id, s.start_ns, a.value, k.str FROM span_args a JOIN strings k ON k.id = a.key_sid "
                 "JOIN spans s ON s.id = a.span_id JOIN tracks t ON t.id = s.track_id "
                 "WHERE k.str IN ('compile_ns', 'recompile_ns') AND typeof(a.value) = 'integer'",
                 [&](const trace::Row& st) {
                     const std::int64_t v = std::max<std::int64_t>(colInt(st, 2), 0);
                     const std::string_view key = st.textView(3);
                     if (key == "recompile_ns") {
                         s.recompileNs = util::satAdd(s.recompileNs, v);
                         return;
                     }
                     s.reportedCompileNs = util::satAdd(s.reportedCompileNs, v);
                     timed(colInt(st, 0), "Julia compile share", colInt(st, 1), v);
                 });
    // A compile the log names without its time, written as an instant (arg untimed=1 on a 0 ns span:
    // TORCH_LOGS "Recompiling function"), is "time not recorded" too.
    reader.query("SELECT count(*) FROM span_args a JOIN strings k ON k.id = a.key_sid JOIN spans s ON s.id = a.span_id "
                 "WHERE k.str = 'untimed' AND s.dur_ns IS NOT NULL AND s.category = " + std::to_string(CS_CAT_COMPILE),
                 [&](const trace::Row& st) { s.untimedCompiles = util::satAdd(s.untimedCompiles, colInt(st, 0)); });
    std::sort(others.begin(), others.end(), [](const OtherFact& a, const OtherFact& b) { return a.iv.start < b.iv.start; });
}

// Every track's spans (each part of each track is sorted) and the other facts, merged by start.
void CompileSummaryBuilder::Impl::sweep(const std::vector<std::int64_t>& ids, const std::vector<TrackSpans>& tracks) {
    std::vector<std::size_t> sessionOf(tracks.size(), s.sessions.size());
    for (std::size_t t = 0; t < tracks.size() && t < ids.size(); ++t) {
        auto it = std::lower_bound(trackIds.begin(), trackIds.end(), ids[t]);
        if (it != trackIds.end() && *it == ids[t]) sessionOf[t] = trackSession[static_cast<std::size_t>(it - trackIds.begin())];
    }
    struct Stream {
        std::size_t track, part, pos;
    };
    std::vector<Stream> streams;
    for (std::size_t t = 0; t < tracks.size(); ++t)
        for (std::size_t p = 0; p < tracks[t].parts.size(); ++p)
            if (tracks[t].parts[p].size > 0) streams.push_back({t, p, 0});
    auto at = [&](const Stream& x) -> const ScannedSpan& { return tracks[x.track].parts[x.part][x.pos]; };
    auto later = [&](std::size_t a, std::size_t b) { return at(streams[a]).startNs > at(streams[b]).startNs; };
    std::priority_queue<std::size_t, std::vector<std::size_t>, decltype(later)> heap(later);
    for (std::size_t i = 0; i < streams.size(); ++i) heap.push(i);
    std::size_t other = 0;
    while (!heap.empty()) {
        std::size_t i = heap.top();
        heap.pop();
        Stream& x = streams[i];
        const ScannedSpan& sp = at(x);
        for (; other < others.size() && others[other].iv.start <= sp.startNs; ++other)
            fold(others[other].session, others[other].label, others[other].iv.start, others[other].iv.end);
        const std::size_t session = sessionOf[x.track];
        ++spans;
        // A never-ended span counts its start toward the session's extent.
        const std::int64_t end = sp.ended ? util::satAdd(sp.startNs, std::max<std::int64_t>(sp.durNs, 0)) : sp.startNs;
        if (session < extent.size()) extent[session].add(sp.startNs, end);
        phaseSpans += sp.category == CS_CAT_PHASE;
        int l = categoryLabel(sp.category);
        if (l >= 0 && sp.ended && sp.durNs > 0) {
            fold(session, l, sp.startNs, end);
            ++items[l];
        } else if (l >= 0 && kLabels[l].kind == Kind::Compile && (!sp.ended || sp.durNs < 0)) {
            ++s.untimedCompiles;  // a compile span without a duration: counted, not timed (0 ns is a time)
        }
        if (++x.pos < tracks[x.track].parts[x.part].size) heap.push(i);
    }
    for (; other < others.size(); ++other)
        fold(others[other].session, others[other].label, others[other].iv.start, others[other].iv.end);
    swept = true;
}

CompileSummaryBuilder::CompileSummaryBuilder(const trace::TraceReader& reader) : m(std::make_unique<Impl>(reader)) {
    CompileSummary& s = m->s;
    for (const trace::StoredSession& stored : trace::readSessions(reader)) {
        SessionSummary ses;
        ses.id = stored.id;
        ses.runtime = stored.runtime.empty() ? "unknown" : stored.runtime;
        ses.startNs = stored.startNs;
        ses.endNs = stored.endNs;
        ses.clock = stored.clock;
        ses.exitStatus = stored.exitStatus;
        ses.pid = stored.pid;
        ses.command = stored.cmdlineSid ? stored.cmdline : stored.source;
        ses.base = classifyTimeBase(ses.clock, ses.runtime);
        s.sessions.push_back(ses);
    }
    const auto labels = sessionLabels(reader);
    for (SessionSummary& ses : s.sessions) ses.label = labels.at(ses.id);
    m->untimedSession.assign(s.sessions.size(), 0);
    m->bySession.assign(s.sessions.size(), {});
    m->extent.assign(s.sessions.size(), {});
    m->assignDomains(sessionClocks(reader));
    // A track of an unknown session still counts in the totals (sessionIndex = the sessions' count).
    reader.query("SELECT id, session_id FROM tracks ORDER BY id", [&](const trace::Row& st) {
        m->trackIds.push_back(colInt(st, 0));
        m->trackSession.push_back(m->sessionIndex(colInt(st, 1)));
    });
    m->readOtherTables();
}

CompileSummaryBuilder::~CompileSummaryBuilder() = default;

const std::vector<std::int64_t>& CompileSummaryBuilder::trackIds() const { return m->trackIds; }

void CompileSummaryBuilder::addAll(const std::vector<std::int64_t>& trackIds, const std::vector<TrackSpans>& tracks) {
    m->sweep(trackIds, tracks);
    m->s.phaseSpans = m->phaseSpans;
}

CompileSummary CompileSummaryBuilder::finish(const LoadControl& control) {
    ++analysisCounters().summaries;
    Impl& d = *m;
    CompileSummary& s = d.s;
    const trace::TraceReader& reader = d.reader;
    if (!d.swept) d.sweep({}, {});  // no spans: still fold the other tables' facts
    // Row counts: the spans as scanned (counting 10M rows again would cost a second scan).
    if (d.spans > 0) s.rowCounts.emplace_back("spans", d.spans);
    const char* tables[] = {"steps", "cache_lookups", "counters", "methods", "invalidation_items",
                            "module_loads", "cuda_programs", "cuda_jit", "cuda_modules", "kernel_launches",
                            "phase_timings"};
    for (const char* t : tables)
        if (std::int64_t n = reader.rowCount(t)) s.rowCounts.emplace_back(t, n);
    control.check();

    // Which domains are on a wall clock: those of recorded and own-clock sessions.
    std::vector<bool> clockedDomain(d.domains, false);
    for (std::size_t i = 0; i < s.sessions.size(); ++i)
        if (isClocked(s.sessions[i].base)) clockedDomain[d.domainOf[i]] = true;
    for (std::size_t dom = 0; dom < d.domains; ++dom) {
        s.compileNs = util::satAdd(s.compileNs, d.compileAll[dom].length());
        s.cacheLoadNs = util::satAdd(s.cacheLoadNs, d.cacheAll[dom].length());
        if (clockedDomain[dom]) s.clockedCompileNs = util::satAdd(s.clockedCompileNs, d.compileAll[dom].length());
    }
    s.compileNs = util::satAdd(s.compileNs, d.untimedCompile);
    s.cacheLoadNs = util::satAdd(s.cacheLoadNs, d.untimedCacheLoad);
    for (int l = 0; l < kLabelCount; ++l) {
        if (d.items[l] == 0) continue;
        std::int64_t ns = d.untimed[l];
        for (std::size_t dom = 0; dom < d.domains; ++dom)
            ns = util::satAdd(ns, d.byLabel[dom * kLabelCount + static_cast<std::size_t>(l)].length());
        (kLabels[l].kind == Kind::Compile ? s.byCategory : s.cacheLoads).push_back({kLabels[l].name, ns, d.items[l]});
    }
    // By runtime: each session's own union, then summed per runtime.
    std::map<std::string, TimeShare> runtimes;
    for (std::size_t si = 0; si < s.sessions.size(); ++si) {
        std::int64_t ns = util::satAdd(d.bySession[si].length(), d.untimedSession[si]);
        if (ns == 0) continue;
        const SessionSummary& ses = s.sessions[si];
        TimeShare& r = runtimes[ses.runtime];
        r.name = ses.runtime;
        r.ns = util::satAdd(r.ns, ns);
        ++r.items;
    }
    for (auto& [name, r] : runtimes) s.byRuntime.push_back(r);
    // Largest first; equal ones by name.
    auto largest = [](const TimeShare& a, const TimeShare& b) { return a.ns != b.ns ? a.ns > b.ns : a.name < b.name; };
    std::stable_sort(s.byCategory.begin(), s.byCategory.end(), largest);
    std::stable_sort(s.byRuntime.begin(), s.byRuntime.end(), largest);
    std::stable_sort(s.cacheLoads.begin(), s.cacheLoads.end(), largest);

    // Each session's extent: its lifetime widened by its facts. Wall time: the clocked sessions'
    // extents, unioned within each domain. Time span: the clocked extents on the display axis, or the
    // sequence-only ones when nothing is clocked.
    std::vector<std::vector<Interval>> lives(d.domains);
    Extent clockedSpan, sequenceSpan;
    for (std::size_t si = 0; si < s.sessions.size(); ++si) {
        SessionSummary& ses = s.sessions[si];
        Extent e = d.extent[si];
        if (ses.base != TimeBase::Untimed) {
            if (ses.startNs) e.add(*ses.startNs, *ses.startNs);
            if (ses.endNs && e.any) e.add(*ses.endNs, *ses.endNs);
        }
        if (!e.any || ses.base == TimeBase::Untimed) continue;
        ses.firstNs = util::satAdd(e.minStart, ses.offsetNs);
        ses.lastNs = util::satAdd(e.maxEnd, ses.offsetNs);
        if (isClocked(ses.base)) {
            s.wallClock = true;
            if (e.maxEnd > e.minStart) lives[d.domainOf[si]].push_back({e.minStart, e.maxEnd});
            clockedSpan.add(*ses.firstNs, *ses.lastNs);
        } else {
            sequenceSpan.add(*ses.firstNs, *ses.lastNs);
        }
    }
    for (auto& domain : lives) {
        std::sort(domain.begin(), domain.end(), [](const Interval& a, const Interval& b) { return a.start < b.start; });
        UnionLength wall;
        for (const Interval& iv : domain) wall.add(iv.start, iv.end);
        s.wallNs = util::satAdd(s.wallNs, wall.length());
    }
    const Extent& span = clockedSpan.any ? clockedSpan : sequenceSpan;
    if (span.any) {
        s.spanStartNs = span.minStart;
        s.spanEndNs = span.maxEnd;
    }

    for (const trace::StoredStat& stat : trace::readStats(reader)) {
        std::string line = stat.name + " x" + std::to_string(stat.count) + " (" + stat.source + ")";
        if (!stat.detail.empty()) line += ": " + stat.detail;
        s.problems.push_back(line);
    }
    control.report(100, "done");
    return std::move(s);
}

CompileSummary summarizeCompileTime(const trace::TraceReader& reader, const LoadControl& control) {
    control.report(0, "sessions");
    CompileSummaryBuilder builder(reader);
    LoadControl scan{.progress = [&](int p, std::string_view stage) { control.report(p * 9 / 10, stage); }, .cancel = control.cancel};
    SpanTracks tracks;
    scanSpansByTrack(reader, builder.trackIds(), scan, {}, &tracks);
    builder.addAll(tracks.ids, tracks.tracks);
    return builder.finish(control);
}

}  // namespace cs::engine
