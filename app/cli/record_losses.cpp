#include "record_losses.h"

#include "core/engine/trace_facts.h"
#include "core/engine/trace_losses.h"
#include "core/trace/reader.h"
#include "core/util/saturating.h"
#include "core/util/units.h"

#include <sqlite3.h>

#include <algorithm>
#include <cstdint>
#include <string_view>
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

// The stats rows of the trace, as the engine reads them, with how many sessions each covers.
std::vector<std::pair<engine::StatRow, std::int64_t>> statsOf(const std::string& tracePath) {
    std::vector<std::pair<engine::StatRow, std::int64_t>> rows;
    auto r = trace::TraceReader::open(tracePath);
    r->query("SELECT name, source, sum(count), count(DISTINCT session_id) FROM stats GROUP BY name, source",
             [&](sqlite3_stmt* st) {
                 auto text = [&](int i) {
                     const auto* t = sqlite3_column_text(st, i);
                     return std::string(t ? reinterpret_cast<const char*>(t) : "");
                 };
                 rows.push_back({{text(0), text(1), "", sqlite3_column_int64(st, 2)}, sqlite3_column_int64(st, 3)});
             });
    return rows;
}
}  // namespace

void reportRecordingLosses(const std::string& tracePath, std::ostream& err) {
    struct Row {
        std::int64_t count = 0, processes = 0;
    };
    std::vector<Row> rows(std::size(kReasons));
    std::int64_t total = 0;
    try {
        const auto stats = statsOf(tracePath);
        engine::TraceFacts facts;
        for (const auto& [s, sessions] : stats) facts.stats.push_back(s);
        // The engine's figure, so that record's line and `info`'s banner never disagree.
        const engine::TraceLosses losses = engine::lossesOf(facts);
        total = losses.droppedEvents;
        for (const auto& [s, sessions] : stats) {
            const std::string& name = s.name;
            const bool counted = std::any_of(losses.items.begin(), losses.items.end(),
                                             [&name](const engine::Loss& l) { return l.events && l.name == name; });
            if (!counted || s.count <= 0) continue;
            std::size_t i = 0;
            while (i < std::size(kReasons) && kReasons[i].stat != s.name) ++i;
            if (i == std::size(kReasons)) i = kOther;
            rows[i].count = util::satAdd(rows[i].count, s.count);
            rows[i].processes += sessions;
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
