#include "core/ingest/warp/warp_probe_importer.h"
#include "core/util/contains.h"

#include "core/formats/text_util.h"

#include "core/util/json_reader.h"

#include <cmath>

namespace cs::ingest {

namespace {
using util::JsonValue;

std::optional<double> number(const JsonValue& obj, std::string_view key) {
    const JsonValue* v = obj.get(key);
    if (!v || !v->isNumber() || !std::isfinite(v->num)) return std::nullopt;
    return v->num;
}

std::string text(const JsonValue& obj, std::string_view key) {
    const JsonValue* v = obj.get(key);
    return v && v->isString() ? v->str : std::string();
}

std::int64_t msToNs(double ms) { return static_cast<std::int64_t>(std::llround(ms * 1e6)); }

int resultOf(const std::string& status) {
    if (status == "compiled") return CS_MODULE_COMPILED;
    if (status == "cached") return CS_MODULE_CACHED;
    if (status == "error") return CS_MODULE_ERROR;
    return -1;
}
}  // namespace

int WarpProbeImporter::sniff(std::string_view head, std::string_view) const {
    auto t = trim(head);
    if (t.empty() || t.front() != '{') return 0;
    if (util::contains(head, "\"cold_module_ms_median\"")) return 95;
    if (util::contains(head, "\"module_events\"")) return 90;
    return 0;
}

ImportSummary WarpProbeImporter::run(std::istream& in, ImportContext& ctx) const {
    ImportSummary summary;
    auto& w = ctx.writer;
    JsonValue doc;
    try {
        doc = util::parseJson(in);
    } catch (const std::runtime_error& e) {
        ctx.malformed("document", std::string("not valid JSON: ") + e.what(), id());
        ++summary.malformed;
        return summary;
    }
    if (!doc.isObject()) {
        ctx.malformed("document", "top level is not an object", id());
        ++summary.malformed;
        return summary;
    }
    // The probe keeps one cold sample's events (its reference run); no start times, so they are laid
    // end to end like a serial log. The medians stay authoritative for timing questions.
    const std::int64_t track = w.addTrack({.sessionId = ctx.sessionId, .kind = CS_TRACK_RUNTIME,
                                           .name = w.intern("warp modules")});
    std::int64_t clock = 0;
    if (const JsonValue* events = doc.get("module_events"); events && events->isArray()) {
        for (size_t i = 0; i < events->items.size(); ++i) {
            const JsonValue& e = events->items[i];
            auto where = "module_events[" + std::to_string(i) + "]";
            auto ms = e.isObject() ? number(e, "ms") : std::nullopt;
            std::string name = e.isObject() ? text(e, "name") : "";
            if (name.empty() && e.isObject()) name = text(e, "label");
            int result = e.isObject() ? resultOf(text(e, "status")) : -1;
            if (!ms || *ms < 0 || *ms > 1e12 || name.empty() || result < 0) {
                ctx.malformed(where, "needs name or label, ms >= 0 and status compiled|cached|error", id());
                ++summary.malformed;
                continue;
            }
            // block_dim is null in the probe when Warp did not print it (not verbose): leave it unknown
            // rather than guessing the 256 default, or identities would merge falsely.
            std::optional<std::int64_t> blockDim;
            // A block_dim past int32 is no launch configuration (and past 2^63 its cast would be UB).
            if (auto bd = number(e, "block_dim"); bd && *bd > 0 && *bd <= 2147483647.0 && *bd == std::floor(*bd))
                blockDim = static_cast<std::int64_t>(*bd);
            std::string hash = text(e, "hash"), device = text(e, "device");
            std::int64_t dur = msToNs(*ms);
            w.addModuleLoad({.sessionId = ctx.sessionId, .trackId = track, .startNs = clock, .durNs = dur,
                             .name = w.intern(name), .hash = hash.empty() ? 0 : w.intern(hash),
                             .device = device.empty() ? 0 : w.intern(device), .blockDim = blockDim, .result = result,
                             .origin = w.intern(ctx.sourceName + ":" + where)});
            clock += dur;
            ++summary.records;
        }
    } else {
        ctx.malformed("module_events", "missing or not an array", id());
        ++summary.malformed;
    }
    // Medians and totals the analysis reads back (see the header for names and units).
    const auto scope = w.intern("warp.probe");
    auto counter = [&](std::string_view name, std::int64_t value) {
        w.addCounter({.sessionId = ctx.sessionId, .tsNs = clock, .scope = scope, .name = w.intern(name), .value = value});
        ++summary.records;
    };
    static constexpr std::pair<std::string_view, std::string_view> kMs[] = {
        {"cold_module_ms_median", "cold_module_ns_median"}, {"cold_module_ms_mad", "cold_module_ns_mad"},
        {"native_compile_ms_median", "native_compile_ns_median"}, {"warm_module_ms_median", "warm_module_ns_median"},
        {"cold_wall_ms_median", "cold_wall_ns_median"}, {"warm_wall_ms_median", "warm_wall_ns_median"},
        {"compile_elapsed_ms_median", "compile_elapsed_ns_median"}};
    for (auto [from, to] : kMs)
        if (auto v = number(doc, from); v && *v >= 0 && *v < 1e12) counter(to, msToNs(*v));
    static constexpr std::string_view kCounts[] = {"samples", "failed_samples", "identities", "modules",
                                                   "compiled_events", "cached_events", "error_events",
                                                   "generated_source_bytes", "lto_artifacts", "lto_bytes"};
    for (auto key : kCounts)
        if (auto v = number(doc, key); v && *v >= 0 && *v < 9e15) counter(key, static_cast<std::int64_t>(*v));
    // Counters are integers: the overlap factor keeps three decimals, enough for the 1.15 threshold.
    if (auto v = number(doc, "overlap_factor"); v && *v >= 0 && *v < 1e6) counter("overlap_factor_milli", std::llround(*v * 1000));
    if (const JsonValue* l = doc.get("launches"); l && l->isArray()) counter("launches", static_cast<std::int64_t>(l->items.size()));
    summary.lastNs = clock;
    return summary;
}

}  // namespace cs::ingest
