#include "core/engine/analysis/error_verdict.h"

namespace cs::engine {

namespace {
bool replayJudged(const AcceptanceVerdict& v) {
    for (const auto& r : v.rules)
        if (r.scope == "whole trace") return true;
    return false;
}
}  // namespace

void failOnErrorFindings(const std::vector<Finding>& findings, AcceptanceVerdict& v) {
    const bool replay = replayJudged(v);
    bool added = false;
    for (const Finding& f : findings) {
        if (f.severity != Severity::Error) continue;
        if (replay && f.kind.rfind("cache.", 0) == 0 && v.state == VerdictState::Fail) continue;
        v.rules.push_back({"no [error] finding", std::string(kErrorFindingScope), false, f.kind + ": " + f.title});
        added = true;
    }
    if (!added) return;
    if (v.state == VerdictState::NotApplicable) v.source = "the trace's [error] findings (nothing else to judge)";
    else v.source += "; the trace's [error] findings";
    v.state = VerdictState::Fail;
}

}  // namespace cs::engine
