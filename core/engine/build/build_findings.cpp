#include "core/engine/build/build_findings.h"

#include "core/util/saturating.h"
#include "core/util/units.h"

namespace cs::engine::build {

namespace {
// A thing is worth a finding when it costs at least this share of the time it is part of.
constexpr double kHeaderShare = 0.10;    // of all frontend time
constexpr double kTemplateShare = 0.10;  // of all frontend time
constexpr double kFunctionShare = 0.05;  // of all backend time
constexpr size_t kMaxEach = 5;           // findings per kind, most costly first

std::string percent(std::int64_t part, std::int64_t whole) {
    if (whole <= 0) return "";
    return std::to_string(static_cast<int>(100.0 * static_cast<double>(part) / static_cast<double>(whole) + 0.5)) + " %";
}

std::string share(std::int64_t part, std::int64_t whole) { return whole <= 0 ? "" : " (" + percent(part, whole) + ")"; }

// The time that repeating it costs: all of it but one file's share.
std::int64_t repeatCost(const Cost& c) { return c.files > 1 ? c.ns - c.ns / c.files : 0; }

// The costliest entries of `list` (at most kMaxEach) met in two files or more, each at least
// `minShare` of `whole`.
std::vector<const Cost*> worthy(const std::vector<Cost>& list, double minShare, std::int64_t whole) {
    std::vector<const Cost*> out;
    for (const Cost& c : list)
        if (out.size() < kMaxEach && c.files >= 2 && static_cast<double>(c.ns) >= minShare * static_cast<double>(whole))
            out.push_back(&c);
    return out;
}

Finding costFinding(const char* kind, const Cost& c, std::string title, std::string mechanism, std::string fix) {
    Finding f = makeFinding(kind, Severity::Warning);
    f.title = std::move(title);
    f.mechanism = std::move(mechanism);
    f.fix = std::move(fix);
    f.costNs = repeatCost(c);
    f.sessionId = c.worstSessionId;
    if (c.worstSpanId) f.evidence.push_back({"spans", c.worstSpanId, "most expensive in " + c.worstFile});
    return f;
}
}  // namespace

std::vector<Finding> buildFindings(const BuildReport& r) {
    std::vector<Finding> out;
    for (const Cost* hp : worthy(r.headers, kHeaderShare, r.frontendNs)) {
        const Cost& h = *hp;
        out.push_back(costFinding(
            "build.expensive_header", h,
            "header " + h.name + ": " + util::formatDuration(h.ns) + " of parsing in " + util::formatCount(h.files) + " files",
            "Every file that includes " + h.name + " parses it again, with everything it includes: " +
                util::formatCount(h.count) + " includes in " + util::formatCount(h.files) + " files, " +
                util::formatDuration(h.ns) + " of the build's " + util::formatDuration(r.frontendNs) + " of frontend time" +
                share(h.ns, r.frontendNs) + "; the most expensive is in " + h.worstFile + " (" +
                util::formatDuration(h.worstNs) + ").",
            "Precompile it (CMake target_precompile_headers, clang -include-pch), or include it in fewer files: in "
            "headers, forward-declare the types used only by pointer or reference and include " + h.name +
            " in the .cpp files that need it."));
    }
    for (const Cost* tp : worthy(r.templateSets, kTemplateShare, r.frontendNs)) {
        const Cost& t = *tp;
        out.push_back(costFinding(
            "build.template_set", t,
            "template " + t.name + ": " + util::formatDuration(t.ns) + " instantiating in " + util::formatCount(t.files) +
                " files",
            "Each file instantiates " + t.name + " for itself: " + util::formatCount(t.count) + " instantiations in " +
                util::formatCount(t.files) + " files, " + util::formatDuration(t.ns) + share(t.ns, r.frontendNs) +
                " of frontend time (inclusive: what they instantiate counts too).",
            "Declare the common instantiations `extern template` in the header and instantiate them once, in one .cpp "
            "file (`template class ...;`); or move the template's heavy members out of the header."));
    }
    for (const auto* list : {&r.optimisedFunctions, &r.generatedFunctions}) {
        const bool optimise = list == &r.optimisedFunctions;
        for (const Cost* fp : worthy(*list, kFunctionShare, r.backendNs)) {
            const Cost& fn = *fp;
            out.push_back(costFinding(
                "build.repeated_function", fn,
                "function " + fn.name + ": " + (optimise ? "optimised" : "generated") + " in " +
                    util::formatCount(fn.files) + " files, " + util::formatDuration(fn.ns),
                std::string("The function is ") + (optimise ? "optimised" : "code-generated") + " again in every file "
                    "that defines it (an inline function or a template defined in a header): " +
                    util::formatCount(fn.files) + " files, " + util::formatDuration(fn.ns) + share(fn.ns, r.backendNs) +
                    " of backend time.",
                "Move its definition out of the header into one .cpp file (declare it in the header), or `extern "
                "template` the instantiation, so that one file compiles it."));
        }
    }
    for (const BuildFile& f : r.files) {
        if (f.backendNs <= f.frontendNs || static_cast<double>(f.totalNs) < 0.25 * static_cast<double>(r.totalNs) ||
            r.files.size() < 2)
            continue;
        Finding x = makeFinding("build.backend_heavy", Severity::Info);
        x.title = f.label + ": backend " + util::formatDuration(f.backendNs) + ", frontend " + util::formatDuration(f.frontendNs);
        x.mechanism = "Optimisation and code generation take most of this file's compile, which is " +
                      percent(f.totalNs, r.totalNs) + " of the build's compiler time.";
        x.fix = "Split the file so its functions compile in parallel, or compile it at a lower optimisation level; "
                "see its most expensive functions in `compilescope build-report`.";
        x.sessionId = f.sessionId;
        x.startNs = f.startNs;
        x.endNs = util::satAdd(f.startNs, f.totalNs);
        out.push_back(std::move(x));
    }
    return out;
}

}  // namespace cs::engine::build
