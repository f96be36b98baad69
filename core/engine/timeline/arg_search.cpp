#include "core/engine/timeline/arg_search.h"

#include "core/trace/reader.h"
#include "core/trace/row.h"
#include "core/trace/trace_error.h"

#include <cctype>

namespace cs::engine {

namespace {
std::string asciiLower(std::string_view s) {
    std::string out(s);
    for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}
}  // namespace

std::vector<ArgMatch> spansWithMatchingArgs(const trace::TraceReader& reader, std::string_view needle, std::size_t limit) {
    std::vector<ArgMatch> out;
    if (needle.empty() || limit == 0) return out;
    const bool withKey = needle.find('=') != std::string_view::npos;
    // lower() and instr() work on bytes: ASCII case folding, as the name search does. A blob value
    // is compared as its bytes; a NULL value never matches.
    const char* sql = withKey
                          ? "SELECT a.span_id, k.str, CAST(a.value AS TEXT) FROM span_args a JOIN strings k ON k.id = a.key_sid "
                            "WHERE instr(lower(k.str || '=' || CAST(a.value AS TEXT)), ?1) > 0 ORDER BY a.span_id"
                          : "SELECT a.span_id, k.str, CAST(a.value AS TEXT) FROM span_args a LEFT JOIN strings k ON k.id = a.key_sid "
                            "WHERE instr(lower(CAST(a.value AS TEXT)), ?1) > 0 ORDER BY a.span_id";
    try {
        trace::Query st(reader, sql);
        st.bind(1, std::string_view(asciiLower(needle)));
        while (out.size() < limit && st.step()) {
            const std::int64_t id = st.row().integer(0);
            if (!out.empty() && out.back().spanId == id) continue;  // the first matching argument names the hit
            out.push_back({id, st.row().text(1) + "=" + st.row().text(2)});
        }
    } catch (const trace::TraceError&) {
        throw;
    } catch (const std::exception& e) {
        throw trace::TraceError(trace::TraceErrorKind::Query, reader.path(), std::string("searching span arguments: ") + e.what());
    }
    return out;
}

std::vector<std::int64_t> spanIds(const std::vector<ArgMatch>& matches) {
    std::vector<std::int64_t> ids;
    ids.reserve(matches.size());
    for (const ArgMatch& m : matches) ids.push_back(m.spanId);
    return ids;
}

}  // namespace cs::engine
