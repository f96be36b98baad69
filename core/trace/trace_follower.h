// TraceFollower: follows a trace that a recorder is still writing, reading only what is new.
//
// Why a mirror: every view renders the one analysis of a trace (core/engine/analysis/trace_analysis.h), and
// the analyses read a TraceReader. Re-reading the recording itself on every refresh made the cost of
// a refresh grow with the job, and a long read transaction on the recorder's file holds back its WAL
// checkpoints (the WAL then grows without bound). So the follower keeps a private copy, the mirror,
// and each poll copies into it only the rows committed since the last poll: per table, the rows
// whose rowid is above that table's watermark, in read transactions of at most 8192 rows each, read
// into memory before they are written to the mirror (so the recorder's checkpoints are never held
// back for long: a transaction lasts about a millisecond), referrers first (a copied row's strings
// and tracks were committed before it, so they are still found), on a connection opened for that
// poll and closed after it (an idle open connection would stop the recorder from finalizing). The
// mirror is written many rows to a statement (kRowsPerInsert, trace_follower.cpp): the copy must
// outpace the recorder, or the follower falls behind.
// Views then read the mirror, which nobody else writes; it is in WAL mode, so a reader on another
// thread (the live analysis) keeps its snapshot while the next polls are written.
//
// Appended tables are read from their watermark. Four small tables are changed in place by the
// writer (sessions: end and exit status; tracks: renamed threads; stats: counts that grow; meta:
// replaced values); they hold a row per process, thread or counter, and are re-read whole on each
// poll. PollResult counts both apart, so a test can assert that the rows read from the appended
// tables are exactly the new rows.
//
// The recording is untrusted input: it is opened through TraceReader (header, schema and page checks,
// defensive SQLite settings); a row the mirror's STRICT tables refuse is a TraceError, never a crash.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

struct sqlite3;

namespace cs::trace {

// Lowers the calling thread's CPU priority (Linux: the thread's nice value, +10): a viewer following
// a recording must take CPU from the recorder only when the recorder leaves it idle. `nice` 19 is
// for work that may wait for everything else (the live analysis, behind the rows of each refresh).
void yieldToRecorder(int nice = 10);

class TraceFollower {
public:
    // Opens `recording` (TraceError when it is not a readable trace) and creates the mirror at
    // `mirrorPath` (replaced when it exists). Nothing is copied until poll().
    TraceFollower(const std::string& recording, const std::string& mirrorPath);
    ~TraceFollower();
    TraceFollower(const TraceFollower&) = delete;
    TraceFollower& operator=(const TraceFollower&) = delete;

    struct TableRows {
        std::string table;
        std::int64_t rows = 0;
    };
    struct PollResult {
        std::int64_t appendedRowsRead = 0;   // rows read from the appended tables (all above the watermarks)
        std::int64_t smallTableRowsRead = 0;  // rows of sessions, tracks, stats and meta, re-read whole
        std::vector<TableRows> appended;      // appended rows per table, tables with none left out
    };
    // Copies the rows committed since the last poll into the mirror, in short read transactions on
    // the recording and one write transaction on the mirror. Throws TraceError when the recording cannot
    // be read (a poll that fails copies nothing; the next one starts from the same watermarks).
    PollResult poll();

    // Removes a mirror and its WAL files (the mirror is in WAL mode; see createMirror).
    static void removeMirror(const std::string& mirrorPath);

    const std::string& recording() const { return m_recording; }
    const std::string& mirrorPath() const { return m_mirrorPath; }
    // Rows read from the recording's appended tables over every poll (a counter for tests).
    std::int64_t totalAppendedRowsRead() const { return m_totalAppended; }
    int polls() const { return m_polls; }

private:
    struct Table;
    void createMirror();

    std::string m_recording, m_mirrorPath;
    sqlite3* m_mirror = nullptr;
    std::vector<Table> m_tables;
    std::int64_t m_totalAppended = 0;
    int m_polls = 0;
};

}  // namespace cs::trace
