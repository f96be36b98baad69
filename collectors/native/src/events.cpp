// SPDX-License-Identifier: MIT
// The event entry points of compilescope.h: each checks the enabled flag, then writes one wire
// record into the calling thread's ring (collector_state.h, emit()).
//
// Why records are written field by field into the ring: it is the whole cost of an enabled event
// (plus a clock read), with no allocation, lock or system call. Variable parts (key components,
// options, kernels, texts) are bounded and copied in the same record so a lookup arrives whole.
#include "collector_state.h"

#include <compilescope/wire_protocol.h>

#include <algorithm>
#include <cstring>

using namespace cs::collector;

static_assert(sizeof(cs_wire_header) == 8);
static_assert(sizeof(cs_wire_span_complete) % 8 == 0 && sizeof(cs_wire_span_begin) % 8 == 0);
static_assert(sizeof(cs_wire_cache_lookup) % 8 == 0 && sizeof(cs_wire_module_load) % 8 == 0);
static_assert(sizeof(cs_wire_cuda_program) % 8 == 0 && sizeof(cs_wire_kernel_launch) % 8 == 0);
static_assert(sizeof(cs_wire_method) % 8 == 0 && sizeof(cs_wire_cuda_jit) % 8 == 0);
static_assert(sizeof(cs_key_component) == 16 && sizeof(cs_closure_entry) == 16);

namespace {
inline std::int64_t resolveTs(std::int64_t ts) { return ts == CS_NOW ? monotonicNs() : ts; }

template <class T>
inline T* header(unsigned char* p, cs_wire_type type, std::uint32_t size) {
    auto* r = reinterpret_cast<T*>(p);
    r->h = {static_cast<std::uint16_t>(type), 0, size};
    return r;
}

// Copies `count` items of `item` bytes, then zero padding to 8.
inline unsigned char* copyArray(unsigned char* dst, const void* src, std::size_t count, std::size_t item) {
    const std::size_t n = count * item;
    if (n) std::memcpy(dst, src, n);
    std::memset(dst + n, 0, CS_WIRE_ALIGN(n) - n);
    return dst + CS_WIRE_ALIGN(n);
}
}  // namespace

extern "C" {

CS_API void cs_span_begin(cs_track track, int category, cs_str name) {
    if (!active()) return;
    const std::int64_t ts = monotonicNs();
    emit(sizeof(cs_wire_span_begin), [&](unsigned char* p) {
        auto* r = header<cs_wire_span_begin>(p, CS_WIRE_SPAN_BEGIN, sizeof(cs_wire_span_begin));
        r->ts_ns = ts;
        r->track = track;
        r->category = category;
        r->name = name;
        r->pad = 0;
    });
}

CS_API void cs_span_end(cs_track track) {
    if (!active()) return;
    const std::int64_t ts = monotonicNs();
    emit(sizeof(cs_wire_span_end), [&](unsigned char* p) {
        auto* r = header<cs_wire_span_end>(p, CS_WIRE_SPAN_END, sizeof(cs_wire_span_end));
        r->ts_ns = ts;
        r->track = track;
        r->pad = 0;
    });
}

CS_API void cs_span_complete(cs_track track, int category, cs_str name, std::int64_t start_ns, std::int64_t dur_ns) {
    if (!active()) return;
    const std::int64_t start = resolveTs(start_ns);
    emit(sizeof(cs_wire_span_complete), [&](unsigned char* p) {
        auto* r = header<cs_wire_span_complete>(p, CS_WIRE_SPAN_COMPLETE, sizeof(cs_wire_span_complete));
        r->start_ns = start;
        r->dur_ns = dur_ns;
        r->track = track;
        r->category = category;
        r->name = name;
        r->pad = 0;
    });
}

static void spanArg(cs_str key, std::uint16_t kind, std::int64_t value) {
    emit(sizeof(cs_wire_span_arg), [&](unsigned char* p) {
        auto* r = header<cs_wire_span_arg>(p, CS_WIRE_SPAN_ARG, sizeof(cs_wire_span_arg));
        r->h.flags = kind;
        r->key = key;
        r->pad = 0;
        r->value = value;
    });
}

CS_API void cs_span_arg_int(cs_str key, std::int64_t value) {
    if (active()) spanArg(key, 0, value);
}

CS_API void cs_span_arg_str(cs_str key, cs_str value) {
    if (active()) spanArg(key, 1, value);
}

CS_API void cs_step(std::int64_t step, std::int64_t epoch, cs_str label) {
    if (!active()) return;
    const std::int64_t ts = monotonicNs();
    emit(sizeof(cs_wire_step), [&](unsigned char* p) {
        auto* r = header<cs_wire_step>(p, CS_WIRE_STEP, sizeof(cs_wire_step));
        r->ts_ns = ts;
        r->step = step;
        r->epoch = epoch;
        r->label = label;
        r->pad = 0;
    });
}

CS_API cs_lookup cs_cache_lookup_record(const cs_cache_lookup* l) {
    if (!active() || !l) return 0;
    const std::uint32_t keys = std::min(l->key ? l->key_count : 0u, CS_WIRE_MAX_KEY);
    const std::uint32_t closure = std::min(l->closure ? l->closure_count : 0u, CS_WIRE_MAX_CLOSURE);
    const std::size_t size = sizeof(cs_wire_cache_lookup) + (std::size_t{keys} + closure) * 16;
    if (size > CS_WIRE_MAX_MESSAGE) return 0;
    const std::uint64_t id = global().nextLookup.fetch_add(1, std::memory_order_relaxed);
    const std::int64_t ts = resolveTs(l->ts_ns);
    bool written = false;
    emit(static_cast<std::uint32_t>(size), [&](unsigned char* p) {
        auto* r = header<cs_wire_cache_lookup>(p, CS_WIRE_CACHE_LOOKUP, static_cast<std::uint32_t>(size));
        r->lookup_id = id;
        r->ts_ns = ts;
        r->compile_ns = l->compile_ns;
        r->step = l->step;
        r->cache = l->cache;
        r->program = l->program;
        r->handle = l->handle;
        r->fingerprint = l->fingerprint;
        r->verdict = l->verdict;
        r->track = l->track;
        r->key_count = keys;
        r->closure_count = closure;
        unsigned char* q = copyArray(p + sizeof *r, l->key, keys, sizeof(cs_key_component));
        copyArray(q, l->closure, closure, sizeof(cs_closure_entry));
        written = true;
    });
    return written ? id : 0;
}

CS_API void cs_closure_add(cs_lookup lookup, cs_str method, std::int64_t world) {
    if (!active() || !lookup) return;
    emit(sizeof(cs_wire_closure), [&](unsigned char* p) {
        auto* r = header<cs_wire_closure>(p, CS_WIRE_CLOSURE, sizeof(cs_wire_closure));
        r->lookup_id = lookup;
        r->entry = {method, 0, world};
    });
}

CS_API void cs_counter(cs_str scope, cs_str name, std::int64_t value) {
    if (!active()) return;
    const std::int64_t ts = monotonicNs();
    emit(sizeof(cs_wire_counter), [&](unsigned char* p) {
        auto* r = header<cs_wire_counter>(p, CS_WIRE_COUNTER, sizeof(cs_wire_counter));
        r->ts_ns = ts;
        r->value = value;
        r->scope = scope;
        r->name = name;
    });
}

CS_API void cs_method(const cs_method_info* info) {
    if (!active() || !info) return;
    cs_method_info copy = *info;
    copy.ts_ns = resolveTs(copy.ts_ns);
    copy.pad = 0;
    emit(sizeof(cs_wire_method), [&](unsigned char* p) {
        header<cs_wire_method>(p, CS_WIRE_METHOD, sizeof(cs_wire_method))->info = copy;
    });
}

CS_API void cs_invalidation_item(int list, std::int64_t ordinal, int kind, const char* text) {
    if (!active()) return;
    const std::size_t full = text ? std::strlen(text) : 0;
    const std::size_t len = std::min<std::size_t>(full, CS_WIRE_MAX_TEXT);
    const auto size = static_cast<std::uint32_t>(sizeof(cs_wire_invalidation) + CS_WIRE_ALIGN(len));
    emit(size, [&](unsigned char* p) {
        auto* r = header<cs_wire_invalidation>(p, CS_WIRE_INVALIDATION, size);
        r->ordinal = ordinal;
        r->list = list;
        r->kind = kind;
        r->text_len = static_cast<std::uint32_t>(len);
        r->truncated = full > len ? 1 : 0;
        copyArray(p + sizeof *r, text, len, 1);
    });
}

CS_API void cs_module_load_record(const cs_module_load* m) {
    if (!active() || !m) return;
    const std::uint32_t opts = std::min(m->options ? m->option_count : 0u, 4096u);
    const std::uint32_t kernels = std::min(m->kernels ? m->kernel_count : 0u, 16384u);
    const std::size_t size = sizeof(cs_wire_module_load) + CS_WIRE_ALIGN(std::size_t{opts} * 8) + std::size_t{kernels} * 16;
    const std::int64_t start = resolveTs(m->start_ns);
    emit(static_cast<std::uint32_t>(size), [&](unsigned char* p) {
        auto* r = header<cs_wire_module_load>(p, CS_WIRE_MODULE_LOAD, static_cast<std::uint32_t>(size));
        r->start_ns = start;
        r->dur_ns = m->dur_ns;
        r->block_dim = m->block_dim;
        r->compile_ns = m->compile_ns;
        r->source_bytes = m->source_bytes;
        r->lto_artifacts = m->lto_artifacts;
        r->name = m->name;
        r->hash = m->hash;
        r->device = m->device;
        r->result = m->result;
        r->track = m->track;
        r->option_count = opts;
        r->kernel_count = kernels;
        r->pad = 0;
        unsigned char* q = copyArray(p + sizeof *r, m->options, opts, sizeof(cs_module_option));
        copyArray(q, m->kernels, kernels, sizeof(cs_module_kernel));
    });
}

CS_API void cs_cuda_program_record(const cs_cuda_program* c) {
    if (!active() || !c) return;
    const std::uint32_t inputs = std::min(c->inputs ? c->input_count : 0u, 4096u);
    const std::uint32_t opts = std::min(c->options ? c->option_count : 0u, 4096u);
    const std::size_t size = sizeof(cs_wire_cuda_program) + std::size_t{inputs} * 16 + CS_WIRE_ALIGN(std::size_t{opts} * 4);
    const std::int64_t start = resolveTs(c->start_ns);
    emit(static_cast<std::uint32_t>(size), [&](unsigned char* p) {
        auto* r = header<cs_wire_cuda_program>(p, CS_WIRE_CUDA_PROGRAM, static_cast<std::uint32_t>(size));
        r->start_ns = start;
        r->dur_ns = c->dur_ns;
        r->result = c->result;
        r->log_bytes = c->log_bytes;
        r->output_bytes = c->output_bytes;
        r->api = c->api;
        r->name = c->name;
        r->source_digest = c->source_digest;
        r->track = c->track;
        r->input_count = inputs;
        r->option_count = opts;
        unsigned char* q = copyArray(p + sizeof *r, c->inputs, inputs, sizeof(cs_cuda_input));
        copyArray(q, c->options, opts, sizeof(cs_str));
    });
}

CS_API void cs_cuda_jit_record(const cs_cuda_jit* j) {
    if (!active() || !j) return;
    cs_cuda_jit copy = *j;
    copy.pad = 0;
    emit(sizeof(cs_wire_cuda_jit), [&](unsigned char* p) {
        header<cs_wire_cuda_jit>(p, CS_WIRE_CUDA_JIT, sizeof(cs_wire_cuda_jit))->jit = copy;
    });
}

CS_API void cs_cuda_module(std::int64_t ts_ns, int op, std::int64_t module_id, std::int64_t cubin_bytes, cs_str digest) {
    if (!active()) return;
    const std::int64_t ts = resolveTs(ts_ns);
    emit(sizeof(cs_wire_cuda_module), [&](unsigned char* p) {
        auto* r = header<cs_wire_cuda_module>(p, CS_WIRE_CUDA_MODULE, sizeof(cs_wire_cuda_module));
        r->ts_ns = ts;
        r->module_id = module_id;
        r->cubin_bytes = cubin_bytes;
        r->op = op;
        r->digest = digest;
    });
}

CS_API void cs_kernel_launch_record(const cs_kernel_launch* k) {
    if (!active() || !k) return;
    cs_kernel_launch copy = *k;
    copy.start_ns = resolveTs(copy.start_ns);
    emit(sizeof(cs_wire_kernel_launch), [&](unsigned char* p) {
        header<cs_wire_kernel_launch>(p, CS_WIRE_KERNEL_LAUNCH, sizeof(cs_wire_kernel_launch))->launch = copy;
    });
}

CS_API void cs_phase_timing(int tool, cs_str input, cs_str phase, cs_str arch, std::int64_t start_ns, std::int64_t dur_ns) {
    if (!active()) return;
    emit(sizeof(cs_wire_phase_timing), [&](unsigned char* p) {
        auto* r = header<cs_wire_phase_timing>(p, CS_WIRE_PHASE_TIMING, sizeof(cs_wire_phase_timing));
        r->start_ns = start_ns;
        r->dur_ns = dur_ns;
        r->tool = tool;
        r->input = input;
        r->phase = phase;
        r->arch = arch;
    });
}

}  // extern "C"
