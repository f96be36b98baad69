#include "recorder.h"

#include "arena_counters.h"
#include "arena_drain.h"
#include "exit_codes.h"
#include "write_failure.h"

#include "core/trace/trace_error.h"
#include "core/trace/write_note_reserve.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <numeric>
#include <fcntl.h>
#include <poll.h>
#include <stdexcept>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <unistd.h>

namespace cs::recorder {

namespace {
volatile std::sig_atomic_t g_stop = 0;
constexpr std::size_t kReadChunk = 1 << 20;

using Clock = std::chrono::steady_clock;
std::int64_t msSince(Clock::time_point t) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t).count();
}

// Whether `pid` still runs: a zombie or a vanished process no longer touches its arena.
bool processRunning(std::int64_t pid) {
    if (pid <= 0) return false;
    FILE* f = std::fopen(("/proc/" + std::to_string(pid) + "/stat").c_str(), "r");
    if (!f) return ::kill(static_cast<pid_t>(pid), 0) == 0;
    char line[512] = {};
    const std::size_t n = std::fread(line, 1, sizeof line - 1, f);
    std::fclose(f);
    const char* paren = std::strrchr(line, ')');
    const char state = paren && paren + 2 < line + n ? paren[2] : '?';
    return state != 'Z' && state != 'X';
}
}  // namespace

void Recorder::requestStop() { g_stop = 1; }

Recorder::Recorder(RecorderOptions options) : m_opt(std::move(options)) {
    m_writer = std::make_unique<trace::TraceWriter>(
        m_opt.output, trace::WriterOptions{.overwrite = m_opt.overwrite, .creator = "compilescope-recorder"});
    m_writer->setMeta("source", "recorded");
    m_writer->commit();
    trace::reserveWriteNote(m_opt.output);  // room for the note while the disk has it (issue 40)

    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    if (m_opt.socketPath.size() >= sizeof addr.sun_path)
        throw std::runtime_error("socket path too long: " + m_opt.socketPath);
    std::memcpy(addr.sun_path, m_opt.socketPath.c_str(), m_opt.socketPath.size() + 1);
    m_listen = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (m_listen < 0) throw std::runtime_error(std::string("cannot create socket: ") + std::strerror(errno));
    ::unlink(m_opt.socketPath.c_str());
    const mode_t old = ::umask(0077);  // only this user may connect
    int rc = ::bind(m_listen, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
    ::umask(old);
    if (rc != 0 || ::listen(m_listen, 64) != 0)
        throw std::runtime_error("cannot listen on " + m_opt.socketPath + ": " + std::strerror(errno));
    m_lastCommit = Clock::now();
}

Recorder::~Recorder() {
    for (auto& c : m_conns) ::close(c->fd);
    if (m_listen >= 0) {
        ::close(m_listen);
        ::unlink(m_opt.socketPath.c_str());
    }
}

std::int64_t Recorder::parentSession(void* self, std::int64_t ppid) {
    auto& map = static_cast<Recorder*>(self)->m_pidSessions;
    auto it = map.find(ppid);
    return it == map.end() ? 0 : it->second;
}

// The trace stopped accepting writes (full disk, file size limit): from here on the recorder only
// counts (write_failure.h). The sockets are shut for reading, so the job's collectors count what
// they send later themselves (cs_dropped_count()), and no new process connects.
void Recorder::writeFailed(const std::exception& e) {
    if (m_failed) return;
    m_failed = true;
    m_failure.reason = e.what();  // said once, with what it cost, when the recording ends
    for (auto& c : m_conns)
        if (c && c->fd >= 0) ::shutdown(c->fd, SHUT_RD);
    if (m_listen >= 0) {
        ::close(m_listen);
        ::unlink(m_opt.socketPath.c_str());
        m_listen = -1;
    }
}

void Recorder::accept() {
    for (;;) {
        int fd = ::accept4(m_listen, nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK);
        if (fd < 0) return;
        int rcvbuf = 1 << 20;
        ::setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof rcvbuf);
        auto c = std::make_unique<Connection>();
        c->fd = fd;
        c->buf.resize(kReadChunk * 2);
        if (m_writer) c->session = std::make_unique<WireSession>(*m_writer, &Recorder::parentSession, this);
        m_conns.push_back(std::move(c));
        m_hadConnection = true;
    }
}

bool Recorder::readFrom(Connection& c) {
    if (c.buf.size() - c.used < kReadChunk) c.buf.resize(c.used + kReadChunk);
    // recvmsg: the ARENA message brings the process's memfd as SCM_RIGHTS.
    iovec iov{c.buf.data() + c.used, kReadChunk};
    alignas(cmsghdr) char control[CMSG_SPACE(4 * sizeof(int))];
    msghdr msg{};
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control;
    msg.msg_controllen = sizeof control;
    ssize_t n = ::recvmsg(c.fd, &msg, MSG_CMSG_CLOEXEC);
    for (cmsghdr* cm = n >= 0 ? CMSG_FIRSTHDR(&msg) : nullptr; cm; cm = CMSG_NXTHDR(&msg, cm)) {
        if (cm->cmsg_level != SOL_SOCKET || cm->cmsg_type != SCM_RIGHTS) continue;
        const std::size_t count = (cm->cmsg_len - CMSG_LEN(0)) / sizeof(int);
        for (std::size_t i = 0; i < count; ++i) {
            int fd;
            std::memcpy(&fd, CMSG_DATA(cm) + i * sizeof(int), sizeof fd);
            if (c.arenaFd < 0) c.arenaFd = fd;  // one arena per process; extra fds are closed
            else ::close(fd);
        }
    }
    if (n < 0 && (errno == EAGAIN || errno == EINTR)) return true;
    if (n <= 0) {
        c.eof = n == 0;
        return false;
    }
    if (m_failed) {
        c.used += static_cast<std::size_t>(n);
        const std::size_t whole = countMessages(c.buf.data(), c.used, m_failure.received);
        std::memmove(c.buf.data(), c.buf.data() + whole, c.used - whole);
        c.used -= whole;
        return true;
    }
    c.used += static_cast<std::size_t>(n);
    const auto& byType = c.session->eventsByType();
    const std::int64_t handled = std::accumulate(byType.begin(), byType.end(), std::int64_t{0});
    try {
        const std::int64_t before = c.session->events();
        std::ptrdiff_t used = c.session->feed(c.buf.data(), c.used);
        m_events += c.session->events() - before;
        if (c.session->sessionId() && c.session->pid()) m_pidSessions[c.session->pid()] = c.session->sessionId();
        if (used < 0) return false;
        std::memmove(c.buf.data(), c.buf.data() + used, c.used - static_cast<std::size_t>(used));
        c.used -= static_cast<std::size_t>(used);
    } catch (const std::exception& e) {
        writeFailed(e);
        // The messages the session handled before the failure are counted already; the rest of the
        // buffer is counted with what follows.
        const std::int64_t now = std::accumulate(byType.begin(), byType.end(), std::int64_t{0});
        const std::size_t done = skipEvents(c.buf.data(), c.used, now - handled);
        std::memmove(c.buf.data(), c.buf.data() + done, c.used - done);
        c.used -= done;
    }
    return true;
}

// The process ended without GOODBYE (_exit(), a signal): what its rings still held is in its arena.
void Recorder::recoverFromArena(Connection& c) {
    if (c.arenaFd < 0 || !c.session || !c.session->sessionId() || c.session->ended()) return;
    const DrainResult r = drainArena(c.arenaFd, *c.session);
    m_events += r.events;
    const trace::OptInt session{c.session->sessionId()};
    if (r.events) m_writer->addStat(session, "recovered_after_exit", "recorder", r.events);
    if (!r.problem.empty()) m_writer->addStat(session, "lost_at_exit", "recorder", 1, "arena unreadable: " + r.problem);
    if (r.lostRings)
        m_writer->addStat(session, "lost_at_exit", "recorder", r.lostRings, "rings overwritten while being read");
}

// What the process counted but could not send (its connection stalled or lost), and, for a process
// still running when the recording finishes, what its buffers hold (arena_counters.h).
void Recorder::storeArenaCounters(Connection& c, bool running) {
    ArenaCounters a;
    if (!readArenaCounters(c.arenaFd, *c.session, a).empty()) return;  // the drain said why
    storeUnreportedDrops(a, *c.session, *m_writer);
    const trace::OptInt session{c.session->sessionId()};
    if (running && a.buffered + a.privateLost)
        m_writer->addStat(session, "dropped_after_recording", "recorder",
                          static_cast<std::int64_t>(std::min<std::uint64_t>(a.buffered + a.privateLost, INT64_MAX)),
                          "pid " + std::to_string(c.session->pid()) +
                              " still ran when the recording finished: events still in its buffers (what it records "
                              "later is counted nowhere; record --wait-children waits for it)");
    else if (!running && !c.session->ended() && a.privateLost)
        m_writer->addStat(session, "lost_at_exit", "recorder", static_cast<std::int64_t>(std::min<std::uint64_t>(a.privateLost, INT64_MAX)),
                          "threads beyond the arena's slots (private rings) of a process that ended without cs_stop()");
}

// The process's stream ended (running: it still runs, the recording is finishing).
void Recorder::settle(Connection& c, bool running) {
    if (c.arenaFd >= 0 && c.session->sessionId()) {
        if (!running) recoverFromArena(c);
        storeArenaCounters(c, running);
    }
    c.session->finish();
}

// Settles a closed connection in the trace, or, once the trace failed, counts for the note what its
// process counted or still buffers.
void Recorder::settleOrCount(Connection& c, bool running) {
    if (!m_failed) {
        try {
            settle(c, running);
            return;
        } catch (const std::exception& e) {
            writeFailed(e);
        }
    }
    ArenaCounters a;
    if (c.arenaFd < 0 || !readArenaCounters(c.arenaFd, *c.session, a).empty()) {
        if (c.session->sessionId() && !c.session->ended()) ++m_failure.withoutArena;
        return;
    }
    for (int why = 0; why < CS_DROP_REASONS; ++why)
        if (a.dropped[why] > c.session->dropsReceived(why))
            m_failure.droppedByCollectors += static_cast<std::int64_t>(a.dropped[why] - c.session->dropsReceived(why));
    if (!c.session->ended()) m_failure.droppedByCollectors += static_cast<std::int64_t>(a.buffered + a.privateLost);
}

void Recorder::close(Connection& c) {
    if (c.session) {
        for (std::size_t i = 0; i < m_failure.received.size(); ++i) m_failure.received[i] += c.session->eventsByType()[i];
        // A process that lost its connection while it runs goes on counting what it drops in its
        // arena: read it when the recording finishes, not now (its flusher may be counting the very
        // events a drain would read).
        c.deferred = !m_finishing && c.arenaFd >= 0 && c.session->sessionId() && !c.session->ended() &&
                     processRunning(c.session->pid());
        if (!c.deferred) settleOrCount(c, !c.session->ended() && (!c.eof || processRunning(c.session->pid())));
    }
    if (c.arenaFd >= 0 && !c.deferred) ::close(c.arenaFd);
    if (!c.deferred) c.arenaFd = -1;
    ::close(c.fd);
    c.fd = -1;
}

void Recorder::settleDeferred() {
    for (auto& c : m_deferred) {
        settleOrCount(*c, processRunning(c->session->pid()));
        ::close(c->arenaFd);
    }
    m_deferred.clear();
}

void Recorder::readControl() {
    char buf[4096];
    ssize_t n = ::read(m_opt.controlFd, buf, sizeof buf);
    if (n < 0 && (errno == EAGAIN || errno == EINTR)) return;
    if (n <= 0) {
        ::close(m_opt.controlFd);
        m_opt.controlFd = -1;
        m_finishing = true;
        return;
    }
    // Lines "exit PID STATUS" / "signal PID SIGNAL": the launcher's view of how the top process ended.
    std::string text(buf, static_cast<std::size_t>(n));
    long long pid = 0, status = 0;
    char how[8] = {};
    const char* p = text.c_str();
    while (std::sscanf(p, "%7s %lld %lld", how, &pid, &status) == 3) {
        if (std::strcmp(how, "exit") == 0) m_exitStatus[pid] = status;
        else if (std::strcmp(how, "signal") == 0) m_exitStatus[pid] = -status;
        const char* nl = std::strchr(p, '\n');
        if (!nl) break;
        p = nl + 1;
    }
}

void Recorder::commitIfDue(bool force) {
    if (m_failed || !m_writer) return;
    if (!force && msSince(m_lastCommit) < m_opt.commitIntervalMs) return;
    try {
        m_writer->requestCommit();  // runs on the writer's SQLite thread after the rows queued so far
    } catch (const std::exception& e) {
        writeFailed(e);
    }
    m_lastCommit = Clock::now();
}

void Recorder::finalize() {
    if (m_failed && m_writer) {
        // Closed first: what it committed stays, and the counts may still fit in the trace (issue 40).
        m_writer.reset();
        const std::string line = reportWriteFailure(m_opt.output, m_failure);
        std::fprintf(stderr, "compilescope-recorder: %s\n", line.c_str());
    }
    if (m_failed || !m_writer) return;
    try {
        // How the launcher's job ended (exit status, or minus the signal), whether or not it said goodbye.
        for (auto& [pid, status] : m_exitStatus)
            if (auto it = m_pidSessions.find(pid); it != m_pidSessions.end()) m_writer->setExitStatus(it->second, status);
        m_writer->finalize();
        trace::dropWriteNoteReservation(m_opt.output);
    } catch (const std::exception& e) {
        writeFailed(e);
    }
}

// Reads what an open connection has buffered, then closes it. Shut for reading first: a later send
// of the process fails (EPIPE) and is counted there, instead of landing in a socket nobody reads.
void Recorder::drainAndClose(Connection& c) {
    ::shutdown(c.fd, SHUT_RD);
    for (;;) {
        pollfd p{c.fd, POLLIN, 0};
        if (::poll(&p, 1, 0) <= 0 || !readFrom(c)) break;
    }
    close(c);
}

// SIGTERM (SIGINT, SIGHUP) while the launcher's job runs: no more events are taken, but the trace is
// finished only when the launcher says how the job ended, so its exit status is kept (issue 40: it
// was dropped). The job's processes go on counting what they drop in their arenas, read at the end.
// A second signal finishes at once.
void Recorder::stopTakingEvents() {
    std::fprintf(stderr, "compilescope-recorder: stopped by a signal: no more events are recorded; the trace is "
                         "finished when the job ends, with its exit status (a second signal finishes it now)\n");
    for (auto& c : m_conns) {
        drainAndClose(*c);
        if (c->deferred) m_deferred.push_back(std::move(c));
    }
    m_conns.clear();
    ::close(m_listen);
    ::unlink(m_opt.socketPath.c_str());
    m_listen = -1;
    commitIfDue(true);
}

int Recorder::run() {
    auto idleSince = Clock::now();
    Clock::time_point finishStart{};
    bool finishStarted = false, stopped = false;
    for (;;) {
        if (g_stop) {
            g_stop = 0;
            if (m_opt.controlFd >= 0 && !stopped && !m_finishing) stopTakingEvents();
            else m_finishing = true;
            stopped = true;
        }
        if (m_finishing && !finishStarted) {
            finishStarted = true;
            finishStart = Clock::now();
        }
        if (finishStarted && (m_conns.empty() || msSince(finishStart) >= m_opt.finishGraceMs)) break;
        if (m_opt.exitWhenIdle && m_conns.empty() && msSince(idleSince) >= (m_hadConnection ? m_opt.idleGraceMs : 10000))
            break;

        std::vector<pollfd> fds;
        fds.push_back({m_listen, POLLIN, 0});
        if (m_opt.controlFd >= 0) fds.push_back({m_opt.controlFd, POLLIN, 0});
        const std::size_t first = fds.size();
        for (auto& c : m_conns) fds.push_back({c->fd, POLLIN, 0});
        int timeout = std::max<int>(1, m_opt.commitIntervalMs / 2);
        int rc = ::poll(fds.data(), fds.size(), timeout);
        if (rc < 0 && errno != EINTR) break;
        if (rc > 0) {
            if (fds[0].revents & POLLIN) accept();
            if (m_opt.controlFd >= 0 && fds[1].revents) readControl();
            for (std::size_t i = first; i < fds.size(); ++i) {
                if (!fds[i].revents) continue;
                Connection& c = *m_conns[i - first];
                if (!readFrom(c)) close(c);
                commitIfDue(false);
            }
            for (auto& c : m_conns)
                if (c->fd < 0 && c->deferred) m_deferred.push_back(std::move(c));
            std::erase_if(m_conns, [](const auto& c) { return !c || c->fd < 0; });
            if (m_conns.empty()) idleSince = Clock::now();
        }
        commitIfDue(false);
    }
    // Connections still open are processes that outlived the recording: their sessions stay
    // unfinished, and what they sent so far is kept.
    for (auto& c : m_conns) drainAndClose(*c);
    m_conns.clear();
    settleDeferred();
    finalize();
    return m_failed ? kExitWriteFailed : 0;
}

}  // namespace cs::recorder
