/* SPDX-License-Identifier: MIT
 *
 * The wire protocol between the in-process collector library and the recorder process.
 *
 * Why a byte stream of fixed little structs: the collector's per-thread ring buffers hold exactly
 * these records, so the background thread ships ring bytes to the socket without re-encoding them,
 * and the recorder (compilescope-recorder, which links the SQLite writer) parses them with bounds
 * checks, treating every byte as untrusted. Producer and consumer always run on the same host, so
 * integers are in native byte order; the HELLO message carries a magic and the protocol version.
 *
 * Stream layout (one Unix stream socket per recorded process, docs/collector.md):
 *   HELLO, then any sequence of messages. Every message starts with cs_wire_header; `size` counts the
 *   whole message including the header, is a multiple of 8 and at most CS_WIRE_MAX_MESSAGE.
 *   Control messages (STRING, TRACK, THREAD, DROPPED, GOODBYE) come from the library's flusher thread.
 *   Event messages (type >= CS_WIRE_FIRST_EVENT) belong to the thread named by the last THREAD message.
 *   A STRING or TRACK definition always precedes the first event that uses its id.
 *   GOODBYE means the process ended its session normally; EOF without GOODBYE means it died.
 */
#ifndef COMPILESCOPE_WIRE_PROTOCOL_H
#define COMPILESCOPE_WIRE_PROTOCOL_H

#include <compilescope/compilescope.h>

#include <stdint.h>

#define CS_WIRE_MAGIC 0x52575343u /* "CSWR" */
#define CS_WIRE_VERSION 2u
#define CS_WIRE_MAX_MESSAGE (1u << 20)     /* larger messages are malformed */
#define CS_WIRE_MAX_TEXT 4000u             /* inline texts (invalidation items) are cut here */
#define CS_WIRE_MAX_KEY 4096u              /* key components kept per lookup */
#define CS_WIRE_MAX_CLOSURE 65536u         /* closure entries kept per lookup */
/* Rounds n up to a multiple of 8 in n's own type. Not `& ~7u`: that mask is 32 bits wide, so for a
 * 64-bit n it also cleared the high half, and a count of 2^30 four-byte options aligned to 0. */
#define CS_WIRE_ALIGN(n) ((((n) + 7u) / 8u) * 8u)

typedef enum cs_wire_type {
    CS_WIRE_PAD = 0,         /* filler at the end of a ring segment; skipped */
    CS_WIRE_HELLO = 1,       /* cs_wire_hello + texts */
    CS_WIRE_STRING = 2,      /* cs_wire_string + bytes */
    CS_WIRE_TRACK = 3,       /* cs_wire_track */
    CS_WIRE_THREAD = 4,      /* cs_wire_thread (+ thread name on first use) */
    CS_WIRE_DROPPED = 5,     /* cs_wire_dropped */
    CS_WIRE_GOODBYE = 6,     /* cs_wire_goodbye */
    CS_WIRE_ARENA = 7,       /* cs_wire_arena, with the arena's fd as SCM_RIGHTS */
    CS_WIRE_FIRST_EVENT = 16,
    CS_WIRE_SPAN_BEGIN = 16,
    CS_WIRE_SPAN_END = 17,
    CS_WIRE_SPAN_COMPLETE = 18,
    CS_WIRE_SPAN_ARG = 19,
    CS_WIRE_STEP = 20,
    CS_WIRE_CACHE_LOOKUP = 21, /* cs_wire_cache_lookup + key[] + closure[] */
    CS_WIRE_CLOSURE = 22,
    CS_WIRE_COUNTER = 23,
    CS_WIRE_METHOD = 24,
    CS_WIRE_INVALIDATION = 25, /* cs_wire_invalidation + text */
    CS_WIRE_MODULE_LOAD = 26,  /* cs_wire_module_load + options[] + kernels[] */
    CS_WIRE_CUDA_PROGRAM = 27, /* cs_wire_cuda_program + inputs[] + options[] */
    CS_WIRE_CUDA_JIT = 28,
    CS_WIRE_CUDA_MODULE = 29,
    CS_WIRE_KERNEL_LAUNCH = 30,
    CS_WIRE_PHASE_TIMING = 31,
    CS_WIRE_TYPE_END
} cs_wire_type;

typedef struct cs_wire_header {
    uint16_t type;  /* cs_wire_type */
    uint16_t flags; /* type-specific, 0 unless stated */
    uint32_t size;  /* whole message in bytes, multiple of 8 */
} cs_wire_header;

/* Followed by runtime, host and cmdline texts (lengths below; cmdline args separated by NUL). */
typedef struct cs_wire_hello {
    cs_wire_header h;
    uint32_t magic;   /* CS_WIRE_MAGIC */
    uint32_t version; /* CS_WIRE_VERSION */
    int64_t pid, ppid;
    int64_t start_ns; /* CLOCK_MONOTONIC */
    uint32_t runtime_len, host_len, cmdline_len, pad;
} cs_wire_hello;

typedef struct cs_wire_string {
    cs_wire_header h;
    uint32_t id;  /* process-local cs_str, dense from 1 */
    uint32_t len; /* bytes that follow (then padding to 8) */
} cs_wire_string;

typedef struct cs_wire_track {
    cs_wire_header h;
    uint32_t id; /* process-local cs_track, dense from 1 */
    int32_t kind;
    int64_t tid;
    uint32_t name;
    uint32_t pad;
} cs_wire_track;

/* The event bytes that follow, up to the next control message, are the bytes of arena ring `slot`
 * from position ring_pos on (slot CS_ARENA_NO_SLOT: a private ring the recorder cannot read). */
typedef struct cs_wire_thread {
    cs_wire_header h;
    int64_t tid;       /* OS thread id */
    uint64_t ring_pos; /* ring position of the first event byte that follows */
    uint32_t name_len; /* thread name bytes that follow, on the first THREAD of a thread only */
    uint32_t slot;     /* arena slot of the thread's ring, or CS_ARENA_NO_SLOT */
} cs_wire_thread;

typedef struct cs_wire_dropped {
    cs_wire_header h;
    uint64_t count; /* events dropped since the last DROPPED */
    uint32_t reason; /* cs_drop_reason */
    uint32_t pad;
} cs_wire_dropped;

/* Why events were dropped (cs_wire_dropped.reason, the stats row's name). */
typedef enum cs_drop_reason {
    CS_DROP_BUFFER_FULL = 0, /* ring full: drop policy, or the wait policy's stall limit passed */
    CS_DROP_REENTRANT = 1,   /* recorded from inside another event (signal handler, hook) */
    CS_DROP_OVERSIZED = 2,   /* one record larger than a quarter of the ring */
    CS_DROP_NO_RECORDER = 3, /* the recorder was unreachable or its connection was lost */
    CS_DROP_REASONS
} cs_drop_reason;

typedef struct cs_wire_arena {
    cs_wire_header h;
    uint64_t size; /* bytes of the memfd sent with this message */
} cs_wire_arena;

typedef struct cs_wire_goodbye {
    cs_wire_header h;
    int64_t end_ns;
} cs_wire_goodbye;

typedef struct cs_wire_span_begin {
    cs_wire_header h;
    int64_t ts_ns;
    uint32_t track;
    int32_t category;
    uint32_t name;
    uint32_t pad;
} cs_wire_span_begin;

typedef struct cs_wire_span_end {
    cs_wire_header h;
    int64_t ts_ns;
    uint32_t track;
    uint32_t pad;
} cs_wire_span_end;

typedef struct cs_wire_span_complete {
    cs_wire_header h;
    int64_t start_ns;
    int64_t dur_ns;
    uint32_t track;
    int32_t category;
    uint32_t name;
    uint32_t pad;
} cs_wire_span_complete;

/* h.flags: 0 = integer value, 1 = string (value holds a cs_str). */
typedef struct cs_wire_span_arg {
    cs_wire_header h;
    uint32_t key;
    uint32_t pad;
    int64_t value;
} cs_wire_span_arg;

typedef struct cs_wire_step {
    cs_wire_header h;
    int64_t ts_ns, step, epoch;
    uint32_t label;
    uint32_t pad;
} cs_wire_step;

typedef struct cs_wire_cache_lookup {
    cs_wire_header h;
    uint64_t lookup_id; /* process-local, for CLOSURE messages */
    int64_t ts_ns, compile_ns, step;
    uint32_t cache, program, handle, fingerprint;
    int32_t verdict;
    uint32_t track;
    uint32_t key_count, closure_count;
    /* followed by key_count cs_key_component, then closure_count cs_closure_entry */
} cs_wire_cache_lookup;

typedef struct cs_wire_closure {
    cs_wire_header h;
    uint64_t lookup_id;
    cs_closure_entry entry;
} cs_wire_closure;

typedef struct cs_wire_counter {
    cs_wire_header h;
    int64_t ts_ns, value;
    uint32_t scope, name;
} cs_wire_counter;

typedef struct cs_wire_method {
    cs_wire_header h;
    cs_method_info info; /* ts_ns resolved */
} cs_wire_method;

typedef struct cs_wire_invalidation {
    cs_wire_header h;
    int64_t ordinal;
    int32_t list, kind;
    uint32_t text_len; /* bytes that follow */
    uint32_t truncated; /* 1 when the caller's text was longer than CS_WIRE_MAX_TEXT */
} cs_wire_invalidation;

typedef struct cs_wire_module_load {
    cs_wire_header h;
    int64_t start_ns, dur_ns, block_dim, compile_ns, source_bytes, lto_artifacts;
    uint32_t name, hash, device;
    int32_t result;
    uint32_t track, option_count, kernel_count, pad;
    /* followed by option_count cs_module_option, then kernel_count cs_module_kernel */
} cs_wire_module_load;

typedef struct cs_wire_cuda_program {
    cs_wire_header h;
    int64_t start_ns, dur_ns, result, log_bytes, output_bytes;
    int32_t api;
    uint32_t name, source_digest, track, input_count, option_count;
    /* followed by input_count cs_cuda_input, then option_count cs_str (padded to 8) */
} cs_wire_cuda_program;

typedef struct cs_wire_cuda_jit {
    cs_wire_header h;
    cs_cuda_jit jit;
} cs_wire_cuda_jit;

typedef struct cs_wire_cuda_module {
    cs_wire_header h;
    int64_t ts_ns, module_id, cubin_bytes;
    int32_t op;
    uint32_t digest;
} cs_wire_cuda_module;

typedef struct cs_wire_kernel_launch {
    cs_wire_header h;
    cs_kernel_launch launch; /* start_ns resolved */
} cs_wire_kernel_launch;

typedef struct cs_wire_phase_timing {
    cs_wire_header h;
    int64_t start_ns, dur_ns;
    int32_t tool;
    uint32_t input, phase, arch;
} cs_wire_phase_timing;

/* The arena: one memfd per recording process, shared with the recorder (ARENA message).
 *   [0, 128)                        cs_arena_header
 *   [slots_offset, ...)             slot_count cs_arena_slot, one per recording thread
 *   [log_offset, + log_capacity)    STRING and TRACK messages of every definition, in order
 *   [rings_offset + i * ring_bytes) ring of slot i: wire records, PAD where a record would wrap
 * Positions are byte counts since the ring was created (ring offset = position % ring_bytes). The
 * producer publishes `write` and the flusher `read` with release stores. A slot is in use while
 * `state` is 1. The recorder reads the arena only after the stream ended without GOODBYE, treating
 * every field as untrusted. */
#define CS_ARENA_MAGIC 0x41525343u /* "CSRA" */
#define CS_ARENA_VERSION 1u
#define CS_ARENA_NO_SLOT 0xFFFFFFFFu

typedef struct cs_arena_slot {
    /* first cache line: the recording thread's */
    uint64_t write;                     /* end of the published records */
    uint64_t dropped[CS_DROP_REASONS];  /* events dropped, by cs_drop_reason */
    int64_t tid;                        /* OS thread id */
    uint32_t state;                     /* 0 free, 1 in use */
    uint32_t pad0;
    uint64_t pad1;
    /* second cache line: the flusher's */
    uint64_t read;                          /* bytes before this reached the socket */
    uint64_t dropped_sent[CS_DROP_REASONS]; /* drops already reported in DROPPED messages */
    char name[16];                          /* thread name (no NUL when 16 long) */
    uint64_t pad2;
} cs_arena_slot;

typedef struct cs_arena_header {
    uint32_t magic, version;
    uint32_t slot_count, slot_bytes; /* slot_bytes = sizeof(cs_arena_slot) */
    uint64_t ring_bytes;             /* capacity of each ring, a power of two */
    uint64_t log_offset, log_capacity;
    uint64_t log_used;               /* published bytes of the log */
    uint64_t rings_offset, slots_offset;
    /* Drops the slots' counters no longer (or never) hold, by cs_drop_reason: exited threads',
     * private rings', reentrant ones, and events lost in a send that failed. With the live slots'
     * `dropped` they make every event the process counted, which the recorder compares with the
     * DROPPED messages it received when the stream ends or the recording finishes
     * (docs/collector.md, "A stalled recorder"). */
    uint64_t dropped_elsewhere[CS_DROP_REASONS];
    /* Events of private rings (threads beyond the slots): published, and gone from the ring into
     * the socket or a drop counter. A process that dies without GOODBYE lost the difference. */
    uint64_t private_published, private_done;
    uint64_t pad[2];
} cs_arena_header;

#endif /* COMPILESCOPE_WIRE_PROTOCOL_H */
