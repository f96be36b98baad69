// The build's time per clang event name, each in the frontend or the backend.
//
// Why by containment and not by a list of names: clang names its events after what runs, and since
// clang 14 (the new pass manager) that is every LLVM pass (`InstCombinePass`, `SROAPass`,
// `PassManager<llvm::Function>`, `RequireAnalysisPass<...>`, ...), a list that changes with every
// release. clang itself encloses all the work of a file in its `Frontend` and `Backend` events, so a
// span belongs to the stage whose event contains it: every name of clang 9 to 18, and of releases to
// come, falls into one of the two without a table to keep up to date. A name nested in itself (a
// recursive instantiation) is counted once, as clang's own totals do.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace cs::trace {
class TraceReader;
}

namespace cs::engine::build {

struct StageInterval {
    std::int64_t start = 0, end = 0;  // the Frontend or Backend span, in the session's clock
    bool backend = false;
};

struct PhaseCost {
    std::string name;
    bool backend = false;    // in the Backend event, else the Frontend one
    std::int64_t ns = 0;     // summed over files, a name nested in itself counted once
    std::int64_t count = 0;  // spans counted
    std::int64_t files = 0;  // files with such spans
};

// `stages`: per session, its Frontend and Backend spans. Largest first, at most `keep` rows.
std::vector<PhaseCost> buildPhases(const trace::TraceReader& reader,
                                   const std::map<std::int64_t, std::vector<StageInterval>>& stages, size_t keep);

}  // namespace cs::engine::build
