// Numba's call-time compiles per function, and the finding when they churn (numba_findings.h).
#include "core/engine/jit/numba_findings.h"

#include "core/util/saturating.h"

#include <algorithm>
#include <map>

namespace cs::engine::jit {

namespace {
struct Signatures {
    std::vector<std::string> distinct;  // "(int64, float64)", in first-seen order
    std::vector<size_t> rows;           // the call-time compiles, in lookup order
    std::int64_t laterNs = 0;           // compile time of every compile after the first
};

// "(int64, float64)": the argument types of a lookup, in argument order; "" when none was recorded.
std::string signatureOf(const CacheFacts& facts, const Lookup& l) {
    std::string sig;
    for (const auto& c : l.components) {
        const auto& name = facts.str(c.name);
        if (name.rfind("type of arg ", 0) != 0) continue;
        sig += (sig.empty() ? "" : ", ") + facts.str(c.value);
    }
    return sig.empty() ? "" : "(" + sig + ")";
}

bool calledAtRunTime(const CacheFacts& facts, const Lookup& l) {
    for (const auto& c : l.components)
        if (facts.str(c.name) == "trigger") return facts.str(c.value) == "call";
    return true;
}
}  // namespace

std::vector<Finding> numbaFindings(const CacheAnalysis& cache) {
    const auto& facts = cache.facts;
    std::map<std::pair<std::int64_t, Sid>, Signatures> byProgram;
    for (size_t i = 0; i < facts.lookups.size(); ++i) {
        const auto& l = facts.lookups[i];
        if (l.verdict == CS_VERDICT_HIT || facts.str(l.cache) != "numba.dispatcher" || !calledAtRunTime(facts, l)) continue;
        auto sig = signatureOf(facts, l);
        if (sig.empty()) continue;
        auto& s = byProgram[{l.sessionId, l.program}];
        if (!s.rows.empty()) s.laterNs = util::satAdd(s.laterNs, l.compileNs.value_or(0));
        s.rows.push_back(i);
        if (std::find(s.distinct.begin(), s.distinct.end(), sig) == s.distinct.end()) s.distinct.push_back(sig);
    }
    std::vector<Finding> out;
    for (const auto& [where, s] : byProgram) {
        if (s.distinct.size() < 3) continue;
        const auto& program = facts.str(where.second);
        auto f = makeFinding("numba.type_churn", Severity::Warning);
        std::string list;
        for (size_t i = 0; i < s.distinct.size() && i < 6; ++i) list += (i ? ", " : "") + s.distinct[i];
        if (s.distinct.size() > 6) list += ", ...";
        f.title = program + ": compiled at call time for " + std::to_string(s.distinct.size()) + " argument types " + list;
        f.mechanism = "Numba compiles one overload per argument-type tuple, lazily: each call with new types waited for "
                      "a compile in the middle of the run.";
        f.fix = "Give the function an explicit signature list with the types seen (@numba.njit([\"(int64, int64)\", "
                "...])): every overload compiles once, at definition, and a call with other types is an error instead "
                "of a silent compile. `compilescope fix` writes the list.";
        f.costNs = s.laterNs;
        for (size_t i = 0; i < s.rows.size() && i < 12; ++i) {
            const auto& l = facts.lookups[s.rows[i]];
            f.evidence.push_back({"cache_lookups", l.id, "types " + signatureOf(facts, l)});
        }
        f.sessionId = where.first;
        f.startNs = facts.lookups[s.rows.front()].tsNs;
        f.endNs = facts.lookups[s.rows.back()].tsNs;
        out.push_back(std::move(f));
    }
    return out;
}

}  // namespace cs::engine::jit
