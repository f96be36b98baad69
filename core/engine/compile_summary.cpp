#include "compile_summary.h"

#include "timeline_data.h"
#include "core/trace/reader.h"

#include <compilescope/trace_constants.h>
#include <sqlite3.h>

#include <algorithm>
#include <functional>
#include <iterator>
#include <map>
#include <queue>

namespace cs::engine {

std::optional<double> CompileSummary::compileShare() const {
    if (wallNs <= 0) return std::nullopt;
    return static_cast<double>(compileNs) / static_cast<double>(wallNs);
}

namespace {

std::int64_t col(sqlite3_stmt* st, int i) { return sqlite3_column_int64(st, i); }

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
        if (m_open) m_total += m_end - m_start;
        m_start = start;
        m_end = end;
        m_open = true;
    }
    std::int64_t length() const { return m_total + (m_open ? m_end - m_start : 0); }

private:
    std::int64_t m_start = 0, m_end = 0, m_total = 0;
    bool m_open = false;
};

// Compile work, by the label it is summed under. The first 7 are span categories.
const char* const kLabels[] = {"compile", "cache load", "module load", "inference", "codegen", "link", "compiler phase",
                               "module build", "NVRTC", "nvJitLink", "driver JIT"};
constexpr int kLabelCount = static_cast<int>(std::size(kLabels));
int labelIndex(std::string_view label) {
    for (int i = 0; i < kLabelCount; ++i)
        if (label == kLabels[i]) return i;
    return -1;
}
int categoryLabel(std::int64_t c) {
    switch (c) {
    case CS_CAT_COMPILE: return 0;
    case CS_CAT_CACHE_LOAD: return 1;
    case CS_CAT_MODULE_LOAD: return 2;
    case CS_CAT_INFERENCE: return 3;
    case CS_CAT_CODEGEN: return 4;
    case CS_CAT_LINK: return 5;
    case CS_CAT_PHASE: return 6;
    default: return -1;  // not compile work
    }
}

// A timed compile fact from a table other than spans.
struct OtherFact {
    std::size_t session;  // index into the sessions; == their count when unknown
    int label;
    Interval iv;
};

// Extent of a session's spans, for the wall time of a session that has no end.
struct Extent {
    bool any = false;
    std::int64_t minStart = 0, maxEnd = 0;
};

}  // namespace

struct CompileSummaryBuilder::Impl {
    const trace::TraceReader& reader;
    CompileSummary s;
    std::vector<std::int64_t> trackIds;      // sorted
    std::vector<std::size_t> trackSession;  // parallel to trackIds
    std::vector<OtherFact> others;          // sorted by start before the sweep
    std::int64_t untimed = 0;
    std::int64_t untimedLabel[kLabelCount] = {}, items[kLabelCount] = {};
    std::vector<std::int64_t> untimedSession;
    // Results of the sweep.
    UnionLength all, byLabel[kLabelCount];
    std::vector<UnionLength> bySession;
    std::vector<Extent> extent;
    std::int64_t spans = 0;
    bool swept = false;

    explicit Impl(const trace::TraceReader& r) : reader(r) {}

    std::size_t sessionIndex(std::int64_t id) const {
        auto it = std::lower_bound(s.sessions.begin(), s.sessions.end(), id,
                                   [](const SessionSummary& a, std::int64_t v) { return a.id < v; });
        return it != s.sessions.end() && it->id == id ? static_cast<std::size_t>(it - s.sessions.begin()) : s.sessions.size();
    }
    void timed(std::int64_t session, const char* label, std::int64_t start, std::int64_t dur) {
        if (dur <= 0) return;
        int l = labelIndex(label);
        others.push_back({sessionIndex(session), l, {start, start + dur}});  // an unknown session counts in totals only
        ++items[l];
    }
    void untimedFact(std::int64_t session, const char* label, std::int64_t dur) {
        if (dur <= 0) return;
        int l = labelIndex(label);
        untimed += dur;
        untimedLabel[l] += dur;
        if (std::size_t si = sessionIndex(session); si < untimedSession.size()) untimedSession[si] += dur;
        ++items[l];
    }
    // One compile interval, in start order over the whole trace.
    void fold(std::size_t session, int label, std::int64_t start, std::int64_t end) {
        all.add(start, end);
        byLabel[label].add(start, end);
        if (session < bySession.size()) bySession[session].add(start, end);
    }
    void readOtherTables();
    void sweep(const std::vector<std::int64_t>& ids, const std::vector<TrackSpans>& tracks);
};

void CompileSummaryBuilder::Impl::readOtherTables() {
    // A module build's native compile time when logged, else the whole load if it compiled.
    reader.query("SELECT session_id, start_ns, COALESCE(compile_ns, CASE WHEN result=" +
                     std::to_string(CS_MODULE_COMPILED) + " THEN dur_ns END) FROM module_loads",
                 [&](sqlite3_stmt* st) {
                     if (sqlite3_column_type(st, 1) == SQLITE_NULL) untimedFact(col(st, 0), "module build", col(st, 2));
                     else timed(col(st, 0), "module build", col(st, 1), col(st, 2));
                 });
    reader.query("SELECT session_id, api, start_ns, dur_ns FROM cuda_programs WHERE dur_ns IS NOT NULL",
                 [&](sqlite3_stmt* st) {
                     timed(col(st, 0), col(st, 1) == CS_CUDA_NVJITLINK ? "nvJitLink" : "NVRTC", col(st, 2), col(st, 3));
                 });
    reader.query("SELECT session_id, start_ns, dur_ns FROM cuda_jit WHERE operation=" + std::to_string(CS_JIT_OP_COMPILE) +
                     " AND dur_ns IS NOT NULL",
                 [&](sqlite3_stmt* st) {
                     if (sqlite3_column_type(st, 1) == SQLITE_NULL) untimedFact(col(st, 0), "driver JIT", col(st, 2));
                     else timed(col(st, 0), "driver JIT", col(st, 1), col(st, 2));
                 });
    reader.query("SELECT session_id, start_ns, dur_ns FROM phase_timings WHERE parent_id IS NULL", [&](sqlite3_stmt* st) {
        if (sqlite3_column_type(st, 1) == SQLITE_NULL) untimedFact(col(st, 0), "compiler phase", col(st, 2));
        else timed(col(st, 0), "compiler phase", col(st, 1), col(st, 2));
    });
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
        if (session < extent.size()) {
            Extent& e = extent[session];
            // Extent as the wall time of a session without an end sees it: a never-ended span counts its start.
            std::int64_t end = sp.startNs + (sp.ended ? sp.durNs : 0);
            e.minStart = e.any ? std::min(e.minStart, sp.startNs) : sp.startNs;
            e.maxEnd = e.any ? std::max(e.maxEnd, end) : end;
            e.any = true;
        }
        int l = categoryLabel(sp.category);
        if (l >= 0 && sp.ended && sp.durNs > 0) {
            fold(session, l, sp.startNs, sp.startNs + sp.durNs);
            ++items[l];
        }
        if (++x.pos < tracks[x.track].parts[x.part].size) heap.push(i);
    }
    for (; other < others.size(); ++other)
        fold(others[other].session, others[other].label, others[other].iv.start, others[other].iv.end);
    swept = true;
}

CompileSummaryBuilder::CompileSummaryBuilder(const trace::TraceReader& reader) : m(std::make_unique<Impl>(reader)) {
    CompileSummary& s = m->s;
    reader.query("SELECT id, runtime_sid, start_ns, end_ns FROM sessions ORDER BY id", [&](sqlite3_stmt* st) {
        SessionSummary ses;
        ses.id = col(st, 0);
        ses.runtime = reader.str(col(st, 1));
        if (ses.runtime.empty()) ses.runtime = "unknown";
        if (sqlite3_column_type(st, 2) != SQLITE_NULL) ses.startNs = col(st, 2);
        if (sqlite3_column_type(st, 3) != SQLITE_NULL) ses.endNs = col(st, 3);
        s.sessions.push_back(ses);
    });
    for (SessionSummary& ses : s.sessions) ses.label = sessionLabel(reader, ses.id);
    m->untimedSession.assign(s.sessions.size(), 0);
    m->bySession.assign(s.sessions.size(), {});
    m->extent.assign(s.sessions.size(), {});
    // A track of an unknown session still counts in the totals (sessionIndex = the sessions' count).
    reader.query("SELECT id, session_id FROM tracks ORDER BY id", [&](sqlite3_stmt* st) {
        m->trackIds.push_back(col(st, 0));
        m->trackSession.push_back(m->sessionIndex(col(st, 1)));
    });
    m->readOtherTables();
}

CompileSummaryBuilder::~CompileSummaryBuilder() = default;

const std::vector<std::int64_t>& CompileSummaryBuilder::trackIds() const { return m->trackIds; }

void CompileSummaryBuilder::addAll(const std::vector<std::int64_t>& trackIds, const std::vector<TrackSpans>& tracks) {
    m->sweep(trackIds, tracks);
}

CompileSummary CompileSummaryBuilder::finish(const LoadControl& control) {
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

    s.compileNs = d.all.length() + d.untimed;
    for (int l = 0; l < kLabelCount; ++l)
        if (d.items[l] > 0) s.byCategory.push_back({kLabels[l], d.byLabel[l].length() + d.untimedLabel[l], d.items[l]});
    // By runtime: each session's own union, then summed per runtime.
    std::map<std::string, TimeShare> runtimes;
    for (std::size_t si = 0; si < s.sessions.size(); ++si) {
        std::int64_t ns = d.bySession[si].length() + d.untimedSession[si];
        if (ns == 0) continue;
        const SessionSummary& ses = s.sessions[si];
        TimeShare& r = runtimes[ses.runtime];
        r.name = ses.runtime;
        r.ns += ns;
        ++r.items;
    }
    for (auto& [name, r] : runtimes) s.byRuntime.push_back(r);
    // Largest first; equal ones by name.
    auto largest = [](const TimeShare& a, const TimeShare& b) { return a.ns != b.ns ? a.ns > b.ns : a.name < b.name; };
    std::stable_sort(s.byCategory.begin(), s.byCategory.end(), largest);
    std::stable_sort(s.byRuntime.begin(), s.byRuntime.end(), largest);

    // Wall time: each session's lifetime, or the extent of its spans when it has no end.
    std::vector<Interval> lives;
    for (std::size_t si = 0; si < s.sessions.size(); ++si) {
        const SessionSummary& ses = s.sessions[si];
        std::int64_t lo = ses.startNs.value_or(0), hi = ses.endNs.value_or(0);
        bool known = ses.startNs && ses.endNs;
        if (!known && d.extent[si].any) {
            lo = ses.startNs.value_or(d.extent[si].minStart);
            hi = std::max(d.extent[si].maxEnd, ses.endNs.value_or(0));
            known = true;
        }
        if (known && hi > lo) lives.push_back({lo, hi});
    }
    std::sort(lives.begin(), lives.end(), [](const Interval& a, const Interval& b) { return a.start < b.start; });
    UnionLength wall;
    for (const Interval& iv : lives) wall.add(iv.start, iv.end);
    s.wallNs = wall.length();

    reader.query("SELECT name, source, count, COALESCE(detail, '') FROM stats ORDER BY id", [&](sqlite3_stmt* st) {
        auto text = [&](int i) {
            const auto* t = reinterpret_cast<const char*>(sqlite3_column_text(st, i));
            return std::string(t ? t : "");
        };
        std::string line = text(0) + " x" + std::to_string(col(st, 2)) + " (" + text(1) + ")";
        if (!text(3).empty()) line += ": " + text(3);
        s.problems.push_back(line);
    });
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
