# SPDX-License-Identifier: MIT
# Runs where Julia >= 1.10 is installed (ctest julia_collector; skipped with a reason elsewhere).
using Test
using CompileScope

# The SnoopCompile docstring example: inserting f(::AbstractFloat) invalidates applyf(::Vector{Any}).
f(x::Int) = 1
f(x::Bool) = 2
applyf(container) = f(container[1])
callapplyf(container) = applyf(container)
const c = Any[1]
callapplyf(c)

@testset "record writes both lists, instances and timings" begin
    path = tempname()
    r = CompileScope.record(path) do
        @eval f(::AbstractFloat) = 3
        callapplyf(c)
    end
    @test r == 1
    text = read(path, String)
    lines = split(chomp(text), '\n')
    @test lines[1] == "# compilescope-julia 1"
    @test any(==("meta\tjulia_version\t$(VERSION)"), lines)
    @test any(l -> startswith(l, "item\tmethods\tmi\tMethodInstance for applyf(::Vector{Any})"), lines)
    @test any(l -> startswith(l, "item\tmethods\tmethod\tf(::AbstractFloat)"), lines)
    @test any(l -> l == "item\tmethods\ttag\t\"jl_method_table_insert\"", lines)
    for l in lines[2:end]
        @test split(l, '\t')[1] in ("meta", "item", "instance", "compile", "import",
                                     "nitro_stats", "nitro_key", "nitro_closure")
    end
    if VERSION >= v"1.12.0-"
        @test any(l -> startswith(l, "compile\t"), lines)  # callapplyf recompiled after the insertion
    end
    # Through the importer and the tree builder, when the compilescope binary is known.
    bin = get(ENV, "COMPILESCOPE_BIN", "")
    if !isempty(bin)
        trace = tempname() * ".cstrace"
        run(`$bin import $path -o $trace`)
        out = read(`$bin trees $trace`, String)
        @test occursin("inserting f(::AbstractFloat)", out)
        @test occursin("MethodInstance for applyf(::Vector{Any})", out)
    end
end

@testset "nitro_snapshot is a no-op without a recording or ReactantNitro" begin
    @test CompileScope.nitro_snapshot("outside") === nothing
end

@testset "escaping" begin
    @test CompileScope.escape_field("a\tb\nc\\d") == "a\\tb\\nc\\\\d"
end
