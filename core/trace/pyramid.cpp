// The span pyramid's arithmetic, its incremental builder and its SQL; see pyramid.h.
#include "core/trace/pyramid.h"

#include "core/trace/reader.h"
#include "core/trace/trace_error.h"
#include "core/trace/sqlite_util.h"

#include <sqlite3.h>

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>
#include <tuple>

namespace cs::trace {

namespace {
std::int64_t addSaturating(std::int64_t a, std::int64_t b) {
    std::int64_t sum;
    if (__builtin_add_overflow(a, b, &sum)) return b > 0 ? std::numeric_limits<std::int64_t>::max() : std::numeric_limits<std::int64_t>::min();
    return sum;
}

bool keyLess(const PyramidBucket& a, const PyramidBucket& b) {
    return std::tie(a.trackId, a.level, a.bucket) < std::tie(b.trackId, b.level, b.bucket);
}

// The same merge as mergeBucket(), in SQL: SET expressions read the row's old values. Sums saturate
// at the int64 maximum (both sides are never negative), as mergeBucket does.
constexpr const char* kUpsertSql =
    "INSERT INTO span_pyramid (track_id, level, bucket, count, busy_ns, longest_ns, category) "
    "VALUES (?,?,?,?,?,?,?) ON CONFLICT (track_id, level, bucket) DO UPDATE SET "
    "count = CASE WHEN count > 9223372036854775807 - excluded.count THEN 9223372036854775807 "
    "ELSE count + excluded.count END, "
    "busy_ns = CASE WHEN busy_ns > 9223372036854775807 - excluded.busy_ns THEN 9223372036854775807 "
    "ELSE busy_ns + excluded.busy_ns END, "
    "category = CASE WHEN excluded.longest_ns > longest_ns OR "
    "(excluded.longest_ns = longest_ns AND excluded.category < category) THEN excluded.category ELSE category END, "
    "longest_ns = max(longest_ns, excluded.longest_ns)";

constexpr const char* kColumns = "track_id, level, bucket, count, busy_ns, longest_ns, category";

PyramidBucket bucketFromRow(const Statement& st) {
    PyramidBucket b;
    b.trackId = st.columnInt(0);
    b.level = static_cast<int>(st.columnInt(1));
    b.bucket = st.columnInt(2);
    b.count = st.columnInt(3);
    b.busyNs = st.columnInt(4);
    b.longestNs = st.columnInt(5);
    b.category = static_cast<int>(st.columnInt(6));
    return b;
}

// Runs `sql` on the reader's connection; a failure is a TraceError naming the file.
template <typename Bind, typename Each>
void readRows(const TraceReader& reader, const std::string& sql, Bind bind, Each each) {
    try {
        Statement st(reader.db(), sql);
        bind(st);
        while (st.step()) each(st);
    } catch (const TraceError&) {
        throw;
    } catch (const std::runtime_error& e) {
        throw TraceError(TraceErrorKind::Query, reader.path(), std::string("cannot read the span pyramid: ") + e.what());
    }
}
}  // namespace

void mergeBucket(PyramidBucket& into, const PyramidBucket& from) {
    into.count = addSaturating(into.count, from.count);
    into.busyNs = addSaturating(into.busyNs, from.busyNs);
    if (from.longestNs > into.longestNs || (from.longestNs == into.longestNs && from.category < into.category)) {
        into.longestNs = from.longestNs;
        into.category = from.category;
    }
}

PyramidBucket spanContribution(std::int64_t trackId, int level, std::int64_t startNs, std::optional<std::int64_t> durNs,
                               int category) {
    PyramidBucket b;
    b.trackId = trackId;
    b.level = level;
    b.bucket = pyramidBucketOf(startNs, level);
    b.count = 1;
    b.busyNs = b.longestNs = durNs && *durNs > 0 ? *durNs : 0;
    b.category = category;
    return b;
}

void PyramidBuilder::add(std::int64_t trackId, std::int64_t startNs, std::optional<std::int64_t> durNs, int category) {
    const PyramidBucket c = spanContribution(trackId, 0, startNs, durNs, category);
    const Key key{trackId, c.bucket};
    Recent& recent = m_recent[static_cast<std::size_t>(trackId) & 15];
    if (recent.bucket && recent.key == key) {
        mergeBucket(*recent.bucket, c);
        return;
    }
    auto [it, fresh] = m_finest.try_emplace(key, c);
    if (!fresh) mergeBucket(it->second, c);
    recent = {key, &it->second};
}

std::vector<PyramidBucket> PyramidBuilder::take() {
    std::vector<PyramidBucket> level;
    level.reserve(m_finest.size());
    for (auto& [key, b] : m_finest) level.push_back(b);
    m_finest.clear();
    m_recent = {};
    std::sort(level.begin(), level.end(), keyLess);
    std::vector<PyramidBucket> out;
    out.reserve(level.size() * 2);
    for (int l = 0;; ++l) {
        out.insert(out.end(), level.begin(), level.end());
        if (l + 1 == kPyramidLevels) break;
        // The next level: buckets 4x wider; a (track, bucket) order stays ordered after the shift.
        std::vector<PyramidBucket> up;
        up.reserve(level.size() / 2 + 1);
        for (const auto& b : level) {
            PyramidBucket p = b;
            p.level = l + 1;
            p.bucket = b.bucket >> 2;
            if (!up.empty() && up.back().trackId == p.trackId && up.back().bucket == p.bucket) mergeBucket(up.back(), p);
            else up.push_back(p);
        }
        level = std::move(up);
    }
    std::sort(out.begin(), out.end(), keyLess);
    return out;
}

PyramidUpsert::PyramidUpsert(sqlite3* db) : m_db(db) {
    if (sqlite3_prepare_v3(db, kUpsertSql, -1, SQLITE_PREPARE_PERSISTENT, &m_stmt, nullptr) != SQLITE_OK)
        throw std::runtime_error(std::string("span_pyramid: ") + sqlite3_errmsg(db));
}

PyramidUpsert::~PyramidUpsert() { sqlite3_finalize(m_stmt); }

void PyramidUpsert::write(const std::vector<PyramidBucket>& deltas) {
    for (const auto& d : deltas) {
        sqlite3_bind_int64(m_stmt, 1, d.trackId);
        sqlite3_bind_int64(m_stmt, 2, d.level);
        sqlite3_bind_int64(m_stmt, 3, d.bucket);
        sqlite3_bind_int64(m_stmt, 4, d.count);
        sqlite3_bind_int64(m_stmt, 5, d.busyNs);
        sqlite3_bind_int64(m_stmt, 6, d.longestNs);
        sqlite3_bind_int64(m_stmt, 7, d.category);
        const int rc = sqlite3_step(m_stmt);
        sqlite3_reset(m_stmt);
        if (rc != SQLITE_DONE) throw std::runtime_error(std::string("span_pyramid: ") + sqlite3_errmsg(m_db));
    }
}

namespace {
// Feeds the spans with rowid in (afterRowid, upToRowid] to a builder; `flush` takes its deltas at the
// end, and every 2^20 spans too when `flushChunks` (progress is reported there either way; a
// progress callback may throw to cancel).
template <typename Flush>
void sumSpans(sqlite3* db, std::int64_t afterRowid, std::int64_t upToRowid, bool flushChunks,
              const std::function<void(double)>& progress, Flush flush) {
    constexpr std::int64_t kChunk = 1 << 20;
    PyramidBuilder builder;
    Statement st(db, "SELECT track_id, start_ns, dur_ns, category FROM spans WHERE rowid > ? AND rowid <= ? ORDER BY rowid");
    st.bind(1, afterRowid);
    st.bind(2, upToRowid);
    std::int64_t n = 0;
    const double total = upToRowid > afterRowid ? static_cast<double>(upToRowid - afterRowid) : 1.0;
    while (st.step()) {
        // A row the STRICT table holds always has integer keys; a NULL one is a trace problem.
        if (st.columnNull(0) || st.columnNull(1) || st.columnNull(3)) continue;
        builder.add(st.columnInt(0), st.columnInt(1),
                    st.columnNull(2) ? std::nullopt : std::optional<std::int64_t>(st.columnInt(2)),
                    static_cast<int>(st.columnInt(3)));
        if (++n % kChunk == 0) {
            if (flushChunks) flush(builder.take());
            if (progress) progress(std::min(1.0, static_cast<double>(n) / total));
        }
    }
    flush(builder.take());
    if (progress) progress(1.0);
}

std::int64_t maxSpanRowid(sqlite3* db) {
    Statement top(db, "SELECT max(rowid) FROM spans");
    return top.step() ? top.columnInt(0) : 0;
}
}  // namespace

void addSpansToPyramid(sqlite3* db, std::int64_t afterRowid, std::int64_t upToRowid,
                       const std::function<void(double)>& progress) {
    // Deltas are written every million spans: the builder holds a bucket per distinct finest
    // bucket, which for a whole trace could be as many as its spans.
    PyramidUpsert upsert(db);
    sumSpans(db, afterRowid, upToRowid, true, progress, [&](const std::vector<PyramidBucket>& d) { upsert.write(d); });
}

std::vector<PyramidBucket> sumPyramid(const TraceReader& reader, const std::function<void(double)>& progress) {
    std::vector<PyramidBucket> out;
    try {
        sqlite3* db = reader.db();
        sumSpans(db, 0, maxSpanRowid(db), false, progress, [&](std::vector<PyramidBucket> d) { out = std::move(d); });
    } catch (const TraceError&) {
        throw;
    } catch (const std::runtime_error& e) {
        throw TraceError(TraceErrorKind::Query, reader.path(), std::string("cannot sum the span pyramid: ") + e.what());
    }
    return out;
}

bool hasPyramid(const TraceReader& reader) {
    bool found = false;
    readRows(reader, "SELECT 1 FROM sqlite_schema WHERE type='table' AND name='span_pyramid'", [](Statement&) {},
             [&](const Statement&) { found = true; });
    return found;
}

std::vector<PyramidBucket> readPyramidBuckets(const TraceReader& reader, std::int64_t trackId, int level,
                                              std::int64_t firstBucket, std::int64_t lastBucket) {
    std::vector<PyramidBucket> out;
    readRows(
        reader,
        std::string("SELECT ") + kColumns +
            " FROM span_pyramid WHERE track_id=? AND level=? AND bucket BETWEEN ? AND ? ORDER BY bucket",
        [&](Statement& st) {
            st.bind(1, trackId);
            st.bind(2, std::int64_t{level});
            st.bind(3, firstBucket);
            st.bind(4, lastBucket);
        },
        [&](const Statement& st) { out.push_back(bucketFromRow(st)); });
    return out;
}

std::optional<std::pair<std::int64_t, std::int64_t>> readPyramidExtent(const TraceReader& reader, std::int64_t trackId) {
    std::optional<std::pair<std::int64_t, std::int64_t>> out;
    readRows(
        reader, "SELECT min(bucket), max(bucket) FROM span_pyramid WHERE track_id=? AND level=0",
        [&](Statement& st) { st.bind(1, trackId); },
        [&](const Statement& st) {
            if (st.columnNull(0)) return;
            const std::int64_t last = st.columnInt(1);
            out = {pyramidBucketStartNs(st.columnInt(0), 0), pyramidBucketStartNs(last + (last < INT64_MAX), 0)};
        });
    return out;
}

std::vector<PyramidBucket> readWholePyramid(const TraceReader& reader) {
    std::vector<PyramidBucket> out;
    readRows(reader, std::string("SELECT ") + kColumns + " FROM span_pyramid ORDER BY track_id, level, bucket",
             [](Statement&) {}, [&](const Statement& st) { out.push_back(bucketFromRow(st)); });
    return out;
}

}  // namespace cs::trace
