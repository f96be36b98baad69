// SPDX-License-Identifier: MIT
// A single-producer / single-consumer byte ring holding wire records of one thread.
//
// Why: the caller's thread must append an event without a lock, allocation or system call. The
// producer (the recording thread) owns m_write, the consumer (the flusher thread) owns m_read;
// each publishes its position with a release store and reads the other's with an acquire load.
// Records never wrap: when one does not fit before the end, a PAD record fills the rest and the
// record starts at offset 0, so the consumer can hand any record to the socket as one piece.
// The two positions live outside the object (in the ring's arena slot, arena.h), so the recorder can
// read what is still unsent after the process died; the producer keeps its own copy of the write
// position, so the hot path reads nothing through that pointer.
#pragma once

#include <compilescope/wire_protocol.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace cs::collector {

class RingBuffer {
public:
    // capacity: a power of two, at least 4 KiB. writeCell / readCell: the published positions.
    RingBuffer(unsigned char* memory, std::size_t capacity, std::uint64_t* writeCell, std::uint64_t* readCell)
        : m_data(memory), m_mask(capacity - 1), m_writeCell(writeCell), m_readCell(readCell),
          m_write(__atomic_load_n(writeCell, __ATOMIC_RELAXED)), m_cachedRead(__atomic_load_n(readCell, __ATOMIC_RELAXED)) {}

    std::size_t capacity() const { return m_mask + 1; }

    // Reserves `size` bytes (a multiple of 8, <= capacity / 4) and returns where to write the
    // record, or nullptr when the ring is full. Producer thread only; commit() publishes it.
    unsigned char* reserve(std::uint32_t size) {
        const std::uint64_t w = m_write;
        const std::size_t off = static_cast<std::size_t>(w & m_mask);
        const std::size_t tailRoom = capacity() - off;
        const std::size_t pad = tailRoom < size ? tailRoom : 0;
        const std::uint64_t need = w + pad + size;
        if (need - m_cachedRead > capacity()) {
            m_cachedRead = consumedPos();
            if (need - m_cachedRead > capacity()) return nullptr;
        }
        if (pad) {
            cs_wire_header h{CS_WIRE_PAD, 0, static_cast<std::uint32_t>(pad)};
            std::memcpy(m_data + off, &h, sizeof h);
            m_pending = w + pad;
            return m_data;
        }
        m_pending = w;
        return m_data + off;
    }
    void commit(std::uint32_t size) {
        m_write = m_pending + size;
        __atomic_store_n(m_writeCell, m_write, __ATOMIC_RELEASE);
    }
    // Producer side: how far the consumer has got.
    std::uint64_t consumedPos() const { return __atomic_load_n(m_readCell, __ATOMIC_ACQUIRE); }

    // Consumer side: the published byte range [read, write).
    std::uint64_t readPos() const { return __atomic_load_n(m_readCell, __ATOMIC_RELAXED); }
    std::uint64_t writePos() const { return __atomic_load_n(m_writeCell, __ATOMIC_ACQUIRE); }
    const unsigned char* at(std::uint64_t pos) const { return m_data + (pos & m_mask); }
    // Bytes readable contiguously from `pos` without wrapping, up to `end`.
    std::size_t contiguous(std::uint64_t pos, std::uint64_t end) const {
        const std::size_t toEnd = capacity() - static_cast<std::size_t>(pos & m_mask);
        const std::uint64_t avail = end - pos;
        return avail < toEnd ? static_cast<std::size_t>(avail) : toEnd;
    }
    void release(std::uint64_t pos) { __atomic_store_n(m_readCell, pos, __ATOMIC_RELEASE); }

private:
    unsigned char* m_data;
    std::size_t m_mask;
    std::uint64_t* m_writeCell;
    std::uint64_t* m_readCell;
    std::uint64_t m_write;  // producer's copy of *m_writeCell
    std::uint64_t m_pending = 0;
    std::uint64_t m_cachedRead;
};

}  // namespace cs::collector
