// SPDX-License-Identifier: MIT
// The flusher: one thread that moves each ring's events, and the definitions they use, to the
// recorder's socket; also the wire encoding of definitions and joining the recorder.
//
// Why: everything that may lock, allocate or make a system call lives here or in collector.cpp,
// off the caller's hot path. The flusher wakes every few milliseconds, reads each ring's published
// write position FIRST and only then sends the string and track definitions known at that moment:
// an event can only use a string interned before it was published, so the recorder always sees a
// definition before its first use without the hot path having to care about ordering. Ring space is
// given back only once its bytes are in the socket, so what the recorder has not received is still
// in the arena if the process dies.
#include "collector_state.h"

#include <compilescope/wire_protocol.h>

#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <unistd.h>

namespace cs::collector {

namespace {
std::mutex g_wakeMutex;
std::condition_variable g_wake;


template <class T>
void appendStruct(std::vector<unsigned char>& out, const T& v) {
    const auto* b = reinterpret_cast<const unsigned char*>(&v);
    out.insert(out.end(), b, b + sizeof v);
}
void appendPadded(std::vector<unsigned char>& out, const char* data, std::size_t n) {
    out.insert(out.end(), data, data + n);
    out.resize(out.size() + (CS_WIRE_ALIGN(n) - n), 0);
}

// Counts the events of the staging buffer from the message that holds byte `from` on: they left
// their rings but never reached the recorder whole (a cut message is discarded at its EOF).
void countUnsent(Global& g, std::size_t from) {
    std::uint64_t lost = 0;
    for (std::size_t p = 0; p + sizeof(cs_wire_header) <= g.out.size();) {
        cs_wire_header h;
        std::memcpy(&h, g.out.data() + p, sizeof h);
        if (h.size < sizeof h) break;  // never: the flusher staged these bytes itself
        if (p + h.size > from && h.type >= CS_WIRE_FIRST_EVENT) ++lost;
        p += h.size;
    }
    g.droppedUnsent.fetch_add(lost, std::memory_order_relaxed);
    countElsewhere(g, CS_DROP_NO_RECORDER, lost);
}

// Sends the staging buffer; on failure the link is down for good and everything later is dropped.
// Either way every event staged is delivered or counted (issue 40: a stalled recorder used to cost
// events counted nowhere).
void sendStaged(Global& g) {
    if (g.out.empty()) return;
    std::size_t sent = 0;
    if (g.fd < 0) {
        countUnsent(g, 0);
    } else if (sendAll(g.fd, g.out.data(), g.out.size(), &sent)) {
        g.sentBytes.fetch_add(g.out.size(), std::memory_order_relaxed);
    } else {
        const int err = errno;
        countUnsent(g, sent);
        g.linkUp.store(false, std::memory_order_relaxed);
        warnOnce(std::string("lost the connection to the recorder (") + std::strerror(err) +
                 "); further events are dropped and counted (the trace holds the count if its recording "
                 "outlasts this process)");
        ::close(g.fd);
        g.fd = -1;
    }
    g.out.clear();
}

// Events (records other than PAD) of a ring between two positions.
std::uint64_t countRecords(const RingBuffer& ring, std::uint64_t from, std::uint64_t to) {
    std::uint64_t n = 0;
    for (std::uint64_t p = from; p < to;) {
        cs_wire_header h;
        std::memcpy(&h, ring.at(p), sizeof h);
        if (h.type != CS_WIRE_PAD) ++n;
        if (h.size == 0) break;  // never: the producer writes whole records
        p += h.size;
    }
    return n;
}

// A private ring's events that left it (into the socket or a drop counter), for the arena's header.
void privateDone(const ThreadBuffer* b, std::uint64_t from, std::uint64_t to) {
    if (b->arenaHeader && to > from)
        __atomic_fetch_add(&b->arenaHeader->private_done, countRecords(b->ring, from, to), __ATOMIC_RELAXED);
}

}  // namespace

void encodeString(std::vector<unsigned char>& out, std::uint32_t id, const std::string& s) {
    cs_wire_string m{{CS_WIRE_STRING, 0, static_cast<std::uint32_t>(sizeof(cs_wire_string) + CS_WIRE_ALIGN(s.size()))}, id,
                     static_cast<std::uint32_t>(s.size())};
    appendStruct(out, m);
    appendPadded(out, s.data(), s.size());
}

void encodeTrack(std::vector<unsigned char>& out, std::uint32_t id, const TrackDef& t) {
    cs_wire_track m{{CS_WIRE_TRACK, 0, sizeof(cs_wire_track)}, id, t.kind, t.tid, t.name, 0};
    appendStruct(out, m);
}

namespace {
void stageDefinitions(Global& g) {
    std::lock_guard<std::mutex> lock(g.stringMutex);
    for (; g.stringsSent < g.strings.size(); ++g.stringsSent)
        encodeString(g.out, static_cast<std::uint32_t>(g.stringsSent + 1), g.strings[g.stringsSent]);
    for (; g.tracksSent < g.tracks.size(); ++g.tracksSent)
        encodeTrack(g.out, static_cast<std::uint32_t>(g.tracksSent + 1), g.tracks[g.tracksSent]);
}

void stageDrops(Global& g, std::uint64_t count, std::uint32_t reason) {
    cs_wire_dropped d{{CS_WIRE_DROPPED, 0, sizeof(cs_wire_dropped)}, count, reason, 0};
    appendStruct(g.out, d);
}


void* flusherMain(void*) {
    Global& g = global();
    // The flusher must never record itself: a hook that records from every thread must skip it.
    threadState().busy = 1;
    while (!g.stopFlusher.load(std::memory_order_acquire)) {
        std::size_t moved;
        {
            std::lock_guard<std::mutex> lock(g.flushMutex);
            moved = flushLocked(g);
        }
        // Under sustained load (a quarter of a ring or more per pass) flush again at once instead
        // of sleeping: the period bounds latency, not throughput.
        if (moved >= g.bufferBytes / 4) continue;
        std::unique_lock<std::mutex> lock(g_wakeMutex);
        g_wake.wait_for(lock, std::chrono::milliseconds(g.flushIntervalMs),
                        [&] { return g.stopFlusher.load(std::memory_order_acquire); });
    }
    return nullptr;
}

}  // namespace

// Connects to the recorder as a new session: HELLO, then the arena. Caller holds flushMutex.
bool joinRecorder(Global& g, std::string& error) {
    g.fd = connectRecorder(g.socketPath, error);
    if (g.fd < 0) return false;
    if (!sendHello(g.fd, g.runtime) || (g.arena && !sendArena(g.fd, *g.arena))) {
        if (error.empty()) error = std::strerror(errno);
        ::close(g.fd);
        g.fd = -1;
        return false;
    }
    return true;
}

// A forked child joins the recording once it records: at its first event, before it can _exit().
// Caller holds flushMutex.
void joinIfPendingLocked(Global& g) {
    if (!g.pendingConnect.exchange(false) || !g.linkUp.load(std::memory_order_relaxed)) return;
    std::string error;
    if (!joinRecorder(g, error)) {
        g.linkUp.store(false);
        warnOnce("a forked child cannot reach the recorder (" + error + "); its events are dropped and counted");
    }
}

// One pass over every ring; returns the event bytes it moved. Caller holds flushMutex.
std::size_t flushLocked(Global& g) {
    std::vector<ThreadBuffer*> buffers;
    {
        std::lock_guard<std::mutex> lock(g.registryMutex);
        buffers = g.buffers;
    }
    std::vector<std::uint64_t> ends(buffers.size());
    std::vector<bool> wasOrphaned(buffers.size());
    for (std::size_t i = 0; i < buffers.size(); ++i) {
        wasOrphaned[i] = buffers[i]->orphaned.load(std::memory_order_acquire);
        ends[i] = buffers[i]->ring.writePos();  // acquire: publishes every string used before it
    }
    if (g.pendingConnect.load()) {
        // Only a child that recorded something connects, so that a fork + exec does not leave an
        // empty "unfinished" session behind (drops alone, e.g. reentrant ones, count too).
        bool any = g.droppedReentrant.load(std::memory_order_relaxed) != g.reentrantSent;
        for (std::size_t i = 0; i < buffers.size(); ++i)
            any = any || ends[i] != buffers[i]->ring.readPos() || buffers[i]->droppedTotal() != 0;
        if (!any) return 0;
        joinIfPendingLocked(g);
    }
    const bool up = g.linkUp.load(std::memory_order_relaxed) && g.fd >= 0;
    if (up) stageDefinitions(g);
    struct Release {
        ThreadBuffer* b;
        std::uint64_t end;
        std::uint64_t dropped[CS_DROP_REASONS];
    };
    std::vector<Release> releases;
    std::size_t moved = 0;
    for (std::size_t i = 0; i < buffers.size(); ++i) {
        ThreadBuffer* b = buffers[i];
        std::uint64_t pos = b->ring.readPos();
        const std::uint64_t end = ends[i];
        if (!up) {
            // Nobody to send to: what is buffered is lost, and counted.
            for (std::uint64_t n = countRecords(b->ring, pos, end); n; --n) b->drop(CS_DROP_NO_RECORDER);
            privateDone(b, pos, end);
            b->ring.release(end);
            continue;
        }
        Release r{b, end, {}};
        bool newDrops = false;
        for (int why = 0; why < CS_DROP_REASONS; ++why) {
            r.dropped[why] = b->dropped(why);
            newDrops = newDrops || r.dropped[why] != b->cells->dropped_sent[why];
        }
        if (pos == end && !newDrops) continue;
        const std::size_t nameLen = b->nameSent ? 0 : strnlen(b->cells->name, sizeof b->cells->name);
        cs_wire_thread th{{CS_WIRE_THREAD, 0, static_cast<std::uint32_t>(sizeof(cs_wire_thread) + CS_WIRE_ALIGN(nameLen))},
                          b->cells->tid, pos, static_cast<std::uint32_t>(nameLen), b->slot};
        appendStruct(g.out, th);
        appendPadded(g.out, b->cells->name, nameLen);
        b->nameSent = true;
        while (pos < end) {
            std::size_t n = b->ring.contiguous(pos, end);
            const unsigned char* src = b->ring.at(pos);
            g.out.insert(g.out.end(), src, src + n);
            pos += n;
            // Sent in pieces, so a waiting producer sees progress while a slow recorder reads a pass.
            if (g.out.size() >= (1u << 18)) sendStaged(g);
        }
        moved += static_cast<std::size_t>(end - b->ring.readPos());
        for (int why = 0; why < CS_DROP_REASONS; ++why)
            if (r.dropped[why] != b->cells->dropped_sent[why])
                stageDrops(g, r.dropped[why] - b->cells->dropped_sent[why], static_cast<std::uint32_t>(why));
        releases.push_back(r);
    }
    const std::uint64_t reentrant = g.droppedReentrant.load(std::memory_order_relaxed);
    if (up && reentrant != g.reentrantSent) {
        stageDrops(g, reentrant - g.reentrantSent, CS_DROP_REENTRANT);
        g.reentrantSent = reentrant;
    }
    if (up) sendStaged(g);
    // Ring space (and the drop counts) are given back only once their bytes are in the socket:
    // what the recorder has not received is still in the arena if the process dies now.
    for (auto& r : releases) {
        std::memcpy(r.b->cells->dropped_sent, r.dropped, sizeof r.dropped);
        privateDone(r.b, r.b->ring.readPos(), r.end);
        r.b->ring.release(r.end);
    }
    // Free the buffers of threads that have exited and whose last bytes are now out.
    std::lock_guard<std::mutex> lock(g.registryMutex);
    for (std::size_t i = 0; i < buffers.size(); ++i) {
        ThreadBuffer* b = buffers[i];
        if (!wasOrphaned[i] || b->ring.readPos() != b->ring.writePos()) continue;
        g.droppedNoBuffer.fetch_add(b->droppedTotal(), std::memory_order_relaxed);
        if (b->slot != CS_ARENA_NO_SLOT && g.arena) {
            // The slot's counters start again for its next thread: its drops go to the header.
            for (int why = 0; why < CS_DROP_REASONS; ++why) countElsewhere(g, why, b->dropped(why));
            g.arena->releaseSlot(b->slot);
        }
        std::erase(g.buffers, b);
        delete b;
    }
    return moved;
}

bool startFlusher(Global& g) {
    g.stopFlusher.store(false);
    g.flusherRunning = pthread_create(&g.flusher, nullptr, flusherMain, nullptr) == 0;
    return g.flusherRunning;
}

void stopFlusherThread(Global& g) {
    if (!g.flusherRunning) return;
    {
        std::lock_guard<std::mutex> lock(g_wakeMutex);
        g.stopFlusher.store(true, std::memory_order_release);
    }
    g_wake.notify_all();
    pthread_join(g.flusher, nullptr);
    g.flusherRunning = false;
}

void wakeFlusher() { g_wake.notify_one(); }

void renewFlusherWake() {
    new (&g_wakeMutex) std::mutex;
    new (&g_wake) std::condition_variable;
}

}  // namespace cs::collector
