#include "core/engine/common/finding.h"

#include <string_view>
#include <utility>

namespace cs::engine {

const char* severityName(Severity s) {
    switch (s) {
    case Severity::Info: return "info";
    case Severity::Warning: return "warning";
    case Severity::Error: return "error";
    }
    return "?";
}

std::string evidenceSubject(const Evidence& e) {
    static const std::pair<std::string_view, std::string_view> kNouns[] = {
        {"cache_lookups", "cache lookup"}, {"module_loads", "module load"},     {"spans", "span"},
        {"counters", "counter"},           {"methods", "method"},               {"invalidation_items", "invalidation item"},
        {"cuda_programs", "CUDA program"}, {"kernel_launches", "kernel launch"}, {"phase_timings", "compiler phase"},
        {"steps", "step"},                 {"sessions", "session"},             {"stats", ""},
        {"cuda_jit", "driver JIT record"}, {"invalidation_trees", "invalidation tree"}};
    std::string noun = e.table;
    for (const auto& [table, word] : kNouns)
        if (e.table == table) noun = std::string(word);  // "" for the stats table: the note says it all
    if (noun.empty()) return {};
    return e.rowId ? noun + " " + std::to_string(e.rowId) : noun;
}

std::string evidenceText(const Evidence& e) {
    std::string subject = evidenceSubject(e);
    if (subject.empty()) return e.note;
    return e.note.empty() ? subject : subject + ": " + e.note;
}

}  // namespace cs::engine
