// The loss line of every figure-printing verb; see loss_line.h.
#include "loss_line.h"

#include "core/engine/accounting/trace_facts.h"
#include "core/trace/trace_problems.h"

namespace cs::cli {

void printLossLine(std::ostream& out, const engine::TraceLosses& losses) {
    if (!losses.anyToShow()) return;
    out << "warning: " << losses.bannerText() << "\n";
}

engine::TraceLosses lossesOfTrace(const trace::TraceReader& reader) {
    engine::TraceFacts facts = engine::readTraceFacts(reader);
    facts.problems = trace::checkTraceProblems(reader);
    return engine::lossesOf(facts);
}

}  // namespace cs::cli
