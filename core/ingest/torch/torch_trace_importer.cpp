#include "core/ingest/torch/torch_trace_importer.h"

#include "core/ingest/import_lines.h"
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

// What a record's envelope holds, by its one distinguishing key.
enum class RecordKind { String, DynamoStart, Metrics, Chromium, Artifact, Other };

RecordKind recordKindOf(const util::JsonValue& env) {
    if (const auto* s = env.get("str");
        s && s->isArray() && s->items.size() == 2 && s->items[0].isString() && torch::jsonInteger(&s->items[1]))
        return RecordKind::String;
    if (env.get("dynamo_start")) return RecordKind::DynamoStart;
    if (const auto* m = env.get("compilation_metrics"); m && m->isObject()) return RecordKind::Metrics;
    if (env.get("chromium_event")) return RecordKind::Chromium;
    if (const auto* a = env.get("artifact"); a && a->isObject()) return RecordKind::Artifact;
    return RecordKind::Other;
}

std::string where(std::int64_t n) { return "line " + std::to_string(n); }

// One run over a trace: a record is its envelope line and the tab-indented payload lines after it;
// when the next record starts, the finished one is dispatched by a flat switch over its kind.
class TorchTraceReader {
public:
    TorchTraceReader(ImportContext& ctx, std::string_view importerId)
        : m_ctx(ctx), m_id(importerId), m_builder(ctx), m_lastNs(ctx.baseNs) {}

    void line(std::string& line) {
        ++m_lineNo;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (!line.empty() && line[0] == '\t') return payloadLine(std::string_view(line).substr(1));
        close();
        m_skippingPayload = false;
        envelopeLine(line);
    }

    // The record still open is dispatched (at the end of the input, or when the next one starts).
    void close() {
        if (m_rec.open) dispatch(m_rec);
        m_rec = Record{};
    }

    ImportSummary finish();

private:
    void malformed(std::int64_t lineNo, std::string why) {
        m_ctx.malformed(where(lineNo), why, "torch-trace");
        ++m_summary.malformed;
    }

    void payloadLine(std::string_view body) {
        if (m_skippingPayload) return;  // the payload of a record already counted as malformed
        if (!m_rec.open) return malformed(m_lineNo, "payload line without a record");
        if (!m_rec.firstPayloadLine) m_rec.md5.update("\n");
        m_rec.md5.update(body);
        m_rec.firstPayloadLine = false;
        m_rec.payloadSeen = true;
        if (!m_rec.keep) return;
        if (m_rec.payload.size() + body.size() + 1 > kMaxKeptPayload) {
            m_rec.keep = false;  // counted below as unusable: too large to parse
            m_rec.payload.clear();
            return;
        }
        if (!m_rec.payload.empty()) m_rec.payload += '\n';
        m_rec.payload.append(body);
    }

    void envelopeLine(const std::string& line) {
        auto p = splitLogPrefix(line);
        if (!p.glog || p.message.empty() || p.message.front() != '{') {
            if (!std::string_view(line).empty() && m_unrecognised++ == 0)
                m_firstUnrecognised = where(m_lineNo) + ": not a structured-trace record (\"" +
                                      std::string(util::utf8Prefix(line, 60)) + "\")";
            return;
        }
        try {
            m_rec.envelope = util::parseJson(p.message);
        } catch (const std::exception& e) {
            malformed(m_lineNo, std::string("envelope is not JSON: ") + e.what());
            m_skippingPayload = true;  // one malformed record, however many payload lines follow
            return;
        }
        if (!m_rec.envelope.isObject()) {
            malformed(m_lineNo, "envelope is not a JSON object");
            m_skippingPayload = true;
            return;
        }
        openRecord(p.tsNs);
    }

    void openRecord(std::optional<std::int64_t> tsNs) {
        m_rec.open = true;
        m_rec.lineNo = m_lineNo;
        // Times are relative to the first record (glog prints no year; one clock per session).
        if (tsNs && !m_origin) m_origin = *tsNs;
        m_rec.tsNs = tsNs ? util::satAdd(util::satSub(*tsNs, *m_origin), m_ctx.baseNs) : m_lastNs;
        m_rec.compileId = compileIdOf(m_rec.envelope, m_rec.frame);
        if (const auto* h = m_rec.envelope.get("has_payload"); h && h->isString()) m_rec.expectedMd5 = h->str;
        m_rec.keep = m_rec.envelope.get("chromium_event") || m_rec.envelope.get("artifact");
        if (m_firstNs < 0 || m_rec.tsNs < m_firstNs) m_firstNs = m_rec.tsNs;
        m_lastNs = std::max(m_lastNs, m_rec.tsNs);
    }

    // A cut or interleaved payload is not trusted: its md5 differs from the one has_payload names.
    bool payloadTrusted(Record& r) {
        if (r.expectedMd5.empty()) return true;
        std::string got = r.payloadSeen ? r.md5.hexDigest() : util::md5Hex("");
        if (got == r.expectedMd5) return true;
        ++m_mismatches;
        m_ctx.writer.addStat(m_ctx.sessionId, "payload_hash_mismatch", "torch-trace", 1,
                             m_ctx.sourceName + " " + where(r.lineNo) + ": has_payload " + r.expectedMd5 + ", payload md5 " + got);
        return false;
    }

    bool payloadJson(const Record& r, util::JsonValue& out) {
        try {
            out = util::parseJson(r.payload);
            return true;
        } catch (const std::exception& e) {
            malformed(r.lineNo, std::string("payload is not JSON: ") + e.what());
            return false;
        }
    }

    void dispatch(Record& r) {
        if (!payloadTrusted(r)) return;
        const auto& env = r.envelope;
        switch (recordKindOf(env)) {
        case RecordKind::String: {
            const auto* s = env.get("str");
            return m_builder.internString(*torch::jsonInteger(&s->items[1]), s->items[0].str);
        }
        case RecordKind::DynamoStart: return m_builder.dynamoStart(r.compileId, r.tsNs, *env.get("dynamo_start"));
        case RecordKind::Metrics: return m_builder.compilationMetrics(r.compileId, r.tsNs, *env.get("compilation_metrics"));
        case RecordKind::Chromium: {
            util::JsonValue ev;
            if (payloadJson(r, ev)) m_builder.chromiumEvent(r.compileId, r.tsNs, ev);
            return;
        }
        case RecordKind::Artifact: return artifact(r, *env.get("artifact"));
        case RecordKind::Other: return;
        }
    }

    void artifact(const Record& r, const util::JsonValue& a) {
        const auto* name = a.get("name");
        if (name && name->isString() && name->str == "recompile_reasons") return m_builder.recompileReasons(r.compileId, r.tsNs, r.payload);
        if (name && name->isString() && name->str == "dynamo_graph_break_reason")
            return m_builder.graphBreakReason(r.compileId, r.tsNs, r.payload);
        if (!name || !name->isString() || !torch::isCacheArtifact(name->str)) return;
        util::JsonValue payload;
        if (!payloadJson(r, payload)) return;
        torch::CacheArtifact art;
        std::string why;
        if (!torch::readCacheArtifact(name->str, payload, art, why)) return malformed(r.lineNo, why);
        m_builder.cacheArtifact(r.compileId, r.frame, r.tsNs, art);
    }

    ImportContext& m_ctx;
    std::string_view m_id;
    ImportSummary m_summary;
    torch::TraceBuilder m_builder;
    Record m_rec;
    std::int64_t m_firstNs = -1, m_lastNs, m_unrecognised = 0, m_mismatches = 0, m_lineNo = 0;
    std::string m_firstUnrecognised;
    bool m_skippingPayload = false;
    std::optional<std::int64_t> m_origin;
};

ImportSummary TorchTraceReader::finish() {
    m_builder.finish(m_lastNs);
    m_summary.records = m_builder.records();
    m_summary.malformed += m_mismatches;
    // A structured trace has no other lines; any are counted, forced or not.
    if (m_ctx.forced) {
        m_ctx.unrecognised(m_unrecognised, m_firstUnrecognised, m_id);
        m_summary.unrecognised = m_unrecognised;
    } else if (m_unrecognised > 0) {
        m_ctx.writer.addStat(m_ctx.sessionId, "malformed_record", m_id, m_unrecognised, m_ctx.sourceName + " " + m_firstUnrecognised);
        m_summary.malformed += m_unrecognised;
    }
    m_summary.firstNs = m_firstNs < 0 ? m_ctx.baseNs : m_firstNs;
    m_summary.lastNs = m_lastNs;
    return m_summary;
}
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
    TorchTraceReader reader(ctx, id());
    std::string line;
    ImportLines lines(in, ctx, id());
    while (lines.next(line)) reader.line(line);
    reader.close();
    if (in.bad()) throw std::runtime_error(ctx.sourceName + ": read error");
    return reader.finish();
}

}  // namespace cs::ingest
