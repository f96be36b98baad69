#include "core/engine/build/build_report.h"

#include "core/engine/accounting/session_clocks.h"
#include "core/engine/accounting/session_labels.h"
#include "core/trace/reader.h"
#include "core/trace/row.h"
#include "core/trace/table_readers.h"
#include "core/util/saturating.h"

#include <algorithm>
#include <array>
#include <map>
#include <string_view>
#include <unordered_map>

namespace cs::engine::build {

namespace {
// The clang event names the report reads (clang 9 to 18 write them alike).
enum Name : int { ExecuteCompiler, Frontend, Backend, Source, InstantiateClass, InstantiateFunction, OptFunction, CodeGenFunction, NameCount };
constexpr std::array<std::string_view, NameCount> kNames = {"ExecuteCompiler", "Frontend", "Backend", "Source",
                                                            "InstantiateClass", "InstantiateFunction", "OptFunction",
                                                            "CodeGen Function"};

// Sums one kind of thing (a header, a template, ...) over files; rows arrive file by file.
struct Acc {
    Cost cost;
    std::int64_t session = -1, sessionNs = 0, spanNs = 0, spanId = 0;
};

class Summer {
public:
    void add(std::string_view key, std::int64_t session, std::int64_t spanId, std::int64_t ns) {
        auto it = m_acc.find(key);
        if (it == m_acc.end()) it = m_acc.emplace(std::string(key), Acc{}).first;
        Acc& a = it->second;
        if (a.session != session) {
            close(a);
            a.session = session;
            ++a.cost.files;
        }
        a.cost.ns = util::satAdd(a.cost.ns, ns);
        ++a.cost.count;
        a.sessionNs = util::satAdd(a.sessionNs, ns);
        if (ns > a.spanNs || a.spanId == 0) a.spanNs = ns, a.spanId = spanId;
    }
    std::vector<Cost> take(const std::unordered_map<std::int64_t, std::string>& labels, size_t keep) {
        std::vector<Cost> out;
        out.reserve(m_acc.size());
        for (auto& [name, a] : m_acc) {
            close(a);
            a.cost.name = name;
            auto l = labels.find(a.cost.worstSessionId);
            if (l != labels.end()) a.cost.worstFile = l->second;
            out.push_back(std::move(a.cost));
        }
        std::sort(out.begin(), out.end(), [](const Cost& x, const Cost& y) { return x.ns != y.ns ? x.ns > y.ns : x.name < y.name; });
        if (out.size() > keep) out.resize(keep);
        return out;
    }

private:
    static void close(Acc& a) {
        if (a.session >= 0 && a.sessionNs > a.cost.worstNs) {
            a.cost.worstNs = a.sessionNs;
            a.cost.worstSessionId = a.session;
            a.cost.worstSpanId = a.spanId;
        }
        a.sessionNs = a.spanNs = a.spanId = 0;
    }
    std::map<std::string, Acc, std::less<>> m_acc;
};

// "dir/a.cpp.json" -> "dir/a.cpp"; "dir/a.cpp.o" -> "dir/a.cpp": the output both name.
std::string_view withoutExtension(std::string_view path) {
    size_t dot = path.find_last_of('.');
    size_t slash = path.find_last_of("/\\");
    if (dot == std::string_view::npos || (slash != std::string_view::npos && dot < slash)) return path;
    return path.substr(0, dot);
}

int peakOf(std::vector<std::pair<std::int64_t, int>>& edges) {
    std::sort(edges.begin(), edges.end());  // an end (-1) before a start (+1) at the same instant
    int now = 0, peak = 0;
    for (const auto& e : edges) peak = std::max(peak, now += e.second);
    return peak;
}
}  // namespace

std::string foldTemplateArguments(std::string_view name) {
    std::string out;
    out.reserve(name.size());
    int depth = 0;
    for (size_t i = 0; i < name.size(); ++i) {
        char c = name[i];
        // "operator<", "operator<<", "operator<=>" are names, not argument lists.
        if (depth == 0 && c == '<' && out.ends_with("operator")) {
            for (std::string_view op : {"<=>", "<<=", "<<", "<=", "<"})
                if (name.substr(i).starts_with(op)) {
                    out += op;
                    i += op.size() - 1;
                    break;
                }
            continue;
        }
        if (c == '<') {
            if (depth++ == 0) out += "<$>";
        } else if (c == '>' && depth > 0) {
            --depth;
        } else if (depth == 0) {
            out += c;
        }
    }
    return out;
}

BuildSchedule buildSchedule(const std::vector<PathStep>& targets, bool fromNinjaLog) {
    BuildSchedule s;
    s.fromNinjaLog = fromNinjaLog;
    s.targets = static_cast<std::int64_t>(targets.size());
    if (targets.empty()) return s;
    auto endOf = [](const PathStep& t) { return util::satAdd(t.startNs, std::max<std::int64_t>(t.durNs, 0)); };
    std::int64_t first = targets.front().startNs, last = endOf(targets.front());
    std::vector<std::pair<std::int64_t, int>> edges;
    edges.reserve(2 * targets.size());
    for (const PathStep& t : targets) {
        first = std::min(first, t.startNs);
        last = std::max(last, endOf(t));
        s.busyNs = util::satAdd(s.busyNs, std::max<std::int64_t>(t.durNs, 0));
        edges.push_back({t.startNs, 1});
        edges.push_back({endOf(t), -1});
    }
    s.wallNs = util::satSub(last, first);
    if (s.wallNs > 0) s.averageParallelism = static_cast<double>(s.busyNs) / static_cast<double>(s.wallNs);
    s.peakConcurrency = peakOf(edges);

    // The critical path (why by timing only: see BuildSchedule). Ordered so that the best step is the
    // last one ending at or before a start: the latest end, then the longest (earliest start), then
    // the smallest output, so that equal logs give equal paths.
    std::vector<size_t> order(targets.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    auto before = [&](size_t a, size_t b) {
        const PathStep &x = targets[a], &y = targets[b];
        if (endOf(x) != endOf(y)) return endOf(x) < endOf(y);
        if (x.startNs != y.startNs) return x.startNs > y.startNs;
        return x.output > y.output;
    };
    std::sort(order.begin(), order.end(), before);
    std::vector<bool> taken(targets.size(), false);
    size_t at = order.size() - 1;  // position in `order` of the current step
    for (;;) {
        const size_t i = order[at];
        taken[i] = true;
        s.criticalPath.push_back(targets[i]);
        s.criticalPathNs = util::satAdd(s.criticalPathNs, std::max<std::int64_t>(targets[i].durNs, 0));
        const std::int64_t start = targets[i].startNs;
        // The last in `order` that ends at or before `start`, not taken already (zero-length commands
        // at one instant could otherwise follow each other for ever).
        auto ub = std::partition_point(order.begin(), order.end(), [&](size_t k) { return endOf(targets[k]) <= start; });
        size_t next = static_cast<size_t>(ub - order.begin());
        while (next > 0 && taken[order[next - 1]]) --next;
        if (next == 0) break;
        at = next - 1;
    }
    std::reverse(s.criticalPath.begin(), s.criticalPath.end());
    return s;
}

namespace {
// What the clang time traces of a build add up to, read span by span in file and time order.
struct TimeTraceScan {
    const trace::TraceReader& reader;
    const SessionClocks& clocks;
    std::unordered_map<std::int64_t, int> nameOf;  // string id -> Name
    Summer headers, templates, sets, optimised, generated;
    std::unordered_map<std::int64_t, std::string> folded;  // template detail id -> its set
    std::map<std::int64_t, BuildFile> files;
    std::map<std::int64_t, std::vector<StageInterval>> stages;  // per session: its Frontend and Backend spans
    // Per file: where the last counted span of each (name, detail) ends; a span starting before that
    // is nested in (or overlaps) one already counted.
    std::map<std::pair<int, std::int64_t>, std::int64_t> openUntil;
    std::int64_t currentSession = -1;

    // The string ids of the names read, as an SQL list; "" for a trace without them (no time traces).
    std::string nameIds() {
        std::string inList, idList;
        for (std::string_view n : kNames) inList += (inList.empty() ? "'" : ", '") + std::string(n) + "'";
        reader.query("SELECT id, str FROM strings WHERE str IN (" + inList + ")", [&](const trace::Row& st) {
            std::string s = trace::colText(st, 1);
            for (int i = 0; i < NameCount; ++i)
                if (s == kNames[static_cast<size_t>(i)]) nameOf[trace::colInt(st, 0)] = i;
            idList += (idList.empty() ? "" : ", ") + std::to_string(trace::colInt(st, 0));
        });
        return idList;
    }

    void read() {
        const std::string idList = nameIds();
        if (idList.empty()) return;
        reader.query("SELECT t.session_id, s.name_sid, coalesce(s.detail_sid, 0), s.id, s.start_ns, s.dur_ns FROM spans s "
                     "JOIN tracks t ON t.id = s.track_id WHERE s.name_sid IN (" + idList + ") AND s.dur_ns >= 0 "
                     "ORDER BY t.session_id, s.start_ns, s.dur_ns DESC, s.id",
                     [&](const trace::Row& st) { add(st); });
    }

    BuildFile& fileOf(std::int64_t session, std::int64_t start) {
        auto it = files.find(session);
        if (it == files.end()) {
            it = files.emplace(session, BuildFile{}).first;
            it->second.sessionId = session;
            it->second.startNs = util::satAdd(start, clocks.offsetOf(session));
        }
        return it->second;
    }

    void add(const trace::Row& st) {
        const std::int64_t session = trace::colInt(st, 0), detail = trace::colInt(st, 2);
        const std::int64_t spanId = trace::colInt(st, 3), start = trace::colInt(st, 4), dur = trace::colInt(st, 5);
        auto n = nameOf.find(trace::colInt(st, 1));
        if (n == nameOf.end()) return;
        const int name = n->second;
        if (session != currentSession) {
            openUntil.clear();
            currentSession = session;
        }
        std::int64_t& until = openUntil[{name, detail}];
        if (until > start) return;  // nested in one of the same name and detail: counted there
        until = util::satAdd(start, dur);
        BuildFile& f = fileOf(session, start);
        static const std::string kNone;
        const std::string& d = detail ? reader.str(detail) : kNone;
        switch (name) {
        case ExecuteCompiler:
            if (f.spanId == 0) f.spanId = spanId;
            f.totalNs = util::satAdd(f.totalNs, dur);
            f.startNs = std::min(f.startNs, util::satAdd(start, clocks.offsetOf(session)));
            break;
        case Frontend:
            f.frontendNs = util::satAdd(f.frontendNs, dur);
            stages[session].push_back({start, util::satAdd(start, dur), false});
            break;
        case Backend:
            f.backendNs = util::satAdd(f.backendNs, dur);
            stages[session].push_back({start, util::satAdd(start, dur), true});
            break;
        case Source:
            if (!d.empty()) headers.add(d, session, spanId, dur);
            break;
        case InstantiateClass:
        case InstantiateFunction:
            if (d.empty()) break;
            templates.add(d, session, spanId, dur);
            {
                auto fIt = folded.find(detail);
                if (fIt == folded.end()) fIt = folded.emplace(detail, foldTemplateArguments(d)).first;
                sets.add(fIt->second, session, spanId, dur);
            }
            break;
        case OptFunction:
            if (!d.empty()) optimised.add(d, session, spanId, dur);
            break;
        case CodeGenFunction:
            if (!d.empty()) generated.add(d, session, spanId, dur);
            break;
        default: break;
        }
    }
};

// The ninja commands of the .ninja_log sessions; `byOutput` maps each output without its extension
// to its index in r.ninjaTargets.
void readNinjaTargets(const trace::TraceReader& reader, const SessionClocks& clocks, const std::vector<std::int64_t>& sessions,
                      BuildReport& r, std::unordered_map<std::string, size_t>& byOutput) {
    for (std::int64_t session : sessions) {
        reader.query("SELECT s.id, coalesce(n.str, ''), s.start_ns, coalesce(s.dur_ns, 0) FROM spans s "
                     "JOIN tracks t ON t.id = s.track_id LEFT JOIN strings n ON n.id = s.name_sid "
                     "WHERE t.session_id = " + std::to_string(session) + " ORDER BY s.start_ns, s.id",
                     [&](const trace::Row& st) {
                         NinjaTarget t{trace::colInt(st, 0), trace::colText(st, 1),
                                       util::satAdd(trace::colInt(st, 2), clocks.offsetOf(session)), trace::colInt(st, 3),
                                       false};
                         byOutput[std::string(withoutExtension(t.output))] = r.ninjaTargets.size();
                         r.ninjaTargets.push_back(std::move(t));
                     });
    }
}

// The trace "<dir>/CMakeFiles/t.dir/a.cpp.json" belongs to the output "CMakeFiles/t.dir/a.cpp.o": the
// longest trailing part of the trace's path that names an output wins.
void joinToNinja(BuildFile& f, BuildReport& r, const std::unordered_map<std::string, size_t>& byOutput) {
    std::string_view stem = withoutExtension(f.source);
    for (size_t pos = 0; !byOutput.empty();) {
        auto it = byOutput.find(std::string(stem.substr(pos)));
        if (it != byOutput.end()) {
            NinjaTarget& t = r.ninjaTargets[it->second];
            t.joined = true;
            f.ninjaSpanId = t.spanId;
            f.ninjaNs = t.durNs;
            f.output = t.output;
            return;
        }
        pos = stem.find_first_of("/\\", pos);
        if (pos == std::string_view::npos) return;
        ++pos;
    }
}

// The build's totals, its files in order of cost, and the schedule (from the ninja commands, else the files).
void addTotals(std::map<std::int64_t, BuildFile>& files, BuildReport& r) {
    bool first = true;
    auto cover = [&](std::int64_t start, std::int64_t end) {
        r.spanStartNs = first ? start : std::min(r.spanStartNs, start);
        r.spanEndNs = first ? end : std::max(r.spanEndNs, end);
        first = false;
    };
    std::int64_t earliest = 0;
    std::vector<PathStep> scheduled;
    for (auto& [session, f] : files) {
        if (f.totalNs == 0 && f.frontendNs == 0 && f.backendNs == 0) continue;  // not a compile of a file
        earliest = r.files.empty() ? f.startNs : std::min(earliest, f.startNs);
        r.totalNs = util::satAdd(r.totalNs, f.totalNs);
        r.frontendNs = util::satAdd(r.frontendNs, f.frontendNs);
        r.backendNs = util::satAdd(r.backendNs, f.backendNs);
        cover(f.startNs, util::satAdd(f.startNs, f.totalNs));
        if (r.ninjaTargets.empty()) scheduled.push_back({f.label, f.spanId, f.sessionId, f.startNs, f.totalNs});
        r.files.push_back(std::move(f));
    }
    for (BuildFile& f : r.files) f.offsetNs = util::satSub(f.startNs, earliest);
    for (const NinjaTarget& t : r.ninjaTargets) {
        r.ninjaJoined += t.joined;
        cover(t.startNs, util::satAdd(t.startNs, t.durNs));
        scheduled.push_back({t.output, t.spanId, 0, t.startNs, t.durNs});
    }
    r.schedule = buildSchedule(scheduled, !r.ninjaTargets.empty());
    r.peakParallelism = r.schedule.peakConcurrency;
    std::stable_sort(r.files.begin(), r.files.end(), [](const BuildFile& a, const BuildFile& b) { return a.totalNs > b.totalNs; });
}
}  // namespace

BuildReport buildReport(const trace::TraceReader& reader, const SessionClocks& clocks, size_t keep) {
    BuildReport r;
    const auto labels = sessionLabels(reader);
    std::unordered_map<std::int64_t, std::string> sources;
    std::vector<std::int64_t> ninjaSessions;
    for (const trace::StoredSession& s : trace::readSessions(reader)) {
        sources[s.id] = s.source;
        if (s.runtime == "import:ninja-log") ninjaSessions.push_back(s.id);
    }
    TimeTraceScan scan{reader, clocks, {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, -1};
    scan.read();
    // The ninja commands, and the join to the time traces by output path.
    std::unordered_map<std::string, size_t> byOutput;  // output without extension -> ninjaTargets index
    readNinjaTargets(reader, clocks, ninjaSessions, r, byOutput);
    for (auto& [session, f] : scan.files) {
        f.source = sources[session];
        auto l = labels.find(session);
        f.label = l == labels.end() ? "session " + std::to_string(session) : l->second;
        joinToNinja(f, r, byOutput);
    }
    addTotals(scan.files, r);
    r.headers = scan.headers.take(labels, keep);
    r.templates = scan.templates.take(labels, keep);
    r.templateSets = scan.sets.take(labels, keep);
    r.optimisedFunctions = scan.optimised.take(labels, keep);
    r.generatedFunctions = scan.generated.take(labels, keep);
    r.phases = buildPhases(reader, scan.stages, keep);
    return r;
}

}  // namespace cs::engine::build
