// TraceReader: opens a .cstrace file that may come from anywhere.
//
// Why so careful: a trace is untrusted input (mailed by a colleague, attached to a CI run). SQLite
// will happily run triggers, views and schema-defined functions from a hostile file, and a truncated
// copy only fails later, deep inside a query. So the reader checks the 100-byte SQLite header itself
// (magic, page count against file size, application_id, user_version) before SQLite parses anything,
// then opens read-only with SQLITE_DBCONFIG_DEFENSIVE, trusted_schema=OFF, triggers and views
// disabled, and accepts only the tables, columns and indexes that schema.cpp declares. Each failure
// is a TraceError whose message names the file and the problem.
#pragma once

#include "core/trace/records.h"
#include "core/trace/row.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>

struct sqlite3;
struct sqlite3_stmt;

namespace cs::trace {

class Statement;

class TraceReader {
public:
    struct OpenOptions {
        // Leave the pass over every page's checksum until checkPagesNow(): for a first look that
        // reads a handful of pages (a timeline outline of one of 256 ranks), each of them still
        // guarded by SQLite's defensive mode. Whatever reads the trace whole calls checkPagesNow() first.
        bool deferPageCheck = false;
    };
    // Throws TraceError with a kind per problem (see trace_error.h).
    static std::unique_ptr<TraceReader> open(const std::string& path);
    static std::unique_ptr<TraceReader> open(const std::string& path, OpenOptions options);
    // Another connection to the same file (a parallel scan's worker): header and schema checked
    // again, the page checksums taken from this reader's check.
    std::unique_ptr<TraceReader> another() const;
    ~TraceReader();
    TraceReader(const TraceReader&) = delete;
    TraceReader& operator=(const TraceReader&) = delete;

    const std::string& path() const { return m_path; }
    int formatVersion() const { return m_version; }
    // The connection, for the trace layer itself (row.h's Query, the follower) and its tests; opaque above it.
    sqlite3* db() const { return m_db; }

    std::int64_t rowCount(std::string_view table) const;
    std::string meta(std::string_view key) const;  // "" when absent
    // Text of an interned string; "" for 0 or an unknown id. Cached.
    const std::string& str(StringId id) const;

    // Runs `sql` and calls `row` for each result row (typed reads: row.h).
    // Throws TraceError(Query) on failure, or TraceError(Corrupt) when SQLite reports corruption.
    void query(const std::string& sql, const std::function<void(const Row&)>& row) const;

    // Begins a read transaction and reads once, so the connection keeps seeing the trace as it is now
    // while a writer goes on (a live trace's mirror). Throws TraceError(Unreadable) when it cannot.
    void pinSnapshot();

    // Restricts the connection for queries typed by a user: SELECT and read-only PRAGMAs only, no ATTACH.
    void restrictToUserQueries();
    // PRAGMA integrity_check; returns "ok" or SQLite's first complaint.
    std::string integrityCheck() const;
    // PRAGMA quick_check (the b-tree structure without the index cross-check); "ok" or the first complaint.
    std::string quickCheck() const;
    // What the check of the page checksums on open found: "ok", "not sealed", "modified after sealing"
    // ("not checked yet" while a deferred check has not run).
    const std::string& pageCheck() const { return m_pageCheck; }
    // Runs the page check that open() deferred (OpenOptions::deferPageCheck); nothing when it ran.
    // Throws TraceError(Corrupt) for a damaged page, as open() would have.
    void checkPagesNow();

private:
    friend class Query;  // shares failQuery's words for a failed statement
    TraceReader(std::string path, sqlite3* db, int version);
    static std::unique_ptr<TraceReader> openChecked(const std::string& path, const std::string* pagesChecked,
                                                    bool deferPageCheck = false);
    std::string firstText(const std::string& sql) const;  // first column of the first row
    std::string oneText(const char* sql, const std::function<void(Statement&)>& bind) const;
    [[noreturn]] void failQuery(const std::string& sql, const std::string& msg) const;

    std::string m_path;
    sqlite3* m_db;
    int m_version;
    std::string m_pageCheck;
    bool m_pagesDeferred = false;
    mutable std::unordered_map<StringId, std::string> m_stringCache;
};

}  // namespace cs::trace
