#include "core/trace/write_note_stats.h"

#include "core/trace/sqlite_util.h"

#include <sqlite3.h>

#include <memory>
#include <stdexcept>

namespace cs::trace {

namespace {
void addRow(sqlite3* db, const char* name, const char* source, std::int64_t count, const std::string& detail) {
    Statement st(db, "INSERT INTO stats (session_id, name, source, count, detail) VALUES (NULL, ?, ?, ?, ?)");
    st.bind(1, name);
    st.bind(2, source);
    st.bind(3, count);
    st.bind(4, detail);
    st.step();
}
}  // namespace

std::string storeWriteNoteStats(const std::string& tracePath, const WriteNote& note) {
    sqlite3* raw = nullptr;
    const int rc = sqlite3_open_v2(tracePath.c_str(), &raw, SQLITE_OPEN_READWRITE, nullptr);
    std::unique_ptr<sqlite3, int (*)(sqlite3*)> db(raw, sqlite3_close);
    if (rc != SQLITE_OK) return raw ? sqlite3_errmsg(raw) : "out of memory";
    sqlite3_busy_timeout(raw, 1000);
    try {
        execSql(raw, "BEGIN IMMEDIATE");
        for (const auto& [table, n] : note.notStored) addRow(raw, "dropped_write_failed", "recorder", n, note.reason + ": " + table);
        if (note.droppedByCollectors)
            addRow(raw, "dropped_no_recorder", "collector", note.droppedByCollectors, "counted by the job after the write failed");
        execSql(raw, "COMMIT");
    } catch (const std::runtime_error& e) {
        sqlite3_exec(raw, "ROLLBACK", nullptr, nullptr, nullptr);
        return e.what();
    }
    return "";
}

}  // namespace cs::trace
