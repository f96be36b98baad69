// TraceWriter: creates a .cstrace file and appends rows of every fact family.
//
// Why it looks like this: ingest speed matters (the recorder targets >= 1M events/s), so rows are
// collected in batches and written with multi-row prepared inserts inside large transactions, on a
// thread of its own (WriteQueue) so that decoding the input and SQLite overlap; strings are
// interned in memory and written once, ids are assigned here instead of asked back from SQLite, and
// the indexes exist from the start (a live viewer needs them; see the constructor). WAL with
// synchronous=NORMAL keeps a trace that is being written readable by a live viewer and intact after
// a crash of the writing process: what was committed stays, the open transaction is lost.
// A writer is used from one thread; it owns its SQLite thread.
//
// Errors: SQLite errors of rows written in the background surface as TraceError(Write) from the
// writer's next call (add*, commit, finalize). After a constraint error the rows before the failing
// one are kept; after an I/O error (disk full) SQLite rolls the open transaction back, and what
// was committed before it stays.
#pragma once

#include "core/trace/output_lock.h"
#include "core/trace/records.h"

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <variant>
#include <vector>

struct sqlite3;

namespace cs::trace {

class BatchInserter;
class PyramidBuilder;
class PyramidUpsert;
class RowBatch;
class WriteQueue;

struct WriterOptions {
    bool overwrite = false;  // replace an existing file instead of refusing
    std::int64_t rowsPerTransaction = 100000;  // commit automatically after this many rows (not in bulkImport)
    std::string creator = "compilescope";
    // A one-shot import that nobody watches live: no WAL, no syncs (not even after the page seal), a
    // 16 MiB page cache, one transaction. Several times faster for large imports; a crash leaves a file to discard (run
    // the import again).
    bool bulkImport = false;
    // SQLite work on a thread of its own (the default); false runs it on the caller's thread.
    bool background = true;
    // The span pyramid (pyramid.h, format v2). false writes a format v1 trace, which has none: only
    // to measure what the pyramid costs beside it (bench_trace_writer) and to make v1 traces for tests.
    bool spanPyramid = true;
};

class TraceWriter {
public:
    // Creates the file and its schema. Throws TraceError(Write) naming the path and the reason.
    explicit TraceWriter(std::string path, WriterOptions options = {});
    ~TraceWriter();  // commits what was written (never loses rows); the trace stays in WAL mode
    TraceWriter(const TraceWriter&) = delete;
    TraceWriter& operator=(const TraceWriter&) = delete;

    const std::string& path() const { return m_path; }

    // Returns the id of `s`, inserting it once. Ids start at 1; 0 is "no string".
    StringId intern(std::string_view s);

    std::int64_t addSession(const SessionRecord& r);
    void endSession(std::int64_t sessionId, std::int64_t endNs, OptInt exitStatus);
    // The clock of the session's timestamps and its start, when known only after its facts were
    // read (an imported file that names its time origin at its end).
    void setSessionClock(std::int64_t sessionId, StringId clock, std::int64_t startNs);
    // How the process ended, also for a session that never ended normally: its exit status, or
    // minus the number of the signal that killed it.
    void setExitStatus(std::int64_t sessionId, std::int64_t exitStatus);
    std::int64_t addTrack(const TrackRecord& r);
    // Names a track after the fact (Trace Event Format sends thread names after the events).
    void setTrackName(std::int64_t trackId, StringId name);
    std::int64_t addSpan(const SpanRecord& r);
    void addSpanArg(std::int64_t spanId, StringId key, std::int64_t value);
    void addSpanArg(std::int64_t spanId, StringId key, double value);
    void addSpanArg(std::int64_t spanId, StringId key, std::string_view value);
    std::int64_t addFlow(const FlowRecord& r);
    std::int64_t addStep(const StepRecord& r);
    std::int64_t addCacheLookup(const CacheLookupRecord& r);
    void addKeyComponent(const KeyComponentRecord& r);
    std::int64_t addCounter(const CounterRecord& r);
    std::int64_t addMethod(const MethodRecord& r);
    void addClosure(const ClosureRecord& r);
    std::int64_t addInvalidationItem(const InvalidationItemRecord& r);
    std::int64_t addModuleLoad(const ModuleLoadRecord& r);
    void addModuleOption(const ModuleOptionRecord& r);
    void addModuleKernel(const ModuleKernelRecord& r);
    std::int64_t addCudaProgram(const CudaProgramRecord& r);
    void addCudaProgramOption(const CudaProgramOptionRecord& r);
    void addCudaProgramInput(const CudaProgramInputRecord& r);
    std::int64_t addCudaJit(const CudaJitRecord& r);
    std::int64_t addCudaModule(const CudaModuleRecord& r);
    std::int64_t addKernelLaunch(const KernelLaunchRecord& r);
    std::int64_t addPhaseTiming(const PhaseTimingRecord& r);

    // Counts something dropped or malformed. Rows with the same (session, name, source) add up; the
    // first non-empty detail is kept as the example.
    void addStat(OptInt sessionId, std::string_view name, std::string_view source, std::int64_t count,
                 std::string_view detail = {});
    void setMeta(std::string_view key, std::string_view value);

    // One row in schema column order, for copying rows between traces (trace merge). When the
    // table's first column is `id`, the given id is replaced by a new one, which is returned;
    // otherwise returns 0. Throws TraceError(Write) for an unknown table or a wrong column count.
    using RawValue = std::variant<std::monostate, std::int64_t, double, std::string>;
    std::int64_t insertRaw(std::string_view table, const std::vector<RawValue>& row);

    // Commits the open transaction and starts a new one; returns when the rows written so far are
    // committed (visible to readers).
    void commit();
    // The same without waiting: the commit runs after the rows queued before it. The recorder calls
    // this at least every 100 ms.
    void requestCommit();
    // Commits, leaves WAL mode so the trace is one self-contained file, and closes.
    // No call may follow.
    void finalize();
    std::int64_t rowsWritten() const { return m_rows; }

private:
    struct Value;
    void insert(int table, std::initializer_list<Value> values);
    void insertValues(int table, const Value* values, size_t count);
    void addToPyramid(const Value* values, size_t count);
    int version() const;  // the format version written
    std::int64_t nextId(int table);
    void flushStats();
    void handOff();  // queues the current batch for insertion
    void queueCommit();
    void runSql(std::string what, std::string sql, std::vector<RawValue> params);
    void checkError();
    [[noreturn]] void fail(const std::string& what) const;

    std::string m_path;
    WriterOptions m_options;
    OutputLock m_lock;  // declared before m_db: released only after SQLite closed the file
    std::unique_ptr<sqlite3, void (*)(sqlite3*)> m_db;
    std::unique_ptr<BatchInserter> m_inserter;  // used by queued jobs only
    std::unique_ptr<PyramidUpsert> m_pyramidUpsert;  // used by queued jobs only
    std::unique_ptr<PyramidBuilder> m_pyramid;  // span_pyramid deltas of the rows not yet handed off
    std::int64_t m_rowsInTransaction = 0;       // used by queued jobs only
    std::unique_ptr<RowBatch> m_batch;          // rows not yet handed off
    std::mutex m_poolMutex;
    std::vector<std::unique_ptr<RowBatch>> m_pool;  // emptied batches, reused
    std::unique_ptr<WriteQueue> m_queue;  // after what its jobs use: destroyed (joined) first
    std::vector<std::int64_t> m_nextIds;
    struct StringHash {
        using is_transparent = void;
        std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
    };
    std::unordered_map<std::string, StringId, StringHash, std::equal_to<>> m_strings;
    struct StatValue {
        std::int64_t id;
        std::int64_t count;
        std::string detail;
        bool dirty;
    };
    std::map<std::tuple<std::int64_t, std::string, std::string>, StatValue> m_stats;
    std::int64_t m_rows = 0;
    bool m_finalized = false;
};

}  // namespace cs::trace
