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
}  // namespace

AcceptanceResult checkAcceptance(const CacheFacts& facts, const ReplayResult& replay, const Attribution& attribution,
                                 const AcceptanceOptions& options) {
    AcceptanceResult r;
    r.counts = replay.total;
    if (!facts.counters.empty()) r.lastRuntimeCounters = facts.counters.back();

    std::map<size_t, const MissExplanation*> missAt;
    for (const auto& m : attribution.misses) missAt[m.lookup] = &m;

    // Per-step series, late misses and per-program tallies.
    std::map<std::int64_t, StepMisses> steps;
    std::map<std::tuple<std::int64_t, Sid, Sid>, std::int64_t> firstStep;  // (session, handle, program)
    std::map<Sid, size_t> tallyIndex;
    // Run shape per process: programs by kind, and the handles that used them.
    std::map<std::int64_t, std::set<Sid>> gradient, optimizer, eval, metric, other, handles;
    // Per process, what another runtime's cache compiled ("PyTorch frames"): no training run there.
    std::map<std::int64_t, std::string> units;
    std::map<std::tuple<std::int64_t, Sid, Sid, std::int64_t>, std::int64_t> metricCompilesInPass;
    std::set<std::pair<std::int64_t, Sid>> ragged;  // (session, program)
    for (size_t i = 0; i < facts.lookups.size(); ++i) {
        const auto& l = facts.lookups[i];
        bool miss = !replay.outcomes[i].hit;
        auto [ti, fresh] = tallyIndex.emplace(l.program, r.programs.size());
        if (fresh) r.programs.push_back({facts.str(l.program)});
        auto& tally = r.programs[ti->second];
        ++tally.lookups;
        if (miss) ++tally.compiles;
        handles[l.sessionId].insert(l.handle);
        if (auto u = otherRuntimeUnits(facts.str(l.cache)); !u.empty()) units.emplace(l.sessionId, std::move(u));
        switch (kindOf(facts.str(l.program))) {
        case ProgramKind::Gradient: gradient[l.sessionId].insert(l.program); break;
        case ProgramKind::Optimizer: optimizer[l.sessionId].insert(l.program); break;
        case ProgramKind::Eval: eval[l.sessionId].insert(l.program); break;
        case ProgramKind::Metric: metric[l.sessionId].insert(l.program); break;
        case ProgramKind::Other: other[l.sessionId].insert(l.program); break;
        }
        if (!l.step) continue;
        auto& s = steps[*l.step];
        s.step = *l.step;
        ++s.lookups;
        if (miss) ++s.misses;
        auto key = std::make_tuple(l.sessionId, l.handle, l.program);
        auto [fs, firstUse] = firstStep.emplace(key, *l.step);
        // The ragged split (the ReactantNitro guide (docs/cache-replay.md)): a :device metric program built a second time, in the same
        // validation pass, at a key that differs only in shape, is the remainder batch: expected once.
        if (miss && kindOf(facts.str(l.program)) == ProgramKind::Metric) {
            const auto* m = missAt[i];
            bool shapeOnly = m && m->cause == MissCause::KeyMoved && !m->changes.empty() &&
                             std::all_of(m->changes.begin(), m->changes.end(),
                                         [](const ComponentChange& c) { return c.role == CS_ROLE_SHAPE; });
            auto& n = metricCompilesInPass[{l.sessionId, l.handle, l.program, *l.step}];
            ++n;
            // The remainder batch of a ragged split: a second, shape-only build in the same pass.
            if (n == 2 && shapeOnly && !ragged.count({l.sessionId, l.program})) {
                ragged.insert({l.sessionId, l.program});
                continue;  // expected, not late
            }
        }
        if (miss && !firstUse && *l.step > fs->second) {
            const auto* m = missAt[i];
            r.lateMisses.push_back({i, *l.step, fs->second, m ? m->reason : ""});
        }
    }
    std::int64_t cumulative = 0;
    for (auto& [step, s] : steps) {
        cumulative += s.misses;
        s.cumulativeMisses = cumulative;
        r.series.push_back(s);
    }

    // The guide's count per process, summed; judged only when every process used one handle.
    std::vector<ExpectedPrograms> perSession;
    bool anyTraining = handles.empty();
    for (const auto& [sessionId, used] : handles) {
        const auto session = sessionId;  // a plain variable: clang 14 cannot capture a structured binding
        auto n = [&](auto& m) { return static_cast<std::int64_t>(m[session].size()); };
        std::int64_t raggedHere = 0;
        for (const auto& [s, p] : ragged) raggedHere += s == session;
        perSession.push_back(expectedProgramCount({.gradient = n(gradient) > 0, .optimizer = n(optimizer) > 0,
                                                   .validates = n(eval) > 0, .deviceMetricHooks = n(metric),
                                                   .raggedSplits = raggedHere, .otherPrograms = n(other)}));
        // A PyTorch frame or JAX function named "forward" is no training run's evaluation program.
        const bool training = units[session].empty() && n(gradient) + n(optimizer) + n(eval) + n(metric) > 0;
        anyTraining = anyTraining || training;
        if (!training && !units[session].empty()) {
            r.derived.judged = false;
            r.derived.basis = "process " + std::to_string(session) + " compiled " + units[session] +
                              ", not a training run's programs; the expected program count does not apply";
        } else if (!training) {
            r.derived.judged = false;
            r.derived.basis = "process " + std::to_string(session) +
                              " ran no gradient, optimizer, evaluation or metric program; the expected program count does not apply";
        } else if (used.size() > 1) {
            r.derived.judged = false;
            r.derived.basis = "process " + std::to_string(session) + " used " + plural(static_cast<std::int64_t>(used.size()), "handle") +
                              (usesReactantNitro(facts) ? "; the acceptance run is one Nitro" : "; the acceptance run uses one handle");
        }
    }
    r.derived.applies = anyTraining;
    if (r.derived.judged) {
        for (const auto& e : perSession) {
            r.derived.count += e.count;
            r.derived.basis += (r.derived.basis.empty() ? "" : "; ") + e.basis;
        }
        if (perSession.size() > 1) r.derived.basis = std::to_string(perSession.size()) + " processes: " + r.derived.basis;
        r.expected = r.derived.count;
    }
    if (options.expectPrograms) {
        r.expected = options.expectPrograms;
        r.expectedFromOption = true;
    }

    // Nothing recorded is not a pass: a CI gate must not turn green because the collector was off.
    if (facts.lookups.empty())
        r.failures.push_back({"the trace records cache lookups",
                              "no cache lookups recorded: nothing to judge (was the collector enabled?)"});
    // Rule 1: misses == entries. A miss that left no live entry is a program compiled twice. In a
    // replay the only way an entry leaves the cache is the closure guard, so each poisoned entry is
    // named with the redefinition that caused it and the compile that replaced it.
    // Entries a persistent cache loaded came without a miss, so they are added to the misses.
    if (r.counts.misses + r.counts.loads != r.counts.entries) {
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
    if (static_cast<std::int64_t>(r.lateMisses.size()) > options.maxLateMisses) {
        for (const auto& m : r.lateMisses) {
            const auto& l = facts.lookups[m.lookup];
            r.failures.push_back({"no miss after the first step",
                                  facts.str(l.program) + " missed at step " + std::to_string(m.step) + " (first used at step " +
                                      std::to_string(m.firstStep) + ", " + lookupName(l) + "): " + m.reason});
        }
    }
    // Rule 3: the expected number of programs.
    if (r.expected && r.counts.misses != *r.expected) {
        r.failures.push_back({"expected program count",
                              "compiled " + std::to_string(r.counts.misses) + " programs, expected " +
                                  std::to_string(*r.expected) +
                                  (options.expectPrograms ? " (--expect-programs)" : " (" + r.derived.basis + ")")});
    }
    // Rule 4, in the runtime's own terms: a function (Numba dispatcher, JAX jitted function) or a
    // PyTorch frame compiled again in the same process is a recompile, even though each compile made
    // an entry of its own key (so misses == entries holds): the steady state compiles each once.
    {
        std::map<std::pair<std::int64_t, Sid>, std::vector<size_t>> misses;  // (session, function) -> miss lookups
        std::vector<std::pair<std::int64_t, Sid>> order;
        for (size_t i = 0; i < facts.lookups.size(); ++i) {
            const auto& l = facts.lookups[i];
            if (replay.outcomes[i].hit || !isFunctionCache(facts.str(l.cache))) continue;
            // A Numba dispatcher is its handle (program@address): a factory's closures share one name
            // but are different functions. JAX's handle is the call site and PyTorch's the compile id,
            // so there the program names the function or frame.
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
    // lines were out of time order: the replay follows time, so the runtime's printed verdicts are
    // taken and the difference is a note (cache.lines_out_of_order), not a failure.
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
    return r;
}

}  // namespace cs::engine
