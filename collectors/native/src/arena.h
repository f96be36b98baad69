// SPDX-License-Identifier: MIT
// The arena: this process's ring buffers and string log in one memfd that the recorder also holds.
//
// Why: a process that ends with _exit() (worker pools do) or is killed never runs the flusher
// again, so whatever its rings held used to die with it, uncounted (issue 14: 199,081 of 201,000
// events of 200 forked workers). With the rings in a memfd passed to the recorder (SCM_RIGHTS, the
// ARENA message), an event is safe once its record is published: when the stream ends without
// GOODBYE the recorder reads the unsent bytes and the definitions they use from the memfd. The
// layout is the plain C struct of wire_protocol.h (cs_arena_header), shared by both sides.
// The hot path is unchanged: a ring's positions live in its slot instead of in the heap.
#pragma once

#include <compilescope/wire_protocol.h>

#include <cstddef>
#include <cstdint>

namespace cs::collector {

class Arena {
public:
    // A memfd of `slots` rings of `ringBytes` (a power of two) and a `logBytes` string log. The file
    // is sparse: only pages that are written cost memory. nullptr when memfd or mmap fail (the
    // process then records into private rings, which a crash loses).
    static Arena* create(std::size_t ringBytes, std::uint32_t slots, std::size_t logBytes);
    ~Arena();
    Arena(const Arena&) = delete;
    Arena& operator=(const Arena&) = delete;

    int fd() const { return m_fd; }
    std::size_t size() const { return m_size; }
    std::size_t ringBytes() const { return m_header->ring_bytes; }
    // The process-wide counters the recorder reads beside the slots' (wire_protocol.h).
    cs_arena_header* header() const { return m_header; }

    // Takes a free slot for thread `tid` (the registry lock is held); CS_ARENA_NO_SLOT when none.
    std::uint32_t acquireSlot(std::int64_t tid, const char* name);
    void releaseSlot(std::uint32_t slot);
    cs_arena_slot* slot(std::uint32_t i) const;
    unsigned char* ring(std::uint32_t i) const;

    // Appends one STRING or TRACK message to the log (the string lock is held); false when full.
    bool appendLog(const unsigned char* message, std::size_t n);
    // A forked child's arena starts with its parent's definitions (the child keeps its strings).
    void copyLogFrom(const Arena& parent);

private:
    Arena(int fd, unsigned char* base, std::size_t size);
    int m_fd;
    unsigned char* m_base;
    std::size_t m_size;
    cs_arena_header* m_header;
};

}  // namespace cs::collector
