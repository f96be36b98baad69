// live_writer TRACE MS RATE LOG: a stand-in recorder for the follow tests. Writes RATE compile spans
// a second for MS milliseconds into TRACE (a real TraceWriter, WAL mode, as `compilescope record`
// writes), committing every 50 ms, while registered in the live registry as a recording in progress.
// After each commit it appends "commit SPANS MONOTONIC_NS" to LOG, so a test can tell when each row
// became visible to readers. Then it finalizes the trace, as the recorder does at the job's end.
#include "core/trace/live_registry.h"
#include "core/trace/writer.h"

#include <compilescope/trace_constants.h>

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <thread>

namespace {
std::int64_t monotonicNs() {
    timespec t{};
    clock_gettime(CLOCK_MONOTONIC, &t);
    return static_cast<std::int64_t>(t.tv_sec) * 1000000000LL + t.tv_nsec;
}
}  // namespace

int main(int argc, char** argv) {
    if (argc != 5) {
        std::fprintf(stderr, "usage: live_writer TRACE MS RATE LOG\n");
        return 2;
    }
    const std::string trace = std::filesystem::absolute(argv[1]).string();
    const long ms = std::atol(argv[2]), rate = std::atol(argv[3]);
    FILE* log = std::fopen(argv[4], "w");
    if (!log) return 2;
    cs::trace::TraceWriter w(trace, {});
    auto session = w.addSession({.pid = static_cast<std::int64_t>(::getpid()), .runtime = w.intern("numba"),
                                 .clock = w.intern("CLOCK_MONOTONIC"), .startNs = monotonicNs()});
    auto track = w.addTrack({.sessionId = session, .tid = static_cast<std::int64_t>(::getpid()), .name = w.intern("main")});
    const cs::trace::StringId names[] = {w.intern("kernel_a"), w.intern("kernel_b"), w.intern("kernel_c")};
    w.commit();
    cs::trace::LiveRegistration registration;
    if (!registration.publish({.pid = ::getpid(), .trace = trace, .command = "live_writer", .startUnixNs = 0, .socket = ""})) {
        std::fprintf(stderr, "live_writer: cannot register in the live registry\n");
        return 3;
    }
    const auto start = std::chrono::steady_clock::now();
    const long perTick = std::max(1L, rate / 20);  // 20 commits a second
    std::int64_t spans = 0;
    for (long tick = 0; std::chrono::steady_clock::now() - start < std::chrono::milliseconds(ms); ++tick) {
        for (long i = 0; i < perTick; ++i) {
            const std::int64_t now = monotonicNs();
            w.addSpan({.trackId = track, .startNs = now, .durNs = 1000, .category = CS_CAT_COMPILE, .name = names[spans % 3]});
            ++spans;
        }
        w.commit();
        std::fprintf(log, "commit %lld %lld\n", static_cast<long long>(spans), static_cast<long long>(monotonicNs()));
        std::fflush(log);
        std::this_thread::sleep_until(start + std::chrono::milliseconds(50 * (tick + 1)));
    }
    w.endSession(session, monotonicNs(), 0);
    w.finalize();
    std::fprintf(log, "final %lld\n", static_cast<long long>(spans));
    std::fclose(log);
    return 0;
}
