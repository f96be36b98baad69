// The acceptance check of the ReactantNitro guide (docs/cache-replay.md), judged on a replayed trace.
//
// The ReactantNitro guide (docs/cache-replay.md), "The acceptance check": "The criterion is no recompile after the first step. ... Check
// that misses == entries and that misses does not grow with the number of steps. Both counters are
// cumulative, so a miss that is not also a new entry is a program compiled twice." And the expected
// count: "A train-only run compiles 2: the gradient program and the optimizer program ... a run that
// trains and validates reports 3. Add one more per :device-residency metric hook; a host metric adds
// nothing, because it is part of no program at all; and a split whose length is not a multiple of
// the batch size builds the :device metric program twice, once at the padded width and again at the
// remainder."
//
// How the trace maps onto it:
//  - "after the first step": a program's first use may come late (validation runs after training
//    steps), so a miss is late when its step is greater than the first step at which the same handle
//    looked the same program up. A new handle starts over, as a new Nitro does.
//  - the run's shape is read from program names: grad* = gradient, opt* = optimizer, names with
//    eval / valid / forward / predict = evaluation forward, names with metric = a :device metric hook's
//    program (a :host metric records no program). A metric program compiled at exactly two keys that
//    differ only in shape within one validation pass is the ragged split's second build.
//  - the count is the guide's for one acceptance run (cache_reset!(); n = Nitro(e); train!(n)), so it is
//    judged per process when each process used one handle, and summed over processes. A session with
//    several handles (a REPL rebuilding its Nitro) is not judged unless --expect-programs says so.
#pragma once

#include "core/engine/cache/cache_facts.h"
#include "core/engine/cache/cache_replay.h"
#include "core/engine/cache/miss_attribution.h"

#include <optional>
#include <string>
#include <vector>

namespace cs::engine {

struct AcceptanceOptions {
    std::optional<std::int64_t> expectPrograms{};  // --expect-programs N; default: derived from the run
    std::int64_t maxLateMisses = 0;              // --max-misses-after-step K
};

// One point of the per-step miss series (for plotting).
struct StepMisses {
    std::int64_t step = 0;
    std::int64_t lookups = 0, misses = 0, cumulativeMisses = 0;
};

struct LateMiss {
    size_t lookup = 0;
    std::int64_t step = 0, firstStep = 0;
    std::string reason{};  // the miss attribution's reason
};

struct ProgramTally {
    std::string program{};
    std::int64_t compiles = 0, lookups = 0;
};

struct ExpectedPrograms {
    std::int64_t count = 0;
    std::string basis{};  // "train-only run: gradient + optimizer = 2", ...
    bool judged = true;   // false: several handles in one process, see above
    // false: no process ran a training program (gradient, optimizer, evaluation, metric), as in a
    // Numba, JAX or PyTorch trace: the count is a ReactantNitro training run's, and views omit it.
    bool applies = true;
};

struct AcceptanceFailure {
    std::string rule{};    // "misses == entries", "no miss after the first step", ...
    std::string reason{};  // what broke it, with the evidence
};

struct AcceptanceResult {
    ReplayCounts counts{};
    std::optional<CounterSnapshot> lastRuntimeCounters{};
    std::vector<StepMisses> series{};
    std::vector<LateMiss> lateMisses{};
    std::vector<ProgramTally> programs{};  // first-compile order
    ExpectedPrograms derived{};            // from the run's shape
    std::optional<std::int64_t> expected{};  // the count judged against (option or derived), if judged
    bool expectedFromOption = false;
    std::vector<AcceptanceFailure> failures{};
    bool passed() const { return failures.empty(); }
};

AcceptanceResult checkAcceptance(const CacheFacts& facts, const ReplayResult& replay, const Attribution& attribution,
                                 const AcceptanceOptions& options = {});

// The guide's expected-count rule as a function of the run's shape (also used by tests).
struct RunShape {
    bool gradient = false, optimizer = false, validates = false;
    std::int64_t deviceMetricHooks = 0, raggedSplits = 0, otherPrograms = 0;
};
ExpectedPrograms expectedProgramCount(const RunShape& run);

}  // namespace cs::engine
