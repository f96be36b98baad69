#include "core/engine/cache/runtime_notes.h"

#include "core/trace/reader.h"
#include "core/trace/row.h"
#include "core/trace/table_readers.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace cs::engine {

namespace {
struct SpanReasons {
    std::int64_t spanId = 0;
    std::vector<std::pair<std::int64_t, std::string>> reasons;  // (N of "reason N", text)
};

// session -> start_ns -> the TRACING CACHE MISS spans there, in id order.
std::map<std::pair<std::int64_t, std::int64_t>, std::vector<SpanReasons>> missSpans(const trace::TraceReader& reader) {
    std::map<std::pair<std::int64_t, std::int64_t>, std::vector<SpanReasons>> out;
    reader.query("SELECT t.session_id, s.start_ns, s.id, k.str, a.value FROM spans s JOIN tracks t ON t.id = s.track_id "
                 "JOIN strings n ON n.id = s.name_sid JOIN span_args a ON a.span_id = s.id "
                 "JOIN strings k ON k.id = a.key_sid "
                 "WHERE n.str LIKE 'TRACING CACHE MISS %' AND k.str LIKE 'reason %' ORDER BY t.session_id, s.start_ns, s.id",
                 [&](const trace::Row& st) {
                     auto& at = out[{trace::colInt(st, 0), trace::colInt(st, 1)}];
                     const std::int64_t span = trace::colInt(st, 2);
                     if (at.empty() || at.back().spanId != span) at.push_back({span, {}});
                     const std::string key = trace::colText(st, 3);
                     std::int64_t n = 0;
                     for (char c : key.substr(7)) n = c >= '0' && c <= '9' && n < 1000000 ? n * 10 + (c - '0') : n;
                     at.back().reasons.emplace_back(n, trace::colText(st, 4));
                 });
    return out;
}
}  // namespace

void loadRuntimeNotes(const trace::TraceReader& reader, CacheFacts& facts) {
    for (const trace::StoredStat& stat : trace::readStats(reader))
        if (stat.name == "out_of_order_line" && stat.count > 0) facts.linesOutOfOrder = true;
    const Sid jax = facts.find(kJaxTracingCache);
    if (!jax) return;
    auto spans = missSpans(reader);
    std::map<std::pair<std::int64_t, std::int64_t>, size_t> used;  // how many spans at (session, ts) are paired
    for (size_t i = 0; i < facts.lookups.size(); ++i) {
        const Lookup& l = facts.lookups[i];
        if (l.cache != jax || l.verdict != CS_VERDICT_MISS) continue;
        auto it = spans.find({l.sessionId, l.tsNs});
        if (it == spans.end()) continue;
        size_t& n = used[{l.sessionId, l.tsNs}];
        if (n >= it->second.size()) continue;
        auto reasons = it->second[n++].reasons;
        std::stable_sort(reasons.begin(), reasons.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        std::vector<std::string>& out = facts.runtimeReasons[i];
        for (auto& r : reasons) out.push_back(std::move(r.second));
    }
}

std::string runtimeReasonText(const std::vector<std::string>& reasons) {
    std::vector<const std::string*> detailed, headings;
    for (const auto& r : reasons) (r.find(": ") != std::string::npos ? detailed : headings).push_back(&r);
    // A heading ("different input types") is the prefix of its detail lines: shown only without them.
    std::vector<const std::string*> shown;
    for (const auto* h : headings) {
        bool covered = std::any_of(detailed.begin(), detailed.end(), [&](const std::string* d) { return d->rfind(*h + ":", 0) == 0; });
        if (!covered) shown.push_back(h);
    }
    shown.insert(shown.end(), detailed.begin(), detailed.end());
    std::string out;
    for (const auto* s : shown) out += (out.empty() ? "" : "; ") + *s;
    return out;
}

std::string runtimeBefore(const std::vector<std::string>& reasons, const std::string& after) {
    for (const auto& r : reasons) {
        const auto now = r.find(" now " + after + " and before ");
        if (now == std::string::npos) continue;
        return r.substr(now + after.size() + 17);
    }
    return {};
}

}  // namespace cs::engine
