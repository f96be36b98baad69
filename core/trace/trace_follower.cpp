// Incremental copy of a live recording into a private mirror (see trace_follower.h for why).
#include "core/trace/trace_follower.h"

#include "core/trace/reader.h"
#include "core/trace/pyramid.h"
#include "core/trace/schema.h"
#include "core/trace/sqlite_util.h"
#include "core/trace/trace_error.h"

#include <sqlite3.h>

#ifdef __linux__
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

#include <algorithm>
#include <filesystem>
#include <stdexcept>

namespace cs::trace {

namespace {
// Rows per INSERT into the mirror. One statement per row spent most of a poll starting and ending
// statements (cursors opened and closed, the program run from the top); 32 rows a statement copies
// about half again as fast (BM_FollowerCatchUp). Fewer for a table so wide that 32 rows would pass
// 999 parameters, the oldest SQLite's limit (today's widest table has 16 values with the rowid).
//
// OR FAIL, not the default ABORT: a statement that writes several rows and may abort needs a
// statement journal (to undo its own rows), which SQLite spills to a temporary file: gigabytes of
// writes per million rows copied, more than the rows themselves. FAIL stops at the failing row and
// keeps the ones before it, and the poll then rolls the whole mirror transaction back (poll() below),
// so nothing of a failed poll is kept either way.
constexpr int kRowsPerInsert = 32;
constexpr int kMaxParameters = 999;

// Tables the writer changes in place (UPDATE, INSERT OR REPLACE): re-read whole on every poll.
bool changedInPlace(std::string_view table) {
    return table == "sessions" || table == "tracks" || table == "stats" || table == "meta";
}

std::string columnList(const TableDef& t) {
    std::string cols;
    for (const auto& c : t.columns) {
        if (!cols.empty()) cols += ", ";
        cols += c.name;
    }
    return cols;
}
// Rows of one chunk, read from the recording into memory: the read transaction ends before any of
// them is written to the mirror, so it lasts the read alone (about a millisecond for 8192 rows), not
// the mirror's inserts and index updates too. A snapshot held that long, by a reader the scheduler
// had put aside, kept the recorder's checkpoints waiting and its WAL growing.
class ChunkBuffer {
public:
    void clear() {
        m_cells.clear();
        m_bytes.clear();
    }
    // Appends the current row of `read` (columns 0..columns).
    void addRow(sqlite3_stmt* read, int columns) {
        for (int c = 0; c <= columns; ++c) {
            Cell cell;
            cell.type = sqlite3_column_type(read, c);
            switch (cell.type) {
            case SQLITE_INTEGER: cell.i = sqlite3_column_int64(read, c); break;
            case SQLITE_FLOAT: cell.d = sqlite3_column_double(read, c); break;
            case SQLITE_TEXT:
            case SQLITE_BLOB: {
                const void* p = cell.type == SQLITE_TEXT ? static_cast<const void*>(sqlite3_column_text(read, c)) : sqlite3_column_blob(read, c);
                cell.len = static_cast<std::size_t>(sqlite3_column_bytes(read, c));
                cell.off = m_bytes.size();
                if (cell.len) m_bytes.append(static_cast<const char*>(p), cell.len);
                break;
            }
            default: break;
            }
            m_cells.push_back(cell);
        }
    }
    // Binds row `row`'s cells to `write`, from parameter first+1 on (columns+1 of them); valid until
    // clear().
    int bindRow(sqlite3_stmt* write, std::size_t row, int columns, int first = 0) const {
        const std::size_t width = static_cast<std::size_t>(columns) + 1;
        for (std::size_t c = 0; c < width; ++c) {
            const Cell& cell = m_cells[row * width + c];
            const int at = first + static_cast<int>(c) + 1;
            int rc = SQLITE_OK;
            switch (cell.type) {
            case SQLITE_INTEGER: rc = sqlite3_bind_int64(write, at, cell.i); break;
            case SQLITE_FLOAT: rc = sqlite3_bind_double(write, at, cell.d); break;
            case SQLITE_TEXT:
                rc = sqlite3_bind_text64(write, at, m_bytes.data() + cell.off, cell.len, SQLITE_STATIC, SQLITE_UTF8);
                break;
            case SQLITE_BLOB: rc = sqlite3_bind_blob64(write, at, m_bytes.data() + cell.off, cell.len, SQLITE_STATIC); break;
            default: rc = sqlite3_bind_null(write, at); break;
            }
            if (rc != SQLITE_OK) return rc;
        }
        return SQLITE_OK;
    }
    std::int64_t rowidOf(std::size_t row, int columns) const { return m_cells[row * (static_cast<std::size_t>(columns) + 1)].i; }

private:
    struct Cell {
        int type = SQLITE_NULL;
        std::int64_t i = 0;
        double d = 0;
        std::size_t off = 0, len = 0;
    };
    std::vector<Cell> m_cells;
    std::string m_bytes;
};
}  // namespace

struct TraceFollower::Table {
    std::string name;
    bool small = false;
    int columns = 0;
    std::string select;  // rowid first, then the declared columns
    std::string insert;      // one row
    std::string insertMany;  // rowsPerInsert rows
    int rowsPerInsert = 1;
    std::int64_t watermark = 0;  // highest rowid copied
};

void yieldToRecorder(int nice) {
#ifdef __linux__
    // On Linux, PRIO_PROCESS with a thread id sets that thread's nice value alone.
    ::setpriority(PRIO_PROCESS, static_cast<id_t>(::syscall(SYS_gettid)), nice);
#endif
}

TraceFollower::TraceFollower(const std::string& recording, const std::string& mirrorPath)
    : m_recording(recording), m_mirrorPath(mirrorPath) {
    TraceReader::open(recording);  // a clear error now for a file that is not a trace
    for (const TableDef& t : schemaTables()) {
        Table tab;
        tab.name = std::string(t.name);
        tab.small = changedInPlace(t.name);
        tab.columns = static_cast<int>(t.columns.size());
        const std::string cols = columnList(t);
        tab.select = "SELECT rowid, " + cols + " FROM " + tab.name +
                     (tab.small ? "" : " WHERE rowid > ? AND rowid <= ? ORDER BY rowid LIMIT ?");
        std::string params = "(?";
        for (int i = 0; i < tab.columns; ++i) params += ",?";
        params += ")";
        tab.insert = "INSERT OR FAIL INTO " + tab.name + " (rowid, " + cols + ") VALUES " + params;
        tab.rowsPerInsert = std::max(1, std::min(kRowsPerInsert, kMaxParameters / (tab.columns + 1)));
        tab.insertMany = tab.insert;
        for (int k = 1; k < tab.rowsPerInsert; ++k) tab.insertMany += "," + params;
        m_tables.push_back(std::move(tab));
    }
    createMirror();
}

TraceFollower::~TraceFollower() { sqlite3_close_v2(m_mirror); }

void TraceFollower::removeMirror(const std::string& mirrorPath) {
    std::error_code ec;
    for (const char* suffix : {"", "-journal", "-wal", "-shm"}) std::filesystem::remove(mirrorPath + suffix, ec);
}

void TraceFollower::createMirror() {
    removeMirror(m_mirrorPath);
    if (sqlite3_open_v2(m_mirrorPath.c_str(), &m_mirror, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
                        nullptr) != SQLITE_OK)
        throw TraceError(TraceErrorKind::Write, m_mirrorPath,
                         "cannot create the live mirror: " + std::string(m_mirror ? sqlite3_errmsg(m_mirror) : "out of memory"));
    try {
        execSql(m_mirror, "PRAGMA page_size=16384");
        execSql(m_mirror, "PRAGMA application_id=" + std::to_string(applicationId()));
        execSql(m_mirror, "PRAGMA user_version=" + std::to_string(formatVersion()));
        // A private scratch copy: a crash loses nothing that the recording does not still hold. WAL, so
        // that a reader (the live analysis, on its own thread) keeps one snapshot while polls go on.
        execSql(m_mirror, "PRAGMA journal_mode=WAL");
        execSql(m_mirror, "PRAGMA synchronous=OFF");
        execSql(m_mirror, "BEGIN");
        for (const TableDef& t : schemaTables()) execSql(m_mirror, createTableSql(t));
        for (const DerivedTableDef& t : derivedTables()) execSql(m_mirror, createTableSql(t));
        for (const IndexDef& idx : schemaIndexes())
            execSql(m_mirror, "CREATE INDEX " + std::string(idx.name) + " ON " + std::string(idx.table) + "(" +
                                  std::string(idx.columns) + ")");
        execSql(m_mirror, "COMMIT");
    } catch (const std::runtime_error& e) {
        throw TraceError(TraceErrorKind::Write, m_mirrorPath, std::string("cannot create the live mirror: ") + e.what());
    }
}

TraceFollower::PollResult TraceFollower::poll() {
    PollResult result;
    // A connection per poll: an open one, even idle, would stop the recorder from leaving WAL mode
    // when it finalizes the trace ("database is locked").
    std::unique_ptr<TraceReader> source = TraceReader::open(m_recording);
    sqlite3* src = source->db();
    std::vector<std::int64_t> marks;
    marks.reserve(m_tables.size());
    for (const Table& t : m_tables) marks.push_back(t.watermark);
    // Short read transactions: at most kChunkRows rows each, so the recorder's checkpoints are never
    // held back for longer than one chunk (a snapshot held across a whole poll let the WAL grow and
    // slowed the writer down fivefold). Tables are read referrers first (spans before tracks and
    // strings): whatever a copied row refers to was committed before it, so a later transaction still
    // finds it.
    constexpr std::int64_t kChunkRows = 8192;
    bool reading = false, writing = false;
    ChunkBuffer chunk;
    auto beginRead = [&] {
        execSql(src, "BEGIN");
        reading = true;
    };
    auto endRead = [&] {
        reading = false;
        execSql(src, "COMMIT");
    };
    try {
        execSql(m_mirror, "BEGIN");
        writing = true;
        for (std::size_t i = m_tables.size(); i-- > 0;) {
            const Table& t = m_tables[i];
            Statement write(m_mirror, t.insert), writeMany;
            // Reads the statement's rows into memory, ends the read transaction, then writes them.
            auto copy = [&](Statement& read) {
                chunk.clear();
                std::int64_t rows = 0;
                while (read.step()) {
                    chunk.addRow(read.get(), t.columns);
                    ++rows;
                }
                read = Statement();
                endRead();
                std::int64_t r = 0;
                const int many = t.rowsPerInsert;
                if (many > 1 && rows >= many && !writeMany.valid()) writeMany = Statement(m_mirror, t.insertMany);
                for (; many > 1 && r + many <= rows; r += many) {
                    for (int k = 0; k < many; ++k)
                        if (chunk.bindRow(writeMany.get(), static_cast<std::size_t>(r + k), t.columns, k * (t.columns + 1)) != SQLITE_OK)
                            throw std::runtime_error(errorText(m_mirror));
                    writeMany.step();
                    sqlite3_reset(writeMany.get());  // every parameter is bound again: no clearing
                }
                for (; r < rows; ++r) {
                    if (chunk.bindRow(write.get(), static_cast<std::size_t>(r), t.columns) != SQLITE_OK)
                        throw std::runtime_error(errorText(m_mirror));
                    write.step();
                    write.reset();
                }
                if (!t.small && rows) marks[i] = chunk.rowidOf(static_cast<std::size_t>(rows - 1), t.columns);
                return rows;
            };
            if (t.small) {
                execSql(m_mirror, "DELETE FROM " + t.name);
                beginRead();
                Statement read(src, t.select);
                result.smallTableRowsRead += copy(read);
                continue;
            }
            // Up to what was committed when this table's turn came: a writer faster than the copy
            // is caught up with at the next poll, not chased.
            std::int64_t upTo = 0;
            {
                Statement top(src, "SELECT max(rowid) FROM " + t.name);
                if (top.step()) upTo = top.columnInt(0);
            }
            std::int64_t rows = 0;
            while (marks[i] < upTo) {
                beginRead();
                Statement read(src, t.select);
                read.bind(1, marks[i]);
                read.bind(2, upTo);
                read.bind(3, kChunkRows);
                const std::int64_t n = copy(read);
                rows += n;
                if (n == 0) break;  // rows deleted by another program: nothing above the mark
            }
            if (rows) {
                result.appendedRowsRead += rows;
                result.appended.push_back({t.name, rows});
            }
        }
        // The mirror's pyramid is summed from the spans this poll copied, on the mirror itself: the
        // recording's pyramid rows change in place and have no rowid to follow (pyramid.h).
        for (std::size_t i = 0; i < m_tables.size(); ++i)
            if (m_tables[i].name == "spans" && marks[i] > m_tables[i].watermark)
                addSpansToPyramid(m_mirror, m_tables[i].watermark, marks[i]);
        execSql(m_mirror, "COMMIT");
        writing = false;
    } catch (const std::runtime_error& e) {
        if (reading) sqlite3_exec(src, "ROLLBACK", nullptr, nullptr, nullptr);
        if (writing) sqlite3_exec(m_mirror, "ROLLBACK", nullptr, nullptr, nullptr);
        if (dynamic_cast<const TraceError*>(&e)) throw;
        throw TraceError(TraceErrorKind::Query, m_recording, std::string("cannot follow the recording: ") + e.what());
    }
    for (std::size_t i = 0; i < m_tables.size(); ++i) m_tables[i].watermark = marks[i];
    m_totalAppended += result.appendedRowsRead;
    ++m_polls;
    return result;
}

}  // namespace cs::trace
