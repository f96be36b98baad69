// WireSession::event: one event record of the wire protocol -> rows of the trace.
//
// Why the size checks: a record's declared size must equal what its fixed part and its declared
// arrays need. Anything else is counted as malformed and skipped; the framing (the header's size)
// still lets the stream continue with the next record.
#include "wire_session.h"

#include <compilescope/wire_protocol.h>

#include <cstring>

namespace cs::recorder {

namespace {
trace::OptInt opt(std::int64_t v) { return v == CS_NONE ? trace::OptInt{} : trace::OptInt{v}; }

template <class T>
T load(const unsigned char* p) {
    T v;
    std::memcpy(&v, p, sizeof v);
    return v;
}
}  // namespace

// One short handler per message type below; each checks its record's size as strictly as the
// protocol allows before it reads a byte past the fixed part.
void WireSession::event(std::uint16_t type, std::uint16_t flags, const unsigned char* p, std::size_t size) {
    Thread& t = thread();
    ++m_events;
    switch (type) {
    case CS_WIRE_SPAN_BEGIN: return onSpanBegin(t, p, size);
    case CS_WIRE_SPAN_END: return onSpanEnd(t, p, size);
    case CS_WIRE_SPAN_COMPLETE: return onSpanComplete(t, p, size);
    case CS_WIRE_SPAN_ARG: return onSpanArg(t, flags, p, size);
    case CS_WIRE_STEP: return onStep(t, p, size);
    case CS_WIRE_CACHE_LOOKUP: return onCacheLookup(p, size);
    case CS_WIRE_CLOSURE: return onClosure(p, size);
    case CS_WIRE_COUNTER: return onCounter(p, size);
    case CS_WIRE_METHOD: return onMethod(p, size);
    case CS_WIRE_INVALIDATION: return onInvalidation(p, size);
    case CS_WIRE_MODULE_LOAD: return onModuleLoad(p, size);
    case CS_WIRE_CUDA_PROGRAM: return onCudaProgram(p, size);
    case CS_WIRE_CUDA_JIT: return onCudaJit(p, size);
    case CS_WIRE_CUDA_MODULE: return onCudaModule(p, size);
    case CS_WIRE_KERNEL_LAUNCH: return onKernelLaunch(p, size);
    case CS_WIRE_PHASE_TIMING: return onPhaseTiming(p, size);
    default:
        --m_events;
        malformed("unknown event type " + std::to_string(type) + " skipped");
    }
}

void WireSession::bad(const char* what, std::size_t size) {
    malformed(std::string("bad ") + what + " record (size " + std::to_string(size) + ") skipped");
}

void WireSession::onSpanBegin(Thread& t, const unsigned char* p, std::size_t size) {
    if (size != sizeof(cs_wire_span_begin)) return bad("span begin", size);
    const auto r = load<cs_wire_span_begin>(p);
    auto& stack = t.open[r.track];
    if (stack.size() >= 4096) return bad("span begin (nesting over 4096)", size);
    stack.push_back({r.ts_ns, r.category, str(r.name), {}, {}});
    t.lastIsOpen = true;
    t.lastOpenTrack = r.track;
}

void WireSession::onSpanEnd(Thread& t, const unsigned char* p, std::size_t size) {
    if (size != sizeof(cs_wire_span_end)) return bad("span end", size);
    const auto r = load<cs_wire_span_end>(p);
    auto it = t.open.find(r.track);
    if (it == t.open.end() || it->second.empty()) {
        malformed("span end without a begin on that thread and track");
        return;
    }
    OpenSpan s = std::move(it->second.back());
    it->second.pop_back();
    writeSpan(t, track(r.track), s, r.ts_ns - s.start);
    if (!it->second.empty()) {
        t.lastIsOpen = false;  // args after an end go to the span just closed
    }
}

void WireSession::onSpanComplete(Thread& t, const unsigned char* p, std::size_t size) {
    if (size != sizeof(cs_wire_span_complete)) return bad("span", size);
    const auto r = load<cs_wire_span_complete>(p);
    t.lastSpanId = m_w.addSpan({.trackId = track(r.track), .startNs = r.start_ns, .durNs = opt(r.dur_ns),
                                .category = r.category, .name = str(r.name)});
    t.lastIsOpen = false;
}

void WireSession::onSpanArg(Thread& t, std::uint16_t flags, const unsigned char* p, std::size_t size) {
    if (size != sizeof(cs_wire_span_arg)) return bad("span arg", size);
    const auto r = load<cs_wire_span_arg>(p);
    const trace::StringId key = requiredStr(r.key);
    const bool text = flags == 1;
    std::string value;
    if (text) {
        const auto local = static_cast<std::uint64_t>(r.value);
        if (local >= 1 && local <= m_texts.size()) value = m_texts[local - 1];
    }
    if (t.lastIsOpen) {
        auto& stack = t.open[t.lastOpenTrack];
        if (!stack.empty()) {
            if (text) stack.back().strArgs.emplace_back(key, value);
            else stack.back().intArgs.emplace_back(key, r.value);
            return;
        }
    }
    if (!t.lastSpanId) return malformed("span argument before any span");
    if (text) m_w.addSpanArg(t.lastSpanId, key, std::string_view(value));
    else m_w.addSpanArg(t.lastSpanId, key, r.value);
}

void WireSession::onStep(Thread& t, const unsigned char* p, std::size_t size) {
    if (size != sizeof(cs_wire_step)) return bad("step", size);
    const auto r = load<cs_wire_step>(p);
    m_w.addStep({.sessionId = m_session, .trackId = t.trackId, .tsNs = r.ts_ns, .step = r.step,
                 .epoch = opt(r.epoch), .label = str(r.label)});
}

void WireSession::onCacheLookup(const unsigned char* p, std::size_t size) {
    if (size < sizeof(cs_wire_cache_lookup)) return bad("cache lookup", size);
    const auto r = load<cs_wire_cache_lookup>(p);
    if (r.key_count > CS_WIRE_MAX_KEY || r.closure_count > CS_WIRE_MAX_CLOSURE ||
        size != sizeof r + (std::size_t{r.key_count} + r.closure_count) * 16)
        return bad("cache lookup", size);
    const std::int64_t id = m_w.addCacheLookup({.sessionId = m_session, .trackId = track(r.track), .tsNs = r.ts_ns,
                                                .cache = str(r.cache), .program = requiredStr(r.program),
                                                .handle = str(r.handle), .verdict = r.verdict,
                                                .compileNs = opt(r.compile_ns), .fingerprint = str(r.fingerprint),
                                                .step = opt(r.step)});
    const unsigned char* q = p + sizeof r;
    for (std::uint32_t i = 0; i < r.key_count; ++i, q += 16) {
        const auto k = load<cs_key_component>(q);
        m_w.addKeyComponent({.lookupId = id, .ordinal = i, .name = requiredStr(k.name), .role = k.role,
                             .digest = str(k.digest), .value = str(k.value)});
    }
    for (std::uint32_t i = 0; i < r.closure_count; ++i, q += 16) {
        const auto c = load<cs_closure_entry>(q);
        m_w.addClosure({.lookupId = id, .method = requiredStr(c.method), .world = opt(c.world)});
    }
    if (m_lookups.size() < (1u << 22)) m_lookups[r.lookup_id] = id;
}

void WireSession::onClosure(const unsigned char* p, std::size_t size) {
    if (size != sizeof(cs_wire_closure)) return bad("closure", size);
    const auto r = load<cs_wire_closure>(p);
    auto it = m_lookups.find(r.lookup_id);
    if (it == m_lookups.end()) return malformed("closure entry for an unknown lookup");
    m_w.addClosure({.lookupId = it->second, .method = requiredStr(r.entry.method), .world = opt(r.entry.world)});
}

void WireSession::onCounter(const unsigned char* p, std::size_t size) {
    if (size != sizeof(cs_wire_counter)) return bad("counter", size);
    const auto r = load<cs_wire_counter>(p);
    m_w.addCounter({.sessionId = m_session, .tsNs = r.ts_ns, .scope = str(r.scope), .name = requiredStr(r.name),
                    .value = r.value});
}

void WireSession::onMethod(const unsigned char* p, std::size_t size) {
    if (size != sizeof(cs_wire_method)) return bad("method", size);
    const auto r = load<cs_wire_method>(p).info;
    m_w.addMethod({.sessionId = m_session, .tsNs = opt(r.ts_ns), .event = r.event, .method = requiredStr(r.method),
                   .signature = str(r.signature), .module = str(r.module), .file = str(r.file),
                   .line = opt(r.line), .world = opt(r.world)});
}

void WireSession::onInvalidation(const unsigned char* p, std::size_t size) {
    if (size < sizeof(cs_wire_invalidation)) return bad("invalidation item", size);
    const auto r = load<cs_wire_invalidation>(p);
    if (r.text_len > CS_WIRE_MAX_TEXT || size != sizeof r + CS_WIRE_ALIGN(std::size_t{r.text_len}))
        return bad("invalidation item", size);
    std::string_view text(reinterpret_cast<const char*>(p + sizeof r), r.text_len);
    m_w.addInvalidationItem({.sessionId = m_session, .list = r.list, .ordinal = r.ordinal, .kind = r.kind,
                             .text = text.empty() ? 0 : m_w.intern(text)});
    if (r.truncated)
        m_w.addStat(m_session, "truncated_text", "collector", 1, "invalidation item " + std::to_string(r.ordinal));
}

void WireSession::onModuleLoad(const unsigned char* p, std::size_t size) {
    if (size < sizeof(cs_wire_module_load)) return bad("module load", size);
    const auto r = load<cs_wire_module_load>(p);
    if (size != sizeof r + CS_WIRE_ALIGN(std::size_t{r.option_count} * 8) + std::size_t{r.kernel_count} * 16)
        return bad("module load", size);
    const std::int64_t id = m_w.addModuleLoad({.sessionId = m_session, .trackId = track(r.track),
                                               .startNs = r.start_ns, .durNs = opt(r.dur_ns),
                                               .name = requiredStr(r.name), .hash = str(r.hash),
                                               .device = str(r.device), .blockDim = opt(r.block_dim),
                                               .result = r.result, .compileNs = opt(r.compile_ns),
                                               .sourceBytes = opt(r.source_bytes),
                                               .ltoArtifacts = opt(r.lto_artifacts)});
    const unsigned char* q = p + sizeof r;
    for (std::uint32_t i = 0; i < r.option_count; ++i) {
        const auto o = load<cs_module_option>(q + i * 8);
        m_w.addModuleOption({.loadId = id, .key = requiredStr(o.key), .value = str(o.value)});
    }
    q += CS_WIRE_ALIGN(std::size_t{r.option_count} * 8);
    for (std::uint32_t i = 0; i < r.kernel_count; ++i, q += 16) {
        const auto k = load<cs_module_kernel>(q);
        m_w.addModuleKernel({.loadId = id, .kernel = requiredStr(k.kernel), .digest = str(k.digest),
                             .generic = str(k.generic)});
    }
}

void WireSession::onCudaProgram(const unsigned char* p, std::size_t size) {
    if (size < sizeof(cs_wire_cuda_program)) return bad("CUDA program", size);
    const auto r = load<cs_wire_cuda_program>(p);
    if (size != sizeof r + std::size_t{r.input_count} * 16 + CS_WIRE_ALIGN(std::size_t{r.option_count} * 4))
        return bad("CUDA program", size);
    const std::int64_t id = m_w.addCudaProgram({.sessionId = m_session, .trackId = track(r.track), .api = r.api,
                                                .startNs = r.start_ns, .durNs = opt(r.dur_ns), .name = str(r.name),
                                                .sourceDigest = str(r.source_digest), .result = opt(r.result),
                                                .logBytes = opt(r.log_bytes), .outputBytes = opt(r.output_bytes)});
    const unsigned char* q = p + sizeof r;
    for (std::uint32_t i = 0; i < r.input_count; ++i, q += 16) {
        const auto in = load<cs_cuda_input>(q);
        m_w.addCudaProgramInput({.programId = id, .ordinal = i, .kind = str(in.kind), .name = str(in.name),
                                 .bytes = opt(in.bytes)});
    }
    for (std::uint32_t i = 0; i < r.option_count; ++i)
        m_w.addCudaProgramOption({.programId = id, .ordinal = i, .option = requiredStr(load<cs_str>(q + i * 4))});
}

void WireSession::onCudaJit(const unsigned char* p, std::size_t size) {
    if (size != sizeof(cs_wire_cuda_jit)) return bad("CUDA JIT", size);
    const auto j = load<cs_wire_cuda_jit>(p).jit;
    m_w.addCudaJit({.sessionId = m_session, .startNs = opt(j.start_ns), .durNs = opt(j.dur_ns),
                    .entryType = j.entry_type, .operation = j.operation, .device = opt(j.device),
                    .correlationId = opt(j.correlation_id), .jitCorrelationId = opt(j.jit_correlation_id),
                    .cachePath = str(j.cache_path), .cacheBytes = opt(j.cache_bytes)});
}

void WireSession::onCudaModule(const unsigned char* p, std::size_t size) {
    if (size != sizeof(cs_wire_cuda_module)) return bad("CUDA module", size);
    const auto r = load<cs_wire_cuda_module>(p);
    m_w.addCudaModule({.sessionId = m_session, .tsNs = r.ts_ns, .op = r.op, .moduleId = opt(r.module_id),
                       .cubinBytes = opt(r.cubin_bytes), .digest = str(r.digest)});
}

void WireSession::onKernelLaunch(const unsigned char* p, std::size_t size) {
    if (size != sizeof(cs_wire_kernel_launch)) return bad("kernel launch", size);
    const auto k = load<cs_wire_kernel_launch>(p).launch;
    m_w.addKernelLaunch({.sessionId = m_session, .trackId = track(k.track), .startNs = k.start_ns,
                         .durNs = opt(k.dur_ns), .name = str(k.name), .gridX = opt(k.grid[0]),
                         .gridY = opt(k.grid[1]), .gridZ = opt(k.grid[2]), .blockX = opt(k.block[0]),
                         .blockY = opt(k.block[1]), .blockZ = opt(k.block[2]), .sharedBytes = opt(k.shared_bytes),
                         .stream = opt(k.stream), .correlationId = opt(k.correlation_id)});
}

void WireSession::onPhaseTiming(const unsigned char* p, std::size_t size) {
    if (size != sizeof(cs_wire_phase_timing)) return bad("phase timing", size);
    const auto r = load<cs_wire_phase_timing>(p);
    m_w.addPhaseTiming({.sessionId = m_session, .tool = r.tool, .input = str(r.input), .phase = requiredStr(r.phase),
                        .arch = str(r.arch), .startNs = opt(r.start_ns), .durNs = r.dur_ns});
}

}  // namespace cs::recorder
