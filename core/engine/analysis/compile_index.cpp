// Builds the compile index (compile_index.h) in two passes: every row as a few integers (to count
// and choose), then the details of the chosen rows only. Cache lookups and module loads come from
// the analyses already in memory (the replay's verdicts and miss explanations, the module
// identities); the CUDA tables and spans are read here.
#include "core/engine/analysis/compile_index.h"
#include "core/util/saturating.h"

#include "core/engine/analysis/trace_analysis.h"
#include "core/engine/warp/warp_modules.h"

#include "core/trace/reader.h"
#include "core/trace/row.h"
#include "core/trace/schema.h"

#include <compilescope/trace_constants.h>

#include <algorithm>
#include <map>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

namespace cs::engine {

using trace::colInt;
using trace::colOpt;

const char* outcomeName(CompileOutcome o) {
    switch (o) {
    case CompileOutcome::Hit: return "hit";
    case CompileOutcome::Miss: return "miss";
    case CompileOutcome::Compiled: return "compiled";
    case CompileOutcome::Cached: return "cached";
    case CompileOutcome::Error: return "error";
    case CompileOutcome::Unknown: return "unknown";
    }
    return "unknown";
}

std::string compileAnchor(std::string_view table, std::int64_t rowId) {
    static const std::pair<std::string_view, std::string_view> kPrefixes[] = {
        {"cache_lookups", "lookup"}, {"module_loads", "load"}, {"cuda_programs", "program"}, {"cuda_jit", "jit"},
        {"spans", "span"}};
    for (const auto& [t, prefix] : kPrefixes)
        if (t == table) return std::string(prefix) + "-" + std::to_string(rowId);
    return {};
}

namespace {
constexpr std::string_view kSources[] = {"cache_lookups", "module_loads", "cuda_programs", "cuda_jit", "spans"};
enum Source { Lookups, Modules, Programs, Jit, Spans };
}  // namespace

std::int64_t CompileIndex::find(std::string_view table, std::int64_t rowId) const {
    const auto source = std::find(std::begin(kSources), std::end(kSources), table) - std::begin(kSources);
    if (static_cast<size_t>(source) >= m_byRow.size()) return -1;
    const auto& rows = m_byRow[static_cast<size_t>(source)];
    auto it = rows.find(rowId);
    return it == rows.end() ? -1 : static_cast<std::int64_t>(it->second);
}

namespace {

// The cheap form of a row: enough to count it, rank it and find its details later.
struct Candidate {
    int source = 0;  // index into kSources
    std::int64_t rowId = 0, sessionId = 0;
    std::int64_t startNs = 0;  // display axis
    CompileOutcome outcome = CompileOutcome::Unknown;
    size_t ref = 0;  // lookup index, or the module load's position
    bool costly() const {
        return outcome == CompileOutcome::Miss || outcome == CompileOutcome::Compiled || outcome == CompileOutcome::Error;
    }
};


class Builder {
public:
    Builder(const trace::TraceReader& reader, const TraceAnalysis& a, IndexDetail detail)
        : m_reader(reader), m_a(a), m_detail(detail) {
        for (const SessionSummary& s : a.summary.sessions) m_sessions[s.id] = &s;
        reader.query("SELECT session_id, ts_ns, step FROM steps ORDER BY session_id, ts_ns, id",
                     [&](const trace::Row& st) { m_steps[colInt(st, 0)].push_back({colInt(st, 1), colInt(st, 2)}); });
        if (detail == IndexDetail::Identity) return;  // the maps below serve the explanations only
        if (a.cache)
            for (const MissExplanation& e : a.cache->attribution.misses) m_miss[e.lookup] = &e;
        if (a.modules)
            for (const warp::ModuleSummary& m : a.modules->modules)
                for (size_t i = 0; i < m.identities.size(); ++i)
                    for (std::int64_t id : m.identities[i].loadIds) m_identityOf[id] = {&m, i};
    }

    std::vector<Candidate> candidates() {
        std::vector<Candidate> out;
        if (m_a.cache) {
            const CacheFacts& f = m_a.cache->facts;
            for (size_t i = 0; i < f.lookups.size(); ++i) {
                const Lookup& l = f.lookups[i];
                out.push_back({Lookups, l.id, l.sessionId, display(l.sessionId, l.tsNs), lookupOutcome(i), i});
            }
        }
        if (m_a.modules)
            for (const warp::ModuleSummary& m : m_a.modules->modules)
                for (const warp::ModuleLoad& l : m.loads) {
                    m_loads[l.id] = &l;
                    out.push_back({Modules, l.id, l.sessionId, display(l.sessionId, l.startNs.value_or(0)),
                                   moduleOutcome(l.result), 0});
                }
        m_reader.query("SELECT id, session_id, start_ns, result FROM cuda_programs", [&](const trace::Row& st) {
            auto result = colOpt(st, 3);
            out.push_back({Programs, colInt(st, 0), colInt(st, 1), display(colInt(st, 1), colInt(st, 2)),
                           !result ? CompileOutcome::Unknown : *result == 0 ? CompileOutcome::Compiled : CompileOutcome::Error, 0});
        });
        m_reader.query("SELECT id, session_id, coalesce(start_ns, 0), operation FROM cuda_jit", [&](const trace::Row& st) {
            const auto op = colInt(st, 3);
            out.push_back({Jit, colInt(st, 0), colInt(st, 1), display(colInt(st, 1), colInt(st, 2)),
                           op == CS_JIT_OP_COMPILE ? CompileOutcome::Compiled
                           : op == CS_JIT_OP_CACHE_LOAD ? CompileOutcome::Cached
                           : op == CS_JIT_OP_CACHE_STORE ? CompileOutcome::Compiled : CompileOutcome::Unknown, 0});
        });
        // A compile span whose status arg says failed (torch.compile's fail_type) is an error row. The
        // failed spans first, from the arguments (few), rather than a lookup per span (every compile).
        std::unordered_set<std::int64_t> failed;
        m_reader.query("SELECT a.span_id FROM span_args a JOIN strings k ON k.id = a.key_sid "
                       "WHERE k.str = 'status' AND a.value = 'failed'",
                       [&](const trace::Row& st) { failed.insert(colInt(st, 0)); });
        // IndexDetail::Identity: each span's name and duration in the same pass (leanDetails).
        const bool lean = m_detail == IndexDetail::Identity;
        m_reader.query(std::string("SELECT sp.id, t.session_id, sp.start_ns, sp.category, ") +
                           (lean ? "sp.dur_ns, sp.name_sid" : "NULL, NULL") +
                           " FROM spans sp JOIN tracks t ON t.id = sp.track_id WHERE sp.category IN (" +
                           std::to_string(CS_CAT_COMPILE) + ", " + std::to_string(CS_CAT_CACHE_LOAD) + ")",
                       [&](const trace::Row& st) {
                           const std::int64_t id = colInt(st, 0);
                           const bool compile = colInt(st, 3) == CS_CAT_COMPILE;
                           out.push_back({Spans, id, colInt(st, 1), display(colInt(st, 1), colInt(st, 2)),
                                          !compile ? CompileOutcome::Cached
                                          : failed.count(id) ? CompileOutcome::Error : CompileOutcome::Compiled, 0});
                           if (!lean) return;
                           LeanRow& r = m_spans[id];
                           r.kind = compile ? "compile span" : "cache-load span";
                           r.durNs = colOpt(st, 4);
                           r.nameSid = colInt(st, 5);
                       });
        return out;
    }

    void details(const Candidate& c, CompileEntry& e) {
        e.table = std::string(kSources[c.source]);
        e.rowId = c.rowId;
        e.sessionId = c.sessionId;
        e.outcome = c.outcome;
        e.startNs = c.startNs;
        if (auto it = m_sessions.find(c.sessionId); it != m_sessions.end()) {
            e.session = it->second->label;
            e.runtime = it->second->runtime;
        } else {
            e.session = "session " + std::to_string(c.sessionId);
        }
        switch (c.source) {
        case Lookups: lookupDetails(c, e); break;
        case Modules: moduleDetails(c, e); break;
        case Programs: m_detail == IndexDetail::Full ? programDetails(e) : leanDetails(m_programs, e); break;
        case Jit: m_detail == IndexDetail::Full ? jitDetails(e) : leanDetails(m_jit, e); break;
        default: m_detail == IndexDetail::Full ? spanDetails(e) : leanDetails(m_spans, e); break;
        }
        if (!e.step) e.step = stepAt(c.sessionId, c.startNs);
    }

private:
    std::int64_t display(std::int64_t session, std::int64_t ns) const {
        auto it = m_sessions.find(session);
        return it == m_sessions.end() ? ns : util::satAdd(ns, it->second->offsetNs);
    }
    // The runtime's step at a display-axis instant: the last `steps` row of the session at or before it.
    std::optional<std::int64_t> stepAt(std::int64_t session, std::int64_t displayNs) const {
        auto it = m_steps.find(session);
        if (it == m_steps.end()) return std::nullopt;
        const std::int64_t ns = util::satSub(displayNs, m_sessions.count(session) ? m_sessions.at(session)->offsetNs : 0);
        std::optional<std::int64_t> step;
        for (const auto& [ts, s] : it->second) {
            if (ts > ns) break;
            step = s;
        }
        return step;
    }
    CompileOutcome lookupOutcome(size_t i) const {
        const Lookup& l = m_a.cache->facts.lookups[i];
        if (l.verdict == CS_VERDICT_HIT) return CompileOutcome::Hit;
        if (l.verdict == CS_VERDICT_MISS) return CompileOutcome::Miss;
        return m_a.cache->replay.outcomes[i].hit ? CompileOutcome::Hit : CompileOutcome::Miss;
    }
    static CompileOutcome moduleOutcome(int result) {
        switch (result) {
        case CS_MODULE_COMPILED: return CompileOutcome::Compiled;
        case CS_MODULE_CACHED: return CompileOutcome::Cached;
        case CS_MODULE_ERROR: return CompileOutcome::Error;
        default: return CompileOutcome::Unknown;
        }
    }

    void lookupDetails(const Candidate& c, CompileEntry& e) {
        const CacheAnalysis& ca = *m_a.cache;
        const CacheFacts& f = ca.facts;
        const Lookup& l = f.lookups[c.ref];
        const LookupOutcome& o = ca.replay.outcomes[c.ref];
        e.kind = "cache lookup";
        e.name = f.str(l.program);
        e.identity = f.str(l.cache);
        if (l.handle) e.identity += (e.identity.empty() ? "" : ", handle ") + f.str(l.handle);
        e.step = l.step;
        e.costNs = l.compileNs;
        for (const KeyComponent& k : l.components)
            e.key.push_back({f.str(k.name), roleName(k.role), componentValue(f, k), k.inKey()});
        if (m_detail == IndexDetail::Identity) return;  // named; the explanation is for people
        if (auto it = m_miss.find(c.ref); it != m_miss.end()) {
            const MissExplanation& m = *it->second;
            e.why = m.reason;
            for (const auto& ch : m.changes) e.changes.push_back({ch.name, ch.before, ch.after, true});
            for (const auto& ch : m.unkeyed) e.changes.push_back({ch.name, ch.before, ch.after, false});
            for (const auto& method : m.drifted) e.changes.push_back({"redefined method", method, "(poisoned)", true});
            if (m.against) e.againstLookup = f.lookups[*m.against].id;
        } else if (o.hit) {
            if (o.loaded) e.why = "loaded from the persistent cache (stored before the trace began)";
            else if (o.entry >= 0) {
                const size_t by = ca.replay.entries[static_cast<size_t>(o.entry)].createdBy;
                e.why = "served the program cache lookup " + std::to_string(f.lookups[by].id) + " compiled";
                e.againstLookup = f.lookups[by].id;
            } else {
                e.why = "hit";
            }
            if (o.memo) e.why += ", from the handle's own memo";
            if (o.stale) e.why += "; stale: its entry was poisoned by a redefined method";
        }
        if (o.disagrees)
            e.why += std::string(e.why.empty() ? "" : "; ") + "the replay says " + (o.hit ? "hit" : "miss") +
                     ", the runtime said " + (l.verdict == CS_VERDICT_HIT ? "hit" : "miss");
        if (l.fingerprint) e.log = "graph fingerprint " + f.str(l.fingerprint);
    }

    void moduleDetails(const Candidate& c, CompileEntry& e) {
        auto lit = m_loads.find(c.rowId);
        if (lit == m_loads.end()) return;
        const warp::ModuleLoad& l = *lit->second;
        e.kind = "module load";
        e.name = l.name;
        e.identity = warp::shortHash(l.hash);
        if (l.blockDim) e.identity += ", block_dim " + std::to_string(*l.blockDim);
        if (!l.device.empty()) e.identity += ", " + l.device;
        e.durNs = l.durNs;
        e.costNs = l.result == CS_MODULE_COMPILED && l.compileNs ? l.compileNs : l.durNs;
        if (m_detail == IndexDetail::Identity) return;  // named; the explanation is for people
        for (const auto& [k, v] : l.options) e.options.push_back({k, v});
        for (const auto& k : l.kernels) e.inputs.push_back(k.generic.empty() ? k.name : k.name + " [" + k.generic + "]");
        if (l.sourceBytes) e.log = "generated source: " + std::to_string(*l.sourceBytes) + " bytes";
        if (!l.origin.empty()) e.log += (e.log.empty() ? "" : "; ") + std::string("read from ") + l.origin;
        auto iit = m_identityOf.find(l.id);
        if (iit == m_identityOf.end()) return;
        const auto& [m, idx] = iit->second;
        const warp::Identity& id = m->identities[idx];
        const bool firstOfIdentity = !id.loadIds.empty() && id.loadIds.front() == l.id;
        const std::string of = " (identity " + std::to_string(idx + 1) + " of " + std::to_string(m->identities.size()) + ")";
        if (l.result == CS_MODULE_CACHED) {
            e.why = "loaded from the kernel cache" + of;
        } else if (l.result == CS_MODULE_ERROR) {
            e.why = "the load failed" + of;
        } else if (!firstOfIdentity) {
            e.why = "compiled again under an identity already built: the kernel cache was not reused" + of;
        } else if (idx == 0) {
            e.why = "first build of this module name" + of;
        } else {
            e.why = "new identity" + of + ": ";
            const warp::Identity& prev = m->identities[idx - 1];
            if (prev.blockDim != id.blockDim)
                e.changes.push_back({"block_dim", prev.blockDim ? std::to_string(*prev.blockDim) : "-",
                                     id.blockDim ? std::to_string(*id.blockDim) : "-", true});
            if (prev.hash != id.hash) e.changes.push_back({"module hash", warp::shortHash(prev.hash), warp::shortHash(id.hash), true});
            for (const warp::IdentityDiff& d : m->diffs)
                if (d.to == idx)
                    for (const auto& ch : d.changes)
                        e.changes.push_back({std::string(warp::changeKindName(ch.kind)) + " " + ch.subject,
                                             ch.before.empty() ? "(absent)" : ch.before, ch.after.empty() ? "(absent)" : ch.after, true});
            e.why += prev.blockDim != id.blockDim && prev.hash == id.hash
                         ? "another block_dim compiles the whole module again"
                         : "its kernel set, options or generic instances changed since the previous identity";
        }
    }

    void programDetails(CompileEntry& e) {
        std::int64_t logBytes = -1, outputBytes = -1;
        int api = 0;
        std::int64_t session = 0, start = 0;
        m_reader.query("SELECT api, start_ns, dur_ns, name_sid, source_digest_sid, result, log_bytes, output_bytes, session_id "
                       "FROM cuda_programs WHERE id = " + std::to_string(e.rowId),
                       [&](const trace::Row& st) {
                           api = static_cast<int>(colInt(st, 0));
                           start = colInt(st, 1);
                           e.durNs = colOpt(st, 2);
                           e.name = m_reader.str(colInt(st, 3));
                           if (auto d = colInt(st, 4)) e.identity = "source " + m_reader.str(d);
                           if (auto r = colOpt(st, 5); r && *r != 0) e.why = "failed with result " + std::to_string(*r);
                           logBytes = colOpt(st, 6).value_or(-1);
                           outputBytes = colOpt(st, 7).value_or(-1);
                           session = colInt(st, 8);
                       });
        e.kind = api == CS_CUDA_NVJITLINK ? "nvJitLink link" : api == CS_CUDA_NVCC ? "nvcc compile" : "NVRTC program";
        e.costNs = e.durNs;
        if (e.why.empty()) e.why = api == CS_CUDA_NVJITLINK ? "linked" : "compiled from source at run time";
        m_reader.query("SELECT option_sid FROM cuda_program_options WHERE program_id = " + std::to_string(e.rowId) +
                           " ORDER BY ordinal",
                       [&](const trace::Row& st) {
                           std::string opt = m_reader.str(colInt(st, 0));
                           auto eq = opt.find('=');
                           if (eq == std::string::npos) e.options.push_back({opt, ""});
                           else e.options.push_back({opt.substr(0, eq), opt.substr(eq + 1)});
                       });
        m_reader.query("SELECT kind_sid, name_sid, bytes FROM cuda_program_inputs WHERE program_id = " + std::to_string(e.rowId) +
                           " ORDER BY ordinal",
                       [&](const trace::Row& st) {
                           std::string in = m_reader.str(colInt(st, 1));
                           if (auto k = colInt(st, 0)) in = m_reader.str(k) + " " + in;
                           if (auto b = colOpt(st, 2)) in += " (" + std::to_string(*b) + " bytes)";
                           e.inputs.push_back(in);
                       });
        if (logBytes >= 0)
            e.log = "compile log: " + std::to_string(logBytes) + " bytes (the text itself is not recorded)";
        if (outputBytes >= 0) e.log += (e.log.empty() ? "" : "; ") + std::string("output: ") + std::to_string(outputBytes) + " bytes";
        // Phase timings the same session reported while the program compiled (NVRTC --time).
        if (e.durNs)
            m_reader.query("SELECT phase_sid, total(max(dur_ns, 0)), count(*) FROM phase_timings WHERE session_id = " +
                               std::to_string(session) + " AND start_ns >= " + std::to_string(start) + " AND start_ns < " +
                               std::to_string(util::satAdd(start, *e.durNs)) + " GROUP BY phase_sid ORDER BY 2 DESC LIMIT 20",
                           [&](const trace::Row& st) { e.phases.push_back({m_reader.str(colInt(st, 0)), colInt(st, 1), colInt(st, 2)}); });
    }

    void jitDetails(CompileEntry& e) {
        m_reader.query("SELECT dur_ns, entry_type, operation, cache_path_sid, cache_bytes FROM cuda_jit WHERE id = " +
                           std::to_string(e.rowId),
                       [&](const trace::Row& st) {
                           e.durNs = colOpt(st, 0);
                           e.name = std::string(trace::enumName("jit_entry", static_cast<int>(colInt(st, 1))));
                           e.why = "driver JIT " + std::string(trace::enumName("jit_operation", static_cast<int>(colInt(st, 2))));
                           if (auto p = colInt(st, 3)) e.identity = m_reader.str(p);
                           if (auto b = colOpt(st, 4)) e.log = "cache entry: " + std::to_string(*b) + " bytes";
                       });
        e.kind = "driver JIT";
        e.costNs = e.durNs;
    }

    // torch.compile's compile spans (torch_trace_builder.h): the compile id tells two compiles of one
    // function apart; why says it failed (fail_type), restarted (graph break) or recompiled (the first
    // guard failure), as tlparse's index and its failures page do.
    void torchWhy(CompileEntry& e) {
        std::map<std::string, std::string> a;  // the args it reads, wherever they are among the metrics
        m_reader.query("SELECT k.str, a.value FROM span_args a JOIN strings k ON k.id = a.key_sid WHERE a.span_id = " +
                           std::to_string(e.rowId) + " AND k.str IN ('compile_id', 'status', 'fail_type', 'fail_reason', "
                           "'graph_break', 'guard failure 1', 'restart_reasons')",
                       [&](const trace::Row& st) { a.emplace(trace::colText(st, 0), trace::colText(st, 1)); });
        auto first = [](const std::string& s) { return s.substr(0, s.find('\n')); };
        if (auto id = a.find("compile_id"); id != a.end()) e.identity = "compile " + id->second;
        const std::string status = a.count("status") ? a["status"] : "";
        if (status == "failed")
            e.why = "failed: " + a["fail_type"] + (a["fail_reason"].empty() ? "" : ": " + first(a["fail_reason"]));
        else if (status == "restarted")
            e.why = "restarted" + (a["graph_break"].empty() ? std::string() : ": " + first(a["graph_break"]));
        else if (!a["guard failure 1"].empty())
            e.why = "recompiled: " + first(a["guard failure 1"]);
        else if (!a["restart_reasons"].empty())
            e.why = "compiled after a restart: " + first(a["restart_reasons"]);
    }

    void spanDetails(CompileEntry& e) {
        std::int64_t track = 0, start = 0;
        int category = 0;
        m_reader.query("SELECT track_id, start_ns, dur_ns, name_sid, detail_sid, category FROM spans WHERE id = " +
                           std::to_string(e.rowId),
                       [&](const trace::Row& st) {
                           track = colInt(st, 0);
                           start = colInt(st, 1);
                           e.durNs = colOpt(st, 2);
                           e.name = m_reader.str(colInt(st, 3));
                           e.log = m_reader.str(colInt(st, 4));
                           category = static_cast<int>(colInt(st, 5));
                       });
        e.kind = category == CS_CAT_COMPILE ? "compile span" : "cache-load span";
        e.costNs = e.durNs;
        e.why = category == CS_CAT_COMPILE ? "compiled" : "loaded code compiled before";
        m_reader.query("SELECT key_sid, value FROM span_args WHERE span_id = " + std::to_string(e.rowId) + " LIMIT 50",
                       [&](const trace::Row& st) { e.options.push_back({m_reader.str(colInt(st, 0)), trace::colText(st, 1)}); });
        // A --trace-compile statement printed without --trace-compile-timing, a TORCH_LOGS recompile.
        bool untimed = false;
        for (const auto& [name, value] : e.options) untimed |= name == "untimed" && value == "1";
        torchWhy(e);
        if (untimed) e.why += " (the log printed no time for it: time not recorded)";
        else if (!e.durNs) e.why += " (it never ended: time not recorded)";
        // Nested work on the same track (inference, codegen, phases): the compile's phase durations.
        if (e.durNs && *e.durNs > 0)
            m_reader.query("SELECT category, total(max(dur_ns, 0)), count(*) FROM spans WHERE track_id = " + std::to_string(track) +
                               " AND start_ns >= " + std::to_string(start) + " AND start_ns < " +
                               std::to_string(util::satAdd(start, *e.durNs)) + " AND id != " + std::to_string(e.rowId) +
                               " AND dur_ns IS NOT NULL GROUP BY category ORDER BY 2 DESC",
                           [&](const trace::Row& st) {
                               e.phases.push_back({std::string(trace::enumName("category", static_cast<int>(colInt(st, 0)))),
                                                   colInt(st, 1), colInt(st, 2)});
                           });
    }


public:
    // IndexDetail::Identity: the naming fields of every CUDA program, driver JIT row and compile span,
    // one query per table instead of several per row. After candidates(), which reads the spans'.
    struct LeanRow {
        const char* kind = "";
        std::int64_t nameSid = 0;  // through the reader's string cache: a name repeats over many rows
        std::string name, identity, why;
        std::optional<std::int64_t> durNs;
    };
    using LeanRows = std::unordered_map<std::int64_t, LeanRow>;

    void prefetchLean() {
        m_reader.query("SELECT id, api, dur_ns, name_sid, source_digest_sid, result FROM cuda_programs", [&](const trace::Row& st) {
            const auto api = colInt(st, 1);
            LeanRow& r = m_programs[colInt(st, 0)];
            r.kind = api == CS_CUDA_NVJITLINK ? "nvJitLink link" : api == CS_CUDA_NVCC ? "nvcc compile" : "NVRTC program";
            r.durNs = colOpt(st, 2);
            r.nameSid = colInt(st, 3);
            if (auto d = colInt(st, 4)) r.identity = "source " + m_reader.str(d);
            if (auto res = colOpt(st, 5); res && *res != 0) r.why = "failed with result " + std::to_string(*res);
        });
        m_reader.query("SELECT id, dur_ns, entry_type, cache_path_sid FROM cuda_jit", [&](const trace::Row& st) {
            LeanRow& r = m_jit[colInt(st, 0)];
            r.kind = "driver JIT";
            r.durNs = colOpt(st, 1);
            r.name = std::string(trace::enumName("jit_entry", static_cast<int>(colInt(st, 2))));
            if (auto p = colInt(st, 3)) r.identity = m_reader.str(p);
        });
        // The spans' names and durations come with their candidates (candidates()); torch.compile's compile
        // id tells two compiles of one frame apart (torchWhy).
        m_reader.query("SELECT a.span_id, a.value FROM span_args a JOIN strings k ON k.id = a.key_sid WHERE k.str = 'compile_id'",
                       [&](const trace::Row& st) {
                           if (auto it = m_spans.find(colInt(st, 0)); it != m_spans.end())
                               it->second.identity = "compile " + trace::colText(st, 1);
                       });
    }

private:
    void leanDetails(const LeanRows& rows, CompileEntry& e) const {
        auto it = rows.find(e.rowId);
        if (it == rows.end()) return;
        e.kind = it->second.kind;
        e.name = it->second.nameSid ? m_reader.str(it->second.nameSid) : it->second.name;
        e.identity = it->second.identity;
        e.why = it->second.why;
        e.durNs = it->second.durNs;
        e.costNs = e.durNs;
    }

    const trace::TraceReader& m_reader;
    const TraceAnalysis& m_a;
    const IndexDetail m_detail;
    LeanRows m_programs, m_jit, m_spans;
    std::map<std::int64_t, const SessionSummary*> m_sessions;
    std::map<std::int64_t, std::vector<std::pair<std::int64_t, std::int64_t>>> m_steps;
    std::map<size_t, const MissExplanation*> m_miss;
    std::map<std::int64_t, std::pair<const warp::ModuleSummary*, size_t>> m_identityOf;
    std::map<std::int64_t, const warp::ModuleLoad*> m_loads;
};

}  // namespace

CompileIndex buildCompileIndex(const trace::TraceReader& reader, const TraceAnalysis& analysis, size_t rowLimit,
                               IndexDetail detail) {
    CompileIndex index;
    index.rowLimit = rowLimit;
    Builder b(reader, analysis, detail);
    std::vector<Candidate> all = b.candidates();
    if (detail == IndexDetail::Identity) b.prefetchLean();
    index.total = static_cast<std::int64_t>(all.size());
    for (const Candidate& c : all) ++index.byOutcome[c.outcome];
    // Costly rows first, each group in time order; then the chosen rows back in time order.
    auto byTime = [](const Candidate& x, const Candidate& y) {
        return std::tie(x.startNs, x.source, x.rowId) < std::tie(y.startNs, y.source, y.rowId);
    };
    // The rows kept are the first rowLimit of that order: the costly ones, then the earliest others.
    // Chosen by partition and selection, not by sorting every candidate (500,000 in diff's benchmark).
    if (all.size() > rowLimit) {
        const auto others = std::partition(all.begin(), all.end(), [](const Candidate& c) { return c.costly(); });
        const auto cut = all.begin() + static_cast<std::ptrdiff_t>(rowLimit);
        if (others > cut) std::nth_element(all.begin(), cut, others, byTime);  // the earliest costly ones
        else if (others < cut) std::nth_element(others, cut, all.end(), byTime);  // every costly one, then
                                                                                  // the earliest others
        all.resize(rowLimit);
    }
    std::sort(all.begin(), all.end(), byTime);
    index.entries.reserve(all.size());
    index.m_byRow.resize(std::size(kSources));
    for (const Candidate& c : all) {
        index.m_byRow[c.source][c.rowId] = index.entries.size();
        b.details(c, index.entries.emplace_back());  // filled in place: a row is a dozen strings and vectors
    }
    // The findings that cite each listed row.
    for (size_t fi = 0; fi < analysis.findings.size(); ++fi)
        for (const Evidence& ev : analysis.findings[fi].evidence) {
            std::int64_t at = index.find(ev.table, ev.rowId);
            if (at < 0) continue;
            auto& list = index.entries[static_cast<size_t>(at)].findings;
            if (list.empty() || list.back() != fi) list.push_back(fi);
        }
    return index;
}

}  // namespace cs::engine
