#include "core/ingest/jax/jax_log_importer.h"

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
    ImportSummary summary;
    auto& w = ctx.writer;
    const auto track = w.addTrack({.sessionId = ctx.sessionId, .kind = CS_TRACK_RUNTIME, .name = w.intern("jax")});
    const auto tracingCache = w.intern("jax tracing cache");
    const auto persistentCache = w.intern("jax persistent compilation cache");
    std::int64_t lastNs = ctx.baseNs, firstNs = -1, unrecognised = 0;
    std::optional<std::int64_t> origin;
    std::string firstUnrecognised;
    LineTally tally;
    MissBlock block;

    auto closeBlock = [&] {
        if (!block.open) return;
        std::string program = block.function.empty() ? block.callsite
                                                      : block.function + (block.definedAt.empty() ? "" : " (" + block.definedAt + ")");
        auto lookup = w.addCacheLookup({.sessionId = ctx.sessionId, .trackId = track, .tsNs = block.tsNs, .cache = tracingCache,
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
        auto span = w.addSpan({.trackId = track, .startNs = block.tsNs,
                               .durNs = block.costMs >= 0 ? secondsNs(block.costMs / 1000) : 0, .category = CS_CAT_INFERENCE,
                               .name = w.intern("TRACING CACHE MISS " + (block.function.empty() ? block.callsite : block.function)),
                               .detail = w.intern(block.callsite)});
        for (size_t i = 0; i < block.reasons.size(); ++i)
            w.addSpanArg(span, w.intern("reason " + std::to_string(i + 1)), std::string_view(block.reasons[i]));
        summary.records += 2;
        block = MissBlock{};
    };

    std::string line;
    std::int64_t lineNo = 0;
    while (std::getline(in, line)) {
        ++lineNo;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        auto p = splitLogPrefix(line);
        // A test runner's own prefix before the logging one ("tests/api_test.py::T::t WARNING:2025-...").
        for (std::string_view level : {" WARNING:", " DEBUG:", " INFO:", " ERROR:"}) {
            auto at = p.tsNs ? std::string::npos : line.find(level);
            if (at != std::string::npos) {
                if (auto q = splitLogPrefix(std::string_view(line).substr(at + 1)); q.tsNs) p = q;
                break;
            }
        }
        const bool indented = !line.empty() && (line[0] == ' ' || line[0] == '\t');
        if (block.open && indented && !p.tsNs) {
            auto r = jax::parseMissReasonLine(line);
            using K = MissReasonLine::Kind;
            switch (r.kind) {
            case K::NeverSeen: block.reasons.push_back("never seen function"); break;
            case K::SeenSameLine:
                block.reasons.push_back("seen another function defined on the same line; maybe re-defined repeatedly");
                break;
            case K::For: block.function = r.function, block.definedAt = r.definedAt; break;
            case K::FunctionId:
                block.function = r.function, block.definedAt = r.definedAt, block.functionId = r.function + " id=" + r.subject;
                break;
            case K::Heading: block.heading = r.heading; block.reasons.push_back(r.heading); break;
            case K::Change: {
                auto c = jax::missComponent(block.heading, r);
                block.components.emplace_back(c.name, c.value);
                block.roles.push_back(c.role);
                block.reasons.push_back(c.reason);
                break;
            }
            case K::Other: tally.noteUnused(lineNo, line); break;  // explanatory text ("compare to tuple returned by ...")
            }
            continue;
        }
        closeBlock();
        // Times are relative to the first timed line; a line without a time takes the last one seen.
        if (p.tsNs && !origin) origin = *p.tsNs;
        const std::int64_t ts = p.tsNs ? util::satAdd(util::satSub(*p.tsNs, *origin), ctx.baseNs) : lastNs;
        if (p.tsNs) {
            if (ts < lastNs) tally.noteOutOfOrder(lineNo);
            lastNs = std::max(lastNs, ts);
            if (firstNs < 0 || ts < firstNs) firstNs = ts;
        }
        auto l = jax::parseJaxLine(p.message);
        switch (l.kind) {
        case JaxLineKind::Other:
            if (!ctx.forced) tally.noteUnused(lineNo, line);
            else if (!trim(line).empty() && unrecognised++ == 0)
                firstUnrecognised = "line " + std::to_string(lineNo) + ": \"" + std::string(util::utf8Prefix(trim(line), 60)) + "\"";
            break;
        case JaxLineKind::Compiling:
            addCompiling(w, track, ts, l);
            ++summary.records;
            break;
        case JaxLineKind::TracingMiss:
            block.open = true;
            block.tsNs = ts;
            block.callsite = l.callsite;
            block.costMs = l.costMs;
            break;
        case JaxLineKind::PersistentHit:
        case JaxLineKind::PersistentMiss: {
            const std::string key = l.key.empty() ? l.function : l.key;
            auto lookup = w.addCacheLookup({.sessionId = ctx.sessionId, .trackId = track, .tsNs = ts, .cache = persistentCache,
                                            .program = w.intern(l.function), .handle = w.intern(key),
                                            .verdict = l.kind == JaxLineKind::PersistentHit ? CS_VERDICT_HIT : CS_VERDICT_MISS});
            w.addKeyComponent({.lookupId = lookup, .ordinal = 0, .name = w.intern("key"), .role = CS_ROLE_OTHER,
                               .digest = w.intern(key), .value = w.intern(key)});
            ++summary.records;
            break;
        }
        case JaxLineKind::PersistentWrite: {
            auto span = w.addSpan({.trackId = track, .startNs = ts, .durNs = 0, .category = CS_CAT_OTHER,
                                   .name = w.intern("persistent cache write " + l.function), .detail = w.intern(l.key)});
            w.addSpanArg(span, w.intern("jit_event"), std::string_view("persistent_cache_write"));
            w.addSpanArg(span, w.intern("key"), std::string_view(l.key));
            w.addSpanArg(span, w.intern("function"), std::string_view(l.function));
            ++summary.records;
            break;
        }
        case JaxLineKind::TraceDone:
        case JaxLineKind::LoweringDone:
        case JaxLineKind::CompileDone: {
            // Printed when the step ends: the span ends at the line's time.
            const std::int64_t dur = secondsNs(l.seconds);
            const int cat = l.kind == JaxLineKind::TraceDone ? CS_CAT_INFERENCE
                            : l.kind == JaxLineKind::LoweringDone ? CS_CAT_CODEGEN
                                                                  : CS_CAT_COMPILE;
            const char* what = l.kind == JaxLineKind::TraceDone ? "trace " : l.kind == JaxLineKind::LoweringDone ? "lower " : "XLA compile ";
            w.addSpan({.trackId = track, .startNs = ts - dur, .durNs = dur, .category = cat, .name = w.intern(what + l.function)});
            if (firstNs < 0 || ts - dur < firstNs) firstNs = ts - dur;
            ++summary.records;
            break;
        }
        }
    }
    closeBlock();
    if (in.bad()) throw std::runtime_error(ctx.sourceName + ": read error");
    ctx.unrecognised(unrecognised, firstUnrecognised, id());
    tally.write(ctx, id());
    summary.unrecognised = unrecognised;
    summary.firstNs = firstNs < 0 ? ctx.baseNs : firstNs;
    summary.lastNs = lastNs;
    return summary;
}

}  // namespace cs::ingest
