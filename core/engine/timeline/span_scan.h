// Reads every span of a trace on several connections at once and hands each track's spans over
// sorted by start (ties: the longer span first).
//
// Why this shape: the viewer's open time at 10M events is the time to read the spans table once.
// Both consumers want each track's spans in start order: the timeline index places them in rows
// reserved to their exact size, and the compile summary merges all tracks by start into running
// unions, so neither buffers nor sorts millions of intervals on its own. How the rows are read was
// measured on a trace the collector recorded (bench_gui_timeline): an ordered range scan of
// idx_spans_track_start per track was 2-3x slower than a plain table scan, because the recorder
// interleaves the threads' batches, so each index entry costs a random lookup into the table. So
// the table is read in rowid order, in rowid ranges taken by 2+ worker threads, each with its own
// read-only SQLite connection, into per-track blocks (32 bytes a span). Rowid order is nearly start
// order within a track (a runtime records a span when it ends, so only parents trail their
// children): an insertion sort, run as each row is stored, repairs that in time proportional to
// the displacement, with std::sort as the fallback for any other order. Tracks are then delivered
// by the workers in parallel, each by exactly one thread (per-track consumer state needs no lock),
// and freed, or kept for the caller. The same code reads a trace still being written (no indexes).
#pragma once

#include "core/engine/common/load_control.h"
#include "core/util/big_alloc.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <utility>
#include <vector>

namespace cs::trace {
class TraceReader;
}

namespace cs::engine {

// One span as read: 32 bytes (no default initializers, so blocks of them are allocated untouched).
struct ScannedSpan {
    std::int64_t id;
    std::int64_t startNs;
    std::int64_t durNs;      // as stored; 0 when !ended
    std::uint32_t name;      // string id
    std::int16_t category;   // clamped to int16
    bool ended;              // false: dur_ns NULL, the span never ended
};

// Start order; among equal starts the longer span first (a never-ended one outlasts all), then by id.
bool spanBefore(const ScannedSpan& a, const ScannedSpan& b);

// One track's spans, sorted by spanBefore. Kept as it was read: one part per worker thread (its
// rowid range), each part sorted in place in fixed-size blocks; forEach() merges the parts on the
// fly. Nothing is copied into one big array, as every fresh page costs a fault.
class TrackSpans {
public:
    static constexpr std::size_t kBlockShift = 16, kBlock = std::size_t{1} << kBlockShift;  // 2 MiB blocks
    static constexpr std::size_t kFirstBlock = 512;  // 16 KiB: a trace may have thousands of tiny tracks
    // A worker's share of the track. Its first block starts small and doubles until it is a full
    // block; only then do further full blocks follow. (It used to jump from 512 spans to a full
    // 2 MiB populated block: a build's 1,860 tracks of ~800 spans each mapped and zeroed 3.7 GB.)
    // Blocks of 1 MiB and more are mapped populated (util/big_alloc.h).
    struct Part {
        Part() = default;
        Part(Part&& o) noexcept : blocks(std::move(o.blocks)), size(o.size), first(o.first), sorted(o.sorted), moves(o.moves) {
            o.size = 0;
            o.first = 0;
        }
        Part& operator=(Part&& o) noexcept {
            std::swap(blocks, o.blocks);
            std::swap(size, o.size);
            std::swap(first, o.first);
            std::swap(sorted, o.sorted);
            std::swap(moves, o.moves);
            return *this;
        }
        Part(const Part&) = delete;
        Part& operator=(const Part&) = delete;
        ~Part() {
            for (std::size_t b = 0; b < blocks.size(); ++b) util::bigDeallocate(blocks[b], (b == 0 ? first : kBlock) * sizeof(ScannedSpan));
        }
        std::vector<ScannedSpan*> blocks;
        std::size_t size = 0;
        std::size_t first = 0;  // capacity of blocks[0], in spans: kFirstBlock doubling up to kBlock
        bool sorted = true;     // kept sorted while read (span_scan.cpp), else sorted afterwards
        std::size_t moves = 0;  // insertion-sort moves spent on it so far
        ScannedSpan& operator[](std::size_t i) { return blocks[i >> kBlockShift][i & (kBlock - 1)]; }
        const ScannedSpan& operator[](std::size_t i) const { return blocks[i >> kBlockShift][i & (kBlock - 1)]; }
        void push(const ScannedSpan& s) {
            if (size == 0 && blocks.empty()) {
                first = kFirstBlock;
                blocks.push_back(static_cast<ScannedSpan*>(util::bigAllocate(first * sizeof(ScannedSpan))));
            } else if (size == first && first < kBlock) {
                const std::size_t grown = first * 2;
                auto* bigger = static_cast<ScannedSpan*>(util::bigAllocate(grown * sizeof(ScannedSpan)));
                std::copy(blocks[0], blocks[0] + size, bigger);
                util::bigDeallocate(blocks[0], first * sizeof(ScannedSpan));
                blocks[0] = bigger;
                first = grown;
            } else if (size >= kBlock && (size & (kBlock - 1)) == 0) {
                blocks.reserve(blocks.size() + 1);
                blocks.push_back(static_cast<ScannedSpan*>(util::bigAllocate(kBlock * sizeof(ScannedSpan))));
            }
            (*this)[size++] = s;
        }
    };
    std::vector<Part> parts;

    std::size_t size() const {
        std::size_t n = 0;
        for (const Part& p : parts) n += p.size;
        return n;
    }
    // Calls f(const ScannedSpan&) for every span, in spanBefore order.
    template <typename F>
    void forEach(F&& f) const {
        if (parts.size() == 1) {
            for (std::size_t i = 0; i < parts[0].size; ++i) f(parts[0][i]);
            return;
        }
        std::vector<std::size_t> at(parts.size(), 0);
        while (true) {
            std::size_t best = parts.size();
            for (std::size_t p = 0; p < parts.size(); ++p)
                if (at[p] < parts[p].size && (best == parts.size() || spanBefore(parts[p][at[p]], parts[best][at[best]]))) best = p;
            if (best == parts.size()) return;
            f(parts[best][at[best]++]);
        }
    }
};

// Called once per track with all its spans (`track` indexes the ids passed in), from the scan's
// worker threads: one thread per track, several tracks at once.
using SpanTrackFn = std::function<void(std::size_t track, const TrackSpans& spans)>;
// Every track's sorted spans, kept after the scan for a consumer that must see all tracks together
// in one time order (the compile summary) once the per-track consumer is done (the timeline).
struct SpanTracks {
    std::vector<std::int64_t> ids;
    std::vector<TrackSpans> tracks;  // tracks[i] holds track ids[i]
};

// Reads the spans of each of `trackIds`. `threads` 0 = as many as useful (<= cores, <= 4). Reports progress 0..100 of the rows read (from the calling thread) and polls `control`;
// a worker's exception (LoadCancelled, TraceError) stops the others and is rethrown here. With
// `keep`, the sorted tracks are moved there instead of being freed as each one is delivered.
// Returns the number of spans read.
std::int64_t scanSpansByTrack(const trace::TraceReader& reader, const std::vector<std::int64_t>& trackIds,
                              const LoadControl& control, const SpanTrackFn& fn, SpanTracks* keep = nullptr,
                              unsigned threads = 0);

// Worker threads the scan uses for `tracks` tracks when asked for `threads` (0 = automatic).
unsigned spanScanThreads(std::size_t tracks, unsigned threads = 0);

}  // namespace cs::engine
