# The Julia binding (collectors/julia/CompileScope.jl/src/native.jl) over the real collector: run as
#   compilescope record -o T.cstrace -- julia test_julia_native.jl SOURCE_DIR
# by test_julia_native.sh, which then checks the trace. Records from 4 Julia threads when available.
include(joinpath(ARGS[1], "collectors", "julia", "CompileScope.jl", "src", "native.jl"))
using .Native
const N = Native

# Constants agree with trace_constants.h.
header = read(joinpath(ARGS[1], "collectors", "native", "include", "compilescope", "trace_constants.h"), String)
for (prefix, jl) in (("CS_CAT_", "CAT_"), ("CS_VERDICT_", "VERDICT_"), ("CS_ROLE_", "ROLE_"), ("CS_METHOD_", "METHOD_"))
    for m in eachmatch(Regex("\\b" * prefix * "([A-Z_]+)\\s*=\\s*(\\d+)"), header)
        @assert getfield(N, Symbol(jl * m.captures[1])) == parse(Int, m.captures[2]) "$(jl)$(m.captures[1])"
    end
end

@assert N.available() "collector library not found"
@assert N.start("julia") "not recording"
Threads.@threads for t in 1:4
    for i in 1:1000
        N.span(() -> nothing, N.CAT_COMPILE, "jl_kernel")
    end
end
lk = N.cache_lookup("nitro", "gradient", N.VERDICT_MISS; key = [("accum", N.ROLE_KEYWORD, nothing, "4")],
                    closure = [("MyModel.loss", 31)], compile_ns = 10)
N.closure_add(lk, "MyModel.forward", 32)
N.method_event(N.METHOD_REDEFINE, "MyModel.loss"; world = 40, line = 3)
N.invalidation_item(N.INVLIST_METHODS, 0, N.INVITEM_TAG, "jl_method_table_insert")
N.module_load("wp_mod", N.MODULE_CACHED; hash = "abc", kernels = [("k", "d", nothing)])
N.step(1; label = "train")
N.counter("nitro", "misses", 1)
println("dropped ", N.dropped_count())
