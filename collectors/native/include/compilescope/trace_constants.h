/* SPDX-License-Identifier: MIT
 *
 * CompileScope trace constants: the enumerations stored as integers in a .cstrace file.
 *
 * Why this header exists: docs/architecture.md (Rules) says collectors and the analysis core share only the
 * trace format. The SQL schema lives in core/trace/schema.cpp; the numeric codes a collector must
 * agree on with that schema live here, once, in plain C so that any runtime (C, C++, Python via
 * ctypes, Julia via ccall) can use them. Values are part of trace format v1: never renumber, only
 * append. Every enum is also written into the trace's `enums` table, so `sqlite3` users can join on
 * names instead of remembering numbers.
 */
#ifndef COMPILESCOPE_TRACE_CONSTANTS_H
#define COMPILESCOPE_TRACE_CONSTANTS_H

/* `PRAGMA application_id` of every trace: the ASCII bytes "CSTR". */
#define CS_TRACE_APPLICATION_ID 0x43535452
/* `PRAGMA user_version`: the trace format version this header describes. */
#define CS_TRACE_FORMAT_VERSION 2

/* spans.category: what kind of work a span covers. */
typedef enum cs_category {
    CS_CAT_OTHER = 0,
    CS_CAT_COMPILE = 1,     /* a compile of one program / method instance / module */
    CS_CAT_CACHE_LOAD = 2,  /* loading an already compiled artifact from a cache */
    CS_CAT_MODULE_LOAD = 3, /* a module (Warp, CUDA) load, compiled or cached */
    CS_CAT_LAUNCH = 4,      /* a kernel launch or program execution */
    CS_CAT_IMPORT = 5,      /* package / module import */
    CS_CAT_INIT = 6,        /* runtime or package initialisation (__init__) */
    CS_CAT_STEP = 7,        /* one training / evaluation step */
    CS_CAT_INFERENCE = 8,   /* type inference (Julia) or tracing (JAX, Reactant) */
    CS_CAT_CODEGEN = 9,     /* code generation, optimisation passes */
    CS_CAT_LINK = 10,       /* linking (nvJitLink, LTO) */
    CS_CAT_PHASE = 11,      /* a compiler phase (nvcc --time, -ftime-trace events) */
    CS_CAT_GC = 12,
    CS_CAT_COUNT
} cs_category;

/* cache_lookups.verdict: what the runtime itself said about a lookup. */
typedef enum cs_verdict { CS_VERDICT_UNKNOWN = 0, CS_VERDICT_HIT = 1, CS_VERDICT_MISS = 2 } cs_verdict;

/* key_components.role: how a component takes part in a program key (docs/cache-replay.md, "What is in the key"). */
typedef enum cs_key_role {
    CS_ROLE_OTHER = 0,      /* in the key, role unknown */
    CS_ROLE_FUNCTION = 1,   /* function identity */
    CS_ROLE_WORLD = 2,      /* world age of a hook / method */
    CS_ROLE_SHAPE = 3,      /* shape (and element type) of an argument */
    CS_ROLE_GRAPHCONST = 4, /* hash of GraphConst fields */
    CS_ROLE_KEYWORD = 5,    /* a baked keyword such as accum or gradient_clip_norm */
    CS_ROLE_DEVICE = 6,     /* a Device field: recorded for display, NOT in the key */
    CS_ROLE_HOST = 7,       /* a Host field: recorded for display, NOT in the key */
    CS_ROLE_TYPE = 8,       /* a type parameter / dtype */
    CS_ROLE_OPTION = 9      /* a compiler option */
} cs_key_role;

/* module_loads.result */
typedef enum cs_module_result {
    CS_MODULE_UNKNOWN = 0,
    CS_MODULE_COMPILED = 1,
    CS_MODULE_CACHED = 2,
    CS_MODULE_ERROR = 3
} cs_module_result;

/* tracks.kind */
typedef enum cs_track_kind {
    CS_TRACK_THREAD = 0,
    CS_TRACK_DEVICE = 1,
    CS_TRACK_STREAM = 2,
    CS_TRACK_RUNTIME = 3, /* a logical lane: "warp modules", "julia compiles", ... */
    CS_TRACK_PROCESS = 4
} cs_track_kind;

/* methods.event */
typedef enum cs_method_event {
    CS_METHOD_DEFINE = 0,
    CS_METHOD_REDEFINE = 1,
    CS_METHOD_DELETE = 2
} cs_method_event;

/* invalidation_items.list: which Julia list an item came from. */
typedef enum cs_invalidation_list {
    CS_INVLIST_METHODS = 0, /* jl_debug_method_invalidation ("logmeths") */
    CS_INVLIST_EDGES = 1,   /* Base.StaticData edge validation, Julia >= 1.12 ("logedges") */
    CS_INVLIST_PRINTED = 2  /* lines of SnoopCompile's printed invalidation_trees, in order */
} cs_invalidation_list;

/* invalidation_items.kind: the Julia type of a raw list item. */
typedef enum cs_invalidation_item_kind {
    CS_INVITEM_OTHER = 0,
    CS_INVITEM_METHOD_INSTANCE = 1,
    CS_INVITEM_INT = 2,  /* Int32 depth */
    CS_INVITEM_TAG = 3,  /* a String such as "jl_method_table_insert" */
    CS_INVITEM_METHOD = 4,
    CS_INVITEM_TYPE = 5, /* a signature Tuple{...} */
    CS_INVITEM_CODE_INSTANCE = 6,
    CS_INVITEM_BINDING = 7,
    CS_INVITEM_VECTOR = 8, /* e.g. the matches of insert_backedges_callee */
    CS_INVITEM_NOTHING = 9,
    CS_INVITEM_ELISION = 10, /* a printed "⋮": items the REPL did not show */
    CS_INVITEM_TREE_LINE = 11 /* one line of a printed invalidation tree (list CS_INVLIST_PRINTED) */
} cs_invalidation_item_kind;

/* cuda_programs.api */
typedef enum cs_cuda_api { CS_CUDA_NVRTC = 0, CS_CUDA_NVJITLINK = 1, CS_CUDA_NVCC = 2 } cs_cuda_api;

/* cuda_jit.entry_type: mirrors CUpti_ActivityJitEntryType */
typedef enum cs_jit_entry { CS_JIT_ENTRY_INVALID = 0, CS_JIT_ENTRY_PTX_TO_CUBIN = 1, CS_JIT_ENTRY_NVVM_IR_TO_PTX = 2 } cs_jit_entry;

/* cuda_jit.operation: mirrors CUpti_ActivityJitOperationType */
typedef enum cs_jit_operation {
    CS_JIT_OP_INVALID = 0,
    CS_JIT_OP_CACHE_LOAD = 1,
    CS_JIT_OP_CACHE_STORE = 2,
    CS_JIT_OP_COMPILE = 3
} cs_jit_operation;

/* cuda_modules.op */
typedef enum cs_cuda_module_op { CS_CUDA_MODULE_LOAD = 0, CS_CUDA_MODULE_UNLOAD = 1 } cs_cuda_module_op;

/* phase_timings.tool: which compiler produced the timing. */
typedef enum cs_phase_tool {
    CS_PHASE_TOOL_OTHER = 0,
    CS_PHASE_TOOL_NVCC = 1,  /* nvcc --time CSV */
    CS_PHASE_TOOL_NVRTC = 2, /* NVRTC --time CSV */
    CS_PHASE_TOOL_CLANG = 3, /* clang -ftime-trace */
    CS_PHASE_TOOL_JULIA = 4
} cs_phase_tool;

#endif /* COMPILESCOPE_TRACE_CONSTANTS_H */
