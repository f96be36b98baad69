#include "core/engine/build/build_phases.h"

#include "core/trace/reader.h"
#include "core/trace/row.h"
#include "core/util/saturating.h"

#include <algorithm>
#include <unordered_map>

namespace cs::engine::build {

std::vector<PhaseCost> buildPhases(const trace::TraceReader& reader,
                                   const std::map<std::int64_t, std::vector<StageInterval>>& stages, size_t keep) {
    std::vector<PhaseCost> out;
    if (stages.empty()) return out;
    std::string sessions;
    for (const auto& [id, list] : stages) sessions += (sessions.empty() ? "" : ", ") + std::to_string(id);
    struct Acc {
        PhaseCost cost;
        std::int64_t lastSession = -1;
    };
    std::map<std::pair<std::int64_t, bool>, Acc> byName;  // (name_sid, backend)
    std::unordered_map<std::int64_t, std::int64_t> until;  // per name_sid: end of the last counted span
    std::int64_t current = -1;
    const std::vector<StageInterval>* intervals = nullptr;
    reader.query("SELECT t.session_id, s.name_sid, s.start_ns, s.dur_ns FROM spans s JOIN tracks t ON t.id = s.track_id "
                 "WHERE t.session_id IN (" + sessions + ") AND s.dur_ns >= 0 AND s.name_sid IS NOT NULL "
                 "ORDER BY t.session_id, s.start_ns, s.dur_ns DESC, s.id",
                 [&](const trace::Row& st) {
                     const std::int64_t session = trace::colInt(st, 0), name = trace::colInt(st, 1);
                     const std::int64_t start = trace::colInt(st, 2), end = util::satAdd(start, trace::colInt(st, 3));
                     if (session != current) {
                         current = session;
                         until.clear();
                         intervals = &stages.at(session);
                     }
                     const StageInterval* in = nullptr;
                     for (const StageInterval& i : *intervals)
                         if (i.start <= start && end <= i.end) in = &i;
                     if (!in || (in->start == start && in->end == end)) return;  // outside, or the stage's own span
                     auto [u, fresh] = until.try_emplace(name, end);
                     if (!fresh) {
                         if (u->second > start) return;  // nested in a span of the same name: counted there
                         u->second = end;
                     }
                     Acc& a = byName[{name, in->backend}];
                     a.cost.backend = in->backend;
                     a.cost.ns = util::satAdd(a.cost.ns, end - start);
                     ++a.cost.count;
                     if (a.lastSession != session) ++a.cost.files, a.lastSession = session;
                 });
    for (auto& [key, a] : byName) {
        a.cost.name = reader.str(key.first);
        out.push_back(std::move(a.cost));
    }
    std::sort(out.begin(), out.end(), [](const PhaseCost& x, const PhaseCost& y) {
        return x.ns != y.ns ? x.ns > y.ns : x.name != y.name ? x.name < y.name : x.backend < y.backend;
    });
    if (out.size() > keep) out.resize(keep);
    return out;
}

}  // namespace cs::engine::build
