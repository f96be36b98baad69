#include "core/ingest/julia/julia_timing_writer.h"

#include "core/formats/julia_log_lines.h"
#include "core/formats/julia_text.h"
#include "core/formats/text_util.h"

#include <cmath>

namespace cs::ingest {

std::int64_t JuliaTimingWriter::track() {
    auto& w = m_ctx.writer;
    if (!m_track)
        m_track = w.addTrack({.sessionId = m_ctx.sessionId, .kind = CS_TRACK_RUNTIME, .name = w.intern("julia compiles")});
    return *m_track;
}

std::int64_t JuliaTimingWriter::span(int category, std::string_view name, std::optional<std::int64_t> durNs) {
    auto& w = m_ctx.writer;
    m_lastTime.reset();  // the @time line, if it was the last span, is no longer next to what follows
    auto id = w.addSpan({.trackId = track(), .startNs = m_cursor, .durNs = durNs, .category = category, .name = w.intern(name)});
    if (durNs) m_cursor += *durNs;
    ++m_records;
    return id;
}

std::int64_t JuliaTimingWriter::spanAt(int category, std::string_view name, std::int64_t startNs, std::int64_t durNs) {
    auto& w = m_ctx.writer;
    ++m_records;
    return w.addSpan({.trackId = track(), .startNs = startNs, .durNs = durNs, .category = category, .name = w.intern(name)});
}

// Percentages become nanoseconds here, once, so the cost join and SQL users read durations, never
// percentages: compile_ns = elapsed x compile%, recompile_ns = compile_ns x recompile%.
void JuliaTimingWriter::writeShares(std::int64_t id, std::int64_t ns, double compilePct, double recompilePct, bool below1,
                                    bool nestedInit) {
    auto& w = m_ctx.writer;
    auto pct = [](std::int64_t v, double p) { return static_cast<std::int64_t>(std::llround(static_cast<double>(v) * p / 100.0)); };
    auto compileNs = pct(ns, compilePct);
    w.addSpanArg(id, w.intern(nestedInit ? "init_compile_ns" : "compile_ns"), compileNs);
    w.addSpanArg(id, w.intern(nestedInit ? "init_recompile_ns" : "recompile_ns"), pct(compileNs, recompilePct));
    if (recompilePct > 0) w.addSpanArg(id, w.intern("recompile_pct"), recompilePct);
    if (below1) w.addSpanArg(id, w.intern("recompile_below_1pct"), std::int64_t{1});
}

void JuliaTimingWriter::importRow(const ImportRow& row) {
    auto& w = m_ctx.writer;
    if (row.isInit) {
        m_pendingInits.push_back(row);
        return;
    }
    const std::int64_t start = m_cursor;
    auto id = span(CS_CAT_IMPORT, row.name, row.ns);
    writeShares(id, row.ns, row.compilePct, row.recompilePct, row.recompileBelow1, false);
    if (!row.extensionOf.empty()) w.addSpanArg(id, w.intern("extension_of"), row.extensionOf);
    // Nested at the package's start, end to end: the init's compile share then lies inside the
    // package's (the summary places a share at its span's start), so unions count it once.
    std::int64_t at = start;
    for (const auto& init : m_pendingInits) {
        auto iid = spanAt(CS_CAT_INIT, init.name, at, init.ns);
        writeShares(iid, init.ns, init.compilePct, init.recompilePct, init.recompileBelow1, true);
        w.addSpanArg(iid, w.intern("package"), row.name);
        at += init.ns;
    }
    m_pendingInits.clear();
}

void JuliaTimingWriter::closeBox() {
    if (!m_box) return;
    Box box = std::move(*m_box);
    m_box.reset();
    if (!box.workload) return;
    auto& w = m_ctx.writer;
    // `@time include(...)` in a workload prints its @time result first, then the workload row that
    // contains it: the row starts where that result started, so the time is counted once.
    const bool nested = m_lastTime && box.text.find("@time") != std::string::npos && box.ns >= m_lastTime->ns;
    if (nested) m_cursor = m_lastTime->startNs;
    auto id = span(CS_CAT_COMPILE, box.text.empty() ? "(workload statement)" : box.text, box.ns);
    w.addSpanArg(id, w.intern("workload"), std::int64_t{1});
    if (nested) w.addSpanArg(id, w.intern("contains_time"), std::int64_t{1});
    if (!m_package.empty()) w.addSpanArg(id, w.intern("package"), m_package);
}

// Logging frames: a one-line message is complete; a box collects its body until "└". A box's last
// line may be the location ("└ @ Base loading.jl:1662"), which is not part of the message.
bool JuliaTimingWriter::logLine(std::string_view l) {
    auto& w = m_ctx.writer;
    std::string_view message;
    auto frame = logFrame(l, message);
    if (m_box && (frame == LogFrame::BoxBody || frame == LogFrame::BoxEnd)) {
        bool location = frame == LogFrame::BoxEnd && startsWith(message, "@ ");
        if (!location) {
            if (!m_box->text.empty()) m_box->text += '\n';
            m_box->text += std::string(message);
        }
        if (frame == LogFrame::BoxEnd) closeBox();
        return true;
    }
    closeBox();
    if (frame != LogFrame::Single && frame != LogFrame::BoxHead) return false;
    PrecompilingLine pre;
    if (parsePrecompilingMessage(message, pre)) {
        auto id = span(CS_CAT_OTHER, "Precompiling " + pre.package, std::nullopt);
        w.addSpanArg(id, w.intern("uuid"), pre.uuid);
        if (!pre.reason.empty()) w.addSpanArg(id, w.intern("cache_reason"), pre.reason);
        m_package = pre.package;
        if (frame == LogFrame::BoxHead) m_box = Box{};  // its "└ @ Base loading.jl:N" line follows
        return true;
    }
    WorkloadRow row;
    if (parseWorkloadMessage(message, row)) {
        m_box = Box{.workload = true, .ns = row.ns, .text = row.expression};
        if (frame == LogFrame::Single) closeBox();
        return true;
    }
    return false;
}

bool JuliaTimingWriter::line(std::string_view raw) {
    auto& w = m_ctx.writer;
    if (logLine(raw)) return true;
    std::string_view l = uncommented(raw);
    std::string input;
    if (parseReplPrompt(l, input) || !timedExpression(l).empty()) {
        // The prompt, or a script's own `@time f(x)` line, names what the next @time result timed.
        m_prompt = input.empty() ? std::string(trim(l)) : input;
        return true;
    }
    CompileStatement cs;
    if (parseCompileStatement(l, cs)) {
        auto id = span(CS_CAT_COMPILE, cs.signature, cs.ns);
        if (cs.recompile) w.addSpanArg(id, w.intern("recompile"), std::int64_t{1});
        if (!cs.ns) w.addSpanArg(id, w.intern("untimed"), std::int64_t{1});
        return true;
    }
    ImportRow row;
    if (parseImportRow(l, row)) {
        importRow(row);
        return true;
    }
    TimeLine tl;
    if (parseTimeLine(l, tl)) {
        const std::int64_t start = m_cursor;
        auto id = span(CS_CAT_OTHER, "@time", tl.ns);
        m_lastTime = TimeSpan{.startNs = start, .ns = tl.ns};
        writeShares(id, tl.ns, tl.compilePct, tl.recompilePct, tl.recompileBelow1, false);
        if (tl.gcPct > 0) w.addSpanArg(id, w.intern("gc_pct"), tl.gcPct);
        if (!tl.detail.empty()) w.addSpanArg(id, w.intern("detail"), tl.detail);
        auto expr = timedExpression(m_prompt);
        if (!expr.empty()) {
            w.addSpanArg(id, w.intern("expr"), expr);
            w.addSpanArg(id, w.intern("run"), ++m_runs[expr]);
        }
        m_prompt.clear();
        return true;
    }
    return false;
}

void JuliaTimingWriter::finish() {
    closeBox();
    for (const auto& init : m_pendingInits) {
        auto id = span(CS_CAT_INIT, init.name, init.ns);
        writeShares(id, init.ns, init.compilePct, init.recompilePct, init.recompileBelow1, false);
    }
    m_pendingInits.clear();
}

}  // namespace cs::ingest
