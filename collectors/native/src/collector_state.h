// SPDX-License-Identifier: MIT
// Process-wide state of the collector library and the per-thread event path.
//
// Why this shape: the public functions (events.cpp) must cost a few nanoseconds, so the state they
// touch is one thread-local struct (buffer pointer + reentrancy flag) and one global flag read with a
// relaxed load. Everything slow - creating a thread's buffer, interning strings, talking to the
// recorder, fork handling - lives in collector.cpp, flusher.cpp and recorder_link.cpp, off the hot path.
#pragma once

#include "arena.h"
#include "ring_buffer.h"

#include <compilescope/compilescope.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <pthread.h>
#include <string>
#include <unordered_map>
#include <vector>

extern "C" {
// 1 from cs_start until cs_stop (also while the recorder is unreachable: events are then counted
// as dropped). Read with a relaxed atomic load; exported for compilescope_macros.h.
CS_API extern int cs_active_flag;
}

namespace cs::collector {

inline bool active() { return __atomic_load_n(&cs_active_flag, __ATOMIC_RELAXED) != 0; }

// One recording thread's ring. Created on the thread's first event, freed by the flusher once the
// thread has exited (orphaned) and its bytes were sent. Its positions, drop counters, tid and name
// are the cells of an arena slot (shared with the recorder), or of `own` for a private ring.
struct ThreadBuffer {
    ThreadBuffer(unsigned char* mem, std::size_t cap, cs_arena_slot* shared, std::uint32_t slotIndex)
        : cells(shared ? shared : &own), slot(slotIndex), ring(mem, cap, &cells->write, &cells->read) {}
    cs_arena_slot own{};
    cs_arena_slot* cells;
    std::uint32_t slot;  // CS_ARENA_NO_SLOT: a private ring that dies with the process
    RingBuffer ring;
    bool nameSent = false;                    // flusher only
    bool stalled = false;                     // producer only: the wait policy gave up on this ring
    std::uint64_t stalledAt = 0;              // producer only: consumer position when it gave up
    std::atomic<bool> orphaned{false};
    std::unique_ptr<unsigned char[]> memory;  // a private ring's bytes
    // A private ring in a process with an arena: its drops and published events are also counted in
    // the arena's header, which the recorder can read after the process died (wire_protocol.h).
    cs_arena_header* arenaHeader = nullptr;

    void drop(cs_drop_reason why) {
        __atomic_fetch_add(&cells->dropped[why], 1, __ATOMIC_RELAXED);
        if (arenaHeader) __atomic_fetch_add(&arenaHeader->dropped_elsewhere[why], 1, __ATOMIC_RELAXED);
    }
    std::uint64_t dropped(int why) const { return __atomic_load_n(&cells->dropped[why], __ATOMIC_RELAXED); }
    std::uint64_t droppedTotal() const {
        std::uint64_t n = 0;
        for (int r = 0; r < CS_DROP_REASONS; ++r) n += dropped(r);
        return n;
    }
};

struct ThreadState {
    ThreadBuffer* buf = nullptr;
    int busy = 0;  // reentrancy guard: an event recorded while one is being written is dropped
};

// Drop: a full ring drops at once. Wait (default): the caller waits for room while the flusher makes
// progress, and gives up after waitLimitNs without any. Block: waits as long as the recorder lives.
enum class Policy { Drop, Wait, Block };

struct TrackDef {
    std::int32_t kind;
    std::int64_t tid;
    cs_str name;
};

struct Global {
    // configuration, fixed at cs_start
    Policy policy = Policy::Wait;
    std::int64_t waitLimitNs = 5000000000;
    std::size_t bufferBytes = 256 * 1024;
    unsigned flushIntervalMs = 5;
    std::string runtime = "native";
    std::string socketPath;

    std::atomic<bool> linkUp{false};   // false: events are counted as dropped
    std::atomic<std::uint64_t> sentBytes{0};  // bytes the recorder accepted: the wait policy's progress
    std::atomic<bool> warned{false};   // one warning per process
    std::atomic<std::uint64_t> droppedNoBuffer{0};
    std::atomic<std::uint64_t> droppedReentrant{0};
    std::atomic<std::uint64_t> droppedUnsent{0};  // events taken from a ring into a send that failed
    std::atomic<std::uint64_t> nextLookup{1};

    std::mutex registryMutex;  // buffers, arena slots
    std::vector<ThreadBuffer*> buffers;
    Arena* arena = nullptr;    // nullptr: private rings only (no memfd)
    std::mutex stringMutex;  // strings, tracks
    std::unordered_map<std::string, cs_str> stringIds;
    std::vector<std::string> strings;  // id - 1 -> text
    std::vector<TrackDef> tracks;      // id - 1 -> definition

    std::mutex flushMutex;  // one flush at a time; owns everything below
    int fd = -1;
    std::atomic<bool> pendingConnect{false};  // forked child: connect on its first event
    std::size_t stringsSent = 0, tracksSent = 0;
    std::vector<unsigned char> out;  // staging buffer of the flush in progress
    std::uint64_t reentrantSent = 0;

    std::mutex startMutex;
    bool started = false;
    pthread_t flusher{};
    bool flusherRunning = false;
    std::atomic<bool> stopFlusher{false};
    pthread_key_t threadKey{};
    bool threadKeyCreated = false;
};

Global& global();
// Constant-initialised, so no guard on access: one TLS address computation per event.
inline ThreadState& threadState() {
    static thread_local ThreadState state;
    return state;
}

// Creates the calling thread's buffer (allocation, lock, one gettid). nullptr when out of memory.
ThreadBuffer* createThreadBuffer();
// Called with a full ring: waits for room under the wait and block policies, else counts a drop.
unsigned char* waitForRoom(ThreadBuffer* b, std::uint32_t size);

// Counts `n` drops that no live slot holds in the arena's header, for the recorder (no arena: none).
inline void countElsewhere(Global& g, int why, std::uint64_t n) {
    if (g.arena && n) __atomic_fetch_add(&g.arena->header()->dropped_elsewhere[why], n, __ATOMIC_RELAXED);
}

// Prints "compilescope: <message>" on stderr once per process.
void warnOnce(const std::string& message);
// Sends everything buffered so far to the recorder (flush lock taken inside).
void flushAll();

// flusher.cpp
// The wire records of a string and a track definition, appended to `out`.
void encodeString(std::vector<unsigned char>& out, std::uint32_t id, const std::string& s);
void encodeTrack(std::vector<unsigned char>& out, std::uint32_t id, const TrackDef& t);
// Connects to the recorder as a new session: HELLO, then the arena. Caller holds flushMutex.
bool joinRecorder(Global& g, std::string& error);
// A forked child joins the recording once it records: at its first event, before it can _exit().
// Caller holds flushMutex.
void joinIfPendingLocked(Global& g);
// One pass over every ring; returns the event bytes it moved. Caller holds flushMutex.
std::size_t flushLocked(Global& g);
bool startFlusher(Global& g);
void stopFlusherThread(Global& g);
// Wakes the flusher now (a producer waiting for room).
void wakeFlusher();
// In a forked child: the flusher's wake-up mutex and condition variable, built afresh (fork()).
void renewFlusherWake();

// recorder_link.cpp
int connectRecorder(const std::string& socketPath, std::string& error);
// `sent` (optional): how many bytes went into the socket, also when it fails.
bool sendAll(int fd, const void* data, std::size_t n, std::size_t* sent = nullptr);
bool sendHello(int fd, const std::string& runtime);
// Sends the ARENA message with the arena's memfd attached (SCM_RIGHTS).
bool sendArena(int fd, const Arena& arena);
// Starts a private recorder writing `outputPath`; returns its socket path or "" with `error` set.
std::string spawnRecorder(const std::string& outputPath, std::string& error);
std::int64_t monotonicNs();

// Appends one wire record of `size` bytes to the calling thread's ring; `fill` writes it.
template <class Fill>
inline void emit(std::uint32_t size, Fill&& fill) {
    ThreadState& t = threadState();
    if (t.busy) {
        global().droppedReentrant.fetch_add(1, std::memory_order_relaxed);
        countElsewhere(global(), CS_DROP_REENTRANT, 1);
        return;
    }
    t.busy = 1;
    ThreadBuffer* b = t.buf ? t.buf : createThreadBuffer();
    if (b) {
        if (!global().linkUp.load(std::memory_order_relaxed)) {
            b->drop(CS_DROP_NO_RECORDER);
        } else if (size > b->ring.capacity() / 4) {
            b->drop(CS_DROP_OVERSIZED);
        } else {
            unsigned char* p = b->ring.reserve(size);
            if (!p) p = waitForRoom(b, size);
            if (p) {
                fill(p);
                b->ring.commit(size);
                if (b->arenaHeader) __atomic_fetch_add(&b->arenaHeader->private_published, 1, __ATOMIC_RELAXED);
            }
        }
    }
    t.busy = 0;
}

}  // namespace cs::collector
