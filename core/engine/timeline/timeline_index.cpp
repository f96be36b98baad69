#include "core/engine/timeline/timeline_index.h"
#include "core/util/saturating.h"

#include <algorithm>
#include <unordered_map>

namespace cs::engine {

namespace {
// Start of the bucket after the one holding t (floor division that also holds for negative t).
std::int64_t nextBucketEdge(std::int64_t t, std::int64_t bucket) {
    std::int64_t q = t / bucket;
    if (t % bucket != 0 && t < 0) --q;
    return util::satMul(util::satAdd(q, 1), bucket);
}

// First index k >= from with v[k] >= edge, for sorted v. The next bucket edge is usually a few
// spans ahead, so gallop (1, 2, 4, ... ahead) before the binary search: O(log distance) reads, all
// near `from`, instead of a binary search over the whole row (cache misses at 10M spans).
template <typename V>
std::size_t gallop(const V& v, std::size_t from, std::int64_t edge) {
    std::size_t lo = from, hi = from, step = 1;
    const std::size_t n = v.size();
    while (hi < n && v[hi] < edge) {
        lo = hi + 1;
        hi += step;
        step <<= 1;
    }
    hi = std::min(hi, n);
    return static_cast<std::size_t>(std::lower_bound(v.begin() + static_cast<std::ptrdiff_t>(lo),
                                                     v.begin() + static_cast<std::ptrdiff_t>(hi), edge) - v.begin());
}

template <typename V>
std::size_t vectorBytes(const V& v) {
    return v.capacity() * sizeof(typename V::value_type);
}
}  // namespace

void TimelineIndex::add(std::int64_t startNs, std::int64_t endNs, std::uint32_t name, std::uint8_t category,
                        std::int64_t rowId) {
    if (endNs < startNs) endNs = startNs;
    m_pending.push_back({startNs, endNs, rowId, name, category});
}

int TimelineIndex::placeRow(std::vector<std::int64_t>& rowEnd, std::int64_t& start, std::int64_t end, bool& clipped) {
    std::size_t row = 0;
    while (row < rowEnd.size() && rowEnd[row] > start) ++row;
    clipped = false;
    if (row == rowEnd.size() && row == static_cast<std::size_t>(kMaxDepth)) {
        // Too deep: clip into the last row so rows stay non-overlapping, and count it.
        row = kMaxDepth - 1;
        start = rowEnd[row];
        clipped = true;
        if (start >= end) return -1;
    }
    if (row == rowEnd.size()) rowEnd.push_back(0);
    rowEnd[row] = end;
    return static_cast<int>(row);
}

void TimelineIndex::finish() {
    if (m_pending.empty()) return;  // nothing added (or built with buildSorted())
    // Longer spans first among equal starts, so a parent lands in a lower row than its children.
    std::sort(m_pending.begin(), m_pending.end(), [](const Pending& a, const Pending& b) {
        return a.start != b.start ? a.start < b.start : a.end > b.end;
    });
    buildSorted([this](const auto& f) {
        for (const Pending& p : m_pending) f(p.start, p.end, p.name, p.category, p.rowId);
    });
    std::vector<Pending>().swap(m_pending);
}

void TimelineIndex::query(std::int64_t t0, std::int64_t t1, std::int64_t bucketNs,
                          std::vector<TimelineItem>& out) const {
    bucketNs = std::max<std::int64_t>(bucketNs, 1);
    for (std::size_t d = 0; d < m_rows.size(); ++d) queryRow(m_rows[d], static_cast<std::uint16_t>(d), t0, t1, bucketNs, out);
}

void TimelineIndex::queryRow(const Row& r, std::uint16_t depth, std::int64_t t0, std::int64_t t1,
                             std::int64_t bucket, std::vector<TimelineItem>& out) const {
    const std::size_t n = r.start.size();
    auto wide = [&](std::size_t k) { return util::satSub(r.end[k], r.start[k]) >= bucket; };
    auto item = [&](std::size_t k, std::int64_t endNs, std::size_t count) {
        out.push_back({r.start[k], endNs, r.rowId[k], r.name[k], static_cast<std::uint32_t>(count), depth, r.category[k]});
    };
    // Ends are sorted within a row, so the first span ending after t0 is the first visible one.
    std::size_t i = static_cast<std::size_t>(std::upper_bound(r.end.begin(), r.end.end(), t0) - r.end.begin());
    while (i < n && r.start[i] < t1) {
        if (wide(i)) {
            item(i, r.end[i], 1);
            ++i;
            continue;
        }
        // Fold a run of narrow spans: jump bucket by bucket, never span by span.
        std::size_t last = i;
        while (true) {
            std::int64_t edge = nextBucketEdge(r.end[last], bucket);
            std::size_t k = gallop(r.start, last + 1, edge);
            if (k > last + 1) {
                // Only the last span starting before the edge can be wide (it then crosses the edge).
                if (wide(k - 1)) {
                    last = k - 2;
                    break;
                }
                last = k - 1;
            }
            // Continue through the next bucket if it starts with another narrow span.
            if (k < n && r.start[k] < t1 && r.start[k] < util::satAdd(edge, bucket) && !wide(k)) {
                last = k;
                continue;
            }
            break;
        }
        item(i, r.end[last], last - i + 1);
        i = last + 1;
    }
}

void TimelineIndex::findByName(const std::vector<bool>& wanted, std::size_t limit, std::vector<TimelineItem>& out,
                               const std::vector<bool>& categories) const {
    for (std::size_t d = 0; d < m_rows.size(); ++d) {
        const Row& r = m_rows[d];
        for (std::size_t i = 0; i < r.name.size() && out.size() < limit; ++i)
            if ((r.name[i] < wanted.size() && wanted[r.name[i]]) || (r.category[i] < categories.size() && categories[r.category[i]]))
                out.push_back({r.start[i], r.end[i], r.rowId[i], r.name[i], 1, static_cast<std::uint16_t>(d), r.category[i]});
    }
}

void TimelineIndex::findByRowId(const std::vector<std::int64_t>& rowIds, const std::vector<bool>& wanted,
                                std::size_t limit, std::vector<TimelineItem>& out) const {
    if (rowIds.empty()) return;
    for (std::size_t d = 0; d < m_rows.size(); ++d) {
        const Row& r = m_rows[d];
        for (std::size_t i = 0; i < r.rowId.size() && out.size() < limit; ++i) {
            if (r.name[i] < wanted.size() && wanted[r.name[i]]) continue;
            if (std::binary_search(rowIds.begin(), rowIds.end(), r.rowId[i]))
                out.push_back({r.start[i], r.end[i], r.rowId[i], r.name[i], 1, static_cast<std::uint16_t>(d), r.category[i]});
        }
    }
}

std::optional<TimelineItem> TimelineIndex::spanAt(int depth, std::int64_t t) const {
    if (depth < 0 || depth >= depthCount()) return std::nullopt;
    const Row& r = m_rows[static_cast<std::size_t>(depth)];
    auto i = static_cast<std::size_t>(std::upper_bound(r.end.begin(), r.end.end(), t) - r.end.begin());
    if (i >= r.start.size() || r.start[i] > t) return std::nullopt;
    return TimelineItem{r.start[i], r.end[i], r.rowId[i], r.name[i], 1, static_cast<std::uint16_t>(depth), r.category[i]};
}

TimelineIndex::FoldSummary TimelineIndex::summarize(int depth, std::int64_t t0, std::int64_t t1, std::size_t topN,
                                                    std::size_t scanLimit) const {
    FoldSummary out;
    if (depth < 0 || depth >= depthCount() || t1 < t0) return out;
    const Row& r = m_rows[static_cast<std::size_t>(depth)];
    // Spans of one row do not overlap: starts and ends are both sorted, so the range is two searches.
    auto first = static_cast<std::size_t>(std::lower_bound(r.start.begin(), r.start.end(), t0) - r.start.begin());
    auto last = static_cast<std::size_t>(std::upper_bound(r.end.begin(), r.end.end(), t1) - r.end.begin());
    if (last <= first) return out;
    out.count = last - first;
    std::unordered_map<std::uint32_t, FoldSummary::Name> names;
    for (std::size_t i = first; i < last && out.scanned < scanLimit; ++i, ++out.scanned) {
        const std::int64_t ns = r.end[i] - r.start[i];
        out.busyNs = util::satAdd(out.busyNs, ns);
        FoldSummary::Name& n = names[r.name[i]];
        n.name = r.name[i];
        ++n.count;
        n.ns = util::satAdd(n.ns, ns);
    }
    for (const auto& [id, n] : names) out.top.push_back(n);
    auto longer = [](const FoldSummary::Name& a, const FoldSummary::Name& b) {
        return a.ns != b.ns ? a.ns > b.ns : a.name < b.name;
    };
    std::size_t keep = std::min(topN, out.top.size());
    std::partial_sort(out.top.begin(), out.top.begin() + static_cast<std::ptrdiff_t>(keep), out.top.end(), longer);
    out.top.resize(keep);
    return out;
}

std::optional<TimelineItem> TimelineIndex::findRow(std::int64_t rowId) const {
    for (std::size_t d = 0; d < m_rows.size(); ++d) {
        const Row& r = m_rows[d];
        for (std::size_t i = 0; i < r.rowId.size(); ++i)
            if (r.rowId[i] == rowId) return TimelineItem{r.start[i], r.end[i], r.rowId[i], r.name[i], 1, static_cast<std::uint16_t>(d), r.category[i]};
    }
    return std::nullopt;
}

void TimelineIndex::shift(std::int64_t deltaNs) {
    for (Row& r : m_rows) {
        for (std::int64_t& v : r.start) v = util::satAdd(v, deltaNs);
        for (std::int64_t& v : r.end) v = util::satAdd(v, deltaNs);
    }
    for (Pending& p : m_pending) {
        p.start = util::satAdd(p.start, deltaNs);
        p.end = util::satAdd(p.end, deltaNs);
    }
    if (m_count + m_pending.size() > 0) {
        m_min = util::satAdd(m_min, deltaNs);
        m_max = util::satAdd(m_max, deltaNs);
    }
}

std::size_t TimelineIndex::allocatedBytes() const {
    std::size_t bytes = vectorBytes(m_pending) + vectorBytes(m_rows);
    for (const Row& r : m_rows)
        bytes += vectorBytes(r.start) + vectorBytes(r.end) + vectorBytes(r.rowId) + vectorBytes(r.name) +
                 vectorBytes(r.category);
    return bytes;
}

void MarkIndex::add(std::int64_t tsNs, std::uint32_t label, bool flag, std::int64_t rowId) {
    m_pending.push_back({tsNs, rowId, label, flag});
}

void MarkIndex::shift(std::int64_t deltaNs) {
    for (std::int64_t& v : m_ts) v = util::satAdd(v, deltaNs);
    for (Pending& p : m_pending) p.ts = util::satAdd(p.ts, deltaNs);
}

void MarkIndex::finish() {
    std::stable_sort(m_pending.begin(), m_pending.end(), [](const Pending& a, const Pending& b) { return a.ts < b.ts; });
    m_ts.reserve(m_pending.size());
    m_rowId.reserve(m_pending.size());
    m_label.reserve(m_pending.size());
    m_flaggedBefore.reserve(m_pending.size() + 1);
    m_flaggedBefore.push_back(0);
    for (const Pending& p : m_pending) {
        m_ts.push_back(p.ts);
        m_rowId.push_back(p.rowId);
        m_label.push_back(p.label);
        m_flaggedBefore.push_back(m_flaggedBefore.back() + (p.flag ? 1 : 0));
    }
    std::vector<Pending>().swap(m_pending);
}

std::optional<MarkItem> MarkIndex::find(std::int64_t rowId) const {
    for (std::size_t i = 0; i < m_rowId.size(); ++i)
        if (m_rowId[i] == rowId) {
            const std::uint32_t flagged = m_flaggedBefore[i + 1] - m_flaggedBefore[i];
            return MarkItem{m_ts[i], m_rowId[i], m_label[i], 1, flagged};
        }
    return std::nullopt;
}

void MarkIndex::query(std::int64_t t0, std::int64_t t1, std::int64_t bucketNs, std::vector<MarkItem>& out) const {
    bucketNs = std::max<std::int64_t>(bucketNs, 1);
    auto i = static_cast<std::size_t>(std::lower_bound(m_ts.begin(), m_ts.end(), t0) - m_ts.begin());
    while (i < m_ts.size() && m_ts[i] < t1) {
        std::int64_t edge = nextBucketEdge(m_ts[i], bucketNs);
        std::size_t k = gallop(m_ts, i, edge);
        out.push_back({m_ts[i], m_rowId[i], m_label[i], static_cast<std::uint32_t>(k - i),
                       m_flaggedBefore[k] - m_flaggedBefore[i]});
        i = k;
    }
}

std::size_t MarkIndex::allocatedBytes() const {
    return vectorBytes(m_ts) + vectorBytes(m_rowId) + vectorBytes(m_label) + vectorBytes(m_flaggedBefore) +
           vectorBytes(m_pending);
}

}  // namespace cs::engine
