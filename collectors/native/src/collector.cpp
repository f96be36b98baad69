// SPDX-License-Identifier: MIT
// Session lifecycle, per-thread buffers, string/track interning and fork(); the flusher thread that
// sends what they buffer is flusher.cpp.
//
// Why: everything that may lock, allocate or make a system call lives here or in flusher.cpp, off
// the caller's hot path (events.cpp). A string or track is interned here and logged to the arena at
// once, so the recorder can resolve the ids of events it reads from the arena after a crash; the
// flusher sends the definitions before the events that use them.
#include "collector_state.h"

#include <compilescope/wire_protocol.h>

#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

extern "C" {
CS_API int cs_active_flag = 0;
}

namespace cs::collector {

namespace {
// Arena rings (arena.h): up to 256 rings and 1 GiB of them per process (a sparse file: only what is
// written costs memory), and a 16 MiB log of definitions.
constexpr std::uint32_t kMaxArenaSlots = 256;
constexpr std::size_t kMaxArenaRingBytes = std::size_t{1} << 30;
constexpr std::size_t kArenaLogBytes = 16u << 20;
std::uint32_t arenaSlots(std::size_t ringBytes) {
    const std::size_t fit = kMaxArenaRingBytes / ringBytes;
    return static_cast<std::uint32_t>(fit < 1 ? 1 : fit > kMaxArenaSlots ? kMaxArenaSlots : fit);
}

std::size_t envSize(const char* name, std::size_t fallback, std::size_t lo, std::size_t hi) {
    const char* v = std::getenv(name);
    if (!v || !*v) return fallback;
    char* end = nullptr;
    unsigned long long n = std::strtoull(v, &end, 10);
    if (end == v || n < lo || n > hi) return fallback;
    return static_cast<std::size_t>(n);
}

std::size_t roundUpPow2(std::size_t n) {
    std::size_t p = 4096;
    while (p < n) p <<= 1;
    return p;
}

void setActive(int v) { __atomic_store_n(&cs_active_flag, v, __ATOMIC_RELAXED); }

void threadExited(void* p) { static_cast<ThreadBuffer*>(p)->orphaned.store(true, std::memory_order_release); }

// A definition also goes to the arena's log, so the recorder can resolve the ids of events it
// reads from the arena after the process died. Caller holds stringMutex.
template <class Encode>
void logDefinition(Global& g, Encode&& encode) {
    if (!g.arena) return;
    std::vector<unsigned char> m;
    encode(m);
    g.arena->appendLog(m.data(), m.size());  // full: those events show "?" after a crash
}

// fork(): the child has one thread. Its copy of the parent's unsent events belongs to the parent,
// so it discards them, forgets the other threads' buffers and records itself as a new session.
// The flusher's wake-up mutex and condition variable are not taken here: the flusher may be waiting
// on them, and the child has no flusher. The child rebuilds both instead (a copy taken while the
// parent's flusher held the mutex, or waited on the condition variable, would deadlock the child's
// new flusher or its cs_stop(); seen as a hang of fork-heavy tests under load).
void beforeFork() {
    Global& g = global();
    g.startMutex.lock();
    g.flushMutex.lock();
    g.registryMutex.lock();
    g.stringMutex.lock();
}
void afterForkParent() {
    Global& g = global();
    g.stringMutex.unlock();
    g.registryMutex.unlock();
    g.flushMutex.unlock();
    g.startMutex.unlock();
}
void afterForkChild() {
    Global& g = global();
    // The parent's objects are abandoned, not destroyed: their state describes threads that do not
    // exist here. Fresh ones take their place before the child's flusher starts.
    renewFlusherWake();
    // Every ring (this thread's too) holds the parent's unsent events, and an arena ring is the
    // parent's memory: the child records into a ring of its own arena from its first event on.
    for (ThreadBuffer* b : g.buffers) delete b;
    g.buffers.clear();
    threadState().buf = nullptr;
    if (g.threadKeyCreated) pthread_setspecific(g.threadKey, nullptr);
    if (Arena* parent = g.arena) {
        g.arena = Arena::create(parent->ringBytes(), arenaSlots(parent->ringBytes()), kArenaLogBytes);
        if (g.arena) g.arena->copyLogFrom(*parent);  // the child keeps its parent's strings
        delete parent;  // unmaps the child's view only
    }
    g.stringsSent = g.tracksSent = 0;
    g.droppedReentrant.store(0);
    g.droppedUnsent.store(0);
    g.reentrantSent = 0;
    g.droppedNoBuffer.store(0);
    g.flusherRunning = false;
    if (g.fd >= 0) ::close(g.fd);
    g.fd = -1;
    g.stringMutex.unlock();
    g.registryMutex.unlock();
    g.flushMutex.unlock();
    g.startMutex.unlock();
    if (!g.started || !active() || g.socketPath.empty() || !g.linkUp.load()) return;
    g.pendingConnect.store(true);
    if (!startFlusher(g)) {
        g.linkUp.store(false);
        warnOnce("a forked child cannot start the collector thread; its events are dropped and counted");
    }
}

void atExit() { cs_stop(); }
}  // namespace

Global& global() {
    // Never destroyed: threads may still record while static destructors run at exit.
    static Global* g = new Global;
    return *g;
}

std::int64_t monotonicNs() {
    timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<std::int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

void warnOnce(const std::string& message) {
    if (global().warned.exchange(true)) return;
    std::fprintf(stderr, "compilescope: %s\n", message.c_str());
    std::fflush(stderr);
}

ThreadBuffer* createThreadBuffer() {
    Global& g = global();
    if (g.pendingConnect.load(std::memory_order_relaxed)) {
        std::lock_guard<std::mutex> lock(g.flushMutex);
        joinIfPendingLocked(g);
    }
    const auto tid = static_cast<std::int64_t>(::syscall(SYS_gettid));
    char name[16] = {};
    prctl(PR_GET_NAME, name, 0, 0, 0);
    ThreadBuffer* b = nullptr;
    {
        std::lock_guard<std::mutex> lock(g.registryMutex);
        const std::uint32_t slot = g.arena ? g.arena->acquireSlot(tid, name) : CS_ARENA_NO_SLOT;
        if (slot != CS_ARENA_NO_SLOT) {
            b = new (std::nothrow) ThreadBuffer(g.arena->ring(slot), g.arena->ringBytes(), g.arena->slot(slot), slot);
            if (!b) g.arena->releaseSlot(slot);
        } else if (auto* mem = new (std::nothrow) unsigned char[g.bufferBytes]) {
            // No arena, or more threads than slots: a private ring, which a crash loses.
            b = new (std::nothrow) ThreadBuffer(mem, g.bufferBytes, nullptr, CS_ARENA_NO_SLOT);
            if (b) b->memory.reset(mem);
            else delete[] mem;
            if (b) {
                b->arenaHeader = g.arena ? g.arena->header() : nullptr;
                b->cells->tid = tid;
                std::memcpy(b->cells->name, name, sizeof name);
            }
        }
        if (!b) return nullptr;
        g.buffers.push_back(b);
    }
    pthread_setspecific(g.threadKey, b);
    threadState().buf = b;
    return b;
}

unsigned char* waitForRoom(ThreadBuffer* b, std::uint32_t size) {
    Global& g = global();
    // A ring the wait policy gave up on drops until its consumer moves again, so a stalled
    // recorder costs each thread one wait limit, not one per event.
    if (b->stalled && b->ring.consumedPos() != b->stalledAt) b->stalled = false;
    if (g.policy != Policy::Drop && !b->stalled) {
        // The caller waits for the flusher instead of losing the event: wakes it, then naps
        // briefly (spinning would steal the CPU the flusher and the recorder need to make room).
        const timespec nap{0, 20000};
        // Progress: this ring's consumer moved, or the recorder accepted bytes of the pass that
        // will free it (a loaded recorder may take longer than the limit for a whole pass).
        auto progress = [&] { return b->ring.consumedPos() + g.sentBytes.load(std::memory_order_relaxed); };
        std::uint64_t seen = progress();
        std::int64_t since = monotonicNs();
        while (active() && g.linkUp.load(std::memory_order_relaxed)) {
            wakeFlusher();
            nanosleep(&nap, nullptr);
            if (unsigned char* p = b->ring.reserve(size)) return p;
            if (g.policy == Policy::Block) continue;
            const std::uint64_t now = progress();
            const std::int64_t t = monotonicNs();
            if (now != seen) {
                seen = now;
                since = t;
            } else if (t - since > g.waitLimitNs) {
                b->stalled = true;
                b->stalledAt = b->ring.consumedPos();
                break;
            }
        }
    }
    b->drop(g.linkUp.load(std::memory_order_relaxed) ? CS_DROP_BUFFER_FULL : CS_DROP_NO_RECORDER);
    return nullptr;
}

void flushAll() {
    Global& g = global();
    std::lock_guard<std::mutex> lock(g.flushMutex);
    flushLocked(g);
}

}  // namespace cs::collector

using namespace cs::collector;

extern "C" {

CS_API int cs_start(const char* runtime, const char* output_path) {
    Global& g = global();
    std::lock_guard<std::mutex> lock(g.startMutex);
    if (g.started) return g.linkUp.load() ? 1 : 0;
    const char* disable = std::getenv("COMPILESCOPE_DISABLE");
    if (disable && *disable && std::strcmp(disable, "0") != 0) return 0;
    std::string socketPath;
    if (const char* s = std::getenv("COMPILESCOPE_SOCKET"); s && *s) socketPath = s;
    std::string output = output_path && *output_path ? output_path : "";
    if (output.empty())
        if (const char* o = std::getenv("COMPILESCOPE_OUTPUT"); o && *o) output = o;
    if (socketPath.empty() && output.empty()) return 0;  // nobody asked for a recording

    g.started = true;
    if (runtime && *runtime) g.runtime = runtime;
    g.bufferBytes = roundUpPow2(envSize("COMPILESCOPE_BUFFER_KB", 256, 16, 1 << 20) * 1024);
    g.flushIntervalMs = static_cast<unsigned>(envSize("COMPILESCOPE_FLUSH_MS", 5, 1, 1000));
    g.waitLimitNs = static_cast<std::int64_t>(envSize("COMPILESCOPE_WAIT_MS", 5000, 1, 600000)) * 1000000;
    const char* policy = std::getenv("COMPILESCOPE_BUFFER_POLICY");
    g.policy = !policy ? Policy::Wait
               : std::strcmp(policy, "block") == 0 ? Policy::Block
               : std::strcmp(policy, "drop") == 0  ? Policy::Drop
                                                   : Policy::Wait;
    g.threadKeyCreated = pthread_key_create(&g.threadKey, threadExited) == 0;
    // Rings in shared memory survive the process's death; beyond the arena's slots, or without
    // memfd, rings are private (and a crash loses what they hold).
    g.arena = Arena::create(g.bufferBytes, arenaSlots(g.bufferBytes), kArenaLogBytes);
    pthread_atfork(beforeFork, afterForkParent, afterForkChild);
    std::atexit(atExit);
    setActive(1);  // from here on, events are buffered or counted as dropped

    std::string error;
    if (socketPath.empty()) {
        socketPath = spawnRecorder(output, error);
        if (socketPath.empty()) {
            warnOnce("cannot record to " + output + ": " + error +
                     "; the program runs unchanged and its events are dropped and counted");
            return 0;
        }
        // exec'd children that use the collector join this recording.
        ::setenv("COMPILESCOPE_SOCKET", socketPath.c_str(), 1);
    }
    g.socketPath = socketPath;
    if (!joinRecorder(g, error)) {
        warnOnce("cannot reach the recorder at " + socketPath + " (" + error +
                 "); the program runs unchanged and its events are dropped and counted");
        return 0;
    }
    g.linkUp.store(true);
    if (!startFlusher(g)) {
        g.linkUp.store(false);
        warnOnce("cannot start the collector thread; events are dropped and counted");
        return 0;
    }
    return 1;
}

CS_API void cs_stop(void) {
    Global& g = global();
    std::lock_guard<std::mutex> lock(g.startMutex);
    if (!g.started || !active()) return;
    setActive(0);
    stopFlusherThread(g);
    std::lock_guard<std::mutex> flushLock(g.flushMutex);
    flushLocked(g);
    if (g.fd >= 0 && g.linkUp.load()) {
        cs_wire_goodbye bye{{CS_WIRE_GOODBYE, 0, sizeof(cs_wire_goodbye)}, monotonicNs()};
        sendAll(g.fd, &bye, sizeof bye);
        ::shutdown(g.fd, SHUT_WR);
        // Wait (briefly) for the recorder to close its end: the goodbye is then read.
        char c;
        while (::recv(g.fd, &c, 1, 0) > 0) {
        }
    }
    if (g.fd >= 0) ::close(g.fd);
    g.fd = -1;
    g.linkUp.store(false);
}

CS_API int cs_enabled(void) { return active() ? 1 : 0; }

CS_API void cs_flush(void) {
    if (!active()) return;
    flushAll();
}

CS_API std::uint64_t cs_dropped_count(void) {
    Global& g = global();
    std::uint64_t n = g.droppedNoBuffer.load() + g.droppedReentrant.load() + g.droppedUnsent.load();
    std::lock_guard<std::mutex> lock(g.registryMutex);
    for (ThreadBuffer* b : g.buffers) n += b->droppedTotal();
    return n;
}

CS_API std::int64_t cs_now_ns(void) { return monotonicNs(); }

CS_API cs_str cs_intern_n(const char* s, std::size_t len) {
    if (!s || !active()) return 0;
    Global& g = global();
    ThreadState& t = threadState();
    if (t.busy) return 0;
    t.busy = 1;
    cs_str id = 0;
    try {
        std::lock_guard<std::mutex> lock(g.stringMutex);
        std::string key(s, len);
        auto it = g.stringIds.find(key);
        if (it != g.stringIds.end()) {
            id = it->second;
        } else if (g.strings.size() < 0xFFFFFFF0u) {
            g.strings.push_back(key);
            id = static_cast<cs_str>(g.strings.size());
            logDefinition(g, [&](auto& m) { encodeString(m, id, g.strings.back()); });
            g.stringIds.emplace(std::move(key), id);
        }
    } catch (...) {
        id = 0;  // out of memory: the event shows no string rather than breaking the host
    }
    t.busy = 0;
    return id;
}

CS_API cs_str cs_intern(const char* s) { return s ? cs_intern_n(s, std::strlen(s)) : 0; }

CS_API cs_track cs_track_create(cs_str name, int kind, std::int64_t tid) {
    if (!active()) return 0;
    Global& g = global();
    ThreadState& t = threadState();
    if (t.busy) return 0;  // a signal handler interrupting this thread inside the lock
    t.busy = 1;
    cs_track id = 0;
    try {
        std::lock_guard<std::mutex> lock(g.stringMutex);
        g.tracks.push_back({kind, tid, name});
        id = static_cast<cs_track>(g.tracks.size());
        logDefinition(g, [&](auto& m) { encodeTrack(m, id, g.tracks.back()); });
    } catch (...) {
        id = 0;
    }
    t.busy = 0;
    return id;
}

}  // extern "C"
