// `compilescope whatif TRACE --exclude NAME | --include NAME`: the replay under a changed key rule.
#include "cache_text.h"
#include "command.h"

#include "core/engine/cache/whatif.h"
#include "core/trace/reader.h"
#include "core/util/units.h"

namespace cs::cli {

namespace {
int runWhatIf(const std::vector<std::string>& args, CommandIo& io) {
    engine::KeyRule rule;
    std::string trace;
    for (size_t i = 0; i < args.size(); ++i) {
        const auto& a = args[i];
        if (a == "--exclude" || a == "--include") {
            if (++i >= args.size()) return usageError(io, "whatif", a + " needs a component name");
            (a == "--exclude" ? rule.exclude : rule.include).push_back(args[i]);
        } else if (!a.empty() && a[0] == '-') {
            return usageError(io, "whatif", "unknown option " + a);
        } else if (trace.empty()) {
            trace = a;
        } else {
            return usageError(io, "whatif", "expected exactly one TRACE argument");
        }
    }
    if (trace.empty()) return usageError(io, "whatif", "expected a TRACE argument");
    if (rule.isDefault()) return usageError(io, "whatif", "give at least one --exclude NAME or --include NAME");
    auto reader = trace::TraceReader::open(trace);
    auto a = engine::analyseCache(*reader);
    auto r = engine::whatIf(a->facts, a->replay, rule);
    if (!r.unknownNames.empty()) {
        for (const auto& n : r.unknownNames)
            io.err << "compilescope whatif: no key component or role named '" << n << "' in " << traceLabel(trace) << "\n";
        return Exit::Usage;
    }
    auto& out = io.out;
    out << "whatif " << traceLabel(trace) << ":";
    for (const auto& n : rule.exclude) out << " exclude " << n;
    for (const auto& n : rule.include) out << " include " << n;
    out << "\n  compiles: " << r.baseline.misses << " -> " << r.changed.misses << " ("
        << (r.compilesSaved >= 0 ? std::to_string(r.compilesSaved) + " saved" : std::to_string(-r.compilesSaved) + " added")
        << ")\n";
    out << "  compile time: " << util::formatDuration(r.nsSaved >= 0 ? r.nsSaved : -r.nsSaved)
        << (r.nsSaved >= 0 ? " saved" : " lost") << "\n";
    // Every flip up to a screenful; the totals above cover the rest.
    constexpr size_t kShown = 40;
    for (size_t k = 0; k < r.flips.size() && k < kShown; ++k) {
        const auto& f = r.flips[k];
        out << "  " << lookupLabel(a->facts, f.lookup) << ": " << (f.nowHit ? "miss -> hit, saves " : "hit -> miss, costs ")
            << util::formatDuration(f.costNs) << (f.estimated ? " (program mean)" : "")
            << (f.unsafe ? "  UNSAFE: would serve a program of another graph" : "") << "\n";
    }
    if (r.flips.size() > kShown) out << "  ... " << r.flips.size() - kShown << " more lookup(s) change verdict\n";
    if (r.unsafeHits)
        out << "  unsafe: " << r.unsafeHits
            << " new hit(s) would serve a program compiled for a different graph; the component shapes the program\n";
    return Exit::Ok;
}
}  // namespace

Command whatifCommand() {
    return {"whatif", "replay the cache with a key component excluded or added",
            "Usage: compilescope whatif TRACE [--exclude NAME]... [--include NAME]...\n\n"
            "Replays the trace's program cache with the named key components (or roles: shape, graphconst,\n"
            "world, keyword, device, host, ...) removed from or added to the key, and reports the compiles\n"
            "and compile seconds saved or lost, lookup by lookup. A hit created by an exclusion is marked\n"
            "UNSAFE when the recorded graph fingerprints show it would serve a different program.\n",
            runWhatIf};
}

}  // namespace cs::cli
