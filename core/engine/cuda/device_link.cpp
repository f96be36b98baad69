#include "core/engine/cuda/device_link.h"

#include "core/trace/reader.h"
#include "core/trace/row.h"
#include "core/util/saturating.h"
#include "core/util/units.h"

#include <compilescope/trace_constants.h>

#include <algorithm>
#include <map>

namespace cs::engine::cuda {

namespace {
bool isLink(const CudaProgram& p) { return p.api == CS_CUDA_NVJITLINK && p.succeeded() && p.durNs && *p.durNs >= 0; }

std::string bytesText(std::optional<std::int64_t> b) { return b ? util::formatBytes(*b) : "size not recorded"; }

bool usesLto(const CudaProgram& p) {
    for (const std::string& o : p.options)
        if (o == "-lto" || o.rfind("-lto", 0) == 0) return true;
    return std::any_of(p.inputs.begin(), p.inputs.end(), [](const CudaProgram::Input& in) { return in.kind == "ltoir"; });
}
}  // namespace

std::vector<size_t> slowLinks(const CudaProgramReport& report) {
    std::map<std::int64_t, std::int64_t> cudaTime;  // session -> NVRTC + nvJitLink time
    for (const CudaProgram& p : report.programs)
        if (p.api == CS_CUDA_NVRTC || p.api == CS_CUDA_NVJITLINK) cudaTime[p.sessionId] = util::satAdd(cudaTime[p.sessionId], p.durNs.value_or(0));
    std::vector<size_t> out;
    for (size_t i = 0; i < report.programs.size(); ++i) {
        const CudaProgram& p = report.programs[i];
        if (!isLink(p)) continue;
        const std::int64_t d = *p.durNs;
        if (d >= kSlowLinkNs || (d >= kSlowLinkShareFloorNs && d >= cudaTime[p.sessionId] / 2)) out.push_back(i);
    }
    return out;
}

std::vector<KernelCompileCost> loadDeviceKernelCosts(const trace::TraceReader& reader, size_t top) {
    // The per-function events of cicc and ptxas in -fdevice-time-trace output (docs/formats: 7.5).
    std::vector<KernelCompileCost> out;
    reader.query("SELECT d.str, total(max(s.dur_ns, 0)), count(*) FROM spans s JOIN strings d ON d.id = s.detail_sid "
                 "WHERE s.detail_sid IS NOT NULL AND s.name_sid IN (SELECT id FROM strings WHERE str IN "
                 "('OptFunction', 'CodeGen Function', 'Scanning Function Body', 'Optimizing compilation unit')) "
                 "GROUP BY s.detail_sid",
                 [&](const trace::Row& st) {
                     out.push_back({trace::colText(st, 0), static_cast<std::int64_t>(std::min(st.real(1), 9.2e18)),
                                    trace::colInt(st, 2)});
                 });
    std::sort(out.begin(), out.end(), [](const KernelCompileCost& a, const KernelCompileCost& b) {
        return a.ns != b.ns ? a.ns > b.ns : a.kernel < b.kernel;
    });
    if (out.size() > top) out.resize(top);
    return out;
}

std::vector<Finding> slowLinkFindings(const CudaProgramReport& report) {
    std::vector<Finding> out;
    for (size_t i : slowLinks(report)) {
        const CudaProgram& p = report.programs[i];
        const bool lto = usesLto(p);
        Finding f = makeFinding("cuda.slow_device_link", Severity::Warning);
        f.title = "nvJitLink link " + (p.name.empty() ? std::string("(unnamed)") : p.name) + " took " + util::formatDuration(*p.durNs) +
                  (lto ? " with link-time optimisation" : "");
        std::int64_t inputBytes = 0;
        for (const auto& in : p.inputs) inputBytes = util::satAdd(inputBytes, in.bytes.value_or(0));
        f.mechanism = "The device link of " + std::to_string(p.inputs.size()) + " input(s) (" + bytesText(inputBytes) + ") took " +
                      util::formatDuration(*p.durNs) + "." +
                      (lto ? " With LTO (-lto or LTO IR inputs) the link compiles every kernel of its inputs again, so its "
                             "time grows with all the code linked, not with what changed."
                           : "") +
                      " nvJitLink keeps nothing between links: every process that links pays this again.";
        f.evidence.push_back({"cuda_programs", p.id, "the link, options: " + joinedOptions(p.options)});
        // Its inputs, largest first: what the link had to read (and, for LTO IR, compile).
        std::vector<const CudaProgram::Input*> inputs;
        for (const auto& in : p.inputs) inputs.push_back(&in);
        std::stable_sort(inputs.begin(), inputs.end(), [](auto* a, auto* b) { return a->bytes.value_or(0) > b->bytes.value_or(0); });
        for (size_t k = 0; k < inputs.size() && k < 5; ++k)
            f.evidence.push_back({"cuda_programs", p.id,
                                  "input " + (inputs[k]->name.empty() ? std::string("(unnamed)") : inputs[k]->name) + " (" +
                                      (inputs[k]->kind.empty() ? std::string("?") : inputs[k]->kind) + ", " + bytesText(inputs[k]->bytes) + ")"});
        if (inputs.size() > 5) f.evidence.push_back({"cuda_programs", p.id, "and " + std::to_string(inputs.size() - 5) + " more input(s)"});
        for (const KernelCompileCost& k : report.deviceKernels)
            f.evidence.push_back({"", 0, "kernel " + k.kernel + ": " + util::formatDuration(k.ns) + " of device compile in " +
                                             std::to_string(k.spans) + " -fdevice-time-trace event(s)"});
        if (report.deviceKernels.empty())
            f.evidence.push_back({"", 0, "which kernels dominate: not recorded (compile with -fdevice-time-trace and import its JSON)"});
        f.costNs = *p.durNs;
        f.fix = std::string("Cache the linked CUBIN keyed by the link's identity (options, input digests, nvJitLink version) "
                            "and load it instead of linking again.") +
                (lto ? " With LTO, link only the code that gains from cross-module optimisation with -lto, and the rest "
                       "as ready CUBIN / PTX; the kernels listed above cost most."
                     : " Link only the inputs the program needs (a large library costs its whole size at every link).");
        f.sessionId = p.sessionId;
        f.startNs = p.startNs;
        f.endNs = util::satAdd(p.startNs, *p.durNs);
        out.push_back(std::move(f));
    }
    return out;
}

}  // namespace cs::engine::cuda
