#include "all_findings.h"
#include "warp_diagnosis.h"

#include "cache_analysis.h"

#include "invalidation_findings.h"

namespace cs::engine {

std::vector<Finding> collectFindings(const trace::TraceReader& reader) {
    std::vector<Finding> all;
    auto append = [&](std::vector<Finding> part) {
        for (auto& f : part) all.push_back(std::move(f));
    };
    // One line per analysis (cache replay, Warp modules, Julia invalidations, CUDA, ...):
    //   append(analyseSomething(reader));
    append(analyseCacheFindings(reader));
    append(warp::analyseWarpModules(reader));
    append(analyseInvalidations(reader));
    return all;
}

}  // namespace cs::engine
