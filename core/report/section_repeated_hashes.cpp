// Repeated hashes: Warp-style module loads grouped by module name and device, with every identity
// (hash, block_dim) each name was built under.
//
// Why group by name: seed 002's diagnosis starts from "one module name, several hashes" (identity
// churn: its kernel set, options or generic instances changed after it first loaded) and "one module
// name, several block_dim values" (the whole module recompiled per block dimension). Both are visible
// from the loads alone; the Warp engine's findings add the mechanism and the fix.
#include "sections.h"
#include "sql_row.h"

#include "core/trace/reader.h"
#include "core/util/units.h"

#include <compilescope/trace_constants.h>

#include <algorithm>
#include <map>
#include <set>

namespace cs::report {

void collectRepeatedHashes(const trace::TraceReader& reader, TraceReport& r) {
    RepeatedHashes& out = r.modules;
    out.source = "raw tables (module_loads grouped by name and device)";
    struct Acc {
        ModuleGroup g;
        std::set<std::string> hashes;
        std::set<std::int64_t> dims;
        std::set<std::pair<std::string, std::int64_t>> identities;
    };
    std::map<std::pair<std::int64_t, std::int64_t>, Acc> groups;  // (name sid, device sid)
    std::vector<std::pair<std::int64_t, std::int64_t>> order;
    reader.query("SELECT name_sid, device_sid, hash_sid, block_dim, result, coalesce(dur_ns, 0) FROM module_loads "
                 "ORDER BY coalesce(start_ns, 0), id",
                 [&](sqlite3_stmt* st) {
                     std::pair<std::int64_t, std::int64_t> key{colInt(st, 0), colInt(st, 1)};
                     auto [it, fresh] = groups.try_emplace(key);
                     Acc& a = it->second;
                     if (fresh) order.push_back(key);
                     ++a.g.loads;
                     auto result = colInt(st, 4);
                     a.g.compiled += result == CS_MODULE_COMPILED;
                     a.g.cached += result == CS_MODULE_CACHED;
                     a.g.errors += result == CS_MODULE_ERROR;
                     a.g.totalNs += colInt(st, 5);
                     std::string hash = reader.str(colInt(st, 2));
                     auto dim = colOpt(st, 3);
                     if (!hash.empty() && a.hashes.insert(hash).second && a.g.hashes.size() < 12)
                         a.g.hashes.push_back(hash);
                     if (dim && a.dims.insert(*dim).second && a.g.blockDims.size() < 12) a.g.blockDims.push_back(*dim);
                     a.identities.insert({hash, dim.value_or(-1)});
                 });
    for (const auto& key : order) {
        Acc& a = groups[key];
        a.g.name = reader.str(key.first);
        a.g.device = reader.str(key.second);
        if (a.hashes.size() > 1)
            a.g.notes.push_back(std::to_string(a.hashes.size()) +
                                " hashes: identity churn (kernel set, options or generic instances changed after "
                                "the first load)");
        if (a.dims.size() > 1)
            a.g.notes.push_back(std::to_string(a.dims.size()) +
                                " block_dim values: the whole module is compiled once per block dimension");
        if (a.g.compiled > static_cast<std::int64_t>(a.identities.size()))
            a.g.notes.push_back("compiled " + std::to_string(a.g.compiled) + " times for " +
                                std::to_string(a.identities.size()) + " identities: the cache was not reused");
        if (a.g.errors) a.g.notes.push_back(std::to_string(a.g.errors) + " load(s) failed");
        ++out.modules;
        if (a.hashes.size() > 1 || a.dims.size() > 1) ++out.repeated;
        out.rows.push_back(std::move(a.g));
    }
    std::stable_sort(out.rows.begin(), out.rows.end(), [](const ModuleGroup& a, const ModuleGroup& b) {
        bool ra = !a.notes.empty(), rb = !b.notes.empty();
        if (ra != rb) return ra;
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
        openTable(h, {{"class", "sortable modules"}, {"data-trace", t.label}},
                  {"module", "device", "#loads", "#compiled", "#cached", "hashes", "block_dim", "#time", "diagnosis"});
        for (const auto& g : m.rows) {
            h.open("tr", {{"class", g.notes.empty() ? "module" : "module repeated"}});
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
        h.close().close();
        moreRows(h, m.modules, m.rows.size());
        sourceNote(h, m.source);
    }
    h.close();
}

}  // namespace cs::report
