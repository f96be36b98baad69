// The plan and the text the report and the GUI show (fix_view.h).
#include "core/engine/fix/fix_view.h"

#include "core/engine/common/finding.h"
#include "core/trace/reader.h"

#include <filesystem>
#include <stdexcept>

namespace cs::engine::fix {

FixPlan planFixesForTrace(const FixSources& analysis) {
    FixContext context;
    try {
        if (!analysis.path.empty()) {
            auto reader = trace::TraceReader::open(analysis.path);
            context = loadFixContext(*reader, std::filesystem::current_path().string());
        }
    } catch (const std::exception&) {
        context = FixContext{};  // an in-memory analysis, or a file gone since: the rules that need no context still apply
    }
    return planFixes(analysis, context);
}

const FixChange* changeFor(const FixPlan& plan, const FixSources& analysis, const Finding& f) {
    for (const auto& c : plan.changes) {
        if (c.finding >= analysis.findings.size()) continue;  // kNoFinding: the trace's own change
        const Finding& g = analysis.findings[c.finding];
        if (g.kind == f.kind && g.title == f.title) return &c;
    }
    return nullptr;
}

std::string changeText(const FixChange& c) {
    std::string h = "# change: " + c.summary + "\n# saving: " + c.saving + "\n# verify: " + c.verify + "\n";
    if (!c.file.empty()) h += "# file: " + c.file + (c.line ? ":" + std::to_string(c.line) : "") + "\n";
    if (c.diff.empty() && !c.where.empty()) h += "# where: " + c.where + "\n";
    for (const auto& n : c.notes) h += "# note: " + n + "\n";
    return h + (c.diff.empty() ? c.snippet : c.diff);
}

}  // namespace cs::engine::fix
