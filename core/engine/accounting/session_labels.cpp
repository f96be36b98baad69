#include "core/engine/accounting/session_labels.h"

#include "core/trace/reader.h"
#include "core/trace/table_readers.h"

#include <algorithm>
#include <map>
#include <string_view>

namespace cs::engine {

namespace {
// The last `n` components of `path` ('/' or '\\' separated), or the whole path when it has fewer.
std::string_view lastComponents(std::string_view path, size_t n) {
    size_t pos = path.size();
    while (n > 0 && pos > 0) {
        size_t sep = path.find_last_of("/\\", pos - 1);
        if (sep == std::string_view::npos) return path;
        pos = sep;
        --n;
        if (n == 0) return path.substr(sep + 1);
    }
    return path;
}
}  // namespace

std::vector<std::string> distinguishingSuffixes(const std::vector<std::string>& paths) {
    std::vector<std::string> out(paths.size());
    std::vector<size_t> pending(paths.size());
    for (size_t i = 0; i < paths.size(); ++i) pending[i] = i;
    // Grow the suffix of the paths whose suffix is still shared, one component per round; a path
    // whose whole text is shared (the same file twice) stops when it cannot grow.
    for (size_t depth = 1; !pending.empty(); ++depth) {
        std::map<std::string_view, size_t> uses;
        for (size_t i = 0; i < paths.size(); ++i) ++uses[lastComponents(paths[i], depth)];
        std::vector<size_t> still;
        for (size_t i : pending) {
            std::string_view s = lastComponents(paths[i], depth);
            if (uses[s] == 1 || s.size() == paths[i].size()) out[i] = std::string(s);
            else still.push_back(i);
        }
        pending = std::move(still);
    }
    return out;
}

std::unordered_map<std::int64_t, std::string> sessionLabels(const trace::TraceReader& reader) {
    struct Row {
        std::int64_t id;
        std::string runtime, source;
        bool hasPid;
        std::int64_t pid;
    };
    std::vector<Row> rows;
    for (const trace::StoredSession& s : trace::readSessions(reader)) {
        Row r{s.id, s.runtime, s.source, s.pid.has_value(), s.pid.value_or(0)};
        if (r.runtime.empty()) r.runtime = "session " + std::to_string(r.id);
        rows.push_back(std::move(r));
    }
    std::vector<std::string> sources;
    for (const Row& r : rows)
        if (!r.hasPid && !r.source.empty()) sources.push_back(r.source);
    std::vector<std::string> suffixes = distinguishingSuffixes(sources);
    std::unordered_map<std::int64_t, std::string> labels;
    size_t next = 0;
    for (const Row& r : rows) {
        std::string label = r.runtime;
        if (r.hasPid) label += " pid " + std::to_string(r.pid);
        else if (!r.source.empty()) label += ": " + suffixes[next++];
        labels[r.id] = std::move(label);
    }
    return labels;
}

}  // namespace cs::engine
