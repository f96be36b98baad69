#include "core/engine/warp/warp_modules.h"

#include "core/engine/common/analysis_counters.h"
#include "core/trace/reader.h"
#include "core/trace/row.h"
#include "core/util/saturating.h"
#include "core/util/utf8.h"

#include <compilescope/trace_constants.h>

#include <algorithm>
#include <set>
#include <tuple>
#include <unordered_map>

namespace cs::engine::warp {

const char* changeKindName(IdentityChange::Kind k) {
    switch (k) {
    case IdentityChange::Kind::KernelAdded: return "kernel added";
    case IdentityChange::Kind::KernelRemoved: return "kernel removed";
    case IdentityChange::Kind::KernelChanged: return "kernel changed";
    case IdentityChange::Kind::OptionChanged: return "option changed";
    case IdentityChange::Kind::GenericAdded: return "generic instance added";
    case IdentityChange::Kind::GenericRemoved: return "generic instance removed";
    }
    return "?";
}

// A hash is foreign text: cut at a character boundary, never inside a UTF-8 character.
std::string shortHash(const std::string& hash) { return std::string(util::utf8Prefix(hash, 7)); }

namespace {

// The changes between two identities' recorded facts. Kernels are keyed by (name, generic
// signature): a new signature of a known generic kernel is a generic instance, a new digest of a
// known kernel is a changed kernel. Options compare by value; an option absent on one side counts.
std::vector<IdentityChange> diffIdentities(const Identity& a, const Identity& b) {
    using K = IdentityChange::Kind;
    std::vector<IdentityChange> out;
    std::map<std::pair<std::string, std::string>, std::string> ka, kb;
    std::set<std::string> namesA, namesB;
    for (const auto& k : a.kernels) ka[{k.name, k.generic}] = k.digest, namesA.insert(k.name);
    for (const auto& k : b.kernels) kb[{k.name, k.generic}] = k.digest, namesB.insert(k.name);
    for (const auto& [key, digest] : kb) {
        auto it = ka.find(key);
        if (it == ka.end()) {
            bool generic = !key.second.empty() && namesA.count(key.first);
            out.push_back({generic ? K::GenericAdded : K::KernelAdded, generic ? key.second : key.first, "", digest});
        } else if (it->second != digest) {
            out.push_back({K::KernelChanged, key.first, it->second, digest});
        }
    }
    for (const auto& [key, digest] : ka) {
        if (kb.count(key)) continue;
        bool generic = !key.second.empty() && namesB.count(key.first);
        out.push_back({generic ? K::GenericRemoved : K::KernelRemoved, generic ? key.second : key.first, digest, ""});
    }
    std::set<std::string> keys;
    for (const auto& [k, v] : a.options) keys.insert(k);
    for (const auto& [k, v] : b.options) keys.insert(k);
    if (!a.options.empty() && !b.options.empty()) {
        for (const auto& k : keys) {
            auto va = a.options.count(k) ? a.options.at(k) : "(unset)";
            auto vb = b.options.count(k) ? b.options.at(k) : "(unset)";
            if (va != vb) out.push_back({K::OptionChanged, k, va, vb});
        }
    }
    return out;
}

// Adds one load to its module's summary. The identity key is (hash, device, block_dim): Warp keys its
// executables by (device context, block_dim) and rebuilds when the hash differs, so a load with a
// known identity is either a cache hit or a reload, never a new build of different code.
// Takes the load: 100,000 loads copied with their strings, options and kernels cost a tenth of the report.
void addLoad(ModuleSummary& m, ModuleLoad&& l) {
    auto sameIdentity = [&](const Identity& i) {
        return i.hash == l.hash && i.device == l.device && i.blockDim == l.blockDim;
    };
    auto it = std::find_if(m.identities.begin(), m.identities.end(), sameIdentity);
    if (it == m.identities.end()) {
        m.identities.push_back({.hash = l.hash, .device = l.device, .blockDim = l.blockDim});
        it = std::prev(m.identities.end());
    }
    Identity& id = *it;
    // Facts of the first load that has them: later loads of the same identity have the same
    // options and kernels by definition (the hash covers them).
    if (id.options.empty()) id.options = l.options;
    if (id.kernels.empty()) id.kernels = l.kernels;
    id.loadIds.push_back(l.id);
    std::int64_t ns = l.durNs.value_or(0);
    id.totalNs = util::satAdd(id.totalNs, ns);
    m.totalNs = util::satAdd(m.totalNs, ns);
    switch (l.result) {
    case CS_MODULE_COMPILED: ++id.compiled, ++m.compiled, id.compiledNs = util::satAdd(id.compiledNs, ns), m.compiledNs = util::satAdd(m.compiledNs, ns); break;
    case CS_MODULE_CACHED: ++id.cached, ++m.cached; break;
    case CS_MODULE_ERROR: ++id.errors, ++m.errors; break;
    default: ++id.unknown, ++m.unknown; break;
    }
    auto addDistinct = [](std::vector<std::string>& v, const std::string& s) {
        if (!s.empty() && std::find(v.begin(), v.end(), s) == v.end()) v.push_back(s);
    };
    addDistinct(m.hashes, l.hash);
    addDistinct(m.devices, l.device);
    if (l.blockDim && std::find(m.blockDims.begin(), m.blockDims.end(), *l.blockDim) == m.blockDims.end()) {
        m.blockDims.push_back(*l.blockDim);
        std::sort(m.blockDims.begin(), m.blockDims.end());
    }
    m.loads.push_back(std::move(l));
}

// The ids of the strings matching `where`, comma-separated ("" when none): a span query on a few
// names filters by id.
std::string stringIds(const trace::TraceReader& reader, const std::string& where) {
    std::string ids;
    reader.query("SELECT id FROM strings WHERE " + where,
                 [&](const trace::Row& st) { ids += (ids.empty() ? "" : ",") + std::to_string(trace::colInt(st, 0)); });
    return ids;
}
}  // namespace

ModuleReport groupLoads(std::vector<ModuleLoad> loads) {
    ModuleReport r;
    std::map<std::pair<std::int64_t, std::string>, size_t> index;
    for (auto& l : loads) {
        std::sort(l.kernels.begin(), l.kernels.end(), [](const ModuleKernel& a, const ModuleKernel& b) {
            return std::tie(a.name, a.generic, a.digest) < std::tie(b.name, b.generic, b.digest);
        });
        auto key = std::make_pair(l.sessionId, l.name);
        auto it = index.find(key);
        if (it == index.end()) {
            it = index.emplace(key, r.modules.size()).first;
            r.modules.push_back({.sessionId = l.sessionId, .name = l.name});
        }
        r.compiled += l.result == CS_MODULE_COMPILED;
        r.cached += l.result == CS_MODULE_CACHED;
        r.errors += l.result == CS_MODULE_ERROR;
        if (std::find(r.sessions.begin(), r.sessions.end(), l.sessionId) == r.sessions.end()) r.sessions.push_back(l.sessionId);
        ++r.loadCount;
        addLoad(r.modules[it->second], std::move(l));
    }
    std::sort(r.sessions.begin(), r.sessions.end());
    std::stable_sort(r.modules.begin(), r.modules.end(),
                     [](const ModuleSummary& a, const ModuleSummary& b) { return a.sessionId < b.sessionId; });
    // Diff each identity against the previous one of the same device and block_dim: that is the build
    // it superseded. Identities on another device or block_dim are variants, not churn, and are
    // judged by the block_dim rule instead.
    for (auto& m : r.modules) {
        for (size_t to = 1; to < m.identities.size(); ++to) {
            for (size_t from = to; from-- > 0;) {
                const auto &a = m.identities[from], &b = m.identities[to];
                if (a.device != b.device || a.blockDim != b.blockDim) continue;
                m.diffs.push_back({from, to, diffIdentities(a, b)});
                break;
            }
        }
    }
    return r;
}

ModuleReport buildModuleReport(const trace::TraceReader& reader) {
    ++analysisCounters().moduleReports;
    std::vector<ModuleLoad> loads;
    std::unordered_map<std::int64_t, size_t> byId;
    // The names and hashes come joined: nearly every load has a hash of its own, and a string looked
    // up one by one costs a statement each (a third of this function on 100k loads).
    reader.query("SELECT m.id, m.session_id, n.str, h.str, d.str, m.block_dim, m.start_ns, m.dur_ns, m.compile_ns, "
                 "m.source_bytes, m.lto_artifacts, m.result, m.origin_sid FROM module_loads m "
                 "LEFT JOIN strings n ON n.id = m.name_sid LEFT JOIN strings h ON h.id = m.hash_sid "
                 "LEFT JOIN strings d ON d.id = m.device_sid "
                 "WHERE m.session_id IN (SELECT id FROM sessions)",
                 [&](const trace::Row& st) {
                     ModuleLoad l;
                     l.id = trace::colInt(st, 0);
                     l.sessionId = trace::colInt(st, 1);
                     l.name = trace::colText(st, 2);
                     l.hash = trace::colText(st, 3);
                     l.device = trace::colText(st, 4);
                     l.blockDim = trace::colOpt(st, 5);
                     l.startNs = trace::colOpt(st, 6);
                     l.durNs = trace::colDuration(st, 7);
                     l.compileNs = trace::colDuration(st, 8);
                     l.sourceBytes = trace::colOpt(st, 9);
                     l.ltoArtifacts = trace::colOpt(st, 10);
                     l.result = static_cast<int>(trace::colInt(st, 11));
                     l.origin = reader.str(trace::colInt(st, 12));
                     byId[l.id] = loads.size();
                     loads.push_back(std::move(l));
                 });
    reader.query("SELECT load_id, key_sid, value_sid FROM module_options", [&](const trace::Row& st) {
        auto it = byId.find(trace::colInt(st, 0));
        if (it == byId.end()) return;
        loads[it->second].options[reader.str(trace::colInt(st, 1))] = reader.str(trace::colInt(st, 2));
    });
    reader.query("SELECT load_id, kernel_sid, digest_sid, generic_sid FROM module_kernels", [&](const trace::Row& st) {
        auto it = byId.find(trace::colInt(st, 0));
        if (it == byId.end()) return;
        loads[it->second].kernels.push_back({reader.str(trace::colInt(st, 1)), reader.str(trace::colInt(st, 2)),
                                             reader.str(trace::colInt(st, 3))});
    });
    // In session order, each session's loads in id order. The rows come in id order; sorting them in
    // SQL copied every joined row through a temporary B-tree (a fifth of this function).
    auto before = [](const ModuleLoad& a, const ModuleLoad& b) { return std::tie(a.sessionId, a.id) < std::tie(b.sessionId, b.id); };
    if (!std::is_sorted(loads.begin(), loads.end(), before)) std::sort(loads.begin(), loads.end(), before);
    ModuleReport r = groupLoads(std::move(loads));
    reader.query("SELECT c.session_id, s.str, n.str, c.value FROM counters c JOIN strings s ON s.id = c.scope_sid "
                 "JOIN strings n ON n.id = c.name_sid WHERE s.str LIKE 'warp.%' ORDER BY c.id",
                 [&](const trace::Row& st) {
                     r.counters[trace::colInt(st, 0)][trace::colText(st, 1) + "/" + trace::colText(st, 2)] = trace::colInt(st, 3);
                 });
    // Kernel lookup failures are kept by the log importer as launch spans named "Failed to find
    // <mode> kernel" with module / kernel / device / origin arguments.
    // Each span query looks for a few names: their string ids first (the strings table is far smaller
    // than the spans), so that a trace without such a span, the common case, scans no spans.
    const std::string failures = stringIds(reader, "str LIKE 'Failed to find % kernel'");
    if (!failures.empty())
    reader.query("SELECT sp.id, t.session_id, n.str FROM spans sp JOIN tracks t ON t.id = sp.track_id "
                 "JOIN strings n ON n.id = sp.name_sid WHERE sp.category = " + std::to_string(CS_CAT_LAUNCH) +
                     " AND sp.name_sid IN (" + failures + ") ORDER BY sp.id",
                 [&](const trace::Row& st) {
                     std::string name = trace::colText(st, 2);
                     if (name.size() < 22) return;
                     r.lookupFailures.push_back({.spanId = trace::colInt(st, 0),
                                                 .sessionId = trace::colInt(st, 1),
                                                 .mode = name.substr(15, name.size() - 22)});
                 });
    const std::string banners = stringIds(reader, "str LIKE 'Warp%initialized'");
    if (!banners.empty())
    reader.query("SELECT t.session_id, k.str, a.value FROM spans sp JOIN tracks t ON t.id = sp.track_id "
                 "JOIN span_args a ON a.span_id = sp.id "
                 "JOIN strings k ON k.id = a.key_sid WHERE sp.category = " + std::to_string(CS_CAT_INIT) +
                     " AND sp.name_sid IN (" + banners + ") ORDER BY sp.id, a.rowid",
                 [&](const trace::Row& st) {
                     r.banners[trace::colInt(st, 0)][trace::colText(st, 1)] = trace::colText(st, 2);
                 });
    for (auto& f : r.lookupFailures) {
        reader.query("SELECT k.str, a.value FROM span_args a JOIN strings k ON k.id = a.key_sid WHERE a.span_id = " +
                         std::to_string(f.spanId),
                     [&](const trace::Row& st) {
                         const std::string key = trace::colText(st, 0), value = trace::colText(st, 1);
                         if (key == "module") f.module = value;
                         else if (key == "kernel") f.kernel = value;
                         else if (key == "device") f.device = value;
                         else if (key == "origin") f.origin = value;
                     });
    }
    return r;
}

}  // namespace cs::engine::warp
