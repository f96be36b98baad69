// Findings of PyTorch and JAX logs, each with the fix users of those runtimes apply.
//
// Why these seven: they are what PyTorch and JAX users ask about (docs/formats.md sections 3 and 4):
//   integer specialisation churn  one guard compares a Python int with a constant that goes 0, 1, 2,
//                                 ... (pytorch#99091: `L['t'] == 0`, `== 1`, ...): a compile per value
//   shape churn                   one input's size takes three or more values (pytorch#148179)
//   recompile limit hit           dynamo gave up and runs the frame eagerly from now on
//   cache bypass                  FX graph / AOT autograd cache refused the graph: full compile every run
//   persistent write never read   JAX wrote an entry no run in the trace read back
//   compile incomplete            the log ends inside a compile: neither finished nor failed
//   global state guard            ___check_global_state() failed: grad mode / autocast changed (pytorch#123784)
// The churn rules read the cache facts (any runtime whose key components show it); the others read the
// tagged spans of jit_report.h.
#include "core/engine/jit/jit_report.h"
#include "core/engine/jit/numba_findings.h"

#include "core/util/saturating.h"

#include <algorithm>
#include <charconv>
#include <set>

namespace cs::engine::jit {

namespace {
// PyTorch's reasons span lines ("...flex_attention. \n Function module: ..."): one line for a title.
std::string oneLine(const std::string& s) {
    std::string out;
    for (char c : s) {
        bool blank = c == '\n' || c == '\r' || c == ' ' || c == '\t';
        if (blank && (out.empty() || out.back() == ' ')) continue;
        out += blank ? ' ' : c;
    }
    while (!out.empty() && out.back() == ' ') out.pop_back();
    return out;
}

bool asInt(const std::string& s, long long& v) {
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    return ec == std::errc() && end == s.data() + s.size();
}

// The caches whose fixes these are (the seed runtimes have their own rules in cache_findings.cpp).
bool jitCache(const std::string& name) {
    return name == "torch dynamo" || name == "fx graph cache (persistent)" || name == "aot autograd cache (persistent)" ||
           name == "jax tracing cache";
}

bool notLogged(const std::string& v) { return v.rfind("(not logged", 0) == 0; }

void range(Finding& f, const CacheFacts& facts, const std::vector<size_t>& rows) {
    if (rows.empty()) return;
    f.sessionId = facts.lookups[rows.front()].sessionId;
    f.startNs = facts.lookups[rows.front()].tsNs;
    f.endNs = facts.lookups[rows.back()].tsNs;
}

// Per program and component: the values in lookup order, with the lookups that carry them.
struct Series {
    int role = CS_ROLE_OTHER;
    std::vector<std::pair<std::string, size_t>> values;
};

void churnFindings(const CacheAnalysis& a, std::vector<Finding>& out) {
    const auto& facts = a.facts;
    std::map<std::tuple<std::int64_t, Sid, Sid>, std::map<Sid, Series>> series;  // (session, cache, program) -> name -> values
    for (size_t i = 0; i < facts.lookups.size(); ++i) {
        const auto& l = facts.lookups[i];
        if (l.verdict == CS_VERDICT_HIT || !jitCache(facts.str(l.cache))) continue;
        for (const auto& c : l.components) {
            auto value = facts.str(c.value);
            if (notLogged(value)) continue;
            auto& s = series[{l.sessionId, l.cache, l.program}][c.name];
            s.role = c.role;
            s.values.emplace_back(value, i);
        }
    }
    for (const auto& [where, byName] : series) {
        const auto& program = facts.str(std::get<2>(where));
        for (const auto& [name, s] : byName) {
            std::vector<std::string> distinct;
            for (const auto& v : s.values)
                if (std::find(distinct.begin(), distinct.end(), v.first) == distinct.end()) distinct.push_back(v.first);
            if (distinct.size() < 3) continue;
            std::vector<size_t> rows;
            for (const auto& v : s.values) rows.push_back(v.second);
            std::string list;
            for (size_t i = 0; i < distinct.size() && i < 6; ++i) list += (i ? ", " : "") + distinct[i];
            if (distinct.size() > 6) list += ", ...";
            // Integer specialisation: every value an integer, in log order each one more than the last.
            bool ints = s.role != CS_ROLE_SHAPE;
            std::vector<long long> n;
            for (const auto& d : distinct) {
                long long v = 0;
                ints = ints && asInt(d, v);
                n.push_back(v);
            }
            bool steps = ints;
            for (size_t i = 1; steps && i < n.size(); ++i) steps = n[i] == n[i - 1] + 1;
            Finding f;
            if (steps) {
                f = makeFinding("jit.int_specialisation_churn", Severity::Warning);
                f.title = program + ": a compile per value of " + facts.str(name) + " (" + list + ")";
                f.mechanism = "A guard compares " + facts.str(name) + " with a constant, and the value goes up by one each "
                              "call (a step or loop counter). The compiler specialised on the integer, so every new value "
                              "fails the guard of every earlier compile and compiles again.";
                f.fix = "Do not specialise on the counter: pass it as a tensor (torch.tensor(t)), or compile with "
                        "torch.compile(dynamic=True) (torch._dynamo.config.specialize_int=False on old releases) so it "
                        "becomes symbolic; in JAX, drop it from static_argnums / static_argnames so it is traced.";
            } else if (s.role == CS_ROLE_SHAPE) {
                f = makeFinding("jit.shape_churn", Severity::Warning);
                f.title = program + ": " + std::to_string(distinct.size()) + " compiles for " + facts.str(name) + " (" + list + ")";
                f.mechanism = "The input's shape is part of the compiled key, and it took " + std::to_string(distinct.size()) +
                              " values: each new shape compiled the program again.";
                f.fix = "Mark the dimension dynamic before the first call (torch._dynamo.mark_dynamic(x, dim)) or compile "
                        "with torch.compile(dynamic=True); for a parameter set torch._dynamo.config."
                        "force_parameter_static_shapes = False. In JAX, pad or bucket inputs to a few fixed shapes.";
            } else if (facts.str(std::get<1>(where)) == "jax tracing cache" && facts.str(name).rfind("static argument ", 0) == 0) {
                f = makeFinding("jit.static_arg_churn", Severity::Warning);
                f.title = program + ": " + std::to_string(distinct.size()) + " compiles for " + facts.str(name) + " (" + list + ")";
                f.mechanism = "The argument is static (static_argnums / static_argnames), so its value is part of the "
                              "compiled key, and it took " + std::to_string(distinct.size()) + " values: each new value "
                              "traced and compiled the function again.";
                f.fix = "Drop it from static_argnums / static_argnames so it is traced (one compile for every value) "
                        "when the function uses it only in array operations; if it drives Python control flow or a "
                        "shape, keep it static and bound the values it takes.";
            } else {
                continue;
            }
            for (size_t i = 0; i < s.values.size() && i < 12; ++i)
                f.evidence.push_back({"cache_lookups", facts.lookups[s.values[i].second].id, facts.str(name) + " = " + s.values[i].first});
            range(f, facts, rows);
            out.push_back(std::move(f));
        }
    }
}

// pytorch#123784: `___check_global_state()` fails when grad mode, inference mode, autocast or another
// global torch setting differs from the one a compile was made under.
void globalStateFindings(const CacheAnalysis& a, std::vector<Finding>& out) {
    const auto& facts = a.facts;
    std::map<std::pair<std::int64_t, Sid>, std::vector<size_t>> byProgram;
    for (size_t i = 0; i < facts.lookups.size(); ++i) {
        const auto& l = facts.lookups[i];
        if (facts.str(l.cache) != "torch dynamo") continue;
        for (const auto& c : l.components)
            if (facts.str(c.name) == "___check_global_state()" && facts.str(c.value) == "failed")
                byProgram[{l.sessionId, l.program}].push_back(i);
    }
    for (const auto& [where, rows] : byProgram) {
        auto f = makeFinding("jit.global_state_guard", Severity::Warning);
        f.title = facts.str(where.second) + ": " + std::to_string(rows.size()) + " recompile(s) after a global state change";
        f.mechanism = "Dynamo guards on torch's global state (grad mode, inference mode, autocast, deterministic "
                      "algorithms, default dtype); the call ran under a different state than the compile, so "
                      "___check_global_state() failed and the function compiled again.";
        f.fix = "Call the compiled function under one state (e.g. always inside torch.no_grad() or always outside "
                "it), or compile one function per state and call the matching one.";
        for (auto i : rows) f.evidence.push_back({"cache_lookups", facts.lookups[i].id, "___check_global_state() failed"});
        range(f, facts, rows);
        out.push_back(std::move(f));
    }
}

void eventFindings(const JitReport& r, std::vector<Finding>& out) {
    std::map<std::pair<std::string, std::string>, std::vector<const JitEvent*>> bypasses;  // (cache, reason)
    for (const auto& e : r.events) {
        if (e.kind == "recompile_limit") {
            auto f = makeFinding("jit.recompile_limit_hit", Severity::Error);
            f.title = "torch._dynamo hit config." + e.arg("limit") + " (" + e.arg("limit_value") + ") for '" + e.arg("function") + "'";
            const std::string raised = e.arg("raised");
            f.mechanism = (raised.empty() ? std::string("Dynamo compiled this frame as many times as the limit allows and stopped: "
                                                        "from now on the frame runs without compiling (or raises, with fullgraph=True).")
                                          : "Dynamo compiled this frame as many times as the limit allows, and with fullgraph=True "
                                            "the call raised " + raised.substr(0, raised.find(". ")) + ".") +
                          " Last reason: " + (e.arg("last_reason").empty() ? std::string("(not printed)") : e.arg("last_reason"));
            f.fix = "Make the guard in the last reason stop failing: mark a changing dimension dynamic "
                    "(torch._dynamo.mark_dynamic / torch.compile(dynamic=True)), stop passing a new object or int each "
                    "call. Raising torch._dynamo.config.recompile_limit (cache_size_limit before 2.6) only postpones it.";
            f.evidence.push_back({"spans", e.spanId, e.name});
            f.sessionId = e.sessionId;
            f.startNs = f.endNs = e.tsNs;
            out.push_back(std::move(f));
        } else if (e.kind == "cache_bypass") {
            bypasses[{e.arg("cache"), e.arg("reason")}].push_back(&e);
        } else if (e.kind == "compile_incomplete") {
            auto f = makeFinding("jit.compile_incomplete", Severity::Info);
            f.title = "compile " + e.arg("compile_id") + " of " + e.name + " did not finish in the log";
            f.mechanism = "The log ends (or was cut) inside this compile: no compilation_metrics record closed it. It is "
                          "counted up to the last record, and is neither a success nor a failure.";
            f.fix = "Collect the whole log (the process may have been killed or the copy truncated) to see how it ended.";
            f.evidence.push_back({"spans", e.spanId, "compile " + e.arg("compile_id")});
            f.sessionId = e.sessionId;
            f.startNs = f.endNs = e.tsNs;
            out.push_back(std::move(f));
        }
    }
    for (const auto& [what, events] : bypasses) {
        auto f = makeFinding("jit.cache_bypass", Severity::Warning);
        f.title = what.first + " bypassed " + std::to_string(events.size()) + " time(s): " + oneLine(what.second);
        f.mechanism = "The cache refused to store or look up the graph, so it was compiled in full each time and will be "
                      "again on the next run. Reason logged by PyTorch: " + oneLine(what.second);
        f.fix = "Remove the construct the reason names if you can (an unsupported op or a custom pass); otherwise expect a "
                "full compile per run. torch._inductor.config.fx_graph_cache and "
                "torch._functorch.config.enable_autograd_cache switch the caches.";
        for (const auto* e : events) f.evidence.push_back({"spans", e->spanId, "compile " + e->arg("compile_id")});
        f.sessionId = events.front()->sessionId;
        f.startNs = events.front()->tsNs;
        f.endNs = events.back()->tsNs;
        out.push_back(std::move(f));
    }
}

void unreadWrites(const JitReport& r, const CacheAnalysis* cache, std::vector<Finding>& out) {
    for (const auto& h : r.persistentKeys) {
        if (h.writes.empty()) continue;
        bool read = false;
        for (auto i : h.lookups) read = read || (cache && cache->facts.lookups[i].verdict == CS_VERDICT_HIT);
        if (read) continue;
        auto f = makeFinding("jit.persistent_write_never_read", Severity::Info);
        f.title = h.program + ": persistent-cache entry written, never read (key " + h.key + ")";
        f.mechanism = "The compiled program was written to the persistent compilation cache, but no run in this trace "
                      "looked it up with a hit; the write cost time and disk for nothing so far.";
        f.fix = "If later runs miss this key, something in it changes between runs (JAX version, flags, devices, "
                "donation); if the program is cheap, raise jax_persistent_cache_min_compile_time_secs / "
                "jax_persistent_cache_min_entry_size_bytes so it is not written.";
        for (auto w : h.writes) {
            const auto& e = r.events[w];
            f.evidence.push_back({"spans", e.spanId, "write " + h.key});
            f.sessionId = e.sessionId;
            f.startNs = f.endNs = e.tsNs;
        }
        out.push_back(std::move(f));
    }
}
}  // namespace

std::vector<Finding> jitFindings(const JitReport& report, const CacheAnalysis* cache) {
    std::vector<Finding> out;
    eventFindings(report, out);
    if (cache) {
        churnFindings(*cache, out);
        globalStateFindings(*cache, out);
        for (auto& f : numbaFindings(*cache)) out.push_back(std::move(f));
    }
    unreadWrites(report, cache, out);
    return out;
}

}  // namespace cs::engine::jit
