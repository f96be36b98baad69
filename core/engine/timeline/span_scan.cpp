#include "core/engine/timeline/span_scan.h"

#include "core/trace/reader.h"
#include "core/trace/row.h"
#include "core/util/saturating.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>

namespace cs::engine {

namespace {

std::int64_t endOf(const ScannedSpan& s) { return s.ended ? util::satAdd(s.startNs, std::max<std::int64_t>(s.durNs, 0)) : s.startNs; }

// Rows of a track come nearly sorted: a runtime records a span when it ends, so a parent follows
// its children by as many rows as it has descendants. Each span is settled as it is pushed, while
// its neighbours are still in cache (insertion sort: cost = displacement). Past a budget of 8
// moves per span (an adversarial order) the part is marked unsorted and std::sort takes over later.
void pushSorted(TrackSpans::Part& v, const ScannedSpan& x) {
    v.push(x);
    if (!v.sorted) return;
    const std::size_t budget = 8 * v.size + 1024;
    std::size_t j = v.size - 1;
    while (j > 0 && spanBefore(x, v[j - 1])) {
        if (v.moves >= budget) {
            v[j] = x;  // a valid permutation; sortPart() orders it
            v.sorted = false;
            return;
        }
        v[j] = v[j - 1];
        --j;
        ++v.moves;
    }
    v[j] = x;
}

void sortPart(TrackSpans::Part& v) {
    if (v.sorted) return;
    std::vector<ScannedSpan> all(v.size);
    for (std::size_t i = 0; i < v.size; ++i) all[i] = v[i];
    std::sort(all.begin(), all.end(), spanBefore);
    for (std::size_t i = 0; i < v.size; ++i) v[i] = all[i];
    v.sorted = true;
}

// Shared by the workers: the tracks, what each worker read of each track, the first failure.
struct ScanState {
    ScanState(const std::vector<std::int64_t>& ids, const LoadControl& c, const SpanTrackFn& f, bool keepTracks,
              unsigned workers)
        : trackIds(ids), control(c), fn(f), keep(keepTracks), tracks(ids.size()) {
        for (std::size_t i = 0; i < ids.size(); ++i) slots.emplace_back(ids[i], i);
        std::sort(slots.begin(), slots.end());
        for (TrackSpans& t : tracks) t.parts.resize(workers);
    }
    const std::vector<std::int64_t>& trackIds;
    const LoadControl& control;
    const SpanTrackFn& fn;
    const bool keep;  // tracks stay after delivery, for the caller
    std::vector<std::pair<std::int64_t, std::size_t>> slots;  // track id -> index, sorted
    std::vector<TrackSpans> tracks;                           // part w written by worker w only
    std::atomic<std::size_t> nextTask{0};
    std::atomic<std::int64_t> rows{0};
    std::atomic<bool> failed{false};
    std::mutex errorMutex;
    std::exception_ptr error;

    std::size_t slotOf(std::int64_t trackId) const {
        auto it = std::lower_bound(slots.begin(), slots.end(), std::make_pair(trackId, std::size_t{0}));
        return it != slots.end() && it->first == trackId ? it->second : trackIds.size();
    }
    void check() const {
        if (failed) throw LoadCancelled();  // another worker failed: its error is the one reported
        control.check();
    }
    void fail(std::exception_ptr e) {
        std::lock_guard<std::mutex> lock(errorMutex);
        if (!error) error = e;
        failed = true;
    }
};

// Phase 1: rowid ranges of the table, each in table order (a sequential read), into this worker's
// part of each track. Ranges are taken in increasing order from a shared counter, so a worker that
// gets less CPU (a busy machine) simply reads fewer of them, and each part stays nearly sorted.
void readRanges(const trace::TraceReader& reader, ScanState& s, unsigned worker, std::int64_t lo, std::int64_t hi,
                std::int64_t step, bool progress) {
    trace::Query st(reader, "SELECT id, track_id, start_ns, dur_ns, category, name_sid FROM spans WHERE id BETWEEN ? AND ?");
    // Unsigned arithmetic: rowids of a hostile file may span the whole int64 range.
    const std::uint64_t span = static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(lo);
    const auto ustep = static_cast<std::uint64_t>(step);
    const double total = static_cast<double>(span) + 1;
    for (std::uint64_t k; (k = s.nextTask.fetch_add(1)) <= span / ustep;) {
        const std::uint64_t first = k * ustep, last = std::min(span, first + (ustep - 1));
        st.reset();
        st.bind(1, static_cast<std::int64_t>(static_cast<std::uint64_t>(lo) + first));
        st.bind(2, static_cast<std::int64_t>(static_cast<std::uint64_t>(lo) + last));
        std::int64_t lastTrack = 0;
        std::size_t slot = s.trackIds.size();
        std::int64_t n = 0;
        const trace::Row& row = st.row();
        while (st.step()) {
            if ((++n & 0xFFFF) == 0) {
                s.check();
                std::int64_t done = s.rows.fetch_add(0x10000) + 0x10000;
                if (progress) s.control.report(static_cast<int>(std::min(80.0, 80.0 * static_cast<double>(done) / total)), "spans");
            }
            std::int64_t track = row.integer(1);
            if (track != lastTrack || n == 1) slot = s.slotOf(track);
            lastTrack = track;
            if (slot == s.trackIds.size()) continue;  // a span of no listed track
            ScannedSpan r;
            r.id = row.integer(0);
            r.startNs = row.integer(2);
            r.ended = !row.isNull(3);
            r.durNs = r.ended ? row.integer(3) : 0;
            r.category = static_cast<std::int16_t>(std::clamp<std::int64_t>(row.integer(4), INT16_MIN, INT16_MAX));
            r.name = static_cast<std::uint32_t>(row.integer(5));
            pushSorted(s.tracks[slot].parts[worker], r);
        }
    }
}

// Each part sorted in place: parallel over tracks.
void sortTracks(ScanState& s) {
    for (std::size_t t; (t = s.nextTask.fetch_add(1)) < s.trackIds.size();) {
        s.check();
        for (TrackSpans::Part& p : s.tracks[t].parts) sortPart(p);
    }
}

// Phase 2: whole tracks, one at a time, handed on; each one's memory freed then unless kept.
void deliverTracks(ScanState& s, bool progress) {
    for (std::size_t t; (t = s.nextTask.fetch_add(1)) < s.trackIds.size();) {
        s.check();
        TrackSpans& track = s.tracks[t];
        if (s.fn && track.size() > 0) s.fn(t, track);
        if (!s.keep) TrackSpans().parts.swap(track.parts);
        if (progress) s.control.report(80 + static_cast<int>(20 * (t + 1) / s.trackIds.size()), "spans");
    }
}

}  // namespace

bool spanBefore(const ScannedSpan& a, const ScannedSpan& b) {
    if (a.startNs != b.startNs) return a.startNs < b.startNs;
    if (a.ended != b.ended) return !a.ended;
    if (endOf(a) != endOf(b)) return endOf(a) > endOf(b);
    return a.id < b.id;
}

unsigned spanScanThreads(std::size_t tracks, unsigned threads) {
    if (threads == 0) threads = std::clamp(std::thread::hardware_concurrency(), 1u, 4u);
    return static_cast<unsigned>(std::max<std::size_t>(1, std::min<std::size_t>(threads, std::max<std::size_t>(tracks, 2))));
}

std::int64_t scanSpansByTrack(const trace::TraceReader& reader, const std::vector<std::int64_t>& trackIds,
                              const LoadControl& control, const SpanTrackFn& fn, SpanTracks* keep,
                              unsigned threads) {
    control.check();
    if (trackIds.empty()) return 0;
    std::int64_t lo = 0, hi = -1;
    // Two subqueries: SQLite answers a lone min() or max() of the rowid from the b-tree's ends, but
    // "min(id), max(id)" in one SELECT reads the whole table (1.8 s at 10M spans).
    reader.query("SELECT (SELECT min(id) FROM spans), (SELECT max(id) FROM spans)", [&](const trace::Row& st) {
        if (st.isNull(0)) return;
        lo = st.integer(0);
        hi = st.integer(1);
    });
    if (hi < lo) return 0;
    // Every worker reads on its own connection; the calling thread is worker 0 on `reader`.
    std::vector<std::unique_ptr<trace::TraceReader>> connections;
    // Small tables are read on one connection unless the caller asks for more (tests do).
    const bool small = static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(lo) < 100000;
    const unsigned wanted = threads == 0 && small ? 1u : spanScanThreads(trackIds.size(), threads);
    try {
        for (unsigned i = 1; i < wanted; ++i) connections.push_back(reader.another());
    } catch (...) {
        connections.clear();  // cannot open more connections (file gone?): read on this one alone
    }
    const auto workers = static_cast<unsigned>(connections.size() + 1);
    ScanState state(trackIds, control, fn, keep != nullptr, workers);
    auto on = [&](unsigned w) -> const trace::TraceReader& { return w == 0 ? reader : *connections[w - 1]; };
    auto run = [&](auto phase) {
        std::vector<std::thread> helpers;
        for (unsigned w = 1; w < workers; ++w)
            helpers.emplace_back([&, w] {
                try {
                    phase(w);
                } catch (...) {
                    state.fail(std::current_exception());
                }
            });
        try {
            phase(0u);
        } catch (...) {
            state.fail(std::current_exception());
        }
        for (std::thread& h : helpers) h.join();
        if (state.error) std::rethrow_exception(state.error);
    };
    // 16 ranges per worker (at least 64K rows each): enough to even out unequal CPU shares.
    const auto step = static_cast<std::int64_t>(
        std::max<std::uint64_t>(0x10000, (static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(lo)) / (16 * workers) + 1));
    run([&](unsigned w) { readRanges(on(w), state, w, lo, hi, step, w == 0); });
    state.nextTask = 0;
    std::int64_t rows = 0;
    for (const TrackSpans& t : state.tracks) rows += static_cast<std::int64_t>(t.size());
    run([&](unsigned) { sortTracks(state); });
    state.nextTask = 0;
    run([&](unsigned w) { deliverTracks(state, w == 0); });
    if (keep) *keep = {trackIds, std::move(state.tracks)};
    return rows;
}

}  // namespace cs::engine
