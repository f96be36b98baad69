#include "compile_summary.h"

#include "timeline_data.h"
#include "core/trace/reader.h"

#include <compilescope/trace_constants.h>
#include <sqlite3.h>

#include <algorithm>
#include <map>

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

// Total length of the union of intervals (sorts in place).
std::int64_t unionLength(std::vector<Interval>& v) {
    std::sort(v.begin(), v.end(), [](const Interval& a, const Interval& b) { return a.start < b.start; });
    std::int64_t total = 0, curStart = 0, curEnd = 0;
    bool open = false;
    for (const Interval& i : v) {
        if (open && i.start <= curEnd) {
            curEnd = std::max(curEnd, i.end);
            continue;
        }
        if (open) total += curEnd - curStart;
        curStart = i.start;
        curEnd = i.end;
        open = true;
    }
    if (open) total += curEnd - curStart;
    return total;
}

// Collects compile facts keyed by (bucket name) and by session, then folds them into unions.
class Accumulator {
public:
    void timed(std::int64_t session, const std::string& category, std::int64_t start, std::int64_t dur) {
        if (dur <= 0) return;
        Interval iv{start, start + dur};
        m_all.push_back(iv);
        m_byCategory[category].push_back(iv);
        m_bySession[session].push_back(iv);
        ++m_items[category];
    }
    void untimed(std::int64_t session, const std::string& category, std::int64_t dur) {
        if (dur <= 0) return;
        m_untimed += dur;
        m_untimedCategory[category] += dur;
        m_untimedSession[session] += dur;
        ++m_items[category];
    }
    void finish(CompileSummary& s) {
        s.compileNs = unionLength(m_all) + m_untimed;
        std::map<std::string, std::int64_t> cats = m_untimedCategory;
        for (auto& [name, v] : m_byCategory) cats[name] += unionLength(v);
        for (auto& [name, ns] : cats) s.byCategory.push_back({name, ns, m_items[name]});
        std::map<std::string, TimeShare> runtimes;
        for (const SessionSummary& ses : s.sessions) {
            std::int64_t ns = m_untimedSession[ses.id];
            auto it = m_bySession.find(ses.id);
            if (it != m_bySession.end()) ns += unionLength(it->second);
            if (ns == 0) continue;
            TimeShare& r = runtimes[ses.runtime];
            r.name = ses.runtime;
            r.ns += ns;
            ++r.items;
        }
        for (auto& [name, r] : runtimes) s.byRuntime.push_back(r);
        auto largest = [](const TimeShare& a, const TimeShare& b) { return a.ns > b.ns; };
        std::stable_sort(s.byCategory.begin(), s.byCategory.end(), largest);
        std::stable_sort(s.byRuntime.begin(), s.byRuntime.end(), largest);
    }

private:
    std::vector<Interval> m_all;
    std::map<std::string, std::vector<Interval>> m_byCategory;
    std::map<std::int64_t, std::vector<Interval>> m_bySession;
    std::map<std::string, std::int64_t> m_items, m_untimedCategory;
    std::map<std::int64_t, std::int64_t> m_untimedSession;
    std::int64_t m_untimed = 0;
};

const char* categoryLabel(std::int64_t c) {
    switch (c) {
    case CS_CAT_COMPILE: return "compile";
    case CS_CAT_CACHE_LOAD: return "cache load";
    case CS_CAT_MODULE_LOAD: return "module load";
    case CS_CAT_INFERENCE: return "inference";
    case CS_CAT_CODEGEN: return "codegen";
    case CS_CAT_LINK: return "link";
    case CS_CAT_PHASE: return "compiler phase";
    default: return nullptr;  // not compile work
    }
}

}  // namespace

CompileSummary summarizeCompileTime(const trace::TraceReader& reader, const LoadControl& control) {
    CompileSummary s;
    control.report(0, "sessions");
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

    const char* tables[] = {"spans", "steps", "cache_lookups", "counters", "methods", "invalidation_items",
                            "module_loads", "cuda_programs", "cuda_jit", "cuda_modules", "kernel_launches",
                            "phase_timings"};
    for (const char* t : tables)
        if (std::int64_t n = reader.rowCount(t)) s.rowCounts.emplace_back(t, n);
    control.check();

    Accumulator acc;
    control.report(10, "compile spans");
    std::int64_t seen = 0;
    reader.query("SELECT t.session_id, s.category, s.start_ns, s.dur_ns FROM spans s JOIN tracks t ON t.id = s.track_id "
                 "WHERE s.dur_ns IS NOT NULL",
                 [&](sqlite3_stmt* st) {
                     if ((++seen & 0xFFFF) == 0) control.check();
                     if (const char* label = categoryLabel(col(st, 1))) acc.timed(col(st, 0), label, col(st, 2), col(st, 3));
                 });
    control.report(60, "module loads");
    // A module build's native compile time when logged, else the whole load if it compiled.
    reader.query("SELECT session_id, start_ns, COALESCE(compile_ns, CASE WHEN result=" +
                     std::to_string(CS_MODULE_COMPILED) + " THEN dur_ns END) FROM module_loads",
                 [&](sqlite3_stmt* st) {
                     if (sqlite3_column_type(st, 1) == SQLITE_NULL) acc.untimed(col(st, 0), "module build", col(st, 2));
                     else acc.timed(col(st, 0), "module build", col(st, 1), col(st, 2));
                 });
    reader.query("SELECT session_id, api, start_ns, dur_ns FROM cuda_programs WHERE dur_ns IS NOT NULL",
                 [&](sqlite3_stmt* st) {
                     acc.timed(col(st, 0), col(st, 1) == CS_CUDA_NVJITLINK ? "nvJitLink" : "NVRTC", col(st, 2), col(st, 3));
                 });
    reader.query("SELECT session_id, start_ns, dur_ns FROM cuda_jit WHERE operation=" + std::to_string(CS_JIT_OP_COMPILE) +
                     " AND dur_ns IS NOT NULL",
                 [&](sqlite3_stmt* st) {
                     if (sqlite3_column_type(st, 1) == SQLITE_NULL) acc.untimed(col(st, 0), "driver JIT", col(st, 2));
                     else acc.timed(col(st, 0), "driver JIT", col(st, 1), col(st, 2));
                 });
    control.report(80, "compiler phases");
    reader.query("SELECT session_id, start_ns, dur_ns FROM phase_timings WHERE parent_id IS NULL", [&](sqlite3_stmt* st) {
        if (sqlite3_column_type(st, 1) == SQLITE_NULL) acc.untimed(col(st, 0), "compiler phase", col(st, 2));
        else acc.timed(col(st, 0), "compiler phase", col(st, 1), col(st, 2));
    });
    acc.finish(s);

    // Wall time: each session's lifetime, or the extent of its timed facts when it has no end.
    std::vector<Interval> lives;
    for (const SessionSummary& ses : s.sessions) {
        std::int64_t lo = ses.startNs.value_or(0), hi = ses.endNs.value_or(0);
        bool known = ses.startNs && ses.endNs;
        if (!known) {
            reader.query("SELECT min(s.start_ns), max(s.start_ns + COALESCE(s.dur_ns, 0)) FROM spans s JOIN tracks t "
                         "ON t.id = s.track_id WHERE t.session_id = " + std::to_string(ses.id),
                         [&](sqlite3_stmt* st) {
                             if (sqlite3_column_type(st, 0) == SQLITE_NULL) return;
                             lo = ses.startNs.value_or(col(st, 0));
                             hi = std::max(col(st, 1), ses.endNs.value_or(0));
                             known = true;
                         });
        }
        if (known && hi > lo) lives.push_back({lo, hi});
    }
    s.wallNs = unionLength(lives);

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
    return s;
}

}  // namespace cs::engine
