// `compilescope explain TRACE`: every miss of the replayed cache with the key component that moved.
#include "cache_text.h"
#include "command.h"

#include "core/engine/trace_analysis.h"
#include "core/util/units.h"

namespace cs::cli {

namespace {
int runExplain(const std::vector<std::string>& args, CommandIo& io) {
    if (args.size() != 1) return usageError(io, "explain", "expected exactly one TRACE argument");
    auto analysis = engine::analyseTraceFile(args[0]);
    auto a = analysis->cache ? analysis->cache : engine::analyseCache(engine::CacheFacts{});
    const auto& facts = a->facts;
    auto& out = io.out;
    const auto& t = a->replay.total;
    out << "explain " << traceLabel(args[0]) << ": lookups " << facts.lookups.size() << ", misses " << t.misses
        << ", hits " << t.hits << ", live entries " << t.entries << "\n";
    if (facts.empty()) {
        out << "no cache lookups recorded\n";
        return Exit::Ok;
    }
    std::int64_t session = -1;
    for (const auto& m : a->attribution.misses) {
        const auto& l = facts.lookups[m.lookup];
        if (l.sessionId != session) out << "session " << (session = l.sessionId) << "\n";
        out << "  miss " << lookupLabel(facts, m.lookup);
        if (l.compileNs) out << "  compile " << util::formatDuration(*l.compileNs);
        out << "\n    " << engine::missCauseName(m.cause) << ": " << m.reason;
        if (m.against) out << " (vs lookup #" << facts.lookups[*m.against].id << ")";
        out << "\n";
        for (const auto& c : m.unkeyed)
            out << "    also changed, not in the key (" << engine::roleName(c.role) << "): " << c.text() << "\n";
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
    return Exit::Ok;
}
}  // namespace

Command explainCommand() {
    return {"explain", "every cache miss of a trace with the key component that moved",
            "Usage: compilescope explain TRACE\n\n"
            "Replays the recorded program cache and prints, for every miss, why it compiled: the first\n"
            "compile of a program, the key components that differ from the nearest earlier entry of the\n"
            "same program (\"shape of arg 2: 128x64 -> 100x64\"), or an entry poisoned by a redefined\n"
            "dependency method. Also lists hits across a change of a Device or Host field (not in the key),\n"
            "the closure guard's messages, stale handles and disagreements with the runtime's verdicts.\n",
            runExplain};
}

}  // namespace cs::cli
