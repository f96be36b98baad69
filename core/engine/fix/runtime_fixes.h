// The fix rules of each runtime, behind one signature (fix_plan.cpp picks one by finding kind).
//
// Why one signature: each rule gets the finding, the analysis and the context, and either fills a
// change or says why it cannot; the planner stays a table.
#pragma once

#include "core/engine/fix/fix_plan.h"
#include "core/engine/cache/cache_analysis.h"
#include "core/engine/common/finding.h"
#include "core/engine/julia/invalidation_trees.h"
#include "core/engine/julia/timing_findings.h"

namespace cs::engine::fix {

struct FixInput {
    const Finding& finding;
    size_t index = 0;
    const FixSources& analysis;
    const FixContext& context;
};

// Each returns true with `out` filled (a diff, or a snippet and where it goes), or false with
// `whyNot` saying why there is no mechanical change.
using FixRule = bool (*)(const FixInput& in, FixChange& out, std::string& whyNot);

bool torchShapeFix(const FixInput& in, FixChange& out, std::string& whyNot);
bool intSpecialisationFix(const FixInput& in, FixChange& out, std::string& whyNot);  // PyTorch or JAX
bool recompileLimitFix(const FixInput& in, FixChange& out, std::string& whyNot);
bool jaxStaticFix(const FixInput& in, FixChange& out, std::string& whyNot);
bool jaxShapeFix(const FixInput& in, FixChange& out, std::string& whyNot);
bool numbaSignatureFix(const FixInput& in, FixChange& out, std::string& whyNot);
bool warpOptionFix(const FixInput& in, FixChange& out, std::string& whyNot);
bool warpUniqueFix(const FixInput& in, FixChange& out, std::string& whyNot);
bool warpBlockDimFix(const FixInput& in, FixChange& out, std::string& whyNot);
bool warpGenericFix(const FixInput& in, FixChange& out, std::string& whyNot);
bool juliaInvalidationFix(const FixInput& in, FixChange& out, std::string& whyNot);
// Not a finding's rule: the workload of the trace's --trace-compile statements (false when none is nameable).
bool juliaWorkload(const FixSources& analysis, FixChange& out);

// Shared by the rules: the cache lookups the finding's evidence names, in evidence order.
std::vector<const Lookup*> evidenceLookups(const FixInput& in);
// The value of the component `name` of a lookup ("" when absent).
std::string componentValue(const CacheFacts& facts, const Lookup& l, const std::string& name);
// "4 compiles (2.1 s)" style saving line from the finding's cost.
void setSaving(FixChange& out, const Finding& f, const std::string& what);

}  // namespace cs::engine::fix
