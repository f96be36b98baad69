#include "core/engine/cache/acceptance.h"

#include "core/engine/cache/runtime_words.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

namespace cs::engine {

namespace {
enum class ProgramKind { Gradient, Optimizer, Eval, Metric, Other };

ProgramKind kindOf(std::string name) {
    std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
    if (name.find("metric") != std::string::npos) return ProgramKind::Metric;
    if (name.rfind("grad", 0) == 0) return ProgramKind::Gradient;
    if (name.rfind("opt", 0) == 0) return ProgramKind::Optimizer;
    for (auto w : {"eval", "valid", "forward", "predict"})
        if (name.find(w) != std::string::npos) return ProgramKind::Eval;
    return ProgramKind::Other;
}

std::string plural(std::int64_t n, const std::string& word) {
    return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}
}  // namespace

ExpectedPrograms expectedProgramCount(const RunShape& run) {
    ExpectedPrograms e;
    std::vector<std::string> parts;
    auto add = [&](std::int64_t n, std::string what) {
        if (!n) return;
        e.count += n;
        parts.push_back(std::move(what));
    };
    add(run.gradient, "gradient");
    add(run.optimizer, "optimizer");
    add(run.validates, "evaluation forward");
    add(run.deviceMetricHooks, plural(run.deviceMetricHooks, ":device metric program"));
    add(run.raggedSplits, plural(run.raggedSplits, "ragged-split rebuild"));
    add(run.otherPrograms, plural(run.otherPrograms, "other program"));
    bool trains = run.gradient && run.optimizer;
    std::string label = trains && !run.validates && !run.deviceMetricHooks && !run.otherPrograms ? "train-only run"
                        : trains && run.validates                                                 ? "run that trains and validates"
                                                                                                  : "run";
    std::string sum;
    for (const auto& p : parts) sum += (sum.empty() ? "" : " + ") + p;
    e.basis = label + ": " + (sum.empty() ? "no programs" : sum) + " = " + std::to_string(e.count);
    return e;
}

namespace {
// The caches whose program is one function (or frame) of the user's code, compiled once per key.
bool isFunctionCache(const std::string& cache) {
    return cache == "numba.dispatcher" || cache == "jax tracing cache" || cache == "torch dynamo";
}


// The lookups walked once, in order: per-program tallies, the per-step series, late misses, and the
// run's shape per process (programs by kind, the handles that used them) for the expected count.
class LookupWalk {
public:
    LookupWalk(const CacheFacts& facts, const ReplayResult& replay, const Attribution& attribution, AcceptanceResult& r)
        : m_facts(facts), m_replay(replay), m_r(r) {
        for (const auto& m : attribution.misses) m_missAt[m.lookup] = &m;
    }

    void run() {
        for (size_t i = 0; i < m_facts.lookups.size(); ++i) lookup(i);
        std::int64_t cumulative = 0;
        for (auto& [step, s] : m_steps) {
            cumulative += s.misses;
            s.cumulativeMisses = cumulative;
            m_r.series.push_back(s);
        }
    }
    // The guide's count per process, summed; judged only when every process used one handle.
    void judgeExpectedCount(const AcceptanceOptions& options);

private:
    void lookup(size_t i) {
        const auto& l = m_facts.lookups[i];
        bool miss = !m_replay.outcomes[i].hit;
        auto [ti, fresh] = m_tallyIndex.emplace(l.program, m_r.programs.size());
        if (fresh) m_r.programs.push_back({m_facts.str(l.program)});
        auto& tally = m_r.programs[ti->second];
        ++tally.lookups;
        if (miss) ++tally.compiles;
        m_handles[l.sessionId].insert(l.handle);
        if (auto u = otherRuntimeUnits(m_facts.str(l.cache)); !u.empty()) m_units.emplace(l.sessionId, std::move(u));
        kindMap(kindOf(m_facts.str(l.program)))[l.sessionId].insert(l.program);
        if (l.step) stepLookup(i, miss);
    }

    std::map<std::int64_t, std::set<Sid>>& kindMap(ProgramKind k) {
        switch (k) {
        case ProgramKind::Gradient: return m_gradient;
        case ProgramKind::Optimizer: return m_optimizer;
        case ProgramKind::Eval: return m_eval;
        case ProgramKind::Metric: return m_metric;
        case ProgramKind::Other: break;
        }
        return m_other;
    }

    void stepLookup(size_t i, bool miss) {
        const auto& l = m_facts.lookups[i];
        auto& s = m_steps[*l.step];
        s.step = *l.step;
        ++s.lookups;
        if (miss) ++s.misses;
        auto key = std::make_tuple(l.sessionId, l.handle, l.program);
        auto [fs, firstUse] = m_firstStep.emplace(key, *l.step);
        if (miss && kindOf(m_facts.str(l.program)) == ProgramKind::Metric && raggedRemainder(i)) return;  // expected, not late
        if (miss && !firstUse && *l.step > fs->second) {
            const auto* m = m_missAt[i];
            m_r.lateMisses.push_back({i, *l.step, fs->second, m ? m->reason : ""});
        }
    }

    // The ragged split (the ReactantNitro guide (docs/cache-replay.md)): a :device metric program built
    // a second time, in the same validation pass, at a key that differs only in shape, is the
    // remainder batch: expected once.
    bool raggedRemainder(size_t i) {
        const auto& l = m_facts.lookups[i];
        const auto* m = m_missAt[i];
        bool shapeOnly = m && m->cause == MissCause::KeyMoved && !m->changes.empty() &&
                         std::all_of(m->changes.begin(), m->changes.end(),
                                     [](const ComponentChange& c) { return c.role == CS_ROLE_SHAPE; });
        auto& n = m_metricCompilesInPass[{l.sessionId, l.handle, l.program, *l.step}];
        ++n;
        if (n != 2 || !shapeOnly || m_ragged.count({l.sessionId, l.program})) return false;
        m_ragged.insert({l.sessionId, l.program});
        return true;
    }

    const CacheFacts& m_facts;
    const ReplayResult& m_replay;
    AcceptanceResult& m_r;
    std::map<size_t, const MissExplanation*> m_missAt;
    std::map<std::int64_t, StepMisses> m_steps;
    std::map<std::tuple<std::int64_t, Sid, Sid>, std::int64_t> m_firstStep;  // (session, handle, program)
    std::map<Sid, size_t> m_tallyIndex;
    // Run shape per process: programs by kind, and the handles that used them.
    std::map<std::int64_t, std::set<Sid>> m_gradient, m_optimizer, m_eval, m_metric, m_other, m_handles;
    // Per process, what another runtime's cache compiled ("PyTorch frames"): no training run there.
    std::map<std::int64_t, std::string> m_units;
    std::map<std::tuple<std::int64_t, Sid, Sid, std::int64_t>, std::int64_t> m_metricCompilesInPass;
    std::set<std::pair<std::int64_t, Sid>> m_ragged;  // (session, program)
};

void LookupWalk::judgeExpectedCount(const AcceptanceOptions& options) {
    std::vector<ExpectedPrograms> perSession;
    bool anyTraining = m_handles.empty();
    for (const auto& [sessionId, used] : m_handles) {
        const auto session = sessionId;  // a plain variable: clang 14 cannot capture a structured binding
        auto n = [&](auto& m) { return static_cast<std::int64_t>(m[session].size()); };
        std::int64_t raggedHere = 0;
        for (const auto& [s, p] : m_ragged) raggedHere += s == session;
        perSession.push_back(expectedProgramCount({.gradient = n(m_gradient) > 0, .optimizer = n(m_optimizer) > 0,
                                                   .validates = n(m_eval) > 0, .deviceMetricHooks = n(m_metric),
                                                   .raggedSplits = raggedHere, .otherPrograms = n(m_other)}));
        // A PyTorch frame or JAX function named "forward" is no training run's evaluation program.
        const bool training = m_units[session].empty() && n(m_gradient) + n(m_optimizer) + n(m_eval) + n(m_metric) > 0;
        anyTraining = anyTraining || training;
        if (!training && !m_units[session].empty()) {
            m_r.derived.judged = false;
            m_r.derived.basis = "process " + std::to_string(session) + " compiled " + m_units[session] +
                                ", not a training run's programs; the expected program count does not apply";
        } else if (!training) {
            m_r.derived.judged = false;
            m_r.derived.basis = "process " + std::to_string(session) +
                                " ran no gradient, optimizer, evaluation or metric program; the expected program count does not apply";
        } else if (used.size() > 1) {
            m_r.derived.judged = false;
            m_r.derived.basis = "process " + std::to_string(session) + " used " + plural(static_cast<std::int64_t>(used.size()), "handle") +
                                (usesReactantNitro(m_facts) ? "; the acceptance run is one Nitro" : "; the acceptance run uses one handle");
        }
    }
    m_r.derived.applies = anyTraining;
    if (m_r.derived.judged) {
        for (const auto& e : perSession) {
            m_r.derived.count += e.count;
            m_r.derived.basis += (m_r.derived.basis.empty() ? "" : "; ") + e.basis;
        }
        if (perSession.size() > 1) m_r.derived.basis = std::to_string(perSession.size()) + " processes: " + m_r.derived.basis;
        m_r.expected = m_r.derived.count;
    }
    if (options.expectPrograms) {
        m_r.expected = options.expectPrograms;
        m_r.expectedFromOption = true;
    }
}

// Rule 1: misses == entries. A miss that left no live entry is a program compiled twice. In a replay
// the only way an entry leaves the cache is the closure guard, so each poisoned entry is named with
// the redefinition that caused it and the compile that replaced it. Entries a persistent cache loaded
// came without a miss, so they are added to the misses.
void ruleMissesEqualEntries(const CacheFacts& facts, const ReplayResult& replay, AcceptanceResult& r) {
    if (r.counts.misses + r.counts.loads == r.counts.entries) return;
    std::string why;
    for (const auto& e : replay.entries) {
        if (!e.poisonedBy) continue;
        const auto& ev = replay.poisonEvents[*e.poisonedBy];
        std::string names;
        for (const auto& d : ev.drifted) names += (names.empty() ? "" : ", ") + d;
        why += (why.empty() ? "" : "; ") + facts.str(e.program) + " (lookup #" +
               std::to_string(facts.lookups[e.createdBy].id) + ") poisoned when " + names + " was redefined";
        for (const auto& again : replay.entries)
            if (again.replaces && replay.entries[static_cast<size_t>(*again.replaces)].createdBy == e.createdBy)
                why += ", compiled again at lookup #" + std::to_string(facts.lookups[again.createdBy].id);
    }
    r.failures.push_back({"misses == entries", "misses " + std::to_string(r.counts.misses) + " != entries " +
                                                   std::to_string(r.counts.entries) + ": " +
                                                   plural(r.counts.misses + r.counts.loads - r.counts.entries, "program") +
                                                   " compiled twice" + (why.empty() ? "" : " (" + why + ")")});
}

// Rule 2: misses do not grow with steps.
void ruleNoLateMiss(const CacheFacts& facts, const AcceptanceOptions& options, AcceptanceResult& r) {
    if (static_cast<std::int64_t>(r.lateMisses.size()) <= options.maxLateMisses) return;
    for (const auto& m : r.lateMisses) {
        const auto& l = facts.lookups[m.lookup];
        r.failures.push_back({"no miss after the first step",
                              facts.str(l.program) + " missed at step " + std::to_string(m.step) + " (first used at step " +
                                  std::to_string(m.firstStep) + ", " + lookupName(l) + "): " + m.reason});
    }
}

// Rule 3: the expected number of programs.
void ruleExpectedCount(const AcceptanceOptions& options, AcceptanceResult& r) {
    if (!r.expected || r.counts.misses == *r.expected) return;
    r.failures.push_back({"expected program count",
                          "compiled " + std::to_string(r.counts.misses) + " programs, expected " +
                              std::to_string(*r.expected) +
                              (options.expectPrograms ? " (--expect-programs)" : " (" + r.derived.basis + ")")});
}

// Rule 4, in the runtime's own terms: a function (Numba dispatcher, JAX jitted function) or a PyTorch
// frame compiled again in the same process is a recompile, even though each compile made an entry of
// its own key (so misses == entries holds): the steady state compiles each once.
void ruleOneCompilePerFunction(const CacheFacts& facts, const ReplayResult& replay, const Attribution& attribution,
                               AcceptanceResult& r) {
    std::map<std::pair<std::int64_t, Sid>, std::vector<size_t>> misses;  // (session, function) -> miss lookups
    std::vector<std::pair<std::int64_t, Sid>> order;
    for (size_t i = 0; i < facts.lookups.size(); ++i) {
        const auto& l = facts.lookups[i];
        if (replay.outcomes[i].hit || !isFunctionCache(facts.str(l.cache))) continue;
        // A Numba dispatcher is its handle (program@address): a factory's closures share one name but
        // are different functions. JAX's handle is the call site and PyTorch's the compile id, so there
        // the program names the function or frame.
        const Sid who = facts.str(l.cache) == "numba.dispatcher" && l.handle ? l.handle : l.program;
        auto& v = misses[{l.sessionId, who}];
        if (v.empty()) order.emplace_back(l.sessionId, who);
        v.push_back(i);
    }
    std::map<size_t, const MissExplanation*> why;
    for (const auto& m : attribution.misses) why[m.lookup] = &m;
    for (const auto& key : order) {
        const auto& v = misses[key];
        if (v.size() < 2) continue;
        const auto& second = facts.lookups[v[1]];
        const bool frame = facts.str(second.cache) == "torch dynamo";
        std::string detail = facts.str(second.program) + " compiled " + std::to_string(v.size()) + " times (" +
                             facts.str(second.cache) + ", session " + std::to_string(key.first) + ")";
        if (auto it = why.find(v[1]); it != why.end() && !it->second->reason.empty())
            detail += "; the first recompile: " + it->second->reason;
        r.failures.push_back({frame ? "one compile per frame" : "one compile per function", detail});
    }
}

// The replay must agree with the runtime, lookup by lookup and counter by counter; unless the log's
// lines were out of time order: the replay follows time, so the runtime's printed verdicts are taken
// and the difference is a note (cache.lines_out_of_order), not a failure.
void ruleReplayAgrees(const CacheFacts& facts, const ReplayResult& replay, AcceptanceResult& r) {
    for (auto i : facts.linesOutOfOrder ? std::vector<size_t>{} : replay.disagreements) {
        const auto& l = facts.lookups[i];
        bool replayHit = replay.outcomes[i].hit;
        r.failures.push_back({"replay agrees with the runtime",
                              lookupName(l) + " " + facts.str(l.program) + ": runtime " +
                                  (replayHit ? "missed" : "hit") + ", replay " + (replayHit ? "hits" : "misses") +
                                  (replayHit ? ": the key recorded no component that moved"
                                             : ": no live entry has this key")});
    }
    for (const auto& c : replay.counterChecks) {
        if (c.agrees) continue;
        r.failures.push_back({"cache_stats() agrees with the replay",
                              "snapshot " + (c.afterLookup ? "after " + lookupName(facts.lookups[*c.afterLookup])
                                                : std::string("before any lookup")) +
                                  ": " + c.detail});
    }
}

}  // namespace

AcceptanceResult checkAcceptance(const CacheFacts& facts, const ReplayResult& replay, const Attribution& attribution,
                                 const AcceptanceOptions& options) {
    AcceptanceResult r;
    r.counts = replay.total;
    if (!facts.counters.empty()) r.lastRuntimeCounters = facts.counters.back();
    LookupWalk walk(facts, replay, attribution, r);
    walk.run();
    walk.judgeExpectedCount(options);

    // Nothing recorded is not a pass: a CI gate must not turn green because the collector was off.
    if (facts.lookups.empty())
        r.failures.push_back({"the trace records cache lookups",
                              "no cache lookups recorded: nothing to judge (was the collector enabled?)"});
    ruleMissesEqualEntries(facts, replay, r);
    ruleNoLateMiss(facts, options, r);
    ruleExpectedCount(options, r);
    ruleOneCompilePerFunction(facts, replay, attribution, r);
    ruleReplayAgrees(facts, replay, r);
    return r;
}

}  // namespace cs::engine
