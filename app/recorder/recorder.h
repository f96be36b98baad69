// Recorder: the process that owns one SQLite trace and receives events from collectors.
//
// Why a single-threaded poll loop: SQLite wants one writer, and the collectors do the concurrent part
// (per-thread rings). The loop accepts connections on a Unix stream socket, feeds each connection's
// bytes to its WireSession, and commits the open transaction at least every 100 ms, so a kill -9 of
// the recorder loses at most the last 100 ms of received events and leaves a trace that opens (WAL).
// A process whose stream ends without GOODBYE has died: what its rings still held is read from the
// arena memfd it sent (arena_drain.h) before its session is closed.
// A write failure (unwritable directory, full disk) prints one warning; the recorder then keeps
// reading and discarding so that the recorded program never blocks on it.
#pragma once

#include "wire_session.h"
#include "write_failure.h"

#include "core/trace/writer.h"

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace cs::recorder {

struct RecorderOptions {
    std::string output;         // trace to create
    std::string socketPath;     // where collectors connect
    bool overwrite = false;
    bool exitWhenIdle = false;  // private recorder: end when the last connection closed
    int controlFd = -1;         // launcher's pipe: "exit PID STATUS" lines, EOF = finish
    int commitIntervalMs = 100;
    int finishGraceMs = 2000;   // after the finish request, how long to wait for open connections
    int idleGraceMs = 300;      // exitWhenIdle: how long to wait for a new connection
};

class Recorder {
public:
    // Creates the trace and the listening socket. Throws TraceError / std::runtime_error with a
    // message naming what failed.
    explicit Recorder(RecorderOptions options);
    ~Recorder();

    // Runs until finished (see RecorderOptions) or until requestStop(); returns the exit status.
    int run();
    // Async-signal-safe: asks run() to finish.
    static void requestStop();

    std::int64_t eventsReceived() const { return m_events; }

private:
    struct Connection {
        int fd;
        int arenaFd = -1;  // the process's arena (ARENA message), read if it dies
        bool eof = false;  // the process closed its end (exited or died)
        bool deferred = false;  // closed while its process still ran: its arena is read at the end
        std::vector<unsigned char> buf;
        std::size_t used = 0;
        std::unique_ptr<WireSession> session;
    };
    static std::int64_t parentSession(void* self, std::int64_t ppid);
    void accept();
    bool readFrom(Connection& c);  // false: connection closed
    void close(Connection& c);
    void recoverFromArena(Connection& c);
    void settle(Connection& c, bool running);
    void storeArenaCounters(Connection& c, bool running);
    void settleDeferred();
    void settleOrCount(Connection& c, bool running);
    void drainAndClose(Connection& c);
    void stopTakingEvents();
    void readControl();
    void commitIfDue(bool force);
    void writeFailed(const std::exception& e);
    void finalize();

    RecorderOptions m_opt;
    std::unique_ptr<trace::TraceWriter> m_writer;
    int m_listen = -1;
    std::vector<std::unique_ptr<Connection>> m_conns;
    std::vector<std::unique_ptr<Connection>> m_deferred;  // processes that lost their connection alive
    std::map<std::int64_t, std::int64_t> m_pidSessions;  // pid -> latest session
    std::map<std::int64_t, std::int64_t> m_exitStatus;   // pid -> exit status (-signal) from the launcher
    std::chrono::steady_clock::time_point m_lastCommit;
    bool m_failed = false, m_finishing = false, m_hadConnection = false;
    std::int64_t m_events = 0;
    WriteFailure m_failure;  // what a write failure cost (write_failure.h)
};

}  // namespace cs::recorder
