# SPDX-License-Identifier: MIT
"""
    CompileScope

Records, inside a running Julia session, what CompileScope (https://github.com/.../compilescope)
needs to show invalidation trees with their cost:

* both invalidation lists: `jl_debug_method_invalidation` ("logmeths") and, on Julia >= 1.12,
  the edge-validation list of `Base.StaticData` / `Base.ReinferUtils` ("logedges"), item by item,
  with the Method each invalidated MethodInstance specializes;
* compile timings: `--trace-compile-timing` statements (Julia >= 1.12, switched on in-process) and
  `@time_imports` rows, plus the cumulative compile / recompile time of the whole call;
* ReactantNitro's program cache, observed from outside when ReactantNitro is loaded:
  `cache_stats()`, the cache's keys and each new entry's dependency closure, at the start and end of
  the recording and wherever `nitro_snapshot(label)` is called (for example once per training step).

`record(f, path)` writes them to `path` in the text format documented in `src/textformat.jl`
(`compilescope import path -o trace.cstrace` reads it). When the C ABI binding (`src/native.jl`)
is present, the same facts can go to a live recorder instead.
"""
module CompileScope

export record, nitro_snapshot

include("textformat.jl")
include("invalidations.jl")
include("timings.jl")
include("nitro.jl")
# The C ABI binding is optional: it is written separately and loaded when present.
isfile(joinpath(@__DIR__, "native.jl")) && include("native.jl")

const ACTIVE = Ref{Union{Nothing,TextWriter}}(nothing)

"""
    record(f, path) -> result of f()

Runs `f()` while capturing invalidations, compile timings and ReactantNitro cache observations,
and writes them to `path`. Output that `f` prints to stdout / stderr is kept: lines that are not
compile timings are written back to the original streams after `f` returns.
"""
function record(f, path::AbstractString)
    ACTIVE[] === nothing || error("CompileScope.record: a recording is already running")
    w = TextWriter(path)
    ACTIVE[] = w
    try
        meta!(w, "julia_version", string(VERSION))
        meta!(w, "recorded_at_ns", string(time_ns()))
        nitro_snapshot(w, "record start")
        lists = start_invalidation_logs()
        comp0 = cumulative_compile_ns()
        local result
        try
            result = with_compile_timings(w, f)
        finally
            stop_invalidation_logs()
            comp1 = cumulative_compile_ns()
            meta!(w, "compile_ns", string(comp1[1] - comp0[1]))
            meta!(w, "recompile_ns", string(comp1[2] - comp0[2]))
            write_invalidation_lists(w, lists)
            nitro_snapshot(w, "record end")
        end
        return result
    finally
        ACTIVE[] = nothing
        close(w)
    end
end

"""
    nitro_snapshot(label)

Inside `record`, notes ReactantNitro's `cache_stats()` and any program-cache keys that appeared
since the last snapshot. Call it at the points you want to compare (entry points, steps). Outside a
recording, or without ReactantNitro loaded, it does nothing.
"""
nitro_snapshot(label::AbstractString) = (w = ACTIVE[]; w === nothing || nitro_snapshot(w, label); nothing)

end # module
