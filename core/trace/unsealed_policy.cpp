// The refusal of unsealed traces and its two exceptions; see unsealed_policy.h.
#include "core/trace/unsealed_policy.h"

#include "core/trace/trace_error.h"
#include "core/trace/write_failure_cause.h"
#include "core/util/utf8.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <mutex>
#include <set>

namespace cs::trace {

namespace {
std::atomic<bool> g_trust{false};
std::mutex g_mutex;
std::function<void(const std::string&)> g_sink;
std::set<std::string> g_warned;

void warnOnce(const std::string& path, const std::string& what) {
    std::lock_guard lock(g_mutex);
    if (!g_sink || !g_warned.insert(path).second) return;
    g_sink(util::printablePath(path) + ": " + what);
}

// Why the file is not sealed, in words; "" for a trace from before page checksums existed.
std::string reason(const std::string& path, const PageCheck& c) {
    if (c.state == PageCheck::State::Stale)
        return "modified after it was sealed (its SQLite change counter moved on), so its page checksums no longer "
               "vouch for it";
    if (c.sealMark && c.reserved != kReservedBytes)
        return "its header no longer reserves the page checksums its pages carry (header byte 20 is " +
               std::to_string(c.reserved) + ", not " + std::to_string(kReservedBytes) + ")";
    if (c.reserved == kReservedBytes) {
        // A recording that hit a full disk left a note saying so (issue 40): its cause, not a guess.
        const std::string cause = writeFailureCause(path);
        if (!cause.empty()) return "it has room for page checksums but none were written: " + cause;
        return "it has room for page checksums but none were written: a recording or import that never finished "
               "(killed, or its disk full), or a file changed by hand";
    }
    if (c.reserved == 0) return "";
    return "its pages reserve " + std::to_string(c.reserved) + " bytes, not the " + std::to_string(kReservedBytes) +
           " of CompileScope's page checksums";
}
}  // namespace

void setTrustUnsealed(bool trust) { g_trust = trust; }
bool trustUnsealed() { return g_trust; }

void setUncheckedWarningSink(std::function<void(const std::string&)> sink) {
    std::lock_guard lock(g_mutex);
    g_sink = std::move(sink);
    g_warned.clear();
}

bool recordingInProgress(const std::string& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) return false;
    // Shared and non-blocking: fails only while a writer holds its exclusive lock.
    const bool held = ::flock(fd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK;
    ::close(fd);  // drops our shared lock, if we got it
    return held;
}

std::string admitUnchecked(const std::string& path, const PageCheck& check) {
    const std::string why = reason(path, check);
    if (why.empty()) {
        warnOnce(path, "written before page checksums existed; its figures cannot be verified");
        return "not checked: the trace was written before page checksums existed";
    }
    const bool unfinished = check.state == PageCheck::State::Unsealed && check.reserved == kReservedBytes && !check.sealMark;
    if (unfinished && recordingInProgress(path)) return "not checked: still being recorded";
    if (trustUnsealed()) {
        warnOnce(path, "read without its page checksums, as --trust-unsealed asks: " + why);
        return "not checked (--trust-unsealed): " + why;
    }
    throw TraceError(TraceErrorKind::Corrupt, path,
                     "not sealed: " + why + "; its figures cannot be verified. If you trust this file, read it with "
                     "--trust-unsealed, or re-seal it with 'compilescope seal " + util::printablePath(path) + "'");
}

}  // namespace cs::trace
