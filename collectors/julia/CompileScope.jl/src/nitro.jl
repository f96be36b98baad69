# SPDX-License-Identifier: MIT
#
# ReactantNitro, observed from outside: nothing here changes its behaviour. When the package is
# loaded we read `cache_stats()` (hits, misses, entries), the keys of its program cache
# (`ReactantNitro.CACHE`) and, for keys new since the last look, their dependency closure
# (`ReactantNitro.CACHE_CLOSURES[key]`: a world closure of (Method, signature) pairs, or a
# TraceHook.TraceRecord with the world and the specializations a trace went through).

const SEEN_KEYS = IdDict{Any,Int}()

function nitro_module()
    for (id, m) in Base.loaded_modules
        id.name == "ReactantNitro" && return m
    end
    return nothing
end

# Elements of a closure record as (method text, world) pairs, whatever its shape.
function closure_entries(@nospecialize rec)
    out = Tuple{String,Union{Nothing,Int}}[]
    world = hasproperty(rec, :world) ? Int(getproperty(rec, :world)) : nothing
    items = hasproperty(rec, :specs) ? getproperty(rec, :specs) : rec
    if items isa AbstractVector || items isa Tuple || items isa AbstractSet
        for e in items
            m = e isa Pair || e isa Tuple ? first(e) : e
            w = m isa Method ? Int(m.primary_world) : world
            push!(out, (sprint(show, m), w))
        end
    end
    return out
end

function nitro_snapshot(w::TextWriter, label::AbstractString)
    M = nitro_module()
    M === nothing && return nothing
    t = time_ns()
    try
        stats = Base.invokelatest(getproperty(M, :cache_stats))
        record!(w, "nitro_stats", t, label, stats.hits, stats.misses, stats.entries)
        if isdefined(M, :CACHE)
            closures = isdefined(M, :CACHE_CLOSURES) ? getproperty(M, :CACHE_CLOSURES) : nothing
            for key in collect(keys(getproperty(M, :CACHE)))
                haskey(SEEN_KEYS, key) && continue
                ord = SEEN_KEYS[key] = length(SEEN_KEYS) + 1
                record!(w, "nitro_key", t, label, ord, sprint(show, key))
                if closures !== nothing && haskey(closures, key)
                    for (m, world) in closure_entries(closures[key])
                        record!(w, "nitro_closure", ord, m, world === nothing ? "" : world)
                    end
                end
            end
        end
    catch err
        # Observation must never break the host program.
        @warn "CompileScope: could not observe ReactantNitro" exception = err maxlog = 1
    end
    return nothing
end
