#include "core/engine/julia/invalidation_load.h"
#include "core/engine/julia/invalidation_build.h"
#include "core/engine/common/analysis_counters.h"

#include "core/formats/julia_signature.h"

#include "core/trace/reader.h"
#include "core/trace/row.h"
#include "core/util/saturating.h"

#include <algorithm>
#include <tuple>
#include <unordered_map>

namespace cs::engine {

namespace {
}  // namespace

// All sessions of the trace are read as one log: a recording split over several imports (the raw
// list in one file, the edge list in another) is the same story, and each group of items closes at
// its Method, so concatenating sessions cannot merge two groups.
InvalidationInput readInvalidationInput(const trace::TraceReader& reader) {
    InvalidationInput in;
    in.juliaVersion = reader.meta("julia_version");
    // Distinct texts first, then the items by id: a million items repeat a few hundred thousand
    // texts, and a per-row join would look each one up again.
    std::unordered_map<std::int64_t, std::string_view> texts;
    reader.query("SELECT id, str FROM strings WHERE id IN (SELECT DISTINCT text_sid FROM invalidation_items)",
                 [&](const trace::Row& st) { texts.emplace(trace::colInt(st, 0), in.keep(trace::colText(st, 1))); });
    reader.query("SELECT list, kind, text_sid FROM invalidation_items ORDER BY session_id, list, ordinal",
                 [&](const trace::Row& st) {
                     int list = static_cast<int>(st.integer(0));
                     auto it = texts.find(trace::colInt(st, 2));
                     std::string_view t = it == texts.end() ? std::string_view() : it->second;
                     if (list == CS_INVLIST_METHODS) in.methodsList.push_back({static_cast<int>(st.integer(1)), t});
                     else if (list == CS_INVLIST_EDGES) in.edgesList.push_back({static_cast<int>(st.integer(1)), t});
                     else if (list == CS_INVLIST_PRINTED) in.printedTreeLines.emplace_back(t);
                 });
    // The collector records, for each invalidated instance, the Method it specializes.
    reader.query(
        "SELECT sig.str, m.str FROM methods x JOIN strings sig ON sig.id = x.signature_sid "
        "JOIN strings m ON m.id = x.method_sid WHERE sig.str LIKE 'MethodInstance for %'",
        [&](const trace::Row& st) { in.methodOfInstance.emplace_back(trace::colText(st, 0), trace::colText(st, 1)); });
    return in;
}

std::vector<RecompileTiming> readRecompileTimings(const trace::TraceReader& reader) {
    std::vector<RecompileTiming> out;
    // --trace-compile statements marked "# recompile" (span arg recompile=1).
    reader.query(
        "SELECT s.id, n.str, s.dur_ns FROM spans s JOIN strings n ON n.id = s.name_sid "
        "JOIN span_args a ON a.span_id = s.id JOIN strings k ON k.id = a.key_sid "
        "WHERE s.category = " + std::to_string(CS_CAT_COMPILE) + " AND k.str = 'recompile' AND a.value = 1 "
        "AND s.dur_ns IS NOT NULL ORDER BY s.id",
        [&](const trace::Row& st) {
            out.push_back({trace::colText(st, 1), false, trace::colInt(st, 2), trace::colInt(st, 0)});
        });
    // @time_imports `__init__` rows: their recompile share (span arg init_recompile_ns when nested in
    // their package, recompile_ns when the paste had no package row after them).
    reader.query(
        // From the arguments (CROSS JOIN keeps them the outer loop): SQLite would otherwise scan every
        // span for the few that carry such an argument.
        "SELECT s.id, n.str, a.value FROM span_args a CROSS JOIN spans s ON s.id = a.span_id "
        "JOIN strings n ON n.id = s.name_sid JOIN strings k ON k.id = a.key_sid "
        "WHERE s.category = " + std::to_string(CS_CAT_INIT) + " AND k.str IN ('recompile_ns', 'init_recompile_ns') ORDER BY s.id",
        [&](const trace::Row& st) {
            out.push_back({trace::colText(st, 1), true, trace::colInt(st, 2), trace::colInt(st, 0)});
        });
    return out;
}

void joinRecompileCosts(InvalidationForest& forest, const std::vector<RecompileTiming>& timings) {
    struct Measure {
        std::string qualifier;
        std::int64_t statementsNs = 0;  // sum of "# recompile" statements
        std::int64_t initNs = 0;        // largest init-span recompile share
        std::int64_t statementSpan = 0, initSpan = 0;  // evidence: first statement, largest init span
    };
    std::unordered_map<std::string, std::vector<Measure>> byKey;
    for (const auto& t : timings) {
        std::string q;
        std::string key = t.isCallForm ? methodInstanceKey(t.text, &q) : precompileSignatureKey(t.text, &q);
        if (key.empty()) continue;
        auto& list = byKey[key];
        auto it = std::find_if(list.begin(), list.end(), [&](const Measure& m) { return m.qualifier == q; });
        if (it == list.end()) {
            list.push_back({q, 0, 0, 0, 0});
            it = list.end() - 1;
        }
        if (t.isCallForm) {
            if (t.ns > it->initNs) it->initSpan = t.spanId;
            it->initNs = std::max(it->initNs, t.ns);
        } else {
            if (!it->statementSpan) it->statementSpan = t.spanId;
            it->statementsNs = util::satAdd(it->statementsNs, t.ns);
        }
    }
    forest.costJoined = !timings.empty();
    if (byKey.empty()) {
        finishForest(forest);
        return;
    }
    // One instance often appears in many trees: (ns, span id) per text.
    std::unordered_map<std::string_view, std::pair<std::int64_t, std::int64_t>> memo;
    for (auto& n : forest.nodes) {
        if (n.isDummy()) continue;
        auto m = memo.find(n.mi);
        if (m != memo.end()) {
            std::tie(n.recompileNs, n.recompileSpanId) = m->second;
            continue;
        }
        std::string q;
        std::string key = methodInstanceKey(n.mi, &q);
        std::int64_t ns = 0, span = 0;
        auto it = byKey.find(key);
        if (it != byKey.end())
            for (const auto& meas : it->second) {
                if (!qualifiersAgree(q, meas.qualifier)) continue;
                if (meas.statementsNs > ns) std::tie(ns, span) = std::pair(meas.statementsNs, meas.statementSpan);
                if (meas.initNs > ns) std::tie(ns, span) = std::pair(meas.initNs, meas.initSpan);
            }
        memo.emplace(n.mi, std::pair(ns, span));
        n.recompileNs = ns;
        n.recompileSpanId = span;
    }
    finishForest(forest);
}

std::shared_ptr<const InvalidationForest> loadInvalidationTrees(const trace::TraceReader& reader) {
    ++analysisCounters().forests;
    auto forest = std::make_shared<InvalidationForest>(buildInvalidationTrees(readInvalidationInput(reader)));
    joinRecompileCosts(*forest, readRecompileTimings(reader));
    return forest;
}

}  // namespace cs::engine
