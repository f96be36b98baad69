#include "core/ingest/julia/julia_collector_importer.h"

#include "core/ingest/import_lines.h"
#include "core/ingest/julia/julia_timing_writer.h"
#include "core/formats/text_util.h"
#include "core/util/utf8.h"

#include <compilescope/trace_constants.h>

#include <map>

namespace cs::ingest {

namespace {
std::string unescape(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    for (size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '\\' && i + 1 < s.size()) {
            char c = s[++i];
            out += c == 't' ? '\t' : c == 'n' ? '\n' : c;
        } else {
            out += s[i];
        }
    }
    return out;
}

std::vector<std::string_view> fields(std::string_view line) {
    std::vector<std::string_view> out;
    size_t start = 0;
    while (true) {
        size_t tab = line.find('\t', start);
        out.push_back(line.substr(start, tab == std::string_view::npos ? std::string_view::npos : tab - start));
        if (tab == std::string_view::npos) break;
        start = tab + 1;
    }
    return out;
}

int kindOf(std::string_view k) {
    static const std::map<std::string_view, int> kinds = {
        {"mi", CS_INVITEM_METHOD_INSTANCE}, {"ci", CS_INVITEM_CODE_INSTANCE}, {"int", CS_INVITEM_INT},
        {"tag", CS_INVITEM_TAG},           {"method", CS_INVITEM_METHOD},    {"type", CS_INVITEM_TYPE},
        {"binding", CS_INVITEM_BINDING},   {"vector", CS_INVITEM_VECTOR},    {"nothing", CS_INVITEM_NOTHING},
        {"other", CS_INVITEM_OTHER}};
    auto it = kinds.find(k);
    return it == kinds.end() ? -1 : it->second;
}
}  // namespace

int JuliaCollectorImporter::sniff(std::string_view head, std::string_view) const {
    return startsWith(head, "# compilescope-julia ") ? 100 : 0;
}

// Records are independent lines, so a damaged line costs only itself. Raw items keep their order
// per list (ordinal), which is all the tree builder needs; compile and import lines go through the
// same writer as Julia's own output so both paths give identical spans.
ImportSummary JuliaCollectorImporter::run(std::istream& in, ImportContext& ctx) const {
    ImportSummary summary;
    auto& w = ctx.writer;
    JuliaTimingWriter timing(ctx);
    std::int64_t ordinal[2] = {0, 0};
    std::map<std::int64_t, std::int64_t> lookupOfKey;  // nitro key ordinal -> cache_lookups.id
    std::string line;
    std::int64_t lineNo = 0, records = 0;
    auto bad = [&](const std::string& why) {
        ctx.malformed("line " + std::to_string(lineNo), why, id());
        ++summary.malformed;
    };
    ImportLines lines(in, ctx, id());
    while (lines.next(line)) {
        ++lineNo;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.empty()) continue;
        if (lineNo == 1) {
            if (line != "# compilescope-julia 1") bad("unknown collector format version: \"" + std::string(util::utf8Prefix(line, 40)) + "\"");
            continue;
        }
        auto f = fields(line);
        auto type = f[0];
        long long a = 0, b = 0, c = 0, d = 0;
        if (type == "meta" && f.size() == 3) {
            w.setMeta(f[1], unescape(f[2]));
        } else if (type == "item" && f.size() == 4 && (f[1] == "methods" || f[1] == "edges") && kindOf(f[2]) >= 0) {
            int list = f[1] == "methods" ? CS_INVLIST_METHODS : CS_INVLIST_EDGES;
            w.addInvalidationItem({.sessionId = ctx.sessionId, .list = list, .ordinal = ordinal[list]++,
                                   .kind = kindOf(f[2]), .text = w.intern(unescape(f[3]))});
            ++records;
        } else if (type == "instance" && f.size() == 6) {
            trace::MethodRecord m{.sessionId = ctx.sessionId, .event = CS_METHOD_DEFINE,
                                  .method = w.intern(unescape(f[2])), .signature = w.intern(unescape(f[1])),
                                  .module = f[3].empty() ? 0 : w.intern(f[3]), .file = f[4].empty() ? 0 : w.intern(unescape(f[4]))};
            if (parseInt(f[5], a)) m.line = a;
            w.addMethod(m);
            ++records;
        } else if ((type == "compile" || type == "import") && f.size() == 2) {
            if (!timing.line(unescape(f[1]))) bad(std::string(type) + " record that Julia did not print: \"" + std::string(util::utf8Prefix(f[1], 60)) + "\"");
        } else if (type == "nitro_stats" && f.size() == 6 && parseInt(f[1], a) && parseInt(f[3], b) && parseInt(f[4], c) &&
                   parseInt(f[5], d)) {
            auto scope = w.intern("ReactantNitro.cache_stats " + unescape(f[2]));
            w.addCounter({.sessionId = ctx.sessionId, .tsNs = a, .scope = scope, .name = w.intern("hits"), .value = b});
            w.addCounter({.sessionId = ctx.sessionId, .tsNs = a, .scope = scope, .name = w.intern("misses"), .value = c});
            w.addCounter({.sessionId = ctx.sessionId, .tsNs = a, .scope = scope, .name = w.intern("entries"), .value = d});
            records += 3;
        } else if (type == "nitro_key" && f.size() == 5 && parseInt(f[1], a) && parseInt(f[3], b)) {
            // Observed from outside: a key that appeared in ReactantNitro.CACHE. The runtime's verdict
            // for it is not observable without hooking, so it stays "unknown".
            auto lookup = w.addCacheLookup({.sessionId = ctx.sessionId, .tsNs = a, .cache = w.intern("ReactantNitro.CACHE"),
                                            .program = w.intern(unescape(f[2])), .verdict = CS_VERDICT_UNKNOWN});
            w.addKeyComponent({.lookupId = lookup, .ordinal = 0, .name = w.intern("key"), .value = w.intern(unescape(f[4]))});
            lookupOfKey[b] = lookup;
            records += 2;
        } else if (type == "nitro_closure" && f.size() == 4 && parseInt(f[1], a) && lookupOfKey.count(a)) {
            trace::ClosureRecord cr{.lookupId = lookupOfKey[a], .method = w.intern(unescape(f[2]))};
            if (parseInt(f[3], b)) cr.world = b;
            w.addClosure(cr);
            ++records;
        } else {
            bad("unknown or short record \"" + std::string(util::utf8Prefix(type, 30)) + "\" (" + std::to_string(f.size()) + " fields)");
        }
    }
    if (in.bad()) throw std::runtime_error(ctx.sourceName + ": read error");
    timing.finish();
    summary.records = records + timing.records();
    summary.lastNs = timing.endNs();
    return summary;
}

}  // namespace cs::ingest
