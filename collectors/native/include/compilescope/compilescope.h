/* SPDX-License-Identifier: MIT
 *
 * CompileScope native collector: the C ABI that runtimes call to record compile-cache activity.
 *
 * Why it looks like this (docs/architecture.md, Rules; docs/practices.md 10-12):
 *  - One small C header is the whole public surface, usable from C, C++, Python (ctypes) and Julia
 *    (ccall). Functions are extern "C", exported with CS_API; nothing else leaves the library.
 *  - Recording must cost nanoseconds and never bring SQLite into the traced process. Every event is
 *    appended to a per-thread ring buffer (no allocation, lock or system call on the caller's
 *    thread); a background thread of the library ships the bytes over a local socket to the
 *    recorder process (compilescope-recorder), which owns the SQLite trace. See docs/collector.md.
 *  - When recording is off, every entry point returns after one relaxed atomic load. The macros of
 *    compilescope_macros.h inline that load, so a disabled call site costs one load and a branch.
 *  - Strings are interned once (cs_intern, which takes a lock) and events carry the 32-bit handle.
 *  - Never break the host: no recorder, an unwritable path or a full disk give one warning on
 *    stderr and counted drops; no function here fails the caller or changes its behaviour.
 *
 * Conventions used below:
 *  - Timestamps are int64 nanoseconds of CLOCK_MONOTONIC (cs_now_ns()). A timestamp argument of
 *    CS_NOW (0) means "now": the library reads the clock.
 *  - Optional integers take CS_NONE (INT64_MIN) for "not known"; they are stored as SQL NULL.
 *  - Optional strings take 0 (no string).
 *  - Enumerated codes (category, verdict, role, ...) come from trace_constants.h.
 *  - Structs passed by pointer are read during the call only; the library copies what it needs.
 *  - All functions are thread-safe and async-signal-tolerant in the sense that a reentrant call
 *    (e.g. from a signal handler interrupting an event) is dropped and counted, never deadlocks.
 *
 * This header is part of the MIT-licensed collector SDK (collectors/LICENSE). The ABI only grows:
 * existing functions and structs are never changed, new ones are appended.
 */
#ifndef COMPILESCOPE_COMPILESCOPE_H
#define COMPILESCOPE_COMPILESCOPE_H

#include <compilescope/trace_constants.h>

#include <stddef.h>
#include <stdint.h>

#if defined(_WIN32)
#define CS_API __declspec(dllexport)
#elif defined(__GNUC__)
#define CS_API __attribute__((visibility("default")))
#else
#define CS_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Version of this C ABI. Bumped (and only ever increased) when functions are appended. */
#define CS_ABI_VERSION 1

/* "Take the time now" for timestamp arguments. */
#define CS_NOW INT64_C(0)
/* "Not known" for optional integer arguments. */
#define CS_NONE INT64_MIN

/* An interned string: a process-local handle from cs_intern(). 0 = no string. */
typedef uint32_t cs_str;
/* A timeline lane created with cs_track_create(). CS_THREAD_TRACK (0) = the calling thread's lane. */
typedef uint32_t cs_track;
#define CS_THREAD_TRACK 0u
/* A recorded cache lookup, to attach dependency-closure entries to. 0 = not recorded. */
typedef uint64_t cs_lookup;

/* ---- session ------------------------------------------------------------------------------------ */

/* Starts recording this process as one session of a trace. Idempotent: later calls return the
 * current state.
 *   runtime      name stored in sessions.runtime_sid, e.g. "warp", "numba", "julia"; NULL = "native".
 *   output_path  trace to create when no recorder was set up by `compilescope record`: the library
 *                then starts its own recorder process. NULL = use $COMPILESCOPE_OUTPUT; if that is
 *                unset too and no launcher is present, recording stays off (no warning).
 * Returns 1 when recording, 0 when not (the reason was printed once on stderr if it is a failure).
 * Under `compilescope record` (COMPILESCOPE_SOCKET set) it joins that recorder; an exec'd child that
 * calls cs_start joins the same trace as its own session, and a fork()ed child of a recording process
 * is recorded as its own session without calling it again. */
CS_API int cs_start(const char* runtime, const char* output_path);

/* Flushes every thread's buffer, tells the recorder that this session ended normally (sessions.end_ns)
 * and turns recording off for this process. Also run automatically at exit(). A process that dies
 * without it (kill -9) keeps its session "unfinished" (end_ns NULL). */
CS_API void cs_stop(void);

/* 1 while events are being recorded. The same relaxed load every entry point starts with. */
CS_API int cs_enabled(void);

/* Pushes the calling thread's buffered events to the recorder now (normally a background thread
 * does this every few milliseconds). Makes a system call: not for the hot path. */
CS_API void cs_flush(void);

/* Events this process dropped so far: full buffers, oversized records, no recorder, reentrancy. */
CS_API uint64_t cs_dropped_count(void);

/* CLOCK_MONOTONIC in nanoseconds: the clock of every timestamp in a recorded session. */
CS_API int64_t cs_now_ns(void);

/* Returns the handle of `s` (NUL-terminated, UTF-8), interning it on first use. Takes a lock and may
 * allocate: call once per distinct string and keep the handle. Returns 0 for NULL or when off. */
CS_API cs_str cs_intern(const char* s);
/* As cs_intern for `len` bytes that need not be NUL-terminated. */
CS_API cs_str cs_intern_n(const char* s, size_t len);

/* Creates a timeline lane (tracks table): kind is a cs_track_kind (CS_TRACK_RUNTIME for a logical
 * lane such as "warp modules", CS_TRACK_DEVICE / CS_TRACK_STREAM with tid = device ordinal or stream
 * id). Returns 0 (the thread's own lane) when off. */
CS_API cs_track cs_track_create(cs_str name, int kind, int64_t tid);

/* ---- spans (spans table) ------------------------------------------------------------------------ */

/* Opens a span on `track` (CS_THREAD_TRACK = calling thread). category: cs_category. Spans on one
 * track nest: cs_span_end closes the innermost open one. Begin and end must be called from the same
 * thread. A span still open when the session ends is stored with dur_ns NULL ("never ended"). */
CS_API void cs_span_begin(cs_track track, int category, cs_str name);
/* Closes the innermost open span of `track` on the calling thread. */
CS_API void cs_span_end(cs_track track);
/* Records a finished span: start_ns (CS_NOW = now) and its duration. */
CS_API void cs_span_complete(cs_track track, int category, cs_str name, int64_t start_ns, int64_t dur_ns);
/* Attaches key = value to the span most recently begun or completed on the calling thread (span_args). */
CS_API void cs_span_arg_int(cs_str key, int64_t value);
CS_API void cs_span_arg_str(cs_str key, cs_str value);

/* ---- steps (steps table) ------------------------------------------------------------------------ */

/* Marks the start of step `step` of the runtime's counter (training step, first = 1). epoch: CS_NONE
 * when unknown. label: e.g. "train", "validate"; 0 = none. */
CS_API void cs_step(int64_t step, int64_t epoch, cs_str label);

/* ---- cache lookups (cache_lookups, key_components, closures) ------------------------------------ */

/* One named component of a program key. */
typedef struct cs_key_component {
    cs_str name;   /* component name, e.g. "shape of arg 2", "accum" */
    int32_t role;  /* cs_key_role; CS_ROLE_DEVICE / CS_ROLE_HOST are shown but not part of the key */
    cs_str digest; /* hash compared for equality; 0 = compare `value` */
    cs_str value;  /* human-readable value, e.g. "128x64"; 0 = none */
} cs_key_component;

/* One method an entry was compiled against (its dependency closure). */
typedef struct cs_closure_entry {
    cs_str method; /* stable method identity, as in cs_method_info.method */
    int32_t pad;   /* set to 0 */
    int64_t world; /* world age of the method the entry saw; CS_NONE = unknown */
} cs_closure_entry;

/* A lookup of a compiled program in a runtime's cache. */
typedef struct cs_cache_lookup {
    int64_t ts_ns;       /* when the lookup happened; CS_NOW = now */
    cs_str cache;        /* cache name, e.g. "ReactantNitro.program_cache"; 0 = none */
    cs_str program;      /* program, e.g. "gradient", "optimizer", "eval" (required) */
    cs_str handle;       /* the handle that asked, e.g. a Nitro object's name; 0 = none */
    int32_t verdict;     /* cs_verdict: what the runtime said */
    int64_t compile_ns;  /* compile duration when it missed; CS_NONE = unknown / hit */
    cs_str fingerprint;  /* hash of the emitted program (graph fingerprint); 0 = none */
    cs_track track;      /* lane; CS_THREAD_TRACK = calling thread */
    int64_t step;        /* step counter at the lookup; CS_NONE = unknown */
    const cs_key_component* key; /* the key, in tuple order */
    uint32_t key_count;
    uint32_t closure_count;
    const cs_closure_entry* closure; /* dependency closure of the entry a miss created; may be NULL */
} cs_cache_lookup;

/* Records a lookup with its key (and closure). Returns a handle for cs_closure_add, 0 when off or
 * dropped. At most 4096 key components and 65536 closure entries are kept; the rest are counted. */
CS_API cs_lookup cs_cache_lookup_record(const cs_cache_lookup* lookup);
/* Adds one closure entry to a recorded lookup. Call it from the thread that recorded the lookup. */
CS_API void cs_closure_add(cs_lookup lookup, cs_str method, int64_t world);

/* ---- counters (counters table) ------------------------------------------------------------------ */

/* A snapshot of one of the runtime's own cumulative counters, e.g. scope "ReactantNitro", name "hits". */
CS_API void cs_counter(cs_str scope, cs_str name, int64_t value);

/* ---- methods and worlds (methods table) --------------------------------------------------------- */

typedef struct cs_method_info {
    int64_t ts_ns;     /* when; CS_NOW = now */
    int32_t event;     /* cs_method_event: define / redefine / delete */
    cs_str method;     /* stable method identity, e.g. "MyModel.loss" (required) */
    cs_str signature;  /* full signature; 0 = none */
    cs_str module;     /* defining module; 0 = none */
    cs_str file;       /* source file; 0 = none */
    int32_t pad;       /* set to 0 */
    int64_t line;      /* source line; CS_NONE = unknown */
    int64_t world;     /* world age at which the event took effect; CS_NONE = unknown */
} cs_method_info;

CS_API void cs_method(const cs_method_info* info);

/* ---- Julia invalidation log (invalidation_items table) ----------------------------------------- */

/* One raw item of jl_debug_method_invalidation (list CS_INVLIST_METHODS) or of Base.StaticData's
 * edge list (CS_INVLIST_EDGES), in order. kind: cs_invalidation_item_kind. text: the item as Julia
 * prints it, copied inline (not interned); texts over 4000 bytes are truncated and counted. */
CS_API void cs_invalidation_item(int list, int64_t ordinal, int kind, const char* text);

/* ---- modules (module_loads, module_options, module_kernels) ------------------------------------ */

typedef struct cs_module_option {
    cs_str key;   /* option name, e.g. "fast_math" */
    cs_str value; /* its value, e.g. "True"; 0 = none */
} cs_module_option;

typedef struct cs_module_kernel {
    cs_str kernel;  /* kernel or function name */
    cs_str digest;  /* per-kernel hash; 0 = none */
    cs_str generic; /* generic instance signature; 0 = not generic */
    int32_t pad;    /* set to 0 */
} cs_module_kernel;

/* One load attempt of a Warp-style module. */
typedef struct cs_module_load {
    int64_t start_ns;     /* begin; CS_NOW = now */
    int64_t dur_ns;       /* load duration; CS_NONE = unknown */
    cs_str name;          /* module name (required) */
    cs_str hash;          /* module hash (identity); 0 = none */
    cs_str device;        /* e.g. "cuda:0", "cpu"; 0 = none */
    int32_t result;       /* cs_module_result */
    int64_t block_dim;    /* CUDA block dimension; CS_NONE = unknown */
    int64_t compile_ns;   /* native compile time within the load; CS_NONE = unknown */
    int64_t source_bytes; /* generated source size; CS_NONE = unknown */
    int64_t lto_artifacts;/* number of LTO artifacts; CS_NONE = unknown */
    cs_track track;       /* lane; CS_THREAD_TRACK = calling thread */
    uint32_t option_count;
    const cs_module_option* options;
    const cs_module_kernel* kernels;
    uint32_t kernel_count;
    int32_t pad;          /* set to 0 */
} cs_module_load;

CS_API void cs_module_load_record(const cs_module_load* load);

/* ---- CUDA (cuda_programs, cuda_jit, cuda_modules, kernel_launches, phase_timings) -------------- */

typedef struct cs_cuda_input {
    cs_str kind;   /* "ptx", "cubin", "fatbin", "ltoir", "object", "library"; 0 = unknown */
    cs_str name;   /* input name; 0 = none */
    int64_t bytes; /* input size; CS_NONE = unknown */
} cs_cuda_input;

/* An NVRTC compile or nvJitLink link. */
typedef struct cs_cuda_program {
    int64_t start_ns;      /* begin; CS_NOW = now */
    int64_t dur_ns;        /* duration; CS_NONE = unknown */
    int32_t api;           /* cs_cuda_api */
    cs_str name;           /* program name; 0 = none */
    cs_str source_digest;  /* digest of the source / inputs; 0 = none */
    cs_track track;        /* lane; CS_THREAD_TRACK = calling thread */
    int64_t result;        /* API result code, 0 = success; CS_NONE = unknown */
    int64_t log_bytes;     /* compile / link log size; CS_NONE = unknown */
    int64_t output_bytes;  /* PTX / CUBIN / linked output size; CS_NONE = unknown */
    const cs_str* options; /* options in order */
    uint32_t option_count;
    uint32_t input_count;
    const cs_cuda_input* inputs; /* nvJitLink inputs in order; may be NULL */
} cs_cuda_program;

CS_API void cs_cuda_program_record(const cs_cuda_program* program);

/* Driver JIT activity (mirrors CUpti_ActivityJit2). */
typedef struct cs_cuda_jit {
    int64_t start_ns;           /* begin; CS_NONE when CUPTI did not collect it */
    int64_t dur_ns;             /* CS_NONE = unknown */
    int32_t entry_type;         /* cs_jit_entry */
    int32_t operation;          /* cs_jit_operation */
    int64_t device;             /* device ordinal; CS_NONE = unknown */
    int64_t correlation_id;     /* CS_NONE = unknown */
    int64_t jit_correlation_id; /* CS_NONE = unknown */
    int64_t cache_bytes;        /* compute cache size; CS_NONE = unknown */
    cs_str cache_path;          /* compute cache path; 0 = none */
    int32_t pad;                /* set to 0 */
} cs_cuda_jit;

CS_API void cs_cuda_jit_record(const cs_cuda_jit* jit);

/* A CUDA module load or unload (op: cs_cuda_module_op). */
CS_API void cs_cuda_module(int64_t ts_ns, int op, int64_t module_id, int64_t cubin_bytes, cs_str digest);

typedef struct cs_kernel_launch {
    int64_t start_ns;        /* CS_NOW = now */
    int64_t dur_ns;          /* CS_NONE = unknown */
    cs_str name;             /* kernel name; 0 = none */
    cs_track track;          /* lane (e.g. a stream track); CS_THREAD_TRACK = calling thread */
    int64_t grid[3];         /* grid size; CS_NONE = unknown */
    int64_t block[3];        /* block size; CS_NONE = unknown */
    int64_t shared_bytes;    /* CS_NONE = unknown */
    int64_t stream;          /* CS_NONE = unknown */
    int64_t correlation_id;  /* CS_NONE = unknown */
} cs_kernel_launch;

CS_API void cs_kernel_launch_record(const cs_kernel_launch* launch);

/* One compiler phase timing (tool: cs_phase_tool), e.g. from NVRTC --time. start_ns: CS_NONE when
 * only the duration is known. */
CS_API void cs_phase_timing(int tool, cs_str input, cs_str phase, cs_str arch, int64_t start_ns, int64_t dur_ns);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* COMPILESCOPE_COMPILESCOPE_H */
