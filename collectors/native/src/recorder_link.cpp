// SPDX-License-Identifier: MIT
// Talking to the recorder process: connect, HELLO, and starting a private recorder when the
// program uses the collector without `compilescope record`.
//
// Why a separate process: SQLite must never run inside the traced program, and the trace must
// survive the program's crash. A private recorder is started with posix_spawn (no fork handlers of
// the host run) and daemonizes itself, so the host never sees an unexpected child in wait().
#include "collector_state.h"

#include <compilescope/wire_protocol.h>

#include <cerrno>
#include <climits>
#include <cstring>
#include <dlfcn.h>
#include <fcntl.h>
#include <fstream>
#include <iterator>
#include <poll.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace cs::collector {

namespace {
bool executable(const std::string& p) { return !p.empty() && ::access(p.c_str(), X_OK) == 0; }

std::string dirOf(const std::string& p) {
    auto slash = p.rfind('/');
    return slash == std::string::npos ? "." : p.substr(0, slash);
}

// $COMPILESCOPE_RECORDER, else next to this library in an install tree or in the build tree.
std::string findRecorder() {
    if (const char* e = std::getenv("COMPILESCOPE_RECORDER"); e && *e) return executable(e) ? e : "";
    Dl_info info{};
    if (!dladdr(reinterpret_cast<void*>(&cs_start), &info) || !info.dli_fname) return "";
    char resolved[PATH_MAX];
    std::string lib = ::realpath(info.dli_fname, resolved) ? resolved : info.dli_fname;
    const std::string dir = dirOf(lib);
    for (const char* rel : {"/compilescope-recorder", "/../bin/compilescope-recorder",
                            "/../libexec/compilescope-recorder", "/../app/compilescope-recorder"}) {
        std::string candidate = dir + rel;
        if (executable(candidate)) return candidate;
    }
    return "";
}

std::string runtimeDir() {
    std::string dir;
    if (const char* x = std::getenv("XDG_RUNTIME_DIR"); x && *x) dir = std::string(x) + "/compilescope";
    else dir = "/tmp/compilescope-" + std::to_string(::getuid());
    ::mkdir(dir.c_str(), 0700);
    struct stat st{};
    if (::lstat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != ::getuid()) return "";
    ::chmod(dir.c_str(), 0700);
    return dir;
}

std::string readCmdline() {
    std::ifstream in("/proc/self/cmdline", std::ios::binary);
    std::string s((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    while (!s.empty() && s.back() == '\0') s.pop_back();
    return s;
}

std::string hostName() {
    char buf[256] = {};
    if (::gethostname(buf, sizeof buf - 1) != 0) return "";
    return buf;
}
}  // namespace

int connectRecorder(const std::string& socketPath, std::string& error) {
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    if (socketPath.size() >= sizeof addr.sun_path) {
        error = "socket path too long";
        return -1;
    }
    std::memcpy(addr.sun_path, socketPath.c_str(), socketPath.size() + 1);
    int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        error = std::strerror(errno);
        return -1;
    }
    if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
        error = std::strerror(errno);
        ::close(fd);
        return -1;
    }
    // A stopped or wedged recorder must not hang the program forever (at exit in particular).
    timeval tv{2, 0};
    ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    int sndbuf = 1 << 20;
    ::setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof sndbuf);
    return fd;
}

bool sendAll(int fd, const void* data, std::size_t n, std::size_t* sent) {
    const auto* p = static_cast<const char*>(data);
    if (sent) *sent = 0;
    while (n) {
        ssize_t k = ::send(fd, p, n, MSG_NOSIGNAL);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return false;
        p += k;
        n -= static_cast<std::size_t>(k);
        if (sent) *sent += static_cast<std::size_t>(k);
    }
    return true;
}

bool sendHello(int fd, const std::string& runtime) {
    const std::string host = hostName(), cmdline = readCmdline();
    cs_wire_hello h{};
    h.magic = CS_WIRE_MAGIC;
    h.version = CS_WIRE_VERSION;
    h.pid = ::getpid();
    h.ppid = ::getppid();
    h.start_ns = monotonicNs();
    h.runtime_len = static_cast<std::uint32_t>(runtime.size());
    h.host_len = static_cast<std::uint32_t>(host.size());
    h.cmdline_len = static_cast<std::uint32_t>(std::min<std::size_t>(cmdline.size(), 64 * 1024));
    std::string body = runtime + host + cmdline.substr(0, h.cmdline_len);
    body.resize(CS_WIRE_ALIGN(body.size()), '\0');
    h.h = {CS_WIRE_HELLO, 0, static_cast<std::uint32_t>(sizeof h + body.size())};
    return sendAll(fd, &h, sizeof h) && sendAll(fd, body.data(), body.size());
}

bool sendArena(int fd, const Arena& arena) {
    cs_wire_arena m{{CS_WIRE_ARENA, 0, sizeof(cs_wire_arena)}, arena.size()};
    iovec iov{&m, sizeof m};
    alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int))] = {};
    msghdr msg{};
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control;
    msg.msg_controllen = sizeof control;
    cmsghdr* c = CMSG_FIRSTHDR(&msg);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(sizeof(int));
    const int arenaFd = arena.fd();
    std::memcpy(CMSG_DATA(c), &arenaFd, sizeof arenaFd);
    ssize_t k;
    do k = ::sendmsg(fd, &msg, MSG_NOSIGNAL);
    while (k < 0 && errno == EINTR);
    // The fd travels with the first byte; the rest of a short write goes as plain bytes.
    return k > 0 && sendAll(fd, reinterpret_cast<const char*>(&m) + k, sizeof m - static_cast<std::size_t>(k));
}

std::string spawnRecorder(const std::string& outputPath, std::string& error) {
    const std::string recorder = findRecorder();
    if (recorder.empty()) {
        error = "no recorder found (set COMPILESCOPE_RECORDER to compilescope-recorder)";
        return "";
    }
    const std::string dir = runtimeDir();
    if (dir.empty()) {
        error = "no private runtime directory";
        return "";
    }
    const std::string socketPath =
        dir + "/rec-" + std::to_string(::getpid()) + "-" + std::to_string(monotonicNs() % 1000000007) + ".sock";
    int ready[2];
    if (::pipe2(ready, O_CLOEXEC) != 0) {
        error = std::strerror(errno);
        return "";
    }
    std::string cmdline = readCmdline();
    for (char& c : cmdline)
        if (c == '\0') c = ' ';
    std::vector<std::string> args = {recorder, "--output", outputPath, "--socket", socketPath, "--ready-fd", "3",
                                     "--exit-when-idle", "--daemonize", "--command", cmdline};
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, ready[1], 3);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    pid_t pid = -1;
    int rc = posix_spawn(&pid, recorder.c_str(), &fa, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&fa);
    ::close(ready[1]);
    if (rc != 0) {
        ::close(ready[0]);
        error = std::string("cannot start ") + recorder + ": " + std::strerror(rc);
        return "";
    }
    // The recorder answers "ok" or an error message, then closes the pipe.
    std::string answer;
    char buf[512];
    pollfd p{ready[0], POLLIN, 0};
    while (::poll(&p, 1, 10000) > 0) {
        ssize_t n = ::read(ready[0], buf, sizeof buf);
        if (n <= 0) break;
        answer.append(buf, static_cast<std::size_t>(n));
    }
    ::close(ready[0]);
    int status = 0;
    ::waitpid(pid, &status, 0);  // the daemonizing parent exits at once
    while (!answer.empty() && (answer.back() == '\n' || answer.back() == '\r')) answer.pop_back();
    if (answer != "ok") {
        error = answer.empty() ? "the recorder did not start" : answer;
        return "";
    }
    return socketPath;
}

}  // namespace cs::collector
