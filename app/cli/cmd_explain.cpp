// `compilescope explain TRACE`: every miss of the replayed cache with the key component that moved.
#include "cache_text.h"
#include "command.h"
#include "loss_line.h"

#include "core/engine/analysis/trace_analysis.h"
#include "core/engine/analysis/trace_figures.h"
#include "core/engine/warp/warp_cache_lookups.h"
#include "core/util/units.h"

#include <algorithm>
#include <map>

namespace cs::cli {

namespace {
// One replayed cache: its counts (the keyed figures under `prefix`, engine/analysis/trace_figures.h, as check,
// the GUI and the report give them), its misses with their causes, then its hits, guards and
// disagreements.
void explainCache(const engine::CacheAnalysis* a, const engine::TraceFigures& f, const std::string& prefix,
                  const std::string& title, const engine::jit::JitReport* jit, std::ostream& out) {
    auto figure = [&](const char* what) { return engine::figureText(f, prefix + what); };
    out << title << ": lookups " << figure(".lookups") << ", misses " << figure(".misses.replayed") << ", hits "
        << figure(".hits.replayed") << ", live entries " << figure(".entries") << "\n";
    const auto& facts = a->facts;
    std::int64_t session = -1;
    for (const auto& m : a->attribution.misses) {
        const auto& l = facts.lookups[m.lookup];
        if (l.sessionId != session) out << "session " << (session = l.sessionId) << "\n";
        out << "  miss " << lookupLabel(facts, m.lookup);
        if (l.compileNs) out << "  compile " << util::formatDuration(*l.compileNs);
        out << "\n    " << engine::missCauseName(m.cause) << ": " << m.reason;
        if (m.against) out << " (vs " << engine::lookupName(facts.lookups[*m.against]) << ")";
        out << "\n";
        for (const auto& c : m.unkeyed)
            out << "    also changed, not in the key (" << engine::roleName(c.role) << "): " << c.text() << "\n";
    }
    // A hit is related to the miss that compiled its entry: "the same key as lookup #N". Only hits the
    // runtime reported (a replay hit the runtime called a miss is a disagreement, listed below) of
    // entries a miss compiled (not loaded from a persistent cache).
    std::map<std::int32_t, std::vector<size_t>> hitsByEntry;
    for (size_t i = 0; i < facts.lookups.size(); ++i) {
        const auto& o = a->replay.outcomes[i];
        if (!o.hit || o.loaded || o.entry < 0 || facts.lookups[i].verdict == CS_VERDICT_MISS) continue;
        const auto created = a->replay.entries[static_cast<size_t>(o.entry)].createdBy;
        if (!a->replay.outcomes[created].hit) hitsByEntry[o.entry].push_back(i);
    }
    if (!hitsByEntry.empty()) out << "hits of entries compiled in this trace:\n";
    for (const auto& [entry, hits] : hitsByEntry) {
        const auto created = a->replay.entries[static_cast<size_t>(entry)].createdBy;
        out << "  " << hits.size() << " hit(s) with the key of miss " << engine::lookupName(facts.lookups[created]) << " ("
            << facts.str(facts.lookups[created].program) << "), first " << engine::lookupName(facts.lookups[hits.front()]) << "\n";
    }
    if (jit) {
        for (const auto& h : jit->persistentKeys) {
            if (h.writes.size() + h.lookups.size() < 2) continue;
            // One key's rows in time order, whatever order the log printed them in.
            std::vector<std::pair<std::int64_t, std::string>> rows;
            for (auto w : h.writes) rows.emplace_back(jit->events[w].tsNs, "write");
            for (auto i : h.lookups)
                rows.emplace_back(facts.lookups[i].tsNs, std::string(facts.lookups[i].verdict == CS_VERDICT_HIT ? "hit" : "miss") +
                                                             " " + engine::lookupName(facts.lookups[i]));
            std::stable_sort(rows.begin(), rows.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
            out << h.cache << " key " << h.key << ":";
            for (size_t i = 0; i < rows.size(); ++i) out << (i ? ", " : " ") << rows[i].second;
            out << "\n";
        }
    }
    if (!a->attribution.hitsAcrossChanges.empty()) {
        out << "hits across a change of a field that is not in the key:\n";
        for (const auto& h : a->attribution.hitsAcrossChanges)
            out << "  " << facts.str(facts.lookups[h.lookup].program) << ": " << engine::roleName(h.first.role) << " "
                << h.first.name << " changed across " << h.hits << " hit(s); first at " << lookupLabel(facts, h.lookup)
                << ": " << h.first.before << " -> " << h.first.after << "\n";
    }
    for (const auto& ev : a->replay.poisonEvents)
        out << "closure guard at " << lookupLabel(facts, ev.atLookup) << ":\n  " << ev.message << "\n";
    for (const auto& s : a->replay.staleHandles) {
        out << "handle " << facts.str(s.handle) << ": " << engine::kStaleHandleLine << " (";
        for (size_t i = 0; i < s.methods.size(); ++i) out << (i ? ", " : "") << s.methods[i];
        out << "); " << s.staleLookups << " lookup(s) served a stale program, first " << lookupLabel(facts, s.firstLookup)
            << "\n";
    }
    for (auto i : a->replay.disagreements)
        out << "disagreement: " << lookupLabel(facts, i) << ": runtime "
            << (a->replay.outcomes[i].hit ? "missed, replay hits" : "hit, replay misses") << "\n";
}

int runExplain(const std::vector<std::string>& args, CommandIo& io) {
    if (args.size() != 1) return usageError(io, "explain", "expected exactly one TRACE argument");
    auto analysis = engine::analyseTraceFile(args[0]);
    const std::string title = "explain " + traceLabel(args[0]);
    printLossLine(io.out, analysis->losses);
    const engine::TraceFigures figures = engine::traceFigures(*analysis);
    // A cache without lookups has no keyed counts (trace_figures.h leaves them out): said in words.
    const bool lookups = figures.find("cache.lookups"), modules = figures.find("modules.cache.lookups");
    if (!lookups && !modules) {
        io.out << title << ": no cache lookups recorded\n";
        return Exit::Ok;
    }
    if (lookups) explainCache(analysis->cache.get(), figures, "cache", title, analysis->jit.get(), io.out);
    // Warp module loads replay as their own persistent cache (warp_cache_lookups.h).
    if (modules)
        explainCache(analysis->moduleCache.get(), figures, "modules.cache",
                     title + ", Warp module loads (" + engine::warp::kWarpKernelCache + ")", nullptr, io.out);
    return Exit::Ok;
}
}  // namespace

Command explainCommand() {
    return {"explain", "every cache miss of a trace with the key component that moved",
            "Usage: compilescope explain TRACE\n\n"
            "Replays the recorded program cache and prints, for every miss, why it compiled: the first\n"
            "compile of a program, the key components that differ from the nearest earlier entry of the\n"
            "same program (\"shape of arg 2: 128x64 -> 100x64\"), or an entry poisoned by a redefined\n"
            "dependency method. Warp module loads replay as a persistent cache keyed by module identity\n"
            "(hash, device, block_dim): a (compiled) load is a miss, a (cached) load a hit. Also lists hits\n"
            "across a change of a Device or Host field (not in the key), the closure guard's messages, stale\n"
            "handles and disagreements with the runtime's verdicts.\n",
            runExplain};
}

}  // namespace cs::cli
