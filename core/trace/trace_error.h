// Errors of the trace layer. Every message names the file and says what is wrong in words a user can
// act on; `kind` lets callers (CLI exit codes, GUI dialogs, tests) tell the cases apart.
#pragma once

#include "core/util/utf8.h"

#include <stdexcept>
#include <string>

namespace cs::trace {

enum class TraceErrorKind {
    NotFound,        // no such file
    Unreadable,      // permission, I/O, a directory
    Empty,           // zero-byte file
    NotSqlite,       // bytes are not a SQLite database
    Truncated,       // SQLite header promises more pages than the file holds
    ForeignDatabase, // SQLite, but another application's (application_id)
    NewerVersion,    // user_version newer than this build reads
    OlderVersion,    // user_version older than any version this build reads
    UnsafeSchema,    // triggers, views, unknown objects: refused before any query runs
    SchemaMismatch,  // a known table lacks a column
    Corrupt,         // SQLite reported corruption
    Write,           // writing failed (disk full, unwritable directory)
    Query,           // a user query failed
};

class TraceError : public std::runtime_error {
public:
    TraceError(TraceErrorKind kind, std::string path, const std::string& message)
        : std::runtime_error(path.empty() ? message : util::printablePath(path) + ": " + message), m_kind(kind),
          m_path(std::move(path)) {}
    TraceErrorKind kind() const { return m_kind; }
    const std::string& path() const { return m_path; }

private:
    TraceErrorKind m_kind;
    std::string m_path;
};

}  // namespace cs::trace
