// Repeated hashes: Warp-style module loads grouped by module name (per session), with every
// identity (hash, block_dim, ...) each name was built under, from the engine's module report.
//
// Why group by name: the Warp guide's (docs/warp.md) diagnosis starts from "one module name, several hashes" (identity
// churn: its kernel set, options or generic instances changed after it first loaded) and "one module
// name, several block_dim values" (the whole module recompiled per block dimension). Both are visible
// from the loads alone; the Warp engine's findings add the mechanism and the fix.
#include "core/report/sections.h"

#include "core/engine/warp/warp_modules.h"
#include "core/util/units.h"

#include <algorithm>

namespace cs::report {

void collectRepeatedHashes(const engine::warp::ModuleReport& report, TraceReport& r) {
    RepeatedHashes& out = r.modules;
    out.source = "the module identity analysis (one row per module name and session, identities in load order)";
    for (const engine::warp::ModuleSummary& m : report.modules) {
        ModuleGroup g;
        g.name = m.name;
        for (const auto& d : m.devices) g.device += (g.device.empty() ? "" : ", ") + d;
        g.loads = static_cast<std::int64_t>(m.loads.size());
        g.compiled = m.compiled;
        g.cached = m.cached;
        g.errors = m.errors;
        g.totalNs = m.totalNs;
        for (size_t i = 0; i < m.hashes.size() && i < 12; ++i) g.hashes.push_back(m.hashes[i]);
        for (size_t i = 0; i < m.blockDims.size() && i < 12; ++i) g.blockDims.push_back(m.blockDims[i]);
        const auto identities = static_cast<std::int64_t>(m.identities.size());
        if (m.hashes.size() > 1)
            g.notes.push_back(std::to_string(m.hashes.size()) +
                              " hashes: identity churn (kernel set, options or generic instances changed after "
                              "the first load)");
        if (m.blockDims.size() > 1)
            g.notes.push_back(std::to_string(m.blockDims.size()) +
                              " block_dim values: the whole module is compiled once per block dimension");
        if (g.compiled > identities)
            g.notes.push_back("compiled " + std::to_string(g.compiled) + " times for " + std::to_string(identities) +
                              " identities: the cache was not reused");
        if (g.errors) g.notes.push_back(std::to_string(g.errors) + " load(s) failed");
        ++out.modules;
        g.repeated = identities > 1;
        if (g.repeated) ++out.repeated;
        out.rows.push_back(std::move(g));
    }
    std::stable_sort(out.rows.begin(), out.rows.end(), [](const ModuleGroup& a, const ModuleGroup& b) {
        if (a.repeated != b.repeated) return a.repeated;
        return a.totalNs > b.totalNs;
    });
    if (out.rows.size() > kMaxListedRows) out.rows.resize(kMaxListedRows);
}

void renderRepeatedHashes(HtmlBuilder& h, const std::vector<TraceReport>& traces) {
    std::int64_t repeated = 0;
    for (const auto& t : traces) repeated += t.modules.repeated;
    openSection(h, "repeated-hashes", "Repeated hashes (module identities)", repeated);
    for (const auto& t : traces) {
        traceHeading(h, traces, t);
        const RepeatedHashes& m = t.modules;
        if (m.modules == 0) {
            emptyNote(h, "The trace records no module loads.");
            continue;
        }
        h.leaf("p", std::to_string(m.repeated) + " of " + std::to_string(m.modules) +
                        " module name(s) were built under more than one identity.",
               {{"class", "hint"}});
        openWideTable(h, {{"class", "sortable modules"}, {"data-trace", t.label}},
                  {"module", "device", "#loads", "#compiled", "#cached", "hashes", "block_dim", "#time", "diagnosis"});
        for (const auto& g : m.rows) {
            h.open("tr", {{"class", g.repeated ? "module repeated" : "module"}});
            h.open("td").open("code").shortText(g.name, 60).close().close();
            h.open("td").shortText(g.device.empty() ? "-" : g.device, 20).close();
            h.leaf("td", std::to_string(g.loads), {{"class", "num"}});
            h.leaf("td", std::to_string(g.compiled), {{"class", "num"}});
            h.leaf("td", std::to_string(g.cached), {{"class", "num"}});
            h.open("td", {{"class", "hashes"}});
            for (size_t i = 0; i < g.hashes.size(); ++i) {
                if (i) h.text(" ");
                h.open("code", {{"class", "hash"}}).shortText(g.hashes[i], 12).close();
            }
            h.close();
            std::string dims;
            for (auto d : g.blockDims) dims += (dims.empty() ? "" : ", ") + std::to_string(d);
            h.leaf("td", dims.empty() ? "-" : dims);
            h.leaf("td", util::formatDuration(g.totalNs), {{"class", "num"}, {"data-v", g.totalNs}});
            h.open("td");
            for (const auto& n : g.notes) h.leaf("div", n, {{"class", "note"}});
            h.close();
            h.close();
        }
        closeWideTable(h);
        moreRows(h, m.modules, m.rows.size());
        sourceNote(h, m.source);
    }
    h.close();
}

}  // namespace cs::report
