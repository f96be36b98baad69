// TimelineIndex: the spans of one timeline lane, arranged so that a view of any zoom level gets at
// most a few items per pixel column, in time proportional to the pixels and not to the events.
//
// Why this shape (ideas from Tracy's MinVisSize folding and perfetto's slice mipmaps, no code):
//  - Spans are split into rows ("depths") by greedy interval partitioning, so inside one row spans
//    never overlap. Sorted by start, their ends are then sorted too, and the first span visible
//    in a window is one binary search away. Spans read in start order (the loader's ordered scan
//    per track) are placed as they come; add() + finish() sorts first, for any other order.
//  - A query names a bucket width (the view passes its ns-per-pixel rounded down to a power of two,
//    so buckets are aligned to absolute time and do not shimmer while panning). A span at least one
//    bucket wide is returned as itself. A run of narrower spans is folded into one "N items" mark:
//    the scan jumps, by binary search, to the first span starting after the bucket that holds the
//    run's end, and the count is the difference of the two indices. Work per row is therefore
//    O(visible buckets x log n) however many spans the window holds.
//  - Storage is columnar (start, end, name id, category, source row id: 29 bytes a span), which is
//    what the 40 bytes-per-event memory budget of the viewer allows.
// Nesting deeper than kMaxDepth rows (possible only in malformed or adversarial input) is clipped
// into the last row and counted, never dropped silently.
#pragma once

#include "core/util/big_alloc.h"

#include <cstddef>
#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

namespace cs::engine {

// One thing to draw: a span, or `count` > 1 folded spans covering [startNs, endNs).
struct TimelineItem {
    std::int64_t startNs = 0, endNs = 0;
    std::int64_t rowId = 0;     // source row of the span (the first one of a fold)
    std::uint32_t name = 0;     // string id
    std::uint32_t count = 1;    // 1 = a real span; > 1 = "N items"
    std::uint16_t depth = 0;
    std::uint8_t category = 0;  // cs_category of the span (of the first one of a fold)
};

class TimelineIndex {
public:
    static constexpr int kMaxDepth = 64;

    // Any order; call finish() once after the last add().
    void add(std::int64_t startNs, std::int64_t endNs, std::uint32_t name, std::uint8_t category,
             std::int64_t rowId);
    void finish();
    // The fast path, instead of add() + finish(), for spans already in start order, longer first
    // among equal starts (what the loader's scan delivers). `each(f)` must call
    // f(startNs, endNs, name, category, rowId) for every span in that order, and is called twice:
    // once to count each row's spans, once to fill rows reserved to their exact size (no buffer,
    // no sort, no growth copies). Gives the same rows as add() + finish().
    template <typename Each>
    void buildSorted(const Each& each);

    // Appends to `out` every item of rows [0, depthCount) that intersects [t0, t1), folding spans
    // narrower than bucketNs (> 0).
    void query(std::int64_t t0, std::int64_t t1, std::int64_t bucketNs, std::vector<TimelineItem>& out) const;
    // Spans whose name id has wanted[name] set, or whose category has categories[category] set, in
    // row then time order, at most `limit`.
    void findByName(const std::vector<bool>& wanted, std::size_t limit, std::vector<TimelineItem>& out,
                    const std::vector<bool>& categories = {}) const;
    // Spans whose row id is in `rowIds` (ascending) and whose name is not wanted[] (findByName has
    // those already), in row then time order, at most `limit`.
    void findByRowId(const std::vector<std::int64_t>& rowIds, const std::vector<bool>& wanted, std::size_t limit,
                     std::vector<TimelineItem>& out) const;
    // What a folded "N items" mark holds: the spans of row `depth` inside [t0, t1), their busy time
    // and the names that took longest (a hover tooltip). Scans at most `scanLimit` spans, so a fold of
    // millions stays interactive; `scanned` < `count` says the names are of the first ones only.
    struct FoldSummary {
        std::size_t count = 0, scanned = 0;
        std::int64_t busyNs = 0;
        struct Name {
            std::uint32_t name = 0;
            std::size_t count = 0;
            std::int64_t ns = 0;
        };
        std::vector<Name> top;  // longest total first
    };
    FoldSummary summarize(int depth, std::int64_t t0, std::int64_t t1, std::size_t topN = 3,
                          std::size_t scanLimit = 1'000'000) const;
    // Calls f(item) for every span (unfolded, count 1) of every row that intersects [t0, t1): a span
    // with end > t0 and start < t1, or a zero-length span at t0. In row then time order; O(log n) per
    // row plus the spans visited (the range table of a Shift-drag selection).
    template <typename F>
    void forEachIn(std::int64_t t0, std::int64_t t1, const F& f) const;
    // Moves every span by `deltaNs` (a session drawn elsewhere on the axis: sequence-only work).
    void shift(std::int64_t deltaNs);
    // The span whose source row is `rowId` (count 1), if any: a linear scan, for one click.
    std::optional<TimelineItem> findRow(std::int64_t rowId) const;
    // The span of row `depth` that contains t, if any.
    std::optional<TimelineItem> spanAt(int depth, std::int64_t t) const;

    std::size_t spanCount() const { return m_count; }
    int depthCount() const { return static_cast<int>(m_rows.size()); }
    std::int64_t minNs() const { return m_min; }
    std::int64_t maxNs() const { return m_max; }
    std::size_t clipped() const { return m_clipped; }
    std::size_t allocatedBytes() const;

private:
    // Columns reserved to their exact size once; big ones mapped populated (util/big_alloc.h).
    template <typename T>
    using Column = std::vector<T, util::BigAllocator<T>>;
    struct Row {
        Column<std::int64_t> start, end, rowId;
        Column<std::uint32_t> name;
        Column<std::uint8_t> category;
    };
    struct Pending {
        std::int64_t start, end, rowId;
        std::uint32_t name;
        std::uint8_t category;
    };
    // Greedy interval partitioning: the first row whose last span ended by `start`, else a new row;
    // past kMaxDepth rows the span is clipped into the last row (start moved; -1 if nothing is left).
    static int placeRow(std::vector<std::int64_t>& rowEnd, std::int64_t& start, std::int64_t end, bool& clipped);
    void queryRow(const Row& r, std::uint16_t depth, std::int64_t t0, std::int64_t t1, std::int64_t bucketNs,
                  std::vector<TimelineItem>& out) const;

    std::vector<Pending> m_pending;
    std::vector<Row> m_rows;
    std::size_t m_count = 0, m_clipped = 0;
    std::int64_t m_min = 0, m_max = 0;
};

template <typename F>
void TimelineIndex::forEachIn(std::int64_t t0, std::int64_t t1, const F& f) const {
    for (std::size_t d = 0; d < m_rows.size(); ++d) {
        const Row& r = m_rows[d];
        // Ends are sorted within a row: the first span ending at or after t0 is the first candidate.
        auto i = static_cast<std::size_t>(std::lower_bound(r.end.begin(), r.end.end(), t0) - r.end.begin());
        for (; i < r.start.size() && r.start[i] < t1; ++i) {
            if (r.end[i] == t0 && r.start[i] != r.end[i]) continue;  // ends where the range starts
            f(TimelineItem{r.start[i], r.end[i], r.rowId[i], r.name[i], 1, static_cast<std::uint16_t>(d), r.category[i]});
        }
    }
}

template <typename Each>
void TimelineIndex::buildSorted(const Each& each) {
    std::vector<std::int64_t> rowEnd;
    std::vector<std::size_t> counts;
    bool first = true;
    each([&](std::int64_t start, std::int64_t end, std::uint32_t, std::uint8_t, std::int64_t) {
        if (end < start) end = start;
        if (first) m_min = m_max = start;
        first = false;
        m_max = std::max(m_max, end);
        bool clipped = false;
        int row = placeRow(rowEnd, start, end, clipped);
        (clipped ? m_clipped : m_count) += 1;  // a clipped span counts as clipped, kept piece or not
        if (row < 0) return;
        if (counts.size() <= static_cast<std::size_t>(row)) counts.resize(static_cast<std::size_t>(row) + 1, 0);
        ++counts[static_cast<std::size_t>(row)];
    });
    m_rows.resize(counts.size());
    for (std::size_t d = 0; d < counts.size(); ++d) {
        Row& r = m_rows[d];
        r.start.reserve(counts[d]);
        r.end.reserve(counts[d]);
        r.rowId.reserve(counts[d]);
        r.name.reserve(counts[d]);
        r.category.reserve(counts[d]);
    }
    rowEnd.clear();
    each([&](std::int64_t start, std::int64_t end, std::uint32_t name, std::uint8_t category, std::int64_t rowId) {
        if (end < start) end = start;
        bool clipped = false;
        int row = placeRow(rowEnd, start, end, clipped);
        if (row < 0) return;
        Row& r = m_rows[static_cast<std::size_t>(row)];
        r.start.push_back(start);
        r.end.push_back(end);
        r.rowId.push_back(rowId);
        r.name.push_back(name);
        r.category.push_back(category);
    });
}

// Instant events of one lane (cache lookups, steps): same folding, by bucket.
struct MarkItem {
    std::int64_t tsNs = 0;     // first instant of the bucket
    std::int64_t rowId = 0;    // its source row
    std::uint32_t label = 0;   // its string id
    std::uint32_t count = 1;   // instants folded into this bucket
    std::uint32_t flagged = 0; // how many of them carry the flag (a miss)
};

class MarkIndex {
public:
    void add(std::int64_t tsNs, std::uint32_t label, bool flag, std::int64_t rowId);
    void finish();
    void query(std::int64_t t0, std::int64_t t1, std::int64_t bucketNs, std::vector<MarkItem>& out) const;
    std::size_t size() const { return m_ts.size(); }
    std::size_t allocatedBytes() const;
    std::int64_t minNs() const { return m_ts.empty() ? 0 : m_ts.front(); }
    void shift(std::int64_t deltaNs);  // moves every instant (see TimelineIndex::shift)
    // The instant whose source row is `rowId` (count 1), if any: a linear scan, for one click.
    std::optional<MarkItem> find(std::int64_t rowId) const;
    std::int64_t maxNs() const { return m_ts.empty() ? 0 : m_ts.back(); }

private:
    std::vector<std::int64_t> m_ts, m_rowId;
    std::vector<std::uint32_t> m_label;
    // m_flaggedBefore[i] = flags among instants [0, i): a fold counts its flags in O(1).
    std::vector<std::uint32_t> m_flaggedBefore;
    struct Pending {
        std::int64_t ts, rowId;
        std::uint32_t label;
        bool flag;
    };
    std::vector<Pending> m_pending;
};

}  // namespace cs::engine
