#include "core/trace/output_lock.h"

#include "core/trace/live_registry.h"
#include "core/trace/trace_error.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

namespace cs::trace {

namespace {
// "(recorder pid N, recording COMMAND)" when a live recording writes `path`, else "".
std::string holder(const std::string& path) {
    std::error_code ec;
    const auto want = std::filesystem::weakly_canonical(path, ec);
    for (const auto& rec : findLiveRecordings()) {
        std::error_code ec2;
        if (!ec && std::filesystem::weakly_canonical(rec.trace, ec2) == want)
            return " (recorder pid " + std::to_string(rec.pid) + ", recording `" + rec.command + "`)";
    }
    return "";
}

[[noreturn]] void refuse(const std::string& path) {
    throw TraceError(TraceErrorKind::Write, path,
                     "is being written by another recorder or import" + holder(path) +
                         "; refusing to replace it. Choose another output, or wait for that one to finish");
}

// Opens `path` and takes the lock without waiting. Returns the descriptor, -1 when the file cannot be
// opened (then nobody can be holding a lock we could see), or -2 when another writer holds it.
int tryLock(const std::string& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) return -1;
    if (::flock(fd, LOCK_EX | LOCK_NB) == 0) return fd;
    const int err = errno;
    ::close(fd);
    return err == EWOULDBLOCK ? -2 : -1;
}
}  // namespace

void OutputLock::acquire(const std::string& path) {
    release();
    const int fd = tryLock(path);
    if (fd == -2) refuse(path);
    m_fd = fd;  // -1: a file system without flock; writing goes on unlocked, as before
}

void OutputLock::refuseIfHeld(const std::string& path) {
    const int fd = tryLock(path);
    if (fd == -2) refuse(path);
    if (fd >= 0) {
        ::flock(fd, LOCK_UN);
        ::close(fd);
    }
}

void OutputLock::release() {
    if (m_fd >= 0) {
        ::flock(m_fd, LOCK_UN);
        ::close(m_fd);
        m_fd = -1;
    }
}

}  // namespace cs::trace
