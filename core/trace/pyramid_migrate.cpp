// Writing the span pyramid into an older trace; see pyramid_migrate.h.
#include "core/trace/pyramid_migrate.h"

#include "core/trace/page_seal.h"
#include "core/trace/pyramid.h"
#include "core/trace/reader.h"
#include "core/trace/schema.h"
#include "core/trace/sqlite_util.h"
#include "core/trace/trace_error.h"
#include "core/trace/unsealed_policy.h"

#include <sqlite3.h>

#include <memory>

namespace cs::trace {

namespace {
void addPyramid(sqlite3* db, const std::function<void(double)>& progress) {
    execSql(db, "BEGIN IMMEDIATE");
    try {
        for (const auto& t : derivedTables()) execSql(db, createTableSql(t));
        Statement top(db, "SELECT max(rowid) FROM spans");
        const std::int64_t maxRowid = top.step() ? top.columnInt(0) : 0;
        top = Statement();
        addSpansToPyramid(db, 0, maxRowid, progress);
        execSql(db, "PRAGMA user_version=" + std::to_string(formatVersion()));
        execSql(db, "INSERT OR REPLACE INTO meta VALUES ('format_version', '" + std::to_string(formatVersion()) + "')");
        execSql(db, "COMMIT");
    } catch (...) {
        sqlite3_exec(db, "ROLLBACK", nullptr, nullptr, nullptr);
        throw;
    }
}
}  // namespace

bool migrateToPyramid(const std::string& path, const std::function<void(double)>& progress) {
    if (recordingInProgress(path))
        throw TraceError(TraceErrorKind::Write, path, "is being recorded; its pyramid is written as it records. Nothing changed");
    bool wasSealed = false;
    {
        auto reader = TraceReader::open(path);  // the same checks as any read, before anything is written
        if (hasPyramid(*reader)) return false;
        wasSealed = reader->pageCheck().rfind("ok", 0) == 0;
    }
    sqlite3* raw = nullptr;
    const int rc = sqlite3_open_v2(path.c_str(), &raw, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nullptr);
    std::unique_ptr<sqlite3, int (*)(sqlite3*)> db(raw, sqlite3_close_v2);
    if (rc != SQLITE_OK)
        throw TraceError(TraceErrorKind::Write, path,
                         std::string("cannot open to add the span pyramid: ") + (raw ? sqlite3_errmsg(raw) : "out of memory"));
    int ignored = 0;
    sqlite3_db_config(raw, SQLITE_DBCONFIG_DEFENSIVE, 1, &ignored);
    sqlite3_db_config(raw, SQLITE_DBCONFIG_ENABLE_TRIGGER, 0, &ignored);
    sqlite3_db_config(raw, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, &ignored);
    sqlite3_busy_timeout(raw, 5000);
    try {
        addPyramid(raw, progress);
    } catch (const std::runtime_error& e) {
        throw TraceError(TraceErrorKind::Write, path, std::string("cannot add the span pyramid: ") + e.what());
    }
    db.reset();
    try {
        if (wasSealed) sealPages(path);
    } catch (const std::runtime_error& e) {
        throw TraceError(TraceErrorKind::Write, path, std::string("cannot seal after adding the span pyramid: ") + e.what());
    }
    TraceReader::open(path);  // the proof: it reads as a v2 trace
    return true;
}

}  // namespace cs::trace
