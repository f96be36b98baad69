#include "core/trace/writer.h"
#include "core/trace/write_note.h"

#include "core/trace/page_seal.h"

#include "core/trace/batch_inserter.h"
#include "core/trace/pyramid.h"
#include "core/trace/row_batch.h"
#include "core/trace/schema.h"
#include "core/trace/sqlite_util.h"
#include "core/trace/trace_error.h"
#include "core/trace/write_queue.h"

#include <sqlite3.h>

#include <array>
#include <cstdint>
#include <chrono>
#include <thread>
#include <filesystem>
#include <limits>
#include <span>
#include <variant>

namespace cs::trace {

namespace {
// Positions in schemaTables(); checked against the names when a writer opens.
enum Table : int {
    Meta, Strings, Enums, Stats, Sessions, Tracks, Spans, SpanArgs, Flows, Steps, CacheLookups,
    KeyComponents, Counters, Methods, Closures, InvalidationItems, ModuleLoads, ModuleOptions,
    ModuleKernels, CudaPrograms, CudaProgramOptions, CudaProgramInputs, CudaJit, CudaModules,
    KernelLaunches, PhaseTimings, TableCount
};
constexpr std::array<std::string_view, TableCount> kTableNames = {
    "meta", "strings", "enums", "stats", "sessions", "tracks", "spans", "span_args", "flows", "steps",
    "cache_lookups", "key_components", "counters", "methods", "closures", "invalidation_items",
    "module_loads", "module_options", "module_kernels", "cuda_programs", "cuda_program_options",
    "cuda_program_inputs", "cuda_jit", "cuda_modules", "kernel_launches", "phase_timings"};

void closeDb(sqlite3* db) { sqlite3_close_v2(db); }

// A batch is handed to the SQLite thread at this many rows or text bytes, whichever comes first.
constexpr std::size_t kBatchRows = 8192;
constexpr std::size_t kBatchBytes = 4u << 20;

void createIndexes(sqlite3* db) {
    for (const auto& idx : schemaIndexes())
        execSql(db, "CREATE INDEX IF NOT EXISTS " + std::string(idx.name) + " ON " + std::string(idx.table) + "(" +
                        std::string(idx.columns) + ")");
}

// Binds `params` to `st` from parameter 1 on.
void bindRawValues(Statement& st, const std::vector<TraceWriter::RawValue>& params) {
    int i = 1;
    for (const auto& p : params) {
        if (const auto* n = std::get_if<std::int64_t>(&p)) st.bind(i, *n);
        else if (const auto* d = std::get_if<double>(&p)) sqlite3_bind_double(st.get(), i, *d);
        else if (const auto* t = std::get_if<std::string>(&p)) st.bind(i, std::string_view(*t));
        else st.bindNull(i);
        ++i;
    }
}

struct Null {};
struct Sid {
    StringId id;
};
}  // namespace

struct TraceWriter::Value {
    std::variant<Null, std::int64_t, double, std::string_view> v;
    Value(std::int64_t i) : v(i) {}
    Value(int i) : v(std::int64_t{i}) {}
    Value(double d) : v(d) {}
    Value(std::string_view s) : v(s) {}
    Value(const OptInt& o) : v(o ? decltype(v)(*o) : decltype(v)(Null{})) {}
    Value(Sid s) : v(s.id ? decltype(v)(s.id) : decltype(v)(Null{})) {}
    Value(std::nullptr_t) : v(Null{}) {}
};

TraceWriter::TraceWriter(std::string path, WriterOptions options)
    : m_path(std::move(path)), m_options(std::move(options)), m_db(nullptr, closeDb) {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (fs::exists(m_path, ec)) {
        if (!m_options.overwrite)
            throw TraceError(TraceErrorKind::Write, m_path, "already exists; refusing to overwrite it");
        OutputLock::refuseIfHeld(m_path);  // another writer's file is never deleted under it
        for (const char* suffix : {"", "-wal", "-shm", "-journal"}) fs::remove(m_path + suffix, ec);
    }
    fs::remove(writeNotePath(m_path), ec);  // a note of an earlier recording here says nothing of this one
    const auto& tables = schemaTables();
    if (tables.size() != TableCount) fail("internal error: schema and writer disagree on the table list");
    for (int t = 0; t < TableCount; ++t)
        if (tables[static_cast<size_t>(t)].name != kTableNames[static_cast<size_t>(t)])
            fail("internal error: schema table order changed");

    sqlite3* raw = nullptr;
    int rc = sqlite3_open_v2(m_path.c_str(), &raw, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
                             nullptr);
    m_db.reset(raw);
    if (rc != SQLITE_OK) fail(std::string("cannot create trace: ") + (raw ? sqlite3_errmsg(raw) : "out of memory"));
    m_lock.acquire(m_path);  // before anything is written: a writer that raced us to the file keeps it
    // A reader that opens the file at the wrong moment (a live viewer attaching) must delay the
    // writer, not make it fail.
    sqlite3_busy_timeout(raw, 5000);
    try {
        // Before anything writes page 1. Larger pages: fewer page splits and cell headers per row.
        execSql(raw, "PRAGMA page_size=16384");
        // Room for each page's checksum (page_seal.h), written at finalize. Only possible while the
        // database is empty.
        int reserve = kReservedBytes;
        sqlite3_file_control(raw, "main", SQLITE_FCNTL_RESERVE_BYTES, &reserve);
        execSql(raw, "PRAGMA application_id=" + std::to_string(applicationId()));
        execSql(raw, "PRAGMA user_version=" + std::to_string(version()));
        if (m_options.bulkImport) {
            execSql(raw, "PRAGMA journal_mode=OFF");
            execSql(raw, "PRAGMA synchronous=OFF");
            // 16 MiB: pages are written out while the input is still being read. A 64 MiB cache held
            // them for the final COMMIT, with nothing left to overlap (100 ms of a build's import).
            execSql(raw, "PRAGMA cache_size=-16384");
            execSql(raw, "PRAGMA temp_store=MEMORY");
            execSql(raw, "PRAGMA locking_mode=EXCLUSIVE");
        } else {
            execSql(raw, "PRAGMA journal_mode=WAL");
            execSql(raw, "PRAGMA synchronous=NORMAL");
        }
        execSql(raw, "BEGIN");
        for (const auto& t : tables) execSql(raw, createTableSql(t));
        if (m_options.spanPyramid)
            for (const auto& t : derivedTables()) execSql(raw, createTableSql(t));
        // Indexes from the start: a live viewer reading a trace being recorded needs them, and
        // maintaining them on the SQLite thread (rows mostly arrive in time order) costs less than
        // building them at the end, when nothing else is left to overlap with.
        createIndexes(raw);
        m_inserter = std::make_unique<BatchInserter>(raw, tables);
        if (m_options.spanPyramid) m_pyramidUpsert = std::make_unique<PyramidUpsert>(raw);
    } catch (const std::runtime_error& e) {
        fail(std::string("cannot create trace: ") + e.what());
    }
    m_batch = std::make_unique<RowBatch>(TableCount);
    m_pyramid = std::make_unique<PyramidBuilder>();
    m_queue = std::make_unique<WriteQueue>(m_options.background);
    m_nextIds.assign(TableCount, 1);
    for (const auto& e : enumRows()) insert(Enums, {e.type, e.value, e.name});
    setMeta("creator", m_options.creator);
    setMeta("format_version", std::to_string(version()));
    auto now = std::chrono::system_clock::now().time_since_epoch();
    setMeta("created_unix_ns", std::to_string(std::chrono::duration_cast<std::chrono::nanoseconds>(now).count()));
    commit();
}

TraceWriter::~TraceWriter() {
    if (m_finalized || !m_db || !m_queue) return;
    try {
        handOff();
        flushStats();
        m_queue->drain();
    } catch (...) {
    }
    m_queue.reset();  // joins the SQLite thread before the statements and the connection close
    m_inserter.reset();
    m_pyramidUpsert.reset();
    try {
        // Also after an error: the rows inserted before the failing one are kept.
        execSql(m_db.get(), "COMMIT");
    } catch (...) {
        // A destructor cannot report; the rows committed earlier are safe on disk.
    }
}

void TraceWriter::checkError() {
    if (auto e = m_queue->error()) fail(*e);
}

void TraceWriter::handOff() {
    if (!m_batch->rows()) return;
    std::shared_ptr<RowBatch> batch(m_batch.release(), [this](RowBatch* b) {
        b->clear();
        std::lock_guard lock(m_poolMutex);
        m_pool.emplace_back(b);
    });
    {
        std::lock_guard lock(m_poolMutex);
        if (!m_pool.empty()) {
            m_batch = std::move(m_pool.back());
            m_pool.pop_back();
        }
    }
    if (!m_batch) m_batch = std::make_unique<RowBatch>(TableCount);
    // The pyramid's deltas of these rows go in with them, in the same transaction: a reader that
    // sees a span sees it summarised (pyramid.h).
    std::vector<PyramidBucket> deltas;
    if (!m_pyramid->empty()) deltas = m_pyramid->take();
    m_queue->post([this, batch, deltas = std::move(deltas)] {
        m_inserter->insert(*batch);
        if (!deltas.empty()) m_pyramidUpsert->write(deltas);
        m_rowsInTransaction += static_cast<std::int64_t>(batch->rows());
        // A bulk import has no readers to show rows to: one transaction, each page written once.
        if (!m_options.bulkImport && m_rowsInTransaction >= m_options.rowsPerTransaction) {
            execSql(m_db.get(), "COMMIT");
            execSql(m_db.get(), "BEGIN");
            m_rowsInTransaction = 0;
        }
    });
}

void TraceWriter::queueCommit() {
    handOff();
    flushStats();
    m_queue->post([this] {
        try {
            execSql(m_db.get(), "COMMIT");
            execSql(m_db.get(), "BEGIN");
        } catch (const std::runtime_error& e) {
            throw std::runtime_error(std::string("cannot commit: ") + e.what());
        }
        m_rowsInTransaction = 0;
    });
}

// Statements other than plain inserts (UPDATE, INSERT OR REPLACE) run in order with the rows.
void TraceWriter::runSql(std::string what, std::string sql, std::vector<RawValue> params) {
    if (m_finalized) fail("write after finalize()");
    checkError();
    handOff();
    m_queue->post([this, what = std::move(what), sql = std::move(sql), params = std::move(params)] {
        try {
            Statement st(m_db.get(), sql);
            bindRawValues(st, params);
            st.step();
        } catch (const std::runtime_error& e) {
            throw std::runtime_error(what + ": " + e.what());
        }
    });
}

void TraceWriter::fail(const std::string& what) const { throw TraceError(TraceErrorKind::Write, m_path, what); }

void TraceWriter::insert(int table, std::initializer_list<Value> values) {
    insertValues(table, values.begin(), values.size());
}

void TraceWriter::insertValues(int table, const Value* values, size_t count) {
    if (m_finalized) fail("write after finalize()");
    checkError();
    RowBatch& b = *m_batch;
    b.beginRow(table);
    for (const Value& v : std::span<const Value>(values, count)) {
        if (const auto* n = std::get_if<std::int64_t>(&v.v)) {
            b.add(Cell::integer(*n));
        } else if (const auto* d = std::get_if<double>(&v.v)) {
            b.add(Cell::real(*d));
        } else if (const auto* t = std::get_if<std::string_view>(&v.v)) {
            if (t->size() > std::numeric_limits<std::uint32_t>::max()) {
                b.dropRow();  // the batch keeps whole rows only
                fail(std::string("a text value for ") + std::string(kTableNames[static_cast<size_t>(table)]) +
                     " is over 4 GiB");
            }
            b.addText(*t);
        } else {
            b.add(Cell{});
        }
    }
    if (table == Spans && m_options.spanPyramid) addToPyramid(values, count);
    ++m_rows;
    if (b.rows() >= kBatchRows || b.bytes() >= kBatchBytes) handOff();
}

// A span row (id, track_id, start_ns, dur_ns, category, ...) as the pyramid sums it. A row copied
// raw whose key columns are not integers is left out of the pyramid (SQLite's STRICT table refuses
// it anyway, and the writer reports that).
void TraceWriter::addToPyramid(const Value* values, size_t count) {
    if (count < 5) return;
    const auto* track = std::get_if<std::int64_t>(&values[1].v);
    const auto* start = std::get_if<std::int64_t>(&values[2].v);
    const auto* dur = std::get_if<std::int64_t>(&values[3].v);
    const auto* category = std::get_if<std::int64_t>(&values[4].v);
    if (!track || !start || !category) return;
    m_pyramid->add(*track, *start, dur ? std::optional<std::int64_t>(*dur) : std::nullopt, static_cast<int>(*category));
}

int TraceWriter::version() const { return m_options.spanPyramid ? formatVersion() : 1; }

std::int64_t TraceWriter::nextId(int table) { return m_nextIds[static_cast<size_t>(table)]++; }

StringId TraceWriter::intern(std::string_view s) {
    auto it = m_strings.find(s);
    if (it != m_strings.end()) return it->second;
    StringId id = nextId(Strings);
    insert(Strings, {id, s});
    m_strings.emplace(std::string(s), id);
    return id;
}

std::int64_t TraceWriter::addSession(const SessionRecord& r) {
    auto id = nextId(Sessions);
    insert(Sessions, {id, r.pid, r.ppid, r.parentSessionId, Sid{r.host}, Sid{r.cmdline}, Sid{r.runtime},
                      Sid{r.source}, Sid{r.clock}, r.startNs, r.endNs, r.exitStatus});
    return id;
}

void TraceWriter::endSession(std::int64_t sessionId, std::int64_t endNs, OptInt exitStatus) {
    runSql("cannot end session", "UPDATE sessions SET end_ns=?, exit_status=? WHERE id=?",
           {endNs, exitStatus ? RawValue(*exitStatus) : RawValue(), sessionId});
}

void TraceWriter::setSessionClock(std::int64_t sessionId, StringId clock, std::int64_t startNs) {
    runSql("cannot set the session clock", "UPDATE sessions SET clock_sid=?, start_ns=? WHERE id=?",
           {static_cast<std::int64_t>(clock), startNs, sessionId});
}

void TraceWriter::setExitStatus(std::int64_t sessionId, std::int64_t exitStatus) {
    runSql("cannot set the exit status", "UPDATE sessions SET exit_status=? WHERE id=?", {exitStatus, sessionId});
}

std::int64_t TraceWriter::addTrack(const TrackRecord& r) {
    auto id = nextId(Tracks);
    insert(Tracks, {id, r.sessionId, r.kind, r.tid, Sid{r.name}, r.parentTrackId});
    return id;
}

void TraceWriter::setTrackName(std::int64_t trackId, StringId name) {
    runSql("cannot rename track", "UPDATE tracks SET name_sid=? WHERE id=?",
           {name ? RawValue(name) : RawValue(), trackId});
}

std::int64_t TraceWriter::addSpan(const SpanRecord& r) {
    auto id = nextId(Spans);
    insert(Spans, {id, r.trackId, r.startNs, r.durNs, r.category, Sid{r.name}, Sid{r.detail}});
    return id;
}

void TraceWriter::addSpanArg(std::int64_t spanId, StringId key, std::int64_t value) {
    insert(SpanArgs, {spanId, key, value});
}
void TraceWriter::addSpanArg(std::int64_t spanId, StringId key, double value) {
    insert(SpanArgs, {spanId, key, value});
}
void TraceWriter::addSpanArg(std::int64_t spanId, StringId key, std::string_view value) {
    insert(SpanArgs, {spanId, key, value});
}

std::int64_t TraceWriter::addFlow(const FlowRecord& r) {
    auto id = nextId(Flows);
    insert(Flows, {id, r.fromSpanId, r.toSpanId, Sid{r.name}});
    return id;
}

std::int64_t TraceWriter::addStep(const StepRecord& r) {
    auto id = nextId(Steps);
    insert(Steps, {id, r.sessionId, r.trackId, r.tsNs, r.step, r.epoch, Sid{r.label}});
    return id;
}

std::int64_t TraceWriter::addCacheLookup(const CacheLookupRecord& r) {
    auto id = nextId(CacheLookups);
    insert(CacheLookups, {id, r.sessionId, r.trackId, r.tsNs, Sid{r.cache}, r.program, Sid{r.handle}, r.verdict,
                          r.compileNs, Sid{r.fingerprint}, r.step});
    return id;
}

void TraceWriter::addKeyComponent(const KeyComponentRecord& r) {
    insert(KeyComponents, {r.lookupId, r.ordinal, r.name, r.role, Sid{r.digest}, Sid{r.value}});
}

std::int64_t TraceWriter::addCounter(const CounterRecord& r) {
    auto id = nextId(Counters);
    insert(Counters, {id, r.sessionId, r.tsNs, Sid{r.scope}, r.name, r.value});
    return id;
}

std::int64_t TraceWriter::addMethod(const MethodRecord& r) {
    auto id = nextId(Methods);
    insert(Methods, {id, r.sessionId, r.tsNs, r.event, r.method, Sid{r.signature}, Sid{r.module}, Sid{r.file},
                     r.line, r.world});
    return id;
}

void TraceWriter::addClosure(const ClosureRecord& r) { insert(Closures, {r.lookupId, r.method, r.world}); }

std::int64_t TraceWriter::addInvalidationItem(const InvalidationItemRecord& r) {
    auto id = nextId(InvalidationItems);
    insert(InvalidationItems, {id, r.sessionId, r.list, r.ordinal, r.kind, Sid{r.text}});
    return id;
}

std::int64_t TraceWriter::addModuleLoad(const ModuleLoadRecord& r) {
    auto id = nextId(ModuleLoads);
    insert(ModuleLoads, {id, r.sessionId, r.trackId, r.startNs, r.durNs, r.name, Sid{r.hash}, Sid{r.device},
                         r.blockDim, r.result, r.compileNs, r.sourceBytes, r.ltoArtifacts, Sid{r.origin}});
    return id;
}

void TraceWriter::addModuleOption(const ModuleOptionRecord& r) {
    insert(ModuleOptions, {r.loadId, r.key, Sid{r.value}});
}

void TraceWriter::addModuleKernel(const ModuleKernelRecord& r) {
    insert(ModuleKernels, {r.loadId, r.kernel, Sid{r.digest}, Sid{r.generic}});
}

std::int64_t TraceWriter::addCudaProgram(const CudaProgramRecord& r) {
    auto id = nextId(CudaPrograms);
    insert(CudaPrograms, {id, r.sessionId, r.trackId, r.api, r.startNs, r.durNs, Sid{r.name}, Sid{r.sourceDigest},
                          r.result, r.logBytes, r.outputBytes});
    return id;
}

void TraceWriter::addCudaProgramOption(const CudaProgramOptionRecord& r) {
    insert(CudaProgramOptions, {r.programId, r.ordinal, r.option});
}

void TraceWriter::addCudaProgramInput(const CudaProgramInputRecord& r) {
    insert(CudaProgramInputs, {r.programId, r.ordinal, Sid{r.kind}, Sid{r.name}, r.bytes});
}

std::int64_t TraceWriter::addCudaJit(const CudaJitRecord& r) {
    auto id = nextId(CudaJit);
    insert(CudaJit, {id, r.sessionId, r.startNs, r.durNs, r.entryType, r.operation, r.device, r.correlationId,
                     r.jitCorrelationId, Sid{r.cachePath}, r.cacheBytes});
    return id;
}

std::int64_t TraceWriter::addCudaModule(const CudaModuleRecord& r) {
    auto id = nextId(CudaModules);
    insert(CudaModules, {id, r.sessionId, r.tsNs, r.op, r.moduleId, r.cubinBytes, Sid{r.digest}});
    return id;
}

std::int64_t TraceWriter::addKernelLaunch(const KernelLaunchRecord& r) {
    auto id = nextId(KernelLaunches);
    insert(KernelLaunches, {id, r.sessionId, r.trackId, r.startNs, r.durNs, Sid{r.name}, r.gridX, r.gridY, r.gridZ,
                            r.blockX, r.blockY, r.blockZ, r.sharedBytes, r.stream, r.correlationId});
    return id;
}

std::int64_t TraceWriter::addPhaseTiming(const PhaseTimingRecord& r) {
    auto id = nextId(PhaseTimings);
    insert(PhaseTimings, {id, r.sessionId, r.tool, Sid{r.input}, r.phase, Sid{r.arch}, r.startNs, r.durNs,
                          r.parentId});
    return id;
}

void TraceWriter::addStat(OptInt sessionId, std::string_view name, std::string_view source, std::int64_t count,
                          std::string_view detail) {
    auto key = std::make_tuple(sessionId.value_or(0), std::string(name), std::string(source));
    auto it = m_stats.find(key);
    if (it == m_stats.end()) {
        m_stats.emplace(key, StatValue{nextId(Stats), count, std::string(detail), true});
        return;
    }
    // Counts come from untrusted peers (the recorder's wire, merged traces): saturate, never overflow.
    if (__builtin_add_overflow(it->second.count, count, &it->second.count))
        it->second.count = count > 0 ? INT64_MAX : INT64_MIN;
    if (it->second.detail.empty()) it->second.detail = std::string(detail);
    it->second.dirty = true;
}

void TraceWriter::flushStats() {
    std::vector<std::vector<RawValue>> rows;
    for (auto& [key, v] : m_stats) {
        if (!v.dirty) continue;
        rows.push_back({v.id, std::get<0>(key) ? RawValue(std::get<0>(key)) : RawValue(), std::get<1>(key),
                        std::get<2>(key), v.count, v.detail.empty() ? RawValue() : RawValue(v.detail)});
        v.dirty = false;
    }
    if (rows.empty()) return;
    m_queue->post([this, rows = std::move(rows)] {
        Statement st(m_db.get(), "INSERT OR REPLACE INTO stats VALUES (?,?,?,?,?,?)");
        for (const auto& row : rows) {
            bindRawValues(st, row);
            st.step();
            st.reset();
        }
    });
}

std::int64_t TraceWriter::insertRaw(std::string_view table, const std::vector<RawValue>& row) {
    int index = -1;
    for (int t = 0; t < TableCount; ++t)
        if (kTableNames[static_cast<size_t>(t)] == table) index = t;
    if (index < 0) fail("no table " + std::string(table));
    const auto& def = schemaTables()[static_cast<size_t>(index)];
    if (row.size() != def.columns.size())
        fail("table " + std::string(table) + " has " + std::to_string(def.columns.size()) + " columns, row has " +
             std::to_string(row.size()));
    std::vector<Value> values;
    values.reserve(row.size());
    for (const auto& r : row) {
        if (const auto* n = std::get_if<std::int64_t>(&r)) values.emplace_back(*n);
        else if (const auto* d = std::get_if<double>(&r)) values.emplace_back(*d);
        else if (const auto* t = std::get_if<std::string>(&r)) values.emplace_back(std::string_view(*t));
        else values.emplace_back(nullptr);
    }
    std::int64_t id = 0;
    if (def.columns.front().name == "id") {
        id = nextId(index);
        values.front() = Value(id);
    }
    insertValues(index, values.data(), values.size());
    return id;
}

void TraceWriter::setMeta(std::string_view key, std::string_view value) {
    runSql("cannot write meta", "INSERT OR REPLACE INTO meta VALUES (?,?)", {std::string(key), std::string(value)});
}

void TraceWriter::commit() {
    if (m_finalized) fail("commit after finalize()");
    checkError();
    queueCommit();
    m_queue->drain();
    checkError();
}

void TraceWriter::requestCommit() {
    if (m_finalized) fail("commit after finalize()");
    checkError();
    queueCommit();
}

void TraceWriter::finalize() {
    if (m_finalized) return;
    checkError();
    handOff();
    flushStats();
    m_queue->post([this] {
        try {
            execSql(m_db.get(), "COMMIT");
        } catch (const std::runtime_error& e) {
            throw std::runtime_error(std::string("cannot finalize: ") + e.what());
        }
    });
    m_queue->drain();
    checkError();
    m_queue.reset();
    m_inserter.reset();
    m_pyramidUpsert.reset();
    // Leaving WAL mode needs the file to itself: a live viewer's poll (trace_follower.h) holds a
    // connection for a moment, and SQLite does not wait for it here. Retry for up to 60 s: a late
    // finalize costs nothing, a failed one leaves the trace unsealed and in WAL mode.
    const auto giveUp = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    for (;;) {
        try {
            execSql(m_db.get(), "PRAGMA journal_mode=DELETE");
            break;
        } catch (const std::runtime_error& e) {
            const int code = sqlite3_extended_errcode(m_db.get()) & 0xff;
            const bool busy = code == SQLITE_BUSY || code == SQLITE_LOCKED || std::string_view(e.what()).find("locked") != std::string_view::npos;
            if (!busy || std::chrono::steady_clock::now() > giveUp) fail(std::string("cannot finalize: ") + e.what());
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
    }
    m_finalized = true;
    m_db.reset();
    // The file is closed and complete: checksum every page, so a reader can tell damage from data.
    try {
        sealPages(m_path, !m_options.bulkImport);
    } catch (const std::runtime_error& e) {
        throw TraceError(TraceErrorKind::Write, m_path, std::string("cannot finalize: ") + e.what());
    }
    m_lock.release();
}

}  // namespace cs::trace
