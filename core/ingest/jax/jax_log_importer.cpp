#include "core/ingest/jax/jax_log_importer.h"

#include "core/ingest/import_lines.h"
#include "core/formats/jax_log_lines.h"
#include "core/formats/log_prefix.h"
#include "core/formats/text_util.h"
#include "core/util/saturating.h"
#include "core/util/utf8.h"

#include <cmath>
#include <optional>
#include <string>
#include <vector>

namespace cs::ingest {

namespace {
using jax::JaxLineKind;
using jax::MissReasonLine;

struct MissBlock {
    bool open = false;
    std::int64_t tsNs = 0;
    std::string callsite, function, definedAt, functionId, heading;
    double costMs = -1;
    std::vector<std::pair<std::string, std::string>> components;  // name, value now
    std::vector<int> roles;
    std::vector<std::string> reasons;
};

std::int64_t secondsNs(double s) { return std::isfinite(s) && s >= 0 && s < 1e9 ? std::llround(s * 1e9) : 0; }

// Lines read but not used, and lines stamped earlier than one before them (issue 35: every line an
// importer does not use is counted; out-of-order lines get a note, cache/runtime_notes.h).
struct LineTally {
    std::int64_t unused = 0, outOfOrder = 0;
    std::string firstUnused, firstOutOfOrder;
    void noteUnused(std::int64_t lineNo, std::string_view line) {
        if (trim(line).empty()) return;
        if (unused++ == 0)
            firstUnused = "line " + std::to_string(lineNo) + ": \"" + std::string(util::utf8Prefix(trim(line), 60)) + "\"";
    }
    void noteOutOfOrder(std::int64_t lineNo) {
        if (outOfOrder++ == 0) firstOutOfOrder = "line " + std::to_string(lineNo) + " is stamped earlier than a line before it";
    }
    void write(ImportContext& ctx, std::string_view source) const {
        if (unused) ctx.writer.addStat(ctx.sessionId, "unused_line", source, unused, ctx.sourceName + " " + firstUnused);
        if (outOfOrder)
            ctx.writer.addStat(ctx.sessionId, "out_of_order_line", source, outOfOrder, ctx.sourceName + " " + firstOutOfOrder);
    }
};

// DEBUG "Compiling jit(f) with global shapes and types ...": the compile request, with its shapes.
void addCompiling(trace::TraceWriter& w, std::int64_t track, std::int64_t ts, const jax::JaxLine& l) {
    auto span = w.addSpan({.trackId = track, .startNs = ts, .durNs = 0, .category = CS_CAT_OTHER,
                           .name = w.intern("Compiling " + l.function), .detail = w.intern(l.key)});
    w.addSpanArg(span, w.intern("jit_event"), std::string_view("compiling"));
    w.addSpanArg(span, w.intern("function"), std::string_view(l.function));
    w.addSpanArg(span, w.intern("global shapes and types"), std::string_view(l.key));
}

// The log prefix of a line, also when a test runner's own prefix comes before the logging one
// ("tests/api_test.py::T::t WARNING:2025-...").
LogPrefix prefixOf(const std::string& line) {
    auto p = splitLogPrefix(line);
    for (std::string_view level : {" WARNING:", " DEBUG:", " INFO:", " ERROR:"}) {
        auto at = p.tsNs ? std::string::npos : line.find(level);
        if (at != std::string::npos) {
            if (auto q = splitLogPrefix(std::string_view(line).substr(at + 1)); q.tsNs) p = q;
            break;
        }
    }
    return p;
}

// One run over a log: a flat switch over the kind of each line, one short handler per kind; the
// indented lines under a TRACING CACHE MISS go to the open block, one handler per kind of reason.
class JaxLogReader {
public:
    JaxLogReader(ImportContext& ctx, std::string_view importerId)
        : m_ctx(ctx), w(ctx.writer), m_id(importerId),
          m_track(w.addTrack({.sessionId = ctx.sessionId, .kind = CS_TRACK_RUNTIME, .name = w.intern("jax")})),
          m_tracingCache(w.intern("jax tracing cache")), m_persistentCache(w.intern("jax persistent compilation cache")),
          m_lastNs(ctx.baseNs) {}

    void line(std::string& line) {
        ++m_lineNo;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        auto p = prefixOf(line);
        const bool indented = !line.empty() && (line[0] == ' ' || line[0] == '\t');
        if (m_block.open && indented && !p.tsNs) return reasonLine(line);
        closeBlock();
        const std::int64_t ts = stamp(p.tsNs);
        auto l = jax::parseJaxLine(p.message);
        switch (l.kind) {
        case JaxLineKind::Other: return onOther(line);
        case JaxLineKind::Compiling:
            addCompiling(w, m_track, ts, l);
            ++m_summary.records;
            return;
        case JaxLineKind::TracingMiss:
            m_block.open = true;
            m_block.tsNs = ts;
            m_block.callsite = l.callsite;
            m_block.costMs = l.costMs;
            return;
        case JaxLineKind::PersistentHit:
        case JaxLineKind::PersistentMiss: return onPersistentLookup(ts, l);
        case JaxLineKind::PersistentWrite: return onPersistentWrite(ts, l);
        case JaxLineKind::TraceDone:
        case JaxLineKind::LoweringDone:
        case JaxLineKind::CompileDone: return onStepDone(ts, l);
        }
    }

    // The miss block still open is written (at the end of the input, or before the next line).
    void closeBlock();

    ImportSummary finish() {
        m_ctx.unrecognised(m_unrecognised, m_firstUnrecognised, m_id);
        m_tally.write(m_ctx, m_id);
        m_summary.unrecognised = m_unrecognised;
        m_summary.firstNs = m_firstNs < 0 ? m_ctx.baseNs : m_firstNs;
        m_summary.lastNs = m_lastNs;
        return m_summary;
    }

private:
    // Times are relative to the first timed line; a line without a time takes the last one seen.
    std::int64_t stamp(std::optional<std::int64_t> tsNs) {
        if (!tsNs) return m_lastNs;
        if (!m_origin) m_origin = *tsNs;
        const std::int64_t ts = util::satAdd(util::satSub(*tsNs, *m_origin), m_ctx.baseNs);
        if (ts < m_lastNs) m_tally.noteOutOfOrder(m_lineNo);
        m_lastNs = std::max(m_lastNs, ts);
        if (m_firstNs < 0 || ts < m_firstNs) m_firstNs = ts;
        return ts;
    }

    // An indented line under TRACING CACHE MISS: why the cache missed.
    void reasonLine(const std::string& line) {
        auto r = jax::parseMissReasonLine(line);
        using K = MissReasonLine::Kind;
        switch (r.kind) {
        case K::NeverSeen: m_block.reasons.push_back("never seen function"); return;
        case K::SeenSameLine:
            m_block.reasons.push_back("seen another function defined on the same line; maybe re-defined repeatedly");
            return;
        case K::For: m_block.function = r.function, m_block.definedAt = r.definedAt; return;
        case K::FunctionId:
            m_block.function = r.function, m_block.definedAt = r.definedAt, m_block.functionId = r.function + " id=" + r.subject;
            return;
        case K::Heading: m_block.heading = r.heading; m_block.reasons.push_back(r.heading); return;
        case K::Change: {
            auto c = jax::missComponent(m_block.heading, r);
            m_block.components.emplace_back(c.name, c.value);
            m_block.roles.push_back(c.role);
            m_block.reasons.push_back(c.reason);
            return;
        }
        case K::Other: m_tally.noteUnused(m_lineNo, line); return;  // explanatory text ("compare to tuple returned by ...")
        }
    }

    void onOther(const std::string& line) {
        if (!m_ctx.forced) m_tally.noteUnused(m_lineNo, line);
        else if (!trim(line).empty() && m_unrecognised++ == 0)
            m_firstUnrecognised = "line " + std::to_string(m_lineNo) + ": \"" + std::string(util::utf8Prefix(trim(line), 60)) + "\"";
    }

    void onPersistentLookup(std::int64_t ts, const jax::JaxLine& l) {
        const std::string key = l.key.empty() ? l.function : l.key;
        auto lookup = w.addCacheLookup({.sessionId = m_ctx.sessionId, .trackId = m_track, .tsNs = ts, .cache = m_persistentCache,
                                        .program = w.intern(l.function), .handle = w.intern(key),
                                        .verdict = l.kind == JaxLineKind::PersistentHit ? CS_VERDICT_HIT : CS_VERDICT_MISS});
        w.addKeyComponent({.lookupId = lookup, .ordinal = 0, .name = w.intern("key"), .role = CS_ROLE_OTHER,
                           .digest = w.intern(key), .value = w.intern(key)});
        ++m_summary.records;
    }

    void onPersistentWrite(std::int64_t ts, const jax::JaxLine& l) {
        auto span = w.addSpan({.trackId = m_track, .startNs = ts, .durNs = 0, .category = CS_CAT_OTHER,
                               .name = w.intern("persistent cache write " + l.function), .detail = w.intern(l.key)});
        w.addSpanArg(span, w.intern("jit_event"), std::string_view("persistent_cache_write"));
        w.addSpanArg(span, w.intern("key"), std::string_view(l.key));
        w.addSpanArg(span, w.intern("function"), std::string_view(l.function));
        ++m_summary.records;
    }

    // Printed when the step ends: the span ends at the line's time.
    void onStepDone(std::int64_t ts, const jax::JaxLine& l) {
        const std::int64_t dur = secondsNs(l.seconds);
        const int cat = l.kind == JaxLineKind::TraceDone      ? CS_CAT_INFERENCE
                        : l.kind == JaxLineKind::LoweringDone ? CS_CAT_CODEGEN
                                                              : CS_CAT_COMPILE;
        const char* what = l.kind == JaxLineKind::TraceDone ? "trace " : l.kind == JaxLineKind::LoweringDone ? "lower " : "XLA compile ";
        w.addSpan({.trackId = m_track, .startNs = ts - dur, .durNs = dur, .category = cat, .name = w.intern(what + l.function)});
        if (m_firstNs < 0 || ts - dur < m_firstNs) m_firstNs = ts - dur;
        ++m_summary.records;
    }

    ImportContext& m_ctx;
    trace::TraceWriter& w;
    std::string_view m_id;
    ImportSummary m_summary;
    const std::int64_t m_track, m_tracingCache, m_persistentCache;
    std::int64_t m_lastNs, m_firstNs = -1, m_unrecognised = 0, m_lineNo = 0;
    std::optional<std::int64_t> m_origin;
    std::string m_firstUnrecognised;
    LineTally m_tally;
    MissBlock m_block;
};

void JaxLogReader::closeBlock() {
    if (!m_block.open) return;
    const auto& block = m_block;
    std::string program = block.function.empty() ? block.callsite
                                                  : block.function + (block.definedAt.empty() ? "" : " (" + block.definedAt + ")");
    auto lookup = w.addCacheLookup({.sessionId = m_ctx.sessionId, .trackId = m_track, .tsNs = block.tsNs, .cache = m_tracingCache,
                                    .program = w.intern(program), .handle = w.intern(block.callsite),
                                    .verdict = CS_VERDICT_MISS,
                                    .compileNs = block.costMs >= 0 ? std::optional<std::int64_t>(secondsNs(block.costMs / 1000))
                                                                   : std::nullopt});
    std::int64_t ordinal = 0;
    if (!block.functionId.empty())
        w.addKeyComponent({.lookupId = lookup, .ordinal = ordinal++, .name = w.intern("function id"), .role = CS_ROLE_FUNCTION,
                           .digest = w.intern(block.functionId), .value = w.intern(block.functionId)});
    for (size_t i = 0; i < block.components.size(); ++i)
        w.addKeyComponent({.lookupId = lookup, .ordinal = ordinal++, .name = w.intern(block.components[i].first),
                           .role = block.roles[i], .digest = w.intern(block.components[i].second),
                           .value = w.intern(block.components[i].second)});
    auto span = w.addSpan({.trackId = m_track, .startNs = block.tsNs,
                           .durNs = block.costMs >= 0 ? secondsNs(block.costMs / 1000) : 0, .category = CS_CAT_INFERENCE,
                           .name = w.intern("TRACING CACHE MISS " + (block.function.empty() ? block.callsite : block.function)),
                           .detail = w.intern(block.callsite)});
    for (size_t i = 0; i < block.reasons.size(); ++i)
        w.addSpanArg(span, w.intern("reason " + std::to_string(i + 1)), std::string_view(block.reasons[i]));
    m_summary.records += 2;
    m_block = MissBlock{};
}
}  // namespace

int JaxLogImporter::sniff(std::string_view head, std::string_view) const {
    if (head.find("TRACING CACHE MISS at ") != std::string_view::npos) return 90;
    if (head.find("ersistent compilation cache hit for '") != std::string_view::npos ||
        head.find("PERSISTENT COMPILATION CACHE MISS for '") != std::string_view::npos ||
        head.find(" to persistent compilation cache with key '") != std::string_view::npos)
        return 85;
    if (head.find("Finished XLA compilation of ") != std::string_view::npos ||
        head.find("Finished tracing + transforming ") != std::string_view::npos)
        return 80;
    return 0;
}

ImportSummary JaxLogImporter::run(std::istream& in, ImportContext& ctx) const {
    JaxLogReader reader(ctx, id());
    std::string line;
    ImportLines lines(in, ctx, id());
    while (lines.next(line)) reader.line(line);
    reader.closeBlock();
    if (in.bad()) throw std::runtime_error(ctx.sourceName + ": read error");
    return reader.finish();
}

}  // namespace cs::ingest
