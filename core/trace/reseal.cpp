// Re-sealing a trace the user vouches for; see reseal.h.
#include "core/trace/reseal.h"

#include "core/trace/page_seal.h"
#include "core/trace/reader.h"
#include "core/trace/sqlite_util.h"
#include "core/trace/trace_error.h"
#include "core/trace/unsealed_policy.h"

#include <sqlite3.h>

#include <memory>

namespace cs::trace {

namespace {
// The check as the reader would have made it, in a few words, without refusing anything.
std::string before(const std::string& path) {
    const PageCheck c = checkPages(path);
    switch (c.state) {
    case PageCheck::State::Ok: return "sealed already";
    case PageCheck::State::Damaged: return "damaged at page " + std::to_string(c.page);
    case PageCheck::State::Stale: return "modified after sealing";
    case PageCheck::State::Unsealed: break;
    }
    return c.sealMark ? "sealed, header byte 20 changed" : "not sealed";
}

// Opens `path` as a trace (header, application_id, schema). The page check is left out (deferred and
// never run): that is what sealing replaces.
void checkIsTrace(const std::string& path) { TraceReader::open(path, {.deferPageCheck = true}); }

void rewrite(const std::string& path, bool restoreReserve) {
    sqlite3* raw = nullptr;
    const int rc = sqlite3_open_v2(path.c_str(), &raw, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nullptr);
    std::unique_ptr<sqlite3, int (*)(sqlite3*)> db(raw, sqlite3_close_v2);
    if (rc != SQLITE_OK)
        throw TraceError(TraceErrorKind::Write, path, std::string("cannot open to seal: ") + (raw ? sqlite3_errmsg(raw) : "out of memory"));
    int ignored = 0;
    sqlite3_db_config(raw, SQLITE_DBCONFIG_DEFENSIVE, 1, &ignored);
    sqlite3_db_config(raw, SQLITE_DBCONFIG_ENABLE_TRIGGER, 0, &ignored);
    sqlite3_db_config(raw, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, &ignored);
    try {
        execSql(raw, "PRAGMA journal_mode=DELETE");  // a killed recording's -wal is folded in
        if (restoreReserve) {
            int reserve = kReservedBytes;  // VACUUM rebuilds every page with this much room at its end
            sqlite3_file_control(raw, "main", SQLITE_FCNTL_RESERVE_BYTES, &reserve);
            execSql(raw, "VACUUM");
        }
    } catch (const std::runtime_error& e) {
        throw TraceError(TraceErrorKind::Write, path, std::string("cannot seal: ") + e.what());
    }
}
}  // namespace

std::string resealTrace(const std::string& path) {
    if (recordingInProgress(path))
        throw TraceError(TraceErrorKind::Write, path,
                         "is being recorded; it is sealed when the recording finishes. Nothing changed");
    checkIsTrace(path);
    const std::string was = before(path);
    rewrite(path, checkPages(path).reserved != kReservedBytes);
    try {
        if (!sealPages(path))
            throw TraceError(TraceErrorKind::Write, path, "cannot seal: its pages have no room for checksums");
    } catch (const TraceError&) {
        throw;
    } catch (const std::runtime_error& e) {
        throw TraceError(TraceErrorKind::Write, path, std::string("cannot seal: ") + e.what());
    }
    TraceReader::open(path);  // the proof: it now reads without any waiver
    return was;
}

}  // namespace cs::trace
