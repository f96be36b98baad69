// The planner: which rule fixes which finding kind, and what the context holds (fix_plan.h).
#include "core/engine/fix/fix_plan.h"

#include "core/engine/fix/runtime_fixes.h"
#include "core/engine/fix/source_text.h"
#include "core/trace/reader.h"
#include "core/trace/table_readers.h"
#include "core/util/units.h"

#include <fstream>
#include <sstream>

namespace cs::engine::fix {

namespace {
struct Rule {
    const char* kind;
    FixRule rule;
};

// docs/fix.md lists these rules and the reasons the other kinds have no mechanical change.
const Rule kRules[] = {
    {"jit.shape_churn", torchShapeFix},          // PyTorch: mark_dynamic; JAX: a bucket snippet (jaxShapeFix)
    {"jit.int_specialisation_churn", intSpecialisationFix},
    {"jit.recompile_limit_hit", recompileLimitFix},
    {"jit.static_arg_churn", jaxStaticFix},
    {"numba.type_churn", numbaSignatureFix},
    {"warp.option_set_after_load", warpOptionFix},
    {"warp.unique_modules", warpUniqueFix},
    {"warp.block_dim_variants", warpBlockDimFix},
    {"warp.generic_instance_after_load", warpGenericFix},
    {"julia.invalidation_tree", juliaInvalidationFix},
};

std::string scriptOf(const std::string& cmdline, const std::string& baseDir) {
    std::istringstream words(cmdline);
    std::string w;
    while (words >> w) {
        if (w.size() > 3 && w.compare(w.size() - 3, 3, ".py") == 0) {
            if (w[0] != '/' && !baseDir.empty()) w = baseDir + "/" + w;
            return w;
        }
    }
    return "";
}

const char* noRuleReason(const std::string& kind) {
    if (kind.rfind("cache.", 0) == 0 || kind.rfind("trace.", 0) == 0)
        return "it is about the cache's behaviour or the trace, not a line of the program";
    if (kind.rfind("build.", 0) == 0) return "a header or template change needs a person's judgement";
    if (kind.rfind("julia.invalidation", 0) == 0)
        return "an invalidation is fixed in the method it names or upstream: see the tree (compilescope trees)";
    if (kind.rfind("julia.", 0) == 0)
        return "recompilation is invalidation, and these timings do not name the method that caused it: record the "
               "trees (@snoop_invalidations) and import them beside this log";
    return "its fix depends on the program's intent, not on a value the trace holds";
}
}  // namespace

SourceReader diskReader() {
    return [](const std::string& path) -> std::optional<std::string> {
        std::ifstream in(path, std::ios::binary);
        if (!in) return std::nullopt;
        std::ostringstream s;
        s << in.rdbuf();
        return s.str();
    };
}

FixContext loadFixContext(const trace::TraceReader& reader, const std::string& baseDir, SourceReader read) {
    FixContext c;
    c.read = std::move(read);
    for (const trace::StoredSession& s : trace::readSessions(reader)) {
        auto script = scriptOf(s.cmdline, baseDir);
        if (!script.empty()) c.scripts[s.id] = script;
    }
    reader.query("SELECT n.str, s.dur_ns FROM spans s JOIN tracks t ON t.id = s.track_id JOIN strings tn ON tn.id = t.name_sid "
                 "JOIN strings n ON n.id = s.name_sid WHERE tn.str = 'julia compiles' AND s.category = " +
                     std::to_string(CS_CAT_COMPILE) + " ORDER BY s.start_ns, s.id",
                 [&](const trace::Row& st) {
                     c.julia.push_back({st.text(0), st.integer(1)});
                 });
    return c;
}

std::vector<const Lookup*> evidenceLookups(const FixInput& in) {
    std::vector<const Lookup*> out;
    if (!in.analysis.cache) return out;
    const auto& lookups = in.analysis.cache->facts.lookups;
    for (const auto& e : in.finding.evidence) {
        if (e.table != "cache_lookups") continue;
        for (const auto& l : lookups)
            if (l.id == e.rowId) out.push_back(&l);
    }
    return out;
}

std::string componentValue(const CacheFacts& facts, const Lookup& l, const std::string& name) {
    for (const auto& c : l.components)
        if (facts.str(c.name) == name) return facts.str(c.value);
    return "";
}

void setSaving(FixChange& out, const Finding& f, const std::string& what) {
    out.savingNs = f.costNs;
    out.saving = what;
    if (f.costNs && *f.costNs > 0) out.saving += " (" + util::formatDuration(*f.costNs) + " of compiling in this run)";
}

FixPlan planFixes(const FixSources& analysis, const FixContext& context, std::optional<size_t> only) {
    FixPlan plan;
    for (size_t i = 0; i < analysis.findings.size(); ++i) {
        if (only && *only != i) continue;
        const auto& f = analysis.findings[i];
        FixRule rule = nullptr;
        for (const auto& r : kRules)
            if (f.kind == r.kind) rule = r.rule;
        std::string whyNot;
        if (rule) {
            FixChange change;
            change.finding = i;
            change.kind = f.kind;
            if (rule(FixInput{f, i, analysis, context}, change, whyNot)) {
                plan.changes.push_back(std::move(change));
                continue;
            }
        } else {
            whyNot = noRuleReason(f.kind);
        }
        plan.none.push_back({i, f.kind, whyNot});
    }
    if (FixChange workload; !only && juliaWorkload(analysis, workload)) plan.changes.push_back(std::move(workload));
    return plan;
}

}  // namespace cs::engine::fix
