// `compilescope info TRACE`: what a trace holds, at a glance, and what was lost on the way in.
#include "command.h"
#include "table_printer.h"

#include "core/trace/reader.h"
#include "core/trace/schema.h"
#include "core/util/units.h"

#include <sqlite3.h>

#include <map>

namespace cs::cli {

namespace {
std::string textOr(sqlite3_stmt* st, int i, const std::string& fallback) {
    if (sqlite3_column_type(st, i) == SQLITE_NULL) return fallback;
    return reinterpret_cast<const char*>(sqlite3_column_text(st, i));
}

int runInfo(const std::vector<std::string>& args, CommandIo& io) {
    if (args.size() != 1) return usageError(io, "info", "expected exactly one TRACE argument");
    auto reader = trace::TraceReader::open(args[0]);
    auto& out = io.out;
    out << "trace:   " << reader->path() << "\n";
    out << "format:  v" << reader->formatVersion() << ", written by " << reader->meta("creator") << "\n";

    TablePrinter sessions({"session", "runtime", "pid", "command / source", "start", "duration", "state"});
    std::int64_t minNs = 0, maxNs = 0;
    bool any = false;
    reader->query(
        "SELECT s.id, r.str, s.pid, coalesce(c.str, src.str), s.start_ns, s.end_ns, s.exit_status "
        "FROM sessions s LEFT JOIN strings r ON r.id = s.runtime_sid LEFT JOIN strings c ON c.id = s.cmdline_sid "
        "LEFT JOIN strings src ON src.id = s.source_sid ORDER BY s.id",
        [&](sqlite3_stmt* st) {
            bool ended = sqlite3_column_type(st, 5) != SQLITE_NULL;
            std::int64_t start = sqlite3_column_int64(st, 4), end = sqlite3_column_int64(st, 5);
            if (!any || start < minNs) minNs = start;
            if (ended && (!any || end > maxNs)) maxNs = end;
            any = true;
            std::string state = ended ? "complete" : "unfinished";
            if (ended && sqlite3_column_type(st, 6) != SQLITE_NULL)
                state += ", exit " + std::to_string(sqlite3_column_int64(st, 6));
            sessions.addRow({std::to_string(sqlite3_column_int64(st, 0)), textOr(st, 1, "-"), textOr(st, 2, "-"),
                             textOr(st, 3, "-"), std::to_string(start) + " ns",
                             ended ? util::formatDuration(end - start) : "-", state});
        });
    out << "sessions: " << sessions.rowCount() << "\n";
    if (sessions.rowCount()) sessions.print(out);
    if (any) out << "time span: " << util::formatDuration(maxNs > minNs ? maxNs - minNs : 0) << "\n";

    // Row counts per fact family, in schema order.
    std::vector<std::pair<std::string, std::int64_t>> families;
    std::map<std::string, size_t> index;
    for (const auto& t : trace::schemaTables()) {
        if (t.family == "format" || t.family == "stats") continue;
        std::string fam(t.family);
        if (!index.count(fam)) {
            index[fam] = families.size();
            families.push_back({fam, 0});
        }
        families[index[fam]].second += reader->rowCount(t.name);
    }
    out << "rows per fact family:\n";
    TablePrinter counts({"family", "rows"});
    for (const auto& [fam, n] : families) counts.addRow({fam, std::to_string(n)});
    counts.print(out);

    TablePrinter stats({"stat", "source", "count", "first example"});
    reader->query("SELECT name, source, count, detail FROM stats ORDER BY id", [&](sqlite3_stmt* st) {
        stats.addRow({textOr(st, 0, ""), textOr(st, 1, ""), std::to_string(sqlite3_column_int64(st, 2)),
                      textOr(st, 3, "")});
    });
    if (stats.rowCount() == 0) {
        out << "stats: nothing dropped or malformed\n";
    } else {
        out << "stats: " << stats.rowCount() << " kinds of dropped or malformed input\n";
        stats.print(out, 100);
    }
    return Exit::Ok;
}
}  // namespace

Command infoCommand() {
    return {"info", "summarise a trace: sessions, time span, rows per fact family, stats",
            "Usage: compilescope info TRACE\n\n"
            "Prints the trace's sessions (unfinished ones are marked), its time span, how many rows each\n"
            "fact family holds and the stats table (what was dropped or malformed on the way in).\n"
            "Exit status 2 when TRACE cannot be read; the message says why.\n",
            runInfo};
}

}  // namespace cs::cli
