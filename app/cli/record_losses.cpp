#include "record_losses.h"

#include "core/trace/reader.h"

#include <sqlite3.h>

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
    {"dropped_other", "unknown reason", "see the trace's stats table"},
    {"lost_at_exit", "a dead process's buffers were unreadable", "see the trace's stats table"},
};

constexpr std::size_t kOther = 4;  // dropped_other

std::string grouped(std::int64_t n) {
    std::string digits = std::to_string(n), out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i && (digits.size() - i) % 3 == 0 && digits[i - 1] != '-') out += ',';
        out += digits[i];
    }
    return out;
}
}  // namespace

void reportRecordingLosses(const std::string& tracePath, std::ostream& err) {
    struct Row {
        std::int64_t count = 0, processes = 0;
    };
    std::vector<Row> rows(std::size(kReasons));
    try {
        auto r = trace::TraceReader::open(tracePath);
        r->query("SELECT name, sum(count), count(DISTINCT session_id) FROM stats WHERE name LIKE 'dropped\\_%' ESCAPE '\\' "
                 "OR name = 'lost_at_exit' GROUP BY name",
                 [&](sqlite3_stmt* st) {
                     const auto* n = sqlite3_column_text(st, 0);
                     std::string_view name = n ? reinterpret_cast<const char*>(n) : "";
                     std::size_t i = 0;
                     while (i < std::size(kReasons) && kReasons[i].stat != name) ++i;
                     if (i == std::size(kReasons)) i = kOther;
                     rows[i].count += sqlite3_column_int64(st, 1);
                     rows[i].processes += sqlite3_column_int64(st, 2);
                 });
    } catch (const std::exception& e) {
        err << "compilescope: cannot check " << tracePath << " for dropped events: " << e.what() << "\n";
        return;
    }
    std::int64_t total = 0;
    std::string why, remedy;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        if (rows[i].count <= 0) continue;
        total += rows[i].count;
        why += (why.empty() ? "" : "; ") + std::string(kReasons[i].why) + ": " + grouped(rows[i].count) + " in " +
               grouped(rows[i].processes) + (rows[i].processes == 1 ? " process" : " processes");
        if (remedy.find(kReasons[i].remedy) == std::string::npos)
            remedy += (remedy.empty() ? "" : "; ") + std::string(kReasons[i].remedy);
    }
    if (total <= 0) return;
    err << "compilescope: " << grouped(total) << " events dropped (" << why << "); " << remedy
        << " (docs/collector.md)\n";
}

}  // namespace cs::cli
