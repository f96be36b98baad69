// compilescope-recorder: receives collector events over a Unix socket and writes one trace.
//
// Started by `compilescope record` (control pipe on stdin: "exit PID STATUS" lines, EOF = finish) or
// by the collector library of a program run without the launcher (--exit-when-idle --daemonize).
// It reports readiness on --ready-fd: "ok\n", or one line saying why it cannot record, so the
// starter prints exactly one warning and the recorded program runs on unchanged.
#include "recorder.h"

#include "core/trace/live_registry.h"

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <unistd.h>

namespace {
void onSignal(int) { cs::recorder::Recorder::requestStop(); }

void answer(int fd, const std::string& line) {
    if (fd < 0) {
        if (line != "ok") std::fprintf(stderr, "compilescope-recorder: %s\n", line.c_str());
        return;
    }
    std::string text = line + "\n";
    ssize_t ignored = ::write(fd, text.data(), text.size());
    (void)ignored;
    ::close(fd);
}

int usage() {
    std::fprintf(stderr,
                 "Usage: compilescope-recorder --output TRACE --socket PATH [--force] [--ready-fd N]\n"
                 "                             [--control-fd N] [--exit-when-idle] [--daemonize] [--command TEXT]\n"
                 "                             [--finish-grace-ms MS]\n"
                 "Normally started by 'compilescope record' or by the collector library.\n");
    return 2;
}
}  // namespace

int main(int argc, char** argv) {
    cs::recorder::RecorderOptions opt;
    int readyFd = -1;
    bool daemonize = false;
    std::string command;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        auto next = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
        if (a == "--output") opt.output = next();
        else if (a == "--socket") opt.socketPath = next();
        else if (a == "--ready-fd") readyFd = std::atoi(next().c_str());
        else if (a == "--control-fd") opt.controlFd = std::atoi(next().c_str());
        else if (a == "--exit-when-idle") opt.exitWhenIdle = true;
        else if (a == "--daemonize") daemonize = true;
        else if (a == "--force") opt.overwrite = true;
        else if (a == "--command") command = next();
        else if (a == "--finish-grace-ms") opt.finishGraceMs = std::atoi(next().c_str());
        else return usage();
    }
    if (opt.output.empty() || opt.socketPath.empty()) return usage();
    if (daemonize) {
        // The starter waits for this parent only; the recorder itself is nobody's child to reap.
        pid_t pid = ::fork();
        if (pid < 0) {
            answer(readyFd, std::string("cannot fork: ") + std::strerror(errno));
            return 1;
        }
        if (pid > 0) _exit(0);
        ::setsid();
    }
    std::signal(SIGPIPE, SIG_IGN);
    // Past a file size limit, writes fail with EFBIG (reported like a full disk) instead of the
    // default SIGXFSZ killing the recorder.
    std::signal(SIGXFSZ, SIG_IGN);
    std::signal(SIGTERM, onSignal);
    std::signal(SIGINT, onSignal);
    std::signal(SIGHUP, onSignal);

    std::error_code ec;
    auto absolute = std::filesystem::absolute(opt.output, ec);
    if (!ec) opt.output = absolute.string();
    std::unique_ptr<cs::recorder::Recorder> recorder;
    try {
        recorder = std::make_unique<cs::recorder::Recorder>(opt);
    } catch (const std::exception& e) {
        answer(readyFd, e.what());
        return 1;
    }
    cs::trace::LiveRegistration registration;
    const auto wall = std::chrono::system_clock::now().time_since_epoch();
    registration.publish({.pid = ::getpid(), .trace = opt.output, .command = command,
                          .startUnixNs = std::chrono::duration_cast<std::chrono::nanoseconds>(wall).count(),
                          .socket = opt.socketPath});
    answer(readyFd, "ok");
    return recorder->run();
}
