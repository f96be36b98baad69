#include "core/ingest/julia/julia_timing_writer.h"

#include "core/formats/julia_text.h"

#include <cmath>

namespace cs::ingest {

std::int64_t JuliaTimingWriter::span(int category, std::string_view name, std::int64_t durNs) {
    auto& w = m_ctx.writer;
    if (!m_track)
        m_track = w.addTrack({.sessionId = m_ctx.sessionId, .kind = CS_TRACK_RUNTIME, .name = w.intern("julia compiles")});
    auto id = w.addSpan({.trackId = *m_track, .startNs = m_cursor, .durNs = durNs, .category = category, .name = w.intern(name)});
    m_cursor += durNs;
    ++m_records;
    return id;
}

// Percentages become nanoseconds here, once, so the cost join and SQL users read durations, never
// percentages: compile_ns = elapsed x compile%, recompile_ns = compile_ns x recompile%.
bool JuliaTimingWriter::line(std::string_view l) {
    auto& w = m_ctx.writer;
    auto pct = [](std::int64_t ns, double p) { return static_cast<std::int64_t>(std::llround(static_cast<double>(ns) * p / 100.0)); };
    CompileStatement cs;
    if (parseCompileStatement(l, cs)) {
        auto id = span(CS_CAT_COMPILE, cs.signature, cs.ns.value_or(0));
        if (cs.recompile) w.addSpanArg(id, w.intern("recompile"), std::int64_t{1});
        if (!cs.ns) w.addSpanArg(id, w.intern("untimed"), std::int64_t{1});
        return true;
    }
    ImportRow row;
    if (parseImportRow(l, row)) {
        auto id = span(row.isInit ? CS_CAT_INIT : CS_CAT_IMPORT, row.name, row.ns);
        auto compileNs = pct(row.ns, row.compilePct);
        w.addSpanArg(id, w.intern("compile_ns"), compileNs);
        w.addSpanArg(id, w.intern("recompile_ns"), pct(compileNs, row.recompilePct));
        if (row.recompileBelow1) w.addSpanArg(id, w.intern("recompile_below_1pct"), std::int64_t{1});
        if (!row.extensionOf.empty()) w.addSpanArg(id, w.intern("extension_of"), row.extensionOf);
        return true;
    }
    TimeLine tl;
    if (parseTimeLine(l, tl)) {
        auto id = span(CS_CAT_OTHER, "@time", tl.ns);
        auto compileNs = pct(tl.ns, tl.compilePct);
        w.addSpanArg(id, w.intern("compile_ns"), compileNs);
        w.addSpanArg(id, w.intern("recompile_ns"), pct(compileNs, tl.recompilePct));
        if (tl.recompileBelow1) w.addSpanArg(id, w.intern("recompile_below_1pct"), std::int64_t{1});
        if (tl.gcPct > 0) w.addSpanArg(id, w.intern("gc_pct"), tl.gcPct);
        if (!tl.detail.empty()) w.addSpanArg(id, w.intern("detail"), tl.detail);
        return true;
    }
    return false;
}

}  // namespace cs::ingest
