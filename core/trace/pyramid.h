// The span pyramid (format v2, table `span_pyramid`): a level-of-detail summary of each lane's spans.
//
// Why: a viewer needs only what fits on the screen, a few thousand boxes per lane, yet reading every
// span before the first paint costs a full scan of the trace (issue 41). The pyramid holds, per lane
// and level, fixed time buckets with the count of spans that start in them, their busy time, the
// longest one and its category, so a view of any range at any zoom reads at most a few buckets per
// pixel. Buckets are absolute (floor(start / width), widths 4x apart from 2^18 ns), so they never move
// as a recording grows, and each span lands in exactly one bucket per level: a bucket is then a sum
// that can be merged. That is what lets the writer keep the pyramid current while recording without
// a second pass: it sums each batch's spans into deltas (PyramidBuilder) and adds them to the stored
// rows in the same transaction as the spans (PyramidUpsert), so whatever a live reader sees of the
// spans, it sees summarised. The dominant category is the category of the longest span for the same
// reason: a category by busy time would need every category's sum stored to be merged.
#pragma once

#include <array>
#include <climits>
#include <cstdint>
#include <functional>
#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

struct sqlite3;
struct sqlite3_stmt;

namespace cs::trace {

class TraceReader;

inline constexpr int kPyramidLevels = 12;
inline constexpr int kPyramidFinestShift = 18;  // level 0: 2^18 ns = 262 us
// log2 of the bucket width of `level`, ns.
constexpr int pyramidShift(int level) { return kPyramidFinestShift + 2 * level; }
constexpr std::int64_t pyramidWidthNs(int level) { return std::int64_t{1} << pyramidShift(level); }
// The bucket of `level` that holds time `ns` (floor division, also for negative times).
constexpr std::int64_t pyramidBucketOf(std::int64_t ns, int level) { return ns >> pyramidShift(level); }
// Where bucket `bucket` of `level` starts, ns, saturated at the int64 limits (and `level` clamped to
// the stored levels), for bucket indexes read from an untrusted file.
constexpr std::int64_t pyramidBucketStartNs(std::int64_t bucket, int level) {
    const int shift = pyramidShift(level < 0 ? 0 : level >= kPyramidLevels ? kPyramidLevels - 1 : level);
    if (bucket > (INT64_MAX >> shift)) return INT64_MAX;
    if (bucket < (INT64_MIN >> shift)) return INT64_MIN;
    return bucket * (std::int64_t{1} << shift);
}

struct PyramidBucket {
    std::int64_t trackId = 0;
    int level = 0;
    std::int64_t bucket = 0;
    std::int64_t count = 0;
    std::int64_t busyNs = 0;
    std::int64_t longestNs = 0;
    int category = 0;

    // Saturated at the int64 limits: a stored bucket index is untrusted input.
    std::int64_t startNs() const { return pyramidBucketStartNs(bucket, level); }
    std::int64_t endNs() const { return pyramidBucketStartNs(bucket + (bucket < INT64_MAX), level); }
    friend bool operator==(const PyramidBucket&, const PyramidBucket&) = default;
};

// Adds `from` (same key) into `into`: counts and busy time add (saturating), the longest span wins
// and brings its category (the lower code on a tie).
void mergeBucket(PyramidBucket& into, const PyramidBucket& from);
// What one span contributes: count 1, its duration (NULL or negative = 0) as busy and longest time.
PyramidBucket spanContribution(std::int64_t trackId, int level, std::int64_t startNs, std::optional<std::int64_t> durNs,
                               int category);

// Sums spans into bucket deltas of every level. Spans of one lane mostly arrive in time order, so a
// span usually lands in the finest bucket of the lane's span before it; the coarser levels are
// summed from the finest when the deltas are taken.
class PyramidBuilder {
public:
    void add(std::int64_t trackId, std::int64_t startNs, std::optional<std::int64_t> durNs, int category);
    bool empty() const { return m_finest.empty(); }
    std::size_t pending() const { return m_finest.size(); }
    // Every bucket changed since the last take, all levels, ordered by (track, level, bucket); the
    // builder is empty afterwards.
    std::vector<PyramidBucket> take();

private:
    struct Key {
        std::int64_t track, bucket;
        bool operator==(const Key&) const = default;
    };
    struct KeyHash {
        std::size_t operator()(const Key& k) const {
            return std::hash<std::uint64_t>{}(static_cast<std::uint64_t>(k.bucket) * 0x9E3779B97F4A7C15ull +
                                              static_cast<std::uint64_t>(k.track));
        }
    };
    std::unordered_map<Key, PyramidBucket, KeyHash> m_finest;
    // Per lane (by track id modulo 16), the bucket its previous span landed in (map nodes never
    // move): spans of interleaved lanes mostly skip the hash lookup too.
    struct Recent {
        Key key{0, 0};
        PyramidBucket* bucket = nullptr;
    };
    std::array<Recent, 16> m_recent{};
};

// Adds deltas to the stored rows of `span_pyramid` (INSERT ... ON CONFLICT DO UPDATE), in the
// caller's transaction. Throws std::runtime_error with SQLite's reason.
class PyramidUpsert {
public:
    explicit PyramidUpsert(sqlite3* db);
    ~PyramidUpsert();
    PyramidUpsert(const PyramidUpsert&) = delete;
    PyramidUpsert& operator=(const PyramidUpsert&) = delete;
    void write(const std::vector<PyramidBucket>& deltas);

private:
    sqlite3* m_db;
    sqlite3_stmt* m_stmt = nullptr;
};

// Sums the spans of `db` whose rowid is in (afterRowid, upToRowid] into its span_pyramid, in the
// caller's transaction: the live mirror after each poll (trace_follower.h), an older trace once
// (pyramid_migrate.h). `progress`, when set, gets the fraction done now and then.
void addSpansToPyramid(sqlite3* db, std::int64_t afterRowid, std::int64_t upToRowid,
                       const std::function<void(double)>& progress = {});

// The pyramid of a trace that stores none (format v1), summed in memory from its spans, ordered
// by (track, level, bucket). `progress` may throw to cancel. Throws TraceError naming the file.
std::vector<PyramidBucket> sumPyramid(const TraceReader& reader, const std::function<void(double)>& progress = {});

// Whether the trace holds a pyramid (format v2 or a migrated v1 trace).
bool hasPyramid(const TraceReader& reader);
// The stored buckets of one lane and level whose bucket index is in [firstBucket, lastBucket], in order.
std::vector<PyramidBucket> readPyramidBuckets(const TraceReader& reader, std::int64_t trackId, int level,
                                              std::int64_t firstBucket, std::int64_t lastBucket);
// [start of its first level-0 bucket, end of its last) of a lane's stored pyramid; nullopt when the
// lane has no span. Two lookups on the primary key.
std::optional<std::pair<std::int64_t, std::int64_t>> readPyramidExtent(const TraceReader& reader, std::int64_t trackId);
// Every stored bucket, ordered by (track, level, bucket) (tests, and comparing two traces).
std::vector<PyramidBucket> readWholePyramid(const TraceReader& reader);

}  // namespace cs::trace
