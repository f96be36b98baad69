#include "core/trace/reader.h"

#include "core/trace/page_seal.h"
#include "core/trace/schema.h"
#include "core/trace/sqlite_util.h"
#include "core/trace/trace_error.h"
#include "core/trace/unsealed_policy.h"
#include "core/trace/write_failure_cause.h"

#include <sqlite3.h>

#include <array>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>

namespace cs::trace {

namespace {
constexpr size_t kHeaderSize = 100;
constexpr char kMagic[] = "SQLite format 3";  // 15 bytes + NUL = the first 16 bytes of every database

std::uint32_t be32(const unsigned char* p) {
    return (std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) | (std::uint32_t{p[2]} << 8) | p[3];
}

std::string printablePrefix(const unsigned char* p, size_t n) {
    std::string out;
    for (size_t i = 0; i < n && i < 16; ++i) {
        if (std::isprint(p[i])) out += static_cast<char>(p[i]);
        else {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\x%02x", p[i]);
            out += buf;
        }
    }
    return out;
}

std::string hex32(std::uint32_t v) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "0x%08x", v);
    return buf;
}

// Why a file is shorter than its header says: a recording that hit a full disk left a note saying so
// (write_failure_cause.h, issue 40); without one, most likely a copy.
std::string cutShortCause(const std::string& path) {
    const std::string cause = writeFailureCause(path);
    return cause.empty() ? "the file was cut short, e.g. by an interrupted copy" : cause;
}

// Header checks that need no SQLite: returns the user_version.
int checkHeader(const std::string& path) {
    namespace fs = std::filesystem;
    std::error_code ec;
    auto status = fs::status(path, ec);
    if (ec || !fs::exists(status)) throw TraceError(TraceErrorKind::NotFound, path, "no such file");
    if (fs::is_directory(status)) throw TraceError(TraceErrorKind::Unreadable, path, "is a directory, not a trace file");
    auto size = fs::file_size(path, ec);
    if (ec) throw TraceError(TraceErrorKind::Unreadable, path, "cannot read file size: " + ec.message());
    if (size == 0) throw TraceError(TraceErrorKind::Empty, path, "empty file (0 bytes); not a trace");
    std::ifstream in(path, std::ios::binary);
    if (!in) throw TraceError(TraceErrorKind::Unreadable, path, "cannot open for reading (permission denied?)");
    std::array<unsigned char, kHeaderSize> h{};
    in.read(reinterpret_cast<char*>(h.data()), kHeaderSize);
    auto got = static_cast<size_t>(in.gcount());
    if (got < 16 || std::string_view(reinterpret_cast<const char*>(h.data()), 16) != std::string_view(kMagic, 16))
        throw TraceError(TraceErrorKind::NotSqlite, path,
                         "not a CompileScope trace: not a SQLite database (starts with \"" +
                             printablePrefix(h.data(), got) + "\")");
    if (got < kHeaderSize)
        throw TraceError(TraceErrorKind::Truncated, path,
                         "truncated at byte " + std::to_string(got) + ": the SQLite header alone is 100 bytes");
    std::uint64_t pageSize = (std::uint32_t{h[16]} << 8) | h[17];
    if (pageSize == 1) pageSize = 65536;
    if (pageSize < 512 || (pageSize & (pageSize - 1)))
        throw TraceError(TraceErrorKind::Corrupt, path, "corrupt SQLite header (page size " + std::to_string(pageSize) + ")");
    std::uint32_t pages = be32(&h[28]);
    bool pagesValid = pages != 0 && be32(&h[24]) == be32(&h[92]);
    if (pagesValid && std::uint64_t{pages} * pageSize > size)
        throw TraceError(TraceErrorKind::Truncated, path,
                         "truncated at byte " + std::to_string(size) + " of " + std::to_string(std::uint64_t{pages} * pageSize) +
                             " (" + cutShortCause(path) + ")");
    if (size % pageSize != 0)
        throw TraceError(TraceErrorKind::Truncated, path,
                         "truncated at byte " + std::to_string(size) + ": not a whole number of " +
                             std::to_string(pageSize) + "-byte pages (" + cutShortCause(path) + ")");
    std::uint32_t appId = be32(&h[68]);
    int version = static_cast<int>(be32(&h[60]));
    if (appId != static_cast<std::uint32_t>(applicationId()))
        throw TraceError(TraceErrorKind::ForeignDatabase, path,
                         "a SQLite database of another application (application_id " + hex32(appId) +
                             ", a CompileScope trace has " + hex32(static_cast<std::uint32_t>(applicationId())) + ")");
    if (version > formatVersion())
        throw TraceError(TraceErrorKind::NewerVersion, path,
                         "trace format v" + std::to_string(version) + " is newer than this CompileScope reads (v" +
                             std::to_string(formatVersion()) + "); upgrade CompileScope to open it");
    if (version < 1)
        throw TraceError(TraceErrorKind::OlderVersion, path,
                         "trace format v" + std::to_string(version) + " is not a format any CompileScope wrote");
    return version;
}

bool isCorruption(int rc) { return (rc & 0xff) == SQLITE_CORRUPT || (rc & 0xff) == SQLITE_NOTADB; }

void checkSchema(const std::string& path, sqlite3* db, int version) {
    std::set<std::string, std::less<>> known;
    for (const auto& t : schemaTables()) known.emplace(t.name);
    for (const auto& t : derivedTables()) known.emplace(t.table.name);
    std::set<std::string, std::less<>> knownIndexes;
    for (const auto& i : schemaIndexes()) knownIndexes.emplace(i.name);
    std::set<std::string, std::less<>> present;

    sqlite3_stmt* st = nullptr;
    int rc = sqlite3_prepare_v2(db, "SELECT type, name, tbl_name FROM sqlite_schema", -1, &st, nullptr);
    if (rc != SQLITE_OK) {
        std::string msg = sqlite3_errmsg(db);
        throw TraceError(isCorruption(rc) ? TraceErrorKind::Corrupt : TraceErrorKind::UnsafeSchema, path,
                         "cannot read the schema: " + msg);
    }
    std::unique_ptr<sqlite3_stmt, int (*)(sqlite3_stmt*)> guard(st, sqlite3_finalize);
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        auto text = [&](int i) {
            auto* p = sqlite3_column_text(st, i);
            return std::string(p ? reinterpret_cast<const char*>(p) : "");
        };
        std::string type = text(0), name = text(1), table = text(2);
        if (type == "trigger" || type == "view")
            throw TraceError(TraceErrorKind::UnsafeSchema, path,
                             "schema holds a " + type + " (\"" + name +
                                 "\"); a CompileScope trace never does, refusing to open it");
        if (type == "table") {
            if (!known.count(name) && name != "sqlite_stat1" && name != "sqlite_stat4" && name != "sqlite_sequence")
                throw TraceError(TraceErrorKind::UnsafeSchema, path, "unexpected table \"" + name + "\" in the schema");
            present.insert(name);
        } else if (type == "index") {
            bool ours = knownIndexes.count(name) || name.rfind("sqlite_autoindex_", 0) == 0;
            if (!ours || !known.count(table))
                throw TraceError(TraceErrorKind::UnsafeSchema, path, "unexpected index \"" + name + "\" in the schema");
        } else {
            throw TraceError(TraceErrorKind::UnsafeSchema, path, "unexpected schema object \"" + name + "\" (" + type + ")");
        }
    }
    if (rc != SQLITE_DONE)
        throw TraceError(isCorruption(rc) ? TraceErrorKind::Corrupt : TraceErrorKind::Query, path,
                         std::string("cannot read the schema: ") + sqlite3_errmsg(db));
    // Our application id but no table at all: the recorder writes the schema into the write-ahead
    // log and folds it in only when the recording finishes, so this is an unfinished recording copied
    // without its -wal file, not a damaged schema (issue 40).
    if (present.empty())
        throw TraceError(TraceErrorKind::SchemaMismatch, path,
                         "holds no tables: a recording that never finished, copied without its write-ahead log (" +
                             std::filesystem::path(path).filename().string() +
                             "-wal). Copy that file beside it, or let the recording finish");
    // A table a later format version added (span_pyramid, v2) may be absent from an older trace
    // (pyramid_migrate.h adds it); where present, its columns are checked as every table's are.
    std::vector<const TableDef*> expected;
    for (const auto& t : schemaTables()) expected.push_back(&t);
    for (const auto& d : derivedTables())
        if (version >= d.sinceVersion || present.count(d.table.name)) expected.push_back(&d.table);
    for (const TableDef* table : expected) {
        const TableDef& t = *table;
        if (!present.count(t.name))
            throw TraceError(TraceErrorKind::SchemaMismatch, path, "table \"" + std::string(t.name) + "\" is missing");
        std::set<std::string, std::less<>> cols;
        Statement info(db, "SELECT name FROM pragma_table_info(?)");
        info.bind(1, t.name);
        while (info.step()) cols.insert(info.columnText(0));
        for (const auto& c : t.columns)
            if (!cols.count(c.name))
                throw TraceError(TraceErrorKind::SchemaMismatch, path,
                                 "table \"" + std::string(t.name) + "\" lacks column \"" + std::string(c.name) + "\"");
    }
}

int userQueryAuthorizer(void*, int action, const char* a, const char*, const char*, const char*) {
    switch (action) {
    case SQLITE_SELECT:
    case SQLITE_READ:
    case SQLITE_FUNCTION:
    case SQLITE_RECURSIVE:
        return SQLITE_OK;
    case SQLITE_PRAGMA: {
        static const std::set<std::string, std::less<>> allowed = {
            "table_info", "table_list", "index_list", "index_info", "user_version", "application_id",
            "page_count", "page_size", "integrity_check", "quick_check", "table_xinfo", "freelist_count"};
        return a && allowed.count(std::string_view(a)) ? SQLITE_OK : SQLITE_DENY;
    }
    default:
        return SQLITE_DENY;
    }
}

// Damaged: throws. Ok: the note. Otherwise "" with `*unchecked` set, for admitUnchecked() once the
// schema was read: an unfinished recording copied without its -wal gets that message, not a seal hint.
std::string checkPageSeal(const std::string& path, PageCheck* unchecked) {
    PageCheck c;
    try {
        c = checkPages(path);
    } catch (const std::runtime_error& e) {
        throw TraceError(TraceErrorKind::Unreadable, path, e.what());
    }
    if (c.state == PageCheck::State::Damaged)
        throw TraceError(TraceErrorKind::Corrupt, path,
                         "damaged: page " + std::to_string(c.page) + " of " + std::to_string(c.pages) +
                             " does not match the checksum written with the trace (a flipped byte, a bad copy or "
                             "disk); its figures cannot be trusted. Record or import it again");
    if (c.state == PageCheck::State::Ok) return "ok (" + std::to_string(c.pages) + " pages)";
    // Unsealed or modified: refused naming the file unless recorded right now, written before page
    // checksums existed, or trusted by the user (unsealed_policy.h).
    if (!unchecked) return admitUnchecked(path, c);
    *unchecked = c;
    return "";
}
}  // namespace

std::unique_ptr<TraceReader> TraceReader::open(const std::string& path) { return openChecked(path, nullptr); }

std::unique_ptr<TraceReader> TraceReader::open(const std::string& path, OpenOptions options) {
    return openChecked(path, nullptr, options.deferPageCheck);
}

std::unique_ptr<TraceReader> TraceReader::another() const {
    return openChecked(m_path, m_pagesDeferred ? nullptr : &m_pageCheck);
}

void TraceReader::checkPagesNow() {
    if (!m_pagesDeferred) return;
    m_pageCheck = checkPageSeal(m_path, nullptr);
    m_pagesDeferred = false;
}

std::unique_ptr<TraceReader> TraceReader::openChecked(const std::string& path, const std::string* pagesChecked,
                                                      bool deferPageCheck) {
    int version = checkHeader(path);
    // Before SQLite parses anything: a damaged page is refused, not read as data. A second connection
    // to a file this process has just checked skips the pass over every page (0.14 s at 10M events).
    // Deferred, it runs before the trace is read whole (checkPagesNow); until then only the pages a
    // first look needs are read, under SQLite's defensive mode, which refuses a malformed page.
    std::optional<PageCheck> unchecked;
    PageCheck pending;
    std::string pageCheck = pagesChecked ? *pagesChecked : deferPageCheck ? "not checked yet" : checkPageSeal(path, &pending);
    if (pageCheck.empty()) unchecked = pending;
    sqlite3* db = nullptr;
    std::string uri = "file:" + path + "?mode=ro";
    // Escape characters that URI parsing would interpret.
    std::string escaped;
    for (char c : uri) {
        if (c == '#' || c == '%') {
            char buf[4];
            std::snprintf(buf, sizeof buf, "%%%02X", static_cast<unsigned char>(c));
            escaped += buf;
        } else {
            escaped += c;
        }
    }
    int rc = sqlite3_open_v2(escaped.c_str(), &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX, nullptr);
    if (rc != SQLITE_OK) {
        std::string msg = db ? sqlite3_errmsg(db) : "out of memory";
        sqlite3_close_v2(db);
        throw TraceError(TraceErrorKind::Unreadable, path, "cannot open: " + msg);
    }
    auto reader = std::unique_ptr<TraceReader>(new TraceReader(path, db, version));
    int ignored = 0;
    sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, &ignored);
    sqlite3_db_config(db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, &ignored);
    sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_TRIGGER, 0, &ignored);
    sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_VIEW, 0, &ignored);
    sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, &ignored);
    sqlite3_limit(db, SQLITE_LIMIT_ATTACHED, 0);
    checkSchema(path, db, version);
    if (unchecked) pageCheck = admitUnchecked(path, *unchecked);  // before any row is read
    reader->m_pageCheck = std::move(pageCheck);
    reader->m_pagesDeferred = deferPageCheck && !pagesChecked;
    return reader;
}

TraceReader::TraceReader(std::string path, sqlite3* db, int version)
    : m_path(std::move(path)), m_db(db), m_version(version) {}

TraceReader::~TraceReader() { sqlite3_close_v2(m_db); }

void TraceReader::failQuery(const std::string& sql, const std::string& msg) const {
    int code = sqlite3_errcode(m_db);
    if (isCorruption(code))
        throw TraceError(TraceErrorKind::Corrupt, m_path, "corrupt trace (" + msg + ")");
    throw TraceError(TraceErrorKind::Query, m_path, msg + " (in: " + sql + ")");
}

void TraceReader::query(const std::string& sql, const std::function<void(const Row&)>& row) const {
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v2(m_db, sql.c_str(), -1, &st, nullptr) != SQLITE_OK) failQuery(sql, sqlite3_errmsg(m_db));
    std::unique_ptr<sqlite3_stmt, int (*)(sqlite3_stmt*)> guard(st, sqlite3_finalize);
    const Row r(st);
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) row(r);
    if (rc != SQLITE_DONE) failQuery(sql, sqlite3_errmsg(m_db));
}

void TraceReader::pinSnapshot() {
    if (sqlite3_exec(m_db, "BEGIN", nullptr, nullptr, nullptr) != SQLITE_OK)
        throw TraceError(TraceErrorKind::Unreadable, m_path, "cannot begin a read transaction: " + errorText(m_db));
    rowCount("spans");
}

std::int64_t TraceReader::rowCount(std::string_view table) const {
    if (!findTable(table)) throw TraceError(TraceErrorKind::Query, m_path, "no table " + std::string(table));
    std::int64_t n = 0;
    query("SELECT count(*) FROM " + std::string(table), [&](const Row& r) { n = r.integer(0); });
    return n;
}

std::string TraceReader::meta(std::string_view key) const {
    return oneText("SELECT value FROM meta WHERE key=?", [&](Statement& st) { st.bind(1, key); });
}

// Statement (not query()) for the two per-key lookups: prepared once per call, no std::function per row.
std::string TraceReader::oneText(const char* sql, const std::function<void(Statement&)>& bind) const {
    std::string out;
    try {
        Statement st(m_db, sql);
        bind(st);
        if (st.step()) out = st.columnText(0);
    } catch (const std::runtime_error& e) {
        failQuery(sql, e.what());  // names the file
    }
    return out;
}

const std::string& TraceReader::str(StringId id) const {
    static const std::string empty;
    if (id == 0) return empty;
    auto it = m_stringCache.find(id);
    if (it != m_stringCache.end()) return it->second;
    std::string value = oneText("SELECT str FROM strings WHERE id=?", [&](Statement& st) { st.bind(1, id); });
    return m_stringCache.emplace(id, std::move(value)).first->second;
}

void TraceReader::restrictToUserQueries() {
    sqlite3_set_authorizer(m_db, userQueryAuthorizer, nullptr);
}

std::string TraceReader::quickCheck() const { return firstText("PRAGMA quick_check"); }

std::string TraceReader::integrityCheck() const { return firstText("PRAGMA integrity_check"); }

std::string TraceReader::firstText(const std::string& sql) const {
    std::string result = "?";
    bool first = true;
    query(sql, [&](const Row& r) {
        if (first) result = r.text(0);
        first = false;
    });
    return result;
}

}  // namespace cs::trace
