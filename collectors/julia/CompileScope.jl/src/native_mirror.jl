# SPDX-License-Identifier: MIT
#
# The text records of textformat.jl, sent through the C ABI (Native) as the same trace facts the
# julia-collector importer makes of them: raw items -> cs_invalidation_item, instances ->
# cs_method, compile statements and @time_imports rows -> spans with the args the cost join reads
# (recompile, compile_ns, recompile_ns), cache_stats -> counters, keys -> cache lookups + closures.
# Never throws into the host: a record that cannot be sent is skipped.

mutable struct NativeMirror
    ordinals::Dict{String,Int}
    lookups::Dict{String,UInt64}
end
NativeMirror() = NativeMirror(Dict{String,Int}(), Dict{String,UInt64}())

const NATIVE_KINDS = Dict("other" => 0, "mi" => 1, "int" => 2, "tag" => 3, "method" => 4, "type" => 5,
                          "ci" => 6, "binding" => 7, "vector" => 8, "nothing" => 9)

span_arg(key, value::Integer) =
    ccall(Native.sym(:cs_span_arg_int), Cvoid, (UInt32, Int64), Native.intern(key), Int64(value))

function mirror_span(category, name, dur_ns; args...)
    Native.span_complete(category, name, Native.now_ns() - dur_ns, dur_ns)
    for (k, v) in args
        span_arg(string(k), v)
    end
end

pct(ns, p) = round(Int64, ns * p / 100)

function mirror!(m::NativeMirror, fields)
    try
        kind = fields[1]
        if kind == "item"
            list = fields[2] == "methods" ? Native.INVLIST_METHODS : Native.INVLIST_EDGES
            ord = get(m.ordinals, fields[2], 0)
            m.ordinals[fields[2]] = ord + 1
            Native.invalidation_item(list, ord, get(NATIVE_KINDS, fields[3], 0), string(fields[4]))
        elseif kind == "instance"
            Native.method_event(Native.METHOD_DEFINE, fields[3]; signature = fields[2], mod = fields[4],
                                file = fields[5], line = tryparse(Int, string(fields[6])))
        elseif kind == "compile"
            c = match(r"^(?:#=\s*([0-9.]+) ms =#\s*)?precompile\((.*)\)\s*(# recompile)?$", fields[2])
            c === nothing && return nothing
            dur = c[1] === nothing ? 0 : round(Int64, parse(Float64, c[1]) * 1e6)
            args = c[3] === nothing ? () : (recompile = 1,)
            mirror_span(Native.CAT_COMPILE, c[2], dur; args..., (c[1] === nothing ? (untimed = 1,) : ())...)
        elseif kind == "import"
            r = match(r"^\s*(┌|├)?\s*([0-9.]+) ms\s+(.*?)(?:\s+([0-9.]+)% compilation time)?(?:\s+\((<1|[0-9.]+)% recompilation\))?\s*$", fields[2])
            r === nothing && return nothing
            dur = round(Int64, parse(Float64, r[2]) * 1e6)
            comp = r[4] === nothing ? 0 : pct(dur, parse(Float64, r[4]))
            recomp = r[5] === nothing || r[5] == "<1" ? 0 : pct(comp, parse(Float64, r[5]))
            mirror_span(r[1] === nothing ? Native.CAT_IMPORT : Native.CAT_INIT, r[3], dur;
                        compile_ns = comp, recompile_ns = recomp)
        elseif kind == "nitro_stats"
            scope = "ReactantNitro.cache_stats " * string(fields[3])
            Native.counter(scope, "hits", fields[4])
            Native.counter(scope, "misses", fields[5])
            Native.counter(scope, "entries", fields[6])
        elseif kind == "nitro_key"
            m.lookups[string(fields[4])] = Native.cache_lookup("ReactantNitro.CACHE", fields[3], Native.VERDICT_UNKNOWN;
                                                               key = [("key", Native.ROLE_OTHER, nothing, fields[5])])
        elseif kind == "nitro_closure"
            lookup = get(m.lookups, string(fields[2]), UInt64(0))
            lookup == 0 || Native.closure_add(lookup, fields[3], fields[4] == "" ? nothing : fields[4])
        end
    catch err
        @warn "CompileScope: a record could not go through the C ABI" exception = err maxlog = 1
    end
    return nothing
end
