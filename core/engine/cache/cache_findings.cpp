// Findings of the cache analyses: each rule of the ReactantNitro guide (docs/cache-replay.md) that a trace breaks, as data.
//
// Why here and not in each analysis: the analyses compute facts (which lookup missed, which entry was
// poisoned); a finding adds what a user acts on: the mechanism in plain words, the rows that prove
// it, the compile time it cost, and the fix the guide gives. Kinds are stable ids ("cache.*").
#include "core/engine/cache/cache_analysis.h"
#include "core/engine/cache/runtime_words.h"

#include "core/util/units.h"
#include "core/util/saturating.h"

#include <algorithm>
#include <map>

namespace cs::engine {

namespace {

Evidence lookupEvidence(const CacheFacts& facts, size_t i, std::string note) {
    return {engine::lookupTable(facts.lookups[i]), engine::lookupRowId(facts.lookups[i]), std::move(note)};
}

void setRange(Finding& f, const CacheFacts& facts, const std::vector<size_t>& lookups) {
    if (lookups.empty()) return;
    f.sessionId = facts.lookups[lookups.front()].sessionId;
    std::int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (auto i : lookups) {
        lo = std::min(lo, facts.lookups[i].tsNs);
        hi = std::max(hi, util::satAdd(facts.lookups[i].tsNs, facts.lookups[i].compileNs.value_or(0)));
    }
    f.startNs = lo;
    f.endNs = hi;
}

// The ReactantNitro guide (docs/cache-replay.md): "the usual causes are a GraphConst field rebuilt with a new value, a schedule returning a
// type the field does not hold, or a batch whose shapes vary."
std::string fixFor(int role) {
    switch (role) {
    case CS_ROLE_SHAPE:
        return "Make the batch shape constant: pad the ragged tail or drop it, or bucket to a few fixed widths "
               "compiled once each.";
    case CS_ROLE_GRAPHCONST:
        return "A GraphConst field is rebuilt with a new value: build it once, or mark a value that must change "
               "per step as a Device field (traced input, not in the key).";
    case CS_ROLE_TYPE:
        return "A schedule returns a type the field does not hold: return the field's own type (e.g. Float32, "
               "not Float64).";
    case CS_ROLE_WORLD:
        return "A hook was redefined while the run used it: finish the run, then build a new Nitro.";
    case CS_ROLE_KEYWORD:
        return "A baked train! keyword changes between calls: keep accum / gradient_clip_norm fixed for the run.";
    default: return "Keep every key component fixed after the first step.";
    }
}

// Whether the "no miss after the first step" rule failed: --max-misses-after-step K tolerates up to K
// late misses, and a tolerated miss is a warning, not an [error] that fails the check anyway
// (core/engine/analysis/error_verdict.h).
bool lateMissesFail(const AcceptanceResult& acc) {
    return std::any_of(acc.failures.begin(), acc.failures.end(),
                       [](const AcceptanceFailure& f) { return f.rule == "no miss after the first step"; });
}

void lateMissFindings(const CacheAnalysis& a, std::vector<Finding>& out) {
    const auto& facts = a.facts;
    const bool tolerated = !lateMissesFail(a.acceptance);
    std::map<Sid, std::vector<const LateMiss*>> byProgram;
    for (const auto& m : a.acceptance.lateMisses) byProgram[facts.lookups[m.lookup].program].push_back(&m);
    std::map<size_t, const MissExplanation*> explained;
    for (const auto& m : a.attribution.misses) explained[m.lookup] = &m;
    for (const auto& [program, misses] : byProgram) {
        std::map<std::string, std::pair<int, int>> moving;  // component -> (count, role)
        std::vector<std::string> order;
        std::vector<std::int64_t> steps;
        std::vector<size_t> rows;
        Finding f;
        f.costNs = 0;
        for (const auto* m : misses) {
            rows.push_back(m->lookup);
            if (std::find(steps.begin(), steps.end(), m->step) == steps.end()) steps.push_back(m->step);
            *f.costNs = util::satAdd(*f.costNs, facts.lookups[m->lookup].compileNs.value_or(0));
            const auto* e = explained[m->lookup];
            f.evidence.push_back(lookupEvidence(facts, m->lookup, "step " + std::to_string(m->step) + ": " + m->reason));
            if (!e) continue;
            for (const auto& c : e->changes) {
                auto [it, fresh] = moving.emplace(c.name, std::make_pair(0, c.role));
                if (fresh) order.push_back(c.name);
                ++it->second.first;
            }
            if (e->cause == MissCause::Poisoned)
                for (const auto& d : e->drifted)
                    if (moving.emplace("closure (" + d + ")", std::make_pair(1, CS_ROLE_WORLD)).second)
                        order.push_back("closure (" + d + ")");
        }
        std::stable_sort(order.begin(), order.end(),
                         [&](const std::string& x, const std::string& y) { return moving[x].first > moving[y].first; });
        std::string names;
        for (const auto& n : order) names += (names.empty() ? "" : ", ") + n;
        bool growth = steps.size() >= 2;
        f.kind = growth ? "cache.key_moves_per_step" : "cache.miss_after_first_step";
        f.severity = tolerated ? Severity::Warning : Severity::Error;
        f.title = facts.str(program) + (growth ? " recompiles as steps go on: " : " recompiled after its first step: ") +
                  (names.empty() ? "key" : names) + " moved (" + std::to_string(misses.size()) + " misses)";
        f.mechanism = growth ? "Something in " + facts.str(program) +
                                   "'s key moves per step, so misses grow with the number of steps and every step "
                                   "pays a compile. The acceptance rule of a cached run: \"If misses grows with steps, something in the key is "
                                   "moving per step.\""
                             : "A component of " + facts.str(program) +
                                   "'s key changed after the program's first step, so it compiled again. The "
                                   "acceptance criterion is no recompile after the first step.";
        if (tolerated) f.mechanism += " The check tolerates it (--max-misses-after-step).";
        f.fix = fixFor(order.empty() ? CS_ROLE_OTHER : moving[order.front()].second);
        setRange(f, facts, rows);
        out.push_back(std::move(f));
    }
}

void acceptanceFindings(const CacheAnalysis& a, std::vector<Finding>& out) {
    const auto& facts = a.facts;
    const auto& acc = a.acceptance;
    if (acc.counts.misses + acc.counts.loads != acc.counts.entries) {
        Finding f = makeFinding("cache.compiled_twice", Severity::Warning);
        f.title = std::to_string(acc.counts.misses + acc.counts.loads - acc.counts.entries) + " program(s) compiled twice (misses " +
                  std::to_string(acc.counts.misses) + " != entries " + std::to_string(acc.counts.entries) + ")";
        // ReactantNitro's words (cache_stats(), its closure guard) only for its own cache (issue 39).
        f.mechanism = usesReactantNitro(facts)
                          ? "The cache_stats() counters are both cumulative, so a miss that is not also a new entry is a "
                            "program compiled twice. Here the closure guard poisoned entries after a redefinition and the "
                            "next handle recompiled them."
                          : "Misses and entries both only grow, so a miss that is not also a new entry is a program "
                            "compiled twice: an entry was dropped or replaced and the same key compiled again.";
        f.costNs = 0;
        std::vector<size_t> rows;
        for (const auto& e : a.replay.entries) {
            if (!e.replaces) continue;
            *f.costNs = util::satAdd(*f.costNs, facts.lookups[e.createdBy].compileNs.value_or(0));
            rows.push_back(e.createdBy);
            f.evidence.push_back(lookupEvidence(facts, e.createdBy, "recompiled after its entry was poisoned"));
        }
        f.fix = "Expected after an edit below a hook; if unintended, avoid redefining methods mid-session or "
                "call ReactantNitro.cache_reset!() before an acceptance run.";
        setRange(f, facts, rows);
        out.push_back(std::move(f));
    }
    if (acc.expected && acc.counts.misses != *acc.expected) {
        Finding f = makeFinding("cache.unexpected_program_count", Severity::Warning);
        f.title = "compiled " + std::to_string(acc.counts.misses) + " programs, expected " + std::to_string(*acc.expected);
        f.mechanism = "The expected program count for this run (" + acc.derived.basis +
                      "): a compile beyond it is a recompile the run did not need, one short of it a program "
                      "the run did not build.";
        f.costNs = 0;
        std::vector<size_t> rows;
        for (const auto& m : a.attribution.misses) {
            if (m.cause == MissCause::FirstCompile) continue;
            rows.push_back(m.lookup);
            *f.costNs = util::satAdd(*f.costNs, facts.lookups[m.lookup].compileNs.value_or(0));
            f.evidence.push_back(lookupEvidence(facts, m.lookup, "compiled again: " + m.reason));
        }
        f.fix = "Make each program compile once: see the reason beside each repeated compile.";
        setRange(f, facts, rows);
        out.push_back(std::move(f));
    }
}

void agreementFindings(const CacheAnalysis& a, std::vector<Finding>& out) {
    const auto& facts = a.facts;
    if (!a.replay.disagreements.empty() && facts.linesOutOfOrder) {
        Finding f = makeFinding("cache.lines_out_of_order", Severity::Info);
        f.title = "the log's lines are out of time order: the runtime's verdicts are taken as printed (" +
                  std::to_string(a.replay.disagreements.size()) + " lookup(s) read otherwise in time order)";
        f.mechanism = "The importer met lines stamped earlier than a line before them (a log pasted together from "
                      "several places or processes). Replayed in time order, the cache would answer some lookups "
                      "differently from what the runtime printed; that describes the paste, not the program, so the "
                      "verdict counts the runtime's own hit and miss lines.";
        for (auto i : a.replay.disagreements)
            f.evidence.push_back(lookupEvidence(facts, i, std::string("runtime ") + (a.replay.outcomes[i].hit ? "miss" : "hit") +
                                                              " as printed"));
        f.fix = "Nothing to change in the program; to replay the cache, import one process's log, uncut.";
        setRange(f, facts, a.replay.disagreements);
        out.push_back(std::move(f));
    } else if (!a.replay.disagreements.empty()) {
        Finding f = makeFinding("cache.verdict_disagreement", Severity::Error);
        f.title = "the replay disagrees with the runtime on " + std::to_string(a.replay.disagreements.size()) +
                  " lookup(s)";
        f.mechanism = "Replaying the recorded keys gives a different hit/miss than the runtime reported. A runtime "
                      "miss the replay calls a hit means the runtime keys on something the trace did not record; a "
                      "runtime hit the replay calls a miss means the runtime reused a program under a key the trace "
                      "says moved.";
        for (auto i : a.replay.disagreements)
            f.evidence.push_back(lookupEvidence(facts, i, std::string("runtime ") +
                                                              (a.replay.outcomes[i].hit ? "miss, replay hit" : "hit, replay miss")));
        f.fix = "Record every component the runtime keys on (collector), or report the runtime's key rule as a bug.";
        setRange(f, facts, a.replay.disagreements);
        out.push_back(std::move(f));
    }
    for (const auto& c : a.replay.counterChecks) {
        if (c.agrees) continue;
        const auto& snap = facts.counters[c.snapshot];
        Finding f = makeFinding("cache.counters_mismatch", Severity::Error);
        f.title = "cache_stats() disagrees with the replay: " + c.detail;
        f.mechanism = "The runtime's cumulative counters do not match the lookups the trace recorded up to that "
                      "moment: lookups were lost, or counted without being recorded.";
        for (auto id : snap.rowIds) f.evidence.push_back({"counters", id, "cache_stats() value"});
        f.fix = "Check the trace's stats table for dropped events; record from before cache_reset!().";
        f.sessionId = snap.sessionId;
        f.startNs = f.endNs = snap.tsNs;
        out.push_back(std::move(f));
    }
}

void poisoningFindings(const CacheAnalysis& a, std::vector<Finding>& out) {
    const auto& facts = a.facts;
    for (const auto& ev : a.replay.poisonEvents) {
        Finding f = makeFinding("cache.entries_poisoned", Severity::Info);
        f.title = ev.message;
        f.mechanism = "The closure guard re-resolved each entry's dependency closure at the entry point and "
                      "poisoned the entries whose methods moved. Informational: on a freshly built handle it is "
                      "what makes that handle recompile against the edit.";
        for (auto row : ev.methodRows) f.evidence.push_back({"methods", row, "redefinition"});
        for (auto e : ev.entries)
            f.evidence.push_back(lookupEvidence(facts, a.replay.entries[static_cast<size_t>(e)].createdBy,
                                                "compiled the poisoned entry"));
        f.fix = "Nothing, if the edit was intended: build a new Nitro to use it.";
        setRange(f, facts, {ev.atLookup});
        out.push_back(std::move(f));
    }
    for (const auto& s : a.replay.staleHandles) {
        Finding f = makeFinding("cache.stale_handle", Severity::Warning);
        std::string methods;
        for (const auto& m : s.methods) methods += (methods.empty() ? "" : ", ") + m;
        f.title = "handle " + facts.str(s.handle) + ": " + kStaleHandleLine + " (" + methods + ")";
        f.mechanism = "An existing handle is a fixed point and keeps the programs it was built with; after the "
                      "redefinition they are stale, so this handle still runs the old code (" +
                      std::to_string(s.staleLookups) + " lookup(s) served a stale program).";
        std::vector<size_t> rows{s.firstLookup};
        f.evidence.push_back(lookupEvidence(facts, s.firstLookup, "first stale program served"));
        f.fix = "Rebuild the Nitro: n2 = Nitro(e) recompiles only what the edit changed.";
        setRange(f, facts, rows);
        out.push_back(std::move(f));
    }
}

void holeFindings(const CacheAnalysis& a, std::vector<Finding>& out) {
    const auto& facts = a.facts;
    for (const auto& h : a.holes.staleProgram) {
        Finding f = makeFinding("cache.hole_stale_program", Severity::Error);
        std::string fps;
        for (const auto& fp : h.fingerprints) fps += (fps.empty() ? "" : ", ") + fp;
        f.title = h.program + ": one key, " + std::to_string(h.fingerprints.size()) + " different graphs (" + fps + ")";
        f.mechanism = "The key cannot see a value that shapes the graph: a constant reached from a method body, a "
                      "global, an edited literal, or a value the model closed over. Two runs that differ only in it "
                      "produce the same key, and the second reuses the first's program without any error.";
        for (auto i : h.lookups) f.evidence.push_back(lookupEvidence(facts, i, "graph " + facts.str(facts.lookups[i].fingerprint)));
        for (auto i : h.servedStale) f.evidence.push_back(lookupEvidence(facts, i, "served a program of another graph"));
        f.fix = "Make the value reachable from the experiment as a GraphConst (a config object is a legal "
                "GraphConst); ReactantNitro.cache_reset!() is the escape hatch.";
        setRange(f, facts, h.lookups);
        out.push_back(std::move(f));
    }
    for (const auto& h : a.holes.needlessRecompile) {
        Finding f = makeFinding("cache.hole_needless_recompile", Severity::Warning);
        std::string names;
        for (const auto& c : h.changes) names += (names.empty() ? "" : ", ") + c.name;
        f.title = h.program + ": graph " + h.fingerprint + " compiled under " + std::to_string(h.misses.size()) +
                  " keys (" + names + " moved without changing it)";
        f.mechanism = "The key holds something that does not shape the emitted program, so an identical program "
                      "was compiled again. Hashing Device fields \"would miss on every step\".";
        for (size_t k = 0; k < h.misses.size(); ++k)
            f.evidence.push_back(lookupEvidence(facts, h.misses[k], "compiled graph " + h.fingerprint +
                                                                        (k ? " again" : "")));
        f.costNs = h.wastedNs;
        f.fix = "Keep " + (names.empty() ? std::string("the moving component") : names) +
                " out of the key: make it a Device field (a traced input) or drop it from the key.";
        setRange(f, facts, h.misses);
        out.push_back(std::move(f));
    }
}

}  // namespace

std::vector<Finding> cacheFindings(const CacheAnalysis& a) {
    std::vector<Finding> out;
    agreementFindings(a, out);
    lateMissFindings(a, out);
    acceptanceFindings(a, out);
    holeFindings(a, out);
    poisoningFindings(a, out);
    std::stable_sort(out.begin(), out.end(), [](const Finding& x, const Finding& y) {
        if (x.severity != y.severity) return x.severity > y.severity;
        return x.costNs.value_or(0) > y.costNs.value_or(0);
    });
    return out;
}

}  // namespace cs::engine
