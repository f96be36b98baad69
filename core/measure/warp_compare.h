// Baseline-vs-candidate comparison of two Warp measure reports (ours or the probe's JSON).
//
// Why these rules (the Warp guide (docs/warp.md), step 5 and references/measurement.md): a compile-time change only
// counts when the workload is the same, so the launch topology (order, dim, device, dtypes,
// block_dim, adjoint of every launch; kernel names excluded because moving a kernel to module scope
// renames it) must match, else the comparison is refused. Timing is judged on cold module work
// against a noise band of max(1% of the baseline median, 2 x the baseline MAD): a delta inside it is
// inconclusive, not an improvement. When the same identities and source were compiled and only the
// summed timers rose, that is contention between overlapping builds, so the verdict follows compile
// elapsed (cold wall - warm wall) instead. the guide's report ledger (option | measured | why not
// taken | to take it) is printed when the user supplies one.
#pragma once

#include "core/measure/ledger.h"
#include "core/util/json_reader.h"

#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace cs::engine::warp {

enum class CompareVerdict { Improved, Regressed, Inconclusive, TopologyChanged, Invalid };
const char* verdictName(CompareVerdict v);

struct CompareResult {
    CompareVerdict verdict = CompareVerdict::Inconclusive;
    double baseMedian = 0, candMedian = 0, baseMad = 0, candMad = 0;
    std::int64_t baseSamples = 0, candSamples = 0;
    double delta = 0, percent = 0, band = 0;  // delta = base - candidate (> 0 = faster)
    std::optional<double> baseElapsed, candElapsed, elapsedBand;
    bool workloadKnown = false, workloadSame = false, sameWork = false;
    std::vector<std::string> notes;  // topology differences, renamed kernels, changed hashes
};

// Throws std::runtime_error naming the missing or ill-typed key.
CompareResult compareReports(const util::JsonValue& base, const util::JsonValue& cand);


// The ledger comes from measure::readLedger (ledger.h): JSON or the Markdown table.
void printComparison(const CompareResult& r, const std::vector<measure::LedgerRow>& ledger, std::ostream& out);

}  // namespace cs::engine::warp
