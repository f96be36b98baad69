// Reading a trace's span pyramid for a view; see pyramid_view.h.
#include "core/engine/timeline/pyramid_view.h"

#include "core/trace/reader.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace cs::engine {

std::unique_ptr<PyramidView> PyramidView::open(const trace::TraceReader& reader, const LoadControl& control) {
    std::unique_ptr<PyramidView> view(new PyramidView());
    if (trace::hasPyramid(reader)) {
        // A first look, like an outline: a reader whose page check was deferred (OpenOptions) gets
        // a connection that defers it too, instead of a pass over every page before the first paint.
        view->m_reader = reader.pageCheck() == "not checked yet"
                             ? trace::TraceReader::open(reader.path(), {.deferPageCheck = true})
                             : reader.another();
        return view;
    }
    control.check();
    auto all = trace::sumPyramid(reader, [&](double done) {
        control.check();
        control.report(static_cast<int>(std::lround(done * 100)), "summing spans");
    });
    for (const auto& b : all) view->m_memory[{b.trackId, b.level}].push_back(b);  // ordered already
    return view;
}

PyramidView::~PyramidView() = default;

int PyramidView::levelFor(std::int64_t nsPerBucket) {
    for (int level = 0; level < trace::kPyramidLevels; ++level)
        if (trace::pyramidWidthNs(level) >= nsPerBucket) return level;
    return trace::kPyramidLevels - 1;
}

std::vector<trace::PyramidBucket> PyramidView::buckets(std::int64_t trackId, int level, std::int64_t t0,
                                                       std::int64_t t1) const {
    if (t1 <= t0 || level < 0 || level >= trace::kPyramidLevels) return {};
    const std::int64_t first = trace::pyramidBucketOf(t0, level);
    const std::int64_t last = trace::pyramidBucketOf(t1 - 1, level);
    if (m_reader) {
        std::lock_guard lock(m_mutex);
        return trace::readPyramidBuckets(*m_reader, trackId, level, first, last);
    }
    auto it = m_memory.find({trackId, level});
    if (it == m_memory.end()) return {};
    const auto& v = it->second;
    auto lo = std::lower_bound(v.begin(), v.end(), first, [](const trace::PyramidBucket& b, std::int64_t k) { return b.bucket < k; });
    auto hi = std::upper_bound(lo, v.end(), last, [](std::int64_t k, const trace::PyramidBucket& b) { return k < b.bucket; });
    return {lo, hi};
}

std::optional<std::pair<std::int64_t, std::int64_t>> PyramidView::laneExtent(std::int64_t trackId) const {
    if (m_reader) {
        std::lock_guard lock(m_mutex);
        return trace::readPyramidExtent(*m_reader, trackId);
    }
    auto it = m_memory.find({trackId, 0});
    if (it == m_memory.end() || it->second.empty()) return std::nullopt;
    return std::make_pair(it->second.front().startNs(), it->second.back().endNs());
}

namespace {
std::int64_t addCapped(std::int64_t a, std::int64_t b) {
    return a > std::numeric_limits<std::int64_t>::max() - b ? std::numeric_limits<std::int64_t>::max() : a + b;
}
}  // namespace

std::int64_t PyramidView::countFrom(std::int64_t trackId, int level, std::int64_t t0, std::int64_t t1) const {
    if (t1 <= t0) return 0;
    std::int64_t n = 0;
    if (level == 0) {
        for (const auto& b : buckets(trackId, 0, t0, t1)) n = addCapped(n, b.count);
        return n;
    }
    // Whole buckets of this level inside the range, the two ends from the level below: a few
    // buckets read per level, however wide the range.
    const std::int64_t width = trace::pyramidWidthNs(level);
    const std::int64_t first = t0 % width == 0 ? t0 / width : trace::pyramidBucketOf(t0, level) + 1;
    const std::int64_t end = trace::pyramidBucketOf(t1, level);  // exclusive
    if (first >= end) return countFrom(trackId, level - 1, t0, t1);
    const std::int64_t from = trace::pyramidBucketStartNs(first, level), to = trace::pyramidBucketStartNs(end, level);
    for (const auto& b : buckets(trackId, level, from, to)) n = addCapped(n, b.count);
    n = addCapped(n, countFrom(trackId, level - 1, t0, from));
    return addCapped(n, countFrom(trackId, level - 1, to, t1));
}

std::int64_t PyramidView::spansStartingIn(std::int64_t trackId, std::int64_t t0, std::int64_t t1) const {
    if (t1 <= t0) return 0;
    std::int64_t width;
    if (__builtin_sub_overflow(t1, t0, &width)) width = std::numeric_limits<std::int64_t>::max();
    return countFrom(trackId, levelFor(width), t0, t1);
}

}  // namespace cs::engine
