// Importer for Julia's compile-time output: `--trace-compile` (with or without
// `--trace-compile-timing`), `@time` lines and `@time_imports` rows, alone or mixed in one log.
//
// Why: these are the only places Julia says what it (re)compiled and for how long; joined with
// invalidation trees they give each root its cost (core/engine/invalidation_load.h). Forms (checked
// against JuliaLang/julia src/gf.c, base/timing.jl, base/loading.jl; docs/formats.md 1.4):
//   #=   21.4 ms =# precompile(Tuple{typeof(Base.sort), Vector{Int64}})
//   precompile(Tuple{typeof(f), Int64}) # recompile        (yellow on a colour terminal)
//     0.140577 seconds (554.86 k allocations: 28.968 MiB, 79.65% compilation time: 100% of which was recompilation)
//                  ┌ 1.8 ms FooBar_jll.__init__() 64.10% compilation time (<1% recompilation)
//       402.7 ms  SomeDep 38.11% compilation time (100% recompilation)
//        12.0 ms  A → AExt
//   julia> @time using Plots                              (names what the next @time line timed)
//   #  18.903280 seconds (...)                            (timings kept in `#` comments)
//   [ Info: Precompiling GLMakie [e9467ef8-...] (caches not reused: 1 for dependency identifier changed)
//   [ Info:    1255 ms: screen = GLMakie.singleton_screen(false)     (PrecompileTools, PR #72)
//   ┌ Info:     167 ms:                                   (the same, the expression boxed below)
//   │ try ...
//   └ end
// How they are stored: see julia_timing_writer.h. Other lines (program output) are counted as
// malformed and skipped.
#pragma once

#include "core/ingest/importer.h"

namespace cs::ingest {

class JuliaTimingImporter final : public Importer {
public:
    std::string_view id() const override { return "julia-timing"; }
    std::string_view description() const override {
        return "Julia --trace-compile[-timing], @time, @time_imports and PrecompileTools timing output";
    }
    int sniff(std::string_view head, std::string_view fileName) const override;
    int maxSniffScore() const override { return 80; }
    ImportSummary run(std::istream& in, ImportContext& ctx) const override;
};

}  // namespace cs::ingest
