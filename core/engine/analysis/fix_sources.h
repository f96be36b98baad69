// The parts of an analysed trace the fix rules read (fix::FixSources, core/engine/fix/fix_plan.h).
//
// Why here: fix/ sits below the analysis that assembles TraceAnalysis and never includes it; the
// CLI's `fix`, the report and the GUI's Findings view hand it this view of their analysis.
#pragma once

#include "core/engine/analysis/trace_analysis.h"
#include "core/engine/fix/fix_plan.h"

namespace cs::engine {

// Points into `a`, which must outlive the result.
inline fix::FixSources fixSourcesOf(const TraceAnalysis& a) {
    return fix::FixSources{a.path, a.findings, a.cache.get(), a.invalidations.get(), a.juliaTiming.get()};
}

}  // namespace cs::engine
