#include "core/ingest/torch/torch_trace_importer.h"

#include "core/formats/log_prefix.h"
#include "core/formats/torch_cache_artifact.h"
#include "core/ingest/torch/torch_trace_builder.h"
#include "core/util/md5.h"
#include "core/util/saturating.h"
#include "core/util/utf8.h"

#include <optional>
#include <string>

namespace cs::ingest {

namespace {
constexpr size_t kMaxKeptPayload = 64u << 20;  // payloads we parse (cache artifacts, chromium events)

std::string compileIdOf(const util::JsonValue& env, std::int64_t& frame) {
    auto f = torch::jsonInteger(env.get("frame_id"));
    auto c = torch::jsonInteger(env.get("frame_compile_id"));
    auto a = torch::jsonInteger(env.get("attempt"));
    frame = -1;
    if (!f || !c) return {};
    CompileId id{.frame = *f, .compile = *c, .attempt = a.value_or(0)};
    frame = id.frame;
    std::string text = id.text();
    if (const auto* ca = env.get("compiled_autograd_id"); ca && ca->isNumber()) text = "!" + ca->str + "/" + text;
    return text;
}

struct Record {
    bool open = false;
    std::int64_t lineNo = 0, tsNs = 0, frame = -1;
    std::string compileId;
    util::JsonValue envelope;
    std::string expectedMd5;
    util::Md5 md5;
    bool firstPayloadLine = true, keep = false, payloadSeen = false;
    std::string payload;
};
}  // namespace

int TorchTraceImporter::sniff(std::string_view head, std::string_view) const {
    // A glog prefix followed by a JSON envelope with one of the structured-trace keys.
    size_t hits = 0;
    for (std::string_view key : {"{\"str\": [", "{\"dynamo_start\": ", "\"frame_compile_id\": ", "{\"chromium_event\": ",
                                 "{\"compilation_metrics\": ", "\"has_payload\": \""})
        if (head.find(key) != std::string_view::npos) ++hits;
    if (hits == 0 || head.find("] {\"") == std::string_view::npos) return 0;
    return hits >= 2 ? 95 : 75;
}

ImportSummary TorchTraceImporter::run(std::istream& in, ImportContext& ctx) const {
    ImportSummary summary;
    torch::TraceBuilder builder(ctx);
    Record rec;
    std::int64_t firstNs = -1, lastNs = ctx.baseNs, unrecognised = 0, mismatches = 0;
    std::string firstUnrecognised;
    auto where = [](std::int64_t n) { return "line " + std::to_string(n); };

    auto dispatch = [&](Record& r) {
        const auto& env = r.envelope;
        if (!r.expectedMd5.empty()) {
            std::string got = r.payloadSeen ? r.md5.hexDigest() : util::md5Hex("");
            if (got != r.expectedMd5) {
                ++mismatches;
                ctx.writer.addStat(ctx.sessionId, "payload_hash_mismatch", "torch-trace", 1,
                                   ctx.sourceName + " " + where(r.lineNo) + ": has_payload " + r.expectedMd5 + ", payload md5 " + got);
                return;  // a cut or interleaved payload is not trusted
            }
        }
        auto payloadJson = [&](util::JsonValue& out) {
            try {
                out = util::parseJson(r.payload);
                return true;
            } catch (const std::exception& e) {
                ctx.malformed(where(r.lineNo), std::string("payload is not JSON: ") + e.what(), "torch-trace");
                ++summary.malformed;
                return false;
            }
        };
        if (const auto* s = env.get("str"); s && s->isArray() && s->items.size() == 2 && s->items[0].isString() &&
                                             torch::jsonInteger(&s->items[1])) {
            builder.internString(*torch::jsonInteger(&s->items[1]), s->items[0].str);
        } else if (const auto* d = env.get("dynamo_start")) {
            builder.dynamoStart(r.compileId, r.tsNs, *d);
        } else if (const auto* m = env.get("compilation_metrics"); m && m->isObject()) {
            builder.compilationMetrics(r.compileId, r.tsNs, *m);
        } else if (env.get("chromium_event")) {
            util::JsonValue ev;
            if (payloadJson(ev)) builder.chromiumEvent(r.compileId, r.tsNs, ev);
        } else if (const auto* a = env.get("artifact"); a && a->isObject()) {
            const auto* name = a->get("name");
            if (name && name->isString() && name->str == "recompile_reasons") return builder.recompileReasons(r.compileId, r.tsNs, r.payload);
            if (name && name->isString() && name->str == "dynamo_graph_break_reason")
                return builder.graphBreakReason(r.compileId, r.tsNs, r.payload);
            if (!name || !name->isString() || !torch::isCacheArtifact(name->str)) return;
            util::JsonValue payload;
            if (!payloadJson(payload)) return;
            torch::CacheArtifact art;
            std::string why;
            if (!torch::readCacheArtifact(name->str, payload, art, why)) {
                ctx.malformed(where(r.lineNo), why, "torch-trace");
                ++summary.malformed;
                return;
            }
            builder.cacheArtifact(r.compileId, r.frame, r.tsNs, art);
        }
    };
    auto close = [&] {
        if (rec.open) dispatch(rec);
        rec = Record{};
    };

    std::string line;
    std::int64_t lineNo = 0;
    bool skippingPayload = false;
    std::optional<std::int64_t> origin;
    while (std::getline(in, line)) {
        ++lineNo;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (!line.empty() && line[0] == '\t') {
            if (skippingPayload) continue;  // the payload of a record already counted as malformed
            if (!rec.open) {
                ctx.malformed(where(lineNo), "payload line without a record", "torch-trace");
                ++summary.malformed;
                continue;
            }
            std::string_view body(line);
            body.remove_prefix(1);
            if (!rec.firstPayloadLine) rec.md5.update("\n");
            rec.md5.update(body);
            rec.firstPayloadLine = false;
            rec.payloadSeen = true;
            if (rec.keep) {
                if (rec.payload.size() + body.size() + 1 > kMaxKeptPayload) {
                    rec.keep = false;  // counted below as unusable: too large to parse
                    rec.payload.clear();
                } else {
                    if (!rec.payload.empty()) rec.payload += '\n';
                    rec.payload.append(body);
                }
            }
            continue;
        }
        close();
        skippingPayload = false;
        auto p = splitLogPrefix(line);
        if (!p.glog || p.message.empty() || p.message.front() != '{') {
            if (!std::string_view(line).empty() && unrecognised++ == 0)
                firstUnrecognised = where(lineNo) + ": not a structured-trace record (\"" +
                                    std::string(util::utf8Prefix(line, 60)) + "\")";
            continue;
        }
        try {
            rec.envelope = util::parseJson(p.message);
        } catch (const std::exception& e) {
            ctx.malformed(where(lineNo), std::string("envelope is not JSON: ") + e.what(), "torch-trace");
            ++summary.malformed;
            skippingPayload = true;  // one malformed record, however many payload lines follow
            continue;
        }
        if (!rec.envelope.isObject()) {
            ctx.malformed(where(lineNo), "envelope is not a JSON object", "torch-trace");
            ++summary.malformed;
            skippingPayload = true;
            continue;
        }
        rec.open = true;
        rec.lineNo = lineNo;
        // Times are relative to the first record (glog prints no year; DESIGN 3: one clock per session).
        if (p.tsNs && !origin) origin = *p.tsNs;
        rec.tsNs = p.tsNs ? util::satAdd(util::satSub(*p.tsNs, *origin), ctx.baseNs) : lastNs;
        rec.compileId = compileIdOf(rec.envelope, rec.frame);
        if (const auto* h = rec.envelope.get("has_payload"); h && h->isString()) rec.expectedMd5 = h->str;
        rec.keep = rec.envelope.get("chromium_event") || rec.envelope.get("artifact");
        if (firstNs < 0 || rec.tsNs < firstNs) firstNs = rec.tsNs;
        lastNs = std::max(lastNs, rec.tsNs);
    }
    close();
    if (in.bad()) throw std::runtime_error(ctx.sourceName + ": read error");
    builder.finish(lastNs);
    summary.records = builder.records();
    summary.malformed += mismatches;
    // A structured trace has no other lines; any are counted, forced or not.
    if (ctx.forced) {
        ctx.unrecognised(unrecognised, firstUnrecognised, id());
        summary.unrecognised = unrecognised;
    } else if (unrecognised > 0) {
        ctx.writer.addStat(ctx.sessionId, "malformed_record", id(), unrecognised, ctx.sourceName + " " + firstUnrecognised);
        summary.malformed += unrecognised;
    }
    summary.firstNs = firstNs < 0 ? ctx.baseNs : firstNs;
    summary.lastNs = lastNs;
    return summary;
}

}  // namespace cs::ingest
