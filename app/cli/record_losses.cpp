#include "record_losses.h"

#include "core/engine/accounting/trace_losses.h"
#include "core/trace/reader.h"
#include "core/trace/table_readers.h"
#include "core/util/saturating.h"
#include "core/util/units.h"

#include <cstdint>
#include <map>
#include <set>
#include <string_view>
#include <utility>
#include <vector>

namespace cs::cli {

namespace {
struct Reason {
    std::string_view stat, why, remedy;
};
// Every loss counter a recording can hold (docs/collector.md), with its remedy.
constexpr Reason kReasons[] = {
    {"dropped_buffer_full", "buffer full",
     "set COMPILESCOPE_BUFFER_POLICY=block or a larger COMPILESCOPE_BUFFER_KB"},
    {"dropped_oversized", "record larger than a quarter of the buffer", "set a larger COMPILESCOPE_BUFFER_KB"},
    {"dropped_no_recorder", "recorder unreachable", "see the warning above"},
    {"dropped_reentrant", "recorded from inside another event (signal handler, hook)", "record outside the handler"},
    {"dropped_after_recording", "still buffered in processes that outlived the job",
     "record --wait-children SECONDS waits for them"},
    {"discarded_bytes", "bytes the recorder could not use", "see the trace's stats table"},
    {"lost_at_exit", "lost with a process that died (buffers unreadable, or threads beyond the arena's slots)",
     "see the trace's stats table"},
    {"dropped_other", "unknown reason", "see the trace's stats table"},
};

constexpr std::size_t kOther = std::size(kReasons) - 1;  // dropped_other

// How many processes counted each stats row's name (a file-wide row names none).
std::map<std::string, std::int64_t> processesPerName(const trace::TraceReader& reader) {
    std::map<std::string, std::set<std::int64_t>> sessions;
    for (const trace::StoredStat& s : trace::readStats(reader))
        if (s.count > 0 && s.sessionId) sessions[s.name].insert(*s.sessionId);
    std::map<std::string, std::int64_t> out;
    for (const auto& [name, ids] : sessions) out[name] = static_cast<std::int64_t>(ids.size());
    return out;
}
}  // namespace

void reportRecordingLosses(const std::string& tracePath, std::ostream& err) {
    struct Row {
        std::int64_t count = 0, processes = 0;
    };
    std::vector<Row> rows(std::size(kReasons));
    std::int64_t total = 0;
    try {
        auto reader = trace::TraceReader::open(tracePath);
        // The engine's figure and its rows, so that record's line and `info`'s banner never disagree.
        const engine::TraceLosses losses = engine::readTraceLosses(*reader);
        total = losses.droppedEvents;
        const auto processes = processesPerName(*reader);
        std::set<std::pair<std::size_t, std::string>> named;  // (reason, stats name): processes once per name
        for (const engine::Loss& l : losses.items) {
            if (!l.events) continue;
            std::size_t i = 0;
            while (i < std::size(kReasons) && kReasons[i].stat != l.name) ++i;
            if (i == std::size(kReasons)) i = kOther;
            rows[i].count = util::satAdd(rows[i].count, l.count);
            if (!named.insert({i, l.name}).second) continue;
            // A count from the write-failure note (trace_facts.h) names no process.
            if (const auto p = processes.find(l.name); p != processes.end()) rows[i].processes += p->second;
        }
    } catch (const std::exception& e) {
        err << "compilescope: cannot check " << tracePath << " for dropped events: " << e.what() << "\n";
        return;
    }
    std::string why, remedy;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        if (rows[i].count <= 0) continue;
        why += (why.empty() ? "" : "; ") + std::string(kReasons[i].why) + ": " + util::formatCount(rows[i].count) + " in " +
               util::formatCount(rows[i].processes) + (rows[i].processes == 1 ? " process" : " processes");
        if (remedy.find(kReasons[i].remedy) == std::string::npos)
            remedy += (remedy.empty() ? "" : "; ") + std::string(kReasons[i].remedy);
    }
    if (total <= 0) return;
    err << "compilescope: " << util::formatCount(total) << " events dropped (" << why << "); " << remedy
        << " (docs/collector.md)\n";
}

}  // namespace cs::cli
