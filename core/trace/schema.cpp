#include "core/trace/schema.h"

#include <compilescope/trace_constants.h>

#include <array>

namespace cs::trace {

int formatVersion() { return CS_TRACE_FORMAT_VERSION; }
int applicationId() { return CS_TRACE_APPLICATION_ID; }

namespace {
constexpr std::string_view PK = "PRIMARY KEY";
constexpr std::string_view NN = "NOT NULL";
constexpr std::string_view NONE = "";

// The file's own facts and what was lost: meta, strings, enums, stats.
std::vector<TableDef> formatTables() {
    return {
        {"meta", "format", "Key/value facts about the file: creator, creation time, source.",
         {{"key", "TEXT", PK, "name of the fact"}, {"value", "TEXT", NONE, "its value"}}},
        {"strings", "format", "Interned strings; every *_sid column points here. 0 / NULL = no string.",
         {{"id", "INTEGER", PK, "string id"}, {"str", "TEXT", NN, "UTF-8 text (untrusted)"}}},
        {"enums", "format", "Names of the integer codes stored in other tables (trace_constants.h).",
         {{"type", "TEXT", NN, "enum name, e.g. category"},
          {"value", "INTEGER", NN, "stored code"},
          {"name", "TEXT", NN, "readable name"}}},
        {"stats", "stats", "What was dropped, malformed or skipped while recording or importing.",
         {{"id", "INTEGER", PK, "row id"},
          {"session_id", "INTEGER", NONE, "sessions.id, NULL for file-wide"},
          {"name", "TEXT", NN, "counter name, e.g. malformed_line, dropped_events"},
          {"source", "TEXT", NN, "who counted: importer id, collector, recorder"},
          {"count", "INTEGER", NN, "how many"},
          {"detail", "TEXT", NONE, "first example: position and reason"}}},
    };
}

// Processes, lanes and what ran on them: sessions, tracks, spans and their arguments, flows, steps.
std::vector<TableDef> timelineTables() {
    return {
        {"sessions", "sessions", "One recorded process, or one imported file.",
         {{"id", "INTEGER", PK, "session id"},
          {"pid", "INTEGER", NONE, "process id (NULL for imports)"},
          {"ppid", "INTEGER", NONE, "parent process id"},
          {"parent_session_id", "INTEGER", NONE, "sessions.id of the parent process, if recorded"},
          {"host_sid", "INTEGER", NONE, "host name"},
          {"cmdline_sid", "INTEGER", NONE, "command line"},
          {"runtime_sid", "INTEGER", NONE, "runtime or importer, e.g. warp, julia, nvrtc, import:nvcc-time"},
          {"source_sid", "INTEGER", NONE, "imported file path, NULL when recorded live"},
          {"clock_sid", "INTEGER", NONE, "clock of all timestamps of the session, e.g. CLOCK_MONOTONIC"},
          {"start_ns", "INTEGER", NONE, "session start, ns"},
          {"end_ns", "INTEGER", NONE, "session end, ns; NULL = unfinished (crashed or still running)"},
          {"exit_status", "INTEGER", NONE,
           "how the process ended, when known: its exit status (0-255), or minus the signal that killed it (-9 = SIGKILL)"}}},
        {"tracks", "tracks", "Lanes of the timeline: threads, devices, streams, runtime lanes.",
         {{"id", "INTEGER", PK, "track id"},
          {"session_id", "INTEGER", NN, "sessions.id"},
          {"kind", "INTEGER", NN, "enum track_kind"},
          {"tid", "INTEGER", NONE, "OS thread id / device ordinal / stream id"},
          {"name_sid", "INTEGER", NONE, "display name"},
          {"parent_track_id", "INTEGER", NONE, "tracks.id this lane nests under"}}},
        {"spans", "spans", "Timed intervals on a track.",
         {{"id", "INTEGER", PK, "span id"},
          {"track_id", "INTEGER", NN, "tracks.id"},
          {"start_ns", "INTEGER", NN, "begin, ns"},
          {"dur_ns", "INTEGER", NONE, "duration, ns; NULL = never ended"},
          {"category", "INTEGER", NN, "enum category"},
          {"name_sid", "INTEGER", NONE, "what ran"},
          {"detail_sid", "INTEGER", NONE, "what it ran on: the file, function or pass (TEF args.detail)"}}},
        {"span_args", "spans", "Extra key/value arguments of a span.",
         {{"span_id", "INTEGER", NN, "spans.id"},
          {"key_sid", "INTEGER", NN, "argument name"},
          {"value", "ANY", NONE, "integer, real or text value"}}},
        {"flows", "spans", "Arrows between spans (Trace Event Format flows, causality).",
         {{"id", "INTEGER", PK, "flow id"},
          {"from_span_id", "INTEGER", NN, "spans.id where the arrow starts"},
          {"to_span_id", "INTEGER", NN, "spans.id where it ends"},
          {"name_sid", "INTEGER", NONE, "flow name"}}},
        {"steps", "steps", "The runtime's step counter: training step, epoch.",
         {{"id", "INTEGER", PK, "row id"},
          {"session_id", "INTEGER", NN, "sessions.id"},
          {"track_id", "INTEGER", NONE, "tracks.id"},
          {"ts_ns", "INTEGER", NN, "when the step began, ns"},
          {"step", "INTEGER", NN, "step number as the runtime counts it (first = 1)"},
          {"epoch", "INTEGER", NONE, "epoch number"},
          {"label_sid", "INTEGER", NONE, "e.g. train, validate"}}},
    };
}

// Compiled-program caches and what invalidates them: lookups, keys, counters, methods, closures, invalidations.
std::vector<TableDef> cacheTables() {
    return {
        {"cache_lookups", "cache lookups", "One lookup of a compiled program in a runtime's cache.",
         {{"id", "INTEGER", PK, "lookup id"},
          {"session_id", "INTEGER", NN, "sessions.id"},
          {"track_id", "INTEGER", NONE, "tracks.id"},
          {"ts_ns", "INTEGER", NN, "when the lookup happened, ns"},
          {"cache_sid", "INTEGER", NONE, "cache name, e.g. ReactantNitro.program_cache"},
          {"program_sid", "INTEGER", NN, "program, e.g. gradient, optimizer, eval"},
          {"handle_sid", "INTEGER", NONE, "the handle (Nitro) that asked"},
          {"verdict", "INTEGER", NN, "enum verdict: the runtime's hit / miss"},
          {"compile_ns", "INTEGER", NONE, "compile duration when it missed, ns"},
          {"fingerprint_sid", "INTEGER", NONE, "hash of the emitted program (graph fingerprint)"},
          {"step", "INTEGER", NONE, "step counter at the lookup"}}},
        {"key_components", "cache lookups", "The named components of a lookup's key.",
         {{"lookup_id", "INTEGER", NN, "cache_lookups.id"},
          {"ordinal", "INTEGER", NN, "position in the key tuple"},
          {"name_sid", "INTEGER", NN, "component name, e.g. shape of arg 2, accum"},
          {"role", "INTEGER", NN, "enum key_role; device and host roles are NOT part of the key"},
          {"digest_sid", "INTEGER", NONE, "hash compared for equality"},
          {"value_sid", "INTEGER", NONE, "human-readable value, e.g. 128x64"}}},
        {"counters", "counters", "Snapshots of the runtime's own counters, e.g. cache_stats().",
         {{"id", "INTEGER", PK, "row id"},
          {"session_id", "INTEGER", NN, "sessions.id"},
          {"ts_ns", "INTEGER", NN, "when read, ns"},
          {"scope_sid", "INTEGER", NONE, "what is counted, e.g. a cache name"},
          {"name_sid", "INTEGER", NN, "counter, e.g. hits, misses, entries"},
          {"value", "INTEGER", NN, "cumulative value"}}},
        {"methods", "methods", "Method definitions, redefinitions and deletions with world ages.",
         {{"id", "INTEGER", PK, "row id"},
          {"session_id", "INTEGER", NN, "sessions.id"},
          {"ts_ns", "INTEGER", NONE, "when, ns"},
          {"event", "INTEGER", NN, "enum method_event"},
          {"method_sid", "INTEGER", NN, "stable method identity, e.g. MyModel.loss"},
          {"signature_sid", "INTEGER", NONE, "full signature"},
          {"module_sid", "INTEGER", NONE, "defining module"},
          {"file_sid", "INTEGER", NONE, "source file"},
          {"line", "INTEGER", NONE, "source line"},
          {"world", "INTEGER", NONE, "world age at which the event took effect"}}},
        {"closures", "methods", "A cache entry's dependency closure: methods it was compiled against.",
         {{"lookup_id", "INTEGER", NN, "cache_lookups.id of the miss that created the entry"},
          {"method_sid", "INTEGER", NN, "method identity (as in methods.method_sid)"},
          {"world", "INTEGER", NONE, "world age of the method the entry saw"}}},
        {"invalidation_items", "invalidations", "Julia invalidation log items, raw and in order.",
         {{"id", "INTEGER", PK, "row id"},
          {"session_id", "INTEGER", NN, "sessions.id"},
          {"list", "INTEGER", NN, "enum invalidation_list"},
          {"ordinal", "INTEGER", NN, "position in the list, from 0"},
          {"kind", "INTEGER", NN, "enum invalidation_item_kind"},
          {"text_sid", "INTEGER", NONE, "the item as Julia printed it"}}},
    };
}

// Warp-style module loads.
std::vector<TableDef> moduleTables() {
    return {
        {"module_loads", "modules", "Warp-style module loads: one row per load attempt.",
         {{"id", "INTEGER", PK, "load id"},
          {"session_id", "INTEGER", NN, "sessions.id"},
          {"track_id", "INTEGER", NONE, "tracks.id"},
          {"start_ns", "INTEGER", NONE, "begin, ns"},
          {"dur_ns", "INTEGER", NONE, "load duration, ns"},
          {"name_sid", "INTEGER", NN, "module name"},
          {"hash_sid", "INTEGER", NONE, "module hash (identity), full or 7-digit prefix"},
          {"device_sid", "INTEGER", NONE, "device, e.g. cuda:0, cpu"},
          {"block_dim", "INTEGER", NONE, "CUDA block dimension"},
          {"result", "INTEGER", NN, "enum module_result"},
          {"compile_ns", "INTEGER", NONE, "native compile time within the load, ns"},
          {"source_bytes", "INTEGER", NONE, "generated source size, bytes"},
          {"lto_artifacts", "INTEGER", NONE, "number of LTO artifacts"},
          {"origin_sid", "INTEGER", NONE, "where it was read, e.g. warp.log:12"}}},
        {"module_options", "modules", "Resolved options of a module load.",
         {{"load_id", "INTEGER", NN, "module_loads.id"},
          {"key_sid", "INTEGER", NN, "option name"},
          {"value_sid", "INTEGER", NONE, "option value"}}},
        {"module_kernels", "modules", "Live kernel set and generic instances of a module load.",
         {{"load_id", "INTEGER", NN, "module_loads.id"},
          {"kernel_sid", "INTEGER", NN, "kernel or function name"},
          {"digest_sid", "INTEGER", NONE, "per-kernel hash"},
          {"generic_sid", "INTEGER", NONE, "generic instance signature; NULL if not generic"}}},
    };
}

// CUDA compiles, JIT, modules and launches, and compiler phase timings.
std::vector<TableDef> cudaTables() {
    return {
        {"cuda_programs", "cuda", "NVRTC compiles and nvJitLink links.",
         {{"id", "INTEGER", PK, "program id"},
          {"session_id", "INTEGER", NN, "sessions.id"},
          {"track_id", "INTEGER", NONE, "tracks.id"},
          {"api", "INTEGER", NN, "enum cuda_api"},
          {"start_ns", "INTEGER", NN, "begin, ns"},
          {"dur_ns", "INTEGER", NONE, "duration, ns"},
          {"name_sid", "INTEGER", NONE, "program name"},
          {"source_digest_sid", "INTEGER", NONE, "digest of the source / inputs"},
          {"result", "INTEGER", NONE, "API result code (0 = success)"},
          {"log_bytes", "INTEGER", NONE, "size of the compile / link log, bytes"},
          {"output_bytes", "INTEGER", NONE, "size of PTX / CUBIN / linked output, bytes"}}},
        {"cuda_program_options", "cuda", "Options of an NVRTC compile or nvJitLink link, in order.",
         {{"program_id", "INTEGER", NN, "cuda_programs.id"},
          {"ordinal", "INTEGER", NN, "position"},
          {"option_sid", "INTEGER", NN, "the option text"}}},
        {"cuda_program_inputs", "cuda", "Inputs of an nvJitLink link.",
         {{"program_id", "INTEGER", NN, "cuda_programs.id"},
          {"ordinal", "INTEGER", NN, "position"},
          {"kind_sid", "INTEGER", NONE, "input type: ptx, cubin, fatbin, ltoir, object, library"},
          {"name_sid", "INTEGER", NONE, "input name"},
          {"bytes", "INTEGER", NONE, "input size, bytes"}}},
        {"cuda_jit", "cuda", "Driver JIT activity from CUPTI: compute-cache loads, stores, compiles.",
         {{"id", "INTEGER", PK, "row id"},
          {"session_id", "INTEGER", NN, "sessions.id"},
          {"start_ns", "INTEGER", NONE, "begin, ns (NULL when CUPTI did not collect it)"},
          {"dur_ns", "INTEGER", NONE, "duration, ns"},
          {"entry_type", "INTEGER", NN, "enum jit_entry"},
          {"operation", "INTEGER", NN, "enum jit_operation"},
          {"device", "INTEGER", NONE, "device ordinal"},
          {"correlation_id", "INTEGER", NONE, "API record that caused it"},
          {"jit_correlation_id", "INTEGER", NONE, "links compile and cache load / store of one unit"},
          {"cache_path_sid", "INTEGER", NONE, "compute cache path"},
          {"cache_bytes", "INTEGER", NONE, "compute cache size, bytes"}}},
        {"cuda_modules", "cuda", "CUDA module loads and unloads (CUPTI resource callbacks).",
         {{"id", "INTEGER", PK, "row id"},
          {"session_id", "INTEGER", NN, "sessions.id"},
          {"ts_ns", "INTEGER", NN, "when, ns"},
          {"op", "INTEGER", NN, "enum cuda_module_op"},
          {"module_id", "INTEGER", NONE, "CUPTI module id"},
          {"cubin_bytes", "INTEGER", NONE, "cubin size, bytes"},
          {"digest_sid", "INTEGER", NONE, "digest of the cubin"}}},
        {"kernel_launches", "cuda", "Kernel launches.",
         {{"id", "INTEGER", PK, "row id"},
          {"session_id", "INTEGER", NN, "sessions.id"},
          {"track_id", "INTEGER", NONE, "tracks.id (stream lane)"},
          {"start_ns", "INTEGER", NN, "begin, ns"},
          {"dur_ns", "INTEGER", NONE, "duration, ns"},
          {"name_sid", "INTEGER", NONE, "kernel name"},
          {"grid_x", "INTEGER", NONE, "grid size"},
          {"grid_y", "INTEGER", NONE, ""},
          {"grid_z", "INTEGER", NONE, ""},
          {"block_x", "INTEGER", NONE, "block size"},
          {"block_y", "INTEGER", NONE, ""},
          {"block_z", "INTEGER", NONE, ""},
          {"shared_bytes", "INTEGER", NONE, "dynamic + static shared memory, bytes"},
          {"stream", "INTEGER", NONE, "stream id"},
          {"correlation_id", "INTEGER", NONE, "CUPTI correlation id"}}},
        {"phase_timings", "phases", "Compiler phase timings (nvcc --time, NVRTC --time; clang -ftime-trace's per-file Total events, tool clang, without a start).",
         {{"id", "INTEGER", PK, "row id"},
          {"session_id", "INTEGER", NN, "sessions.id"},
          {"tool", "INTEGER", NN, "enum phase_tool"},
          {"input_sid", "INTEGER", NONE, "source file compiled"},
          {"phase_sid", "INTEGER", NN, "phase name, e.g. cicc, ptxas"},
          {"arch_sid", "INTEGER", NONE, "target architecture, e.g. sm_90"},
          {"start_ns", "INTEGER", NONE, "begin, ns, when known"},
          {"dur_ns", "INTEGER", NN, "duration, ns"},
          {"parent_id", "INTEGER", NONE, "phase_timings.id of the enclosing phase"}}},
    };
}

// Every table in creation order (the writer's table enum follows it), in groups so that each
// declaration stays readable (issue 38: no function over 120 lines).
std::vector<TableDef> makeTables() {
    std::vector<TableDef> all;
    for (auto group : {formatTables, timelineTables, cacheTables, moduleTables, cudaTables})
        for (auto& t : group()) all.push_back(std::move(t));
    return all;
}

// Format v2. Rows are keyed (track, level, bucket) and updated in place as spans arrive, so the
// table has no rowid of its own.
std::vector<DerivedTableDef> makeDerivedTables() {
    DerivedTableDef pyramid{
        {"span_pyramid", "spans",
         "Level-of-detail summary of each lane's spans: fixed time buckets per level (pyramid.h).",
         {{"track_id", "INTEGER", NN, "tracks.id"},
          {"level", "INTEGER", NN, "0 = finest; a bucket of level L is 2^(18 + 2 L) ns wide (262 us at level 0)"},
          {"bucket", "INTEGER", NN, "floor(start_ns / width): the bucket covers [bucket * width, (bucket + 1) * width)"},
          {"count", "INTEGER", NN, "spans of the lane that start in the bucket"},
          {"busy_ns", "INTEGER", NN, "sum of their durations, ns (NULL and negative count as 0; saturates)"},
          {"longest_ns", "INTEGER", NN, "the longest of their durations, ns"},
          {"category", "INTEGER", NN, "enum category of the longest (dominant) span; the lowest code on a tie"}}},
        2,
        "track_id, level, bucket"};
    return {pyramid};
}

std::vector<IndexDef> makeIndexes() {
    return {
        {"idx_spans_track_start", "spans", "track_id, start_ns"},
        {"idx_span_args_span", "span_args", "span_id"},
        {"idx_tracks_session", "tracks", "session_id"},
        {"idx_lookups_session_ts", "cache_lookups", "session_id, ts_ns"},
        {"idx_key_components_lookup", "key_components", "lookup_id, ordinal"},
        {"idx_closures_lookup", "closures", "lookup_id"},
        {"idx_module_loads_name", "module_loads", "name_sid"},
        {"idx_module_options_load", "module_options", "load_id"},
        {"idx_module_kernels_load", "module_kernels", "load_id"},
        {"idx_cuda_program_options", "cuda_program_options", "program_id, ordinal"},
        {"idx_cuda_program_inputs", "cuda_program_inputs", "program_id, ordinal"},
        {"idx_invalidation_items", "invalidation_items", "session_id, list, ordinal"},
    };
}

constexpr std::array kEnums = {
    EnumRow{"category", CS_CAT_OTHER, "other"},
    EnumRow{"category", CS_CAT_COMPILE, "compile"},
    EnumRow{"category", CS_CAT_CACHE_LOAD, "cache-load"},
    EnumRow{"category", CS_CAT_MODULE_LOAD, "module-load"},
    EnumRow{"category", CS_CAT_LAUNCH, "launch"},
    EnumRow{"category", CS_CAT_IMPORT, "import"},
    EnumRow{"category", CS_CAT_INIT, "init"},
    EnumRow{"category", CS_CAT_STEP, "step"},
    EnumRow{"category", CS_CAT_INFERENCE, "inference"},
    EnumRow{"category", CS_CAT_CODEGEN, "codegen"},
    EnumRow{"category", CS_CAT_LINK, "link"},
    EnumRow{"category", CS_CAT_PHASE, "phase"},
    EnumRow{"category", CS_CAT_GC, "gc"},
    EnumRow{"verdict", CS_VERDICT_UNKNOWN, "unknown"},
    EnumRow{"verdict", CS_VERDICT_HIT, "hit"},
    EnumRow{"verdict", CS_VERDICT_MISS, "miss"},
    EnumRow{"key_role", CS_ROLE_OTHER, "other"},
    EnumRow{"key_role", CS_ROLE_FUNCTION, "function"},
    EnumRow{"key_role", CS_ROLE_WORLD, "world"},
    EnumRow{"key_role", CS_ROLE_SHAPE, "shape"},
    EnumRow{"key_role", CS_ROLE_GRAPHCONST, "graphconst"},
    EnumRow{"key_role", CS_ROLE_KEYWORD, "keyword"},
    EnumRow{"key_role", CS_ROLE_DEVICE, "device"},
    EnumRow{"key_role", CS_ROLE_HOST, "host"},
    EnumRow{"key_role", CS_ROLE_TYPE, "type"},
    EnumRow{"key_role", CS_ROLE_OPTION, "option"},
    EnumRow{"module_result", CS_MODULE_UNKNOWN, "unknown"},
    EnumRow{"module_result", CS_MODULE_COMPILED, "compiled"},
    EnumRow{"module_result", CS_MODULE_CACHED, "cached"},
    EnumRow{"module_result", CS_MODULE_ERROR, "error"},
    EnumRow{"track_kind", CS_TRACK_THREAD, "thread"},
    EnumRow{"track_kind", CS_TRACK_DEVICE, "device"},
    EnumRow{"track_kind", CS_TRACK_STREAM, "stream"},
    EnumRow{"track_kind", CS_TRACK_RUNTIME, "runtime"},
    EnumRow{"track_kind", CS_TRACK_PROCESS, "process"},
    EnumRow{"method_event", CS_METHOD_DEFINE, "define"},
    EnumRow{"method_event", CS_METHOD_REDEFINE, "redefine"},
    EnumRow{"method_event", CS_METHOD_DELETE, "delete"},
    EnumRow{"invalidation_list", CS_INVLIST_METHODS, "methods"},
    EnumRow{"invalidation_list", CS_INVLIST_EDGES, "edges"},
    EnumRow{"invalidation_list", CS_INVLIST_PRINTED, "printed"},
    EnumRow{"invalidation_item_kind", CS_INVITEM_OTHER, "other"},
    EnumRow{"invalidation_item_kind", CS_INVITEM_METHOD_INSTANCE, "method_instance"},
    EnumRow{"invalidation_item_kind", CS_INVITEM_INT, "int"},
    EnumRow{"invalidation_item_kind", CS_INVITEM_TAG, "tag"},
    EnumRow{"invalidation_item_kind", CS_INVITEM_METHOD, "method"},
    EnumRow{"invalidation_item_kind", CS_INVITEM_TYPE, "type"},
    EnumRow{"invalidation_item_kind", CS_INVITEM_CODE_INSTANCE, "code_instance"},
    EnumRow{"invalidation_item_kind", CS_INVITEM_BINDING, "binding"},
    EnumRow{"invalidation_item_kind", CS_INVITEM_VECTOR, "vector"},
    EnumRow{"invalidation_item_kind", CS_INVITEM_NOTHING, "nothing"},
    EnumRow{"invalidation_item_kind", CS_INVITEM_ELISION, "elision"},
    EnumRow{"invalidation_item_kind", CS_INVITEM_TREE_LINE, "tree_line"},
    EnumRow{"cuda_api", CS_CUDA_NVRTC, "nvrtc"},
    EnumRow{"cuda_api", CS_CUDA_NVJITLINK, "nvjitlink"},
    EnumRow{"cuda_api", CS_CUDA_NVCC, "nvcc"},
    EnumRow{"jit_entry", CS_JIT_ENTRY_INVALID, "invalid"},
    EnumRow{"jit_entry", CS_JIT_ENTRY_PTX_TO_CUBIN, "ptx_to_cubin"},
    EnumRow{"jit_entry", CS_JIT_ENTRY_NVVM_IR_TO_PTX, "nvvm_ir_to_ptx"},
    EnumRow{"jit_operation", CS_JIT_OP_INVALID, "invalid"},
    EnumRow{"jit_operation", CS_JIT_OP_CACHE_LOAD, "cache_load"},
    EnumRow{"jit_operation", CS_JIT_OP_CACHE_STORE, "cache_store"},
    EnumRow{"jit_operation", CS_JIT_OP_COMPILE, "compile"},
    EnumRow{"cuda_module_op", CS_CUDA_MODULE_LOAD, "load"},
    EnumRow{"cuda_module_op", CS_CUDA_MODULE_UNLOAD, "unload"},
    EnumRow{"phase_tool", CS_PHASE_TOOL_OTHER, "other"},
    EnumRow{"phase_tool", CS_PHASE_TOOL_NVCC, "nvcc"},
    EnumRow{"phase_tool", CS_PHASE_TOOL_NVRTC, "nvrtc"},
    EnumRow{"phase_tool", CS_PHASE_TOOL_CLANG, "clang"},
    EnumRow{"phase_tool", CS_PHASE_TOOL_JULIA, "julia"},
};
}  // namespace

const std::vector<TableDef>& schemaTables() {
    static const std::vector<TableDef> tables = makeTables();
    return tables;
}

const std::vector<IndexDef>& schemaIndexes() {
    static const std::vector<IndexDef> indexes = makeIndexes();
    return indexes;
}

const std::vector<DerivedTableDef>& derivedTables() {
    static const std::vector<DerivedTableDef> tables = makeDerivedTables();
    return tables;
}

const DerivedTableDef* findDerivedTable(std::string_view name) {
    for (const auto& t : derivedTables())
        if (t.table.name == name) return &t;
    return nullptr;
}

const TableDef* findTable(std::string_view name) {
    for (const auto& t : schemaTables())
        if (t.name == name) return &t;
    return nullptr;
}

std::string createTableSql(const TableDef& table) {
    std::string sql = "CREATE TABLE ";
    sql += table.name;
    sql += " (";
    bool first = true;
    for (const auto& c : table.columns) {
        if (!first) sql += ", ";
        first = false;
        sql += c.name;
        sql += ' ';
        sql += c.type;
        if (!c.constraint.empty()) {
            sql += ' ';
            sql += c.constraint;
        }
    }
    sql += ") STRICT";
    return sql;
}

std::string createTableSql(const DerivedTableDef& table) {
    std::string sql = createTableSql(table.table);
    sql.resize(sql.size() - std::string_view(") STRICT").size());
    sql += ", PRIMARY KEY (";
    sql += table.primaryKey;
    sql += ")) STRICT, WITHOUT ROWID";
    return sql;
}

std::string insertSql(const TableDef& table, int rows) {
    std::string one = "(";
    for (size_t i = 0; i < table.columns.size(); ++i) one += i ? ",?" : "?";
    one += ')';
    std::string sql = "INSERT INTO ";
    sql += table.name;
    sql += " VALUES ";
    sql.reserve(sql.size() + static_cast<size_t>(rows) * (one.size() + 1));
    for (int r = 0; r < rows; ++r) {
        if (r) sql += ',';
        sql += one;
    }
    return sql;
}

std::span<const EnumRow> enumRows() { return kEnums; }

std::string_view enumName(std::string_view type, int value) {
    for (const auto& e : kEnums)
        if (e.type == type && e.value == value) return e.name;
    return "?";
}

}  // namespace cs::trace
