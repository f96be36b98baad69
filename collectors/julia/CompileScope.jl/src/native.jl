# SPDX-License-Identifier: MIT
#
# CompileScope.Native: the collector's C ABI (compilescope.h) from Julia through `ccall`.
#
# Why function pointers: the library's path is only known at run time ($COMPILESCOPE_LIBRARY, set by
# `compilescope record`, or a build / install tree next to this file), so symbols are looked up once
# with Libdl and called through `ccall(ptr, ...)`, which works on every Julia version. Structs
# mirror the C structs field by field (isbits, C layout). When the library cannot be loaded every
# function is a no-op and `available()` is false: instrumentation never breaks the session.
# Self-contained: it can be `include`d by CompileScope.jl or on its own.
module Native

using Libdl

export available, start, stop, enabled, intern, span, span_begin, span_end, span_complete, step,
       counter, cache_lookup, closure_add, method_event, invalidation_item, module_load

# Codes of trace_constants.h (checked against the header by tests/collector/test_julia_native.jl).
const CAT_OTHER, CAT_COMPILE, CAT_CACHE_LOAD, CAT_MODULE_LOAD, CAT_LAUNCH, CAT_IMPORT, CAT_INIT,
      CAT_STEP, CAT_INFERENCE, CAT_CODEGEN, CAT_LINK, CAT_PHASE, CAT_GC = 0:12
const VERDICT_UNKNOWN, VERDICT_HIT, VERDICT_MISS = 0:2
const ROLE_OTHER, ROLE_FUNCTION, ROLE_WORLD, ROLE_SHAPE, ROLE_GRAPHCONST, ROLE_KEYWORD, ROLE_DEVICE,
      ROLE_HOST, ROLE_TYPE, ROLE_OPTION = 0:9
const METHOD_DEFINE, METHOD_REDEFINE, METHOD_DELETE = 0:2
const INVLIST_METHODS, INVLIST_EDGES = 0:1
const INVITEM_OTHER, INVITEM_METHOD_INSTANCE, INVITEM_INT, INVITEM_TAG, INVITEM_METHOD, INVITEM_TYPE,
      INVITEM_CODE_INSTANCE, INVITEM_BINDING, INVITEM_VECTOR, INVITEM_NOTHING, INVITEM_ELISION = 0:10
const MODULE_UNKNOWN, MODULE_COMPILED, MODULE_CACHED, MODULE_ERROR = 0:3

const NOW = Int64(0)          # CS_NOW
const NONE = typemin(Int64)   # CS_NONE

struct KeyComponent
    name::UInt32
    role::Int32
    digest::UInt32
    value::UInt32
end

struct ClosureEntry
    method::UInt32
    pad::Int32
    world::Int64
end

struct CacheLookup
    ts_ns::Int64
    cache::UInt32
    program::UInt32
    handle::UInt32
    verdict::Int32
    compile_ns::Int64
    fingerprint::UInt32
    track::UInt32
    step::Int64
    key::Ptr{KeyComponent}
    key_count::UInt32
    closure_count::UInt32
    closure::Ptr{ClosureEntry}
end

struct MethodInfo
    ts_ns::Int64
    event::Int32
    method::UInt32
    signature::UInt32
    mod::UInt32
    file::UInt32
    pad::Int32
    line::Int64
    world::Int64
end

struct ModuleOption
    key::UInt32
    value::UInt32
end

struct ModuleKernel
    kernel::UInt32
    digest::UInt32
    generic::UInt32
    pad::Int32
end

struct ModuleLoad
    start_ns::Int64
    dur_ns::Int64
    name::UInt32
    hash::UInt32
    device::UInt32
    result::Int32
    block_dim::Int64
    compile_ns::Int64
    source_bytes::Int64
    lto_artifacts::Int64
    track::UInt32
    option_count::UInt32
    options::Ptr{ModuleOption}
    kernels::Ptr{ModuleKernel}
    kernel_count::UInt32
    pad::Int32
end

const LIB = Ref{Ptr{Cvoid}}(C_NULL)
const SYMS = Dict{Symbol,Ptr{Cvoid}}()
const STRINGS = Dict{String,UInt32}()
const STRINGS_LOCK = ReentrantLock()

function candidates()
    paths = String[]
    haskey(ENV, "COMPILESCOPE_LIBRARY") && push!(paths, ENV["COMPILESCOPE_LIBRARY"])
    root = normpath(joinpath(@__DIR__, "..", "..", "..", ".."))
    for rel in ("build/release/collectors", "build/dev/collectors", "lib")
        push!(paths, joinpath(root, rel, "libcompilescope_collector.so"))
    end
    push!(paths, "libcompilescope_collector")
    return paths
end

function library()
    LIB[] == C_NULL || return LIB[]
    for p in candidates()
        h = Libdl.dlopen(p; throw_error = false)
        if h !== nothing && h != C_NULL
            LIB[] = h
            break
        end
    end
    return LIB[]
end

function sym(name::Symbol)
    get!(SYMS, name) do
        lib = library()
        lib == C_NULL ? C_NULL : Libdl.dlsym(lib, name)
    end
end

"True when libcompilescope_collector was found."
available() = library() != C_NULL

opt(x) = x === nothing ? NONE : Int64(x)

"""
    start(runtime = "julia"; output = nothing) -> Bool

Starts recording this process (cs_start): joins `compilescope record`, or starts a private recorder
writing `output` (or \$COMPILESCOPE_OUTPUT).
"""
function start(runtime::AbstractString = "julia"; output = nothing)
    available() || return false
    out = output === nothing ? C_NULL : String(output)  # a String converts to a NUL-terminated pointer
    return ccall(sym(:cs_start), Cint, (Cstring, Ptr{UInt8}), runtime, out) == 1
end

stop() = available() ? ccall(sym(:cs_stop), Cvoid, ()) : nothing
enabled() = available() && ccall(sym(:cs_enabled), Cint, ()) == 1
flush() = available() ? ccall(sym(:cs_flush), Cvoid, ()) : nothing
dropped_count() = available() ? ccall(sym(:cs_dropped_count), UInt64, ()) : UInt64(0)
now_ns() = available() ? ccall(sym(:cs_now_ns), Int64, ()) : Int64(0)

"The cs_str handle of `s`, interned once per process (0 for `nothing` or when not recording)."
function intern(s)::UInt32
    (s === nothing || !available()) && return UInt32(0)
    str = String(string(s))
    h = lock(() -> get(STRINGS, str, UInt32(0)), STRINGS_LOCK)
    h != 0 && return h
    h = ccall(sym(:cs_intern_n), UInt32, (Ptr{UInt8}, Csize_t), str, sizeof(str))
    h != 0 && lock(() -> (STRINGS[str] = h), STRINGS_LOCK)
    return h
end

span_begin(category::Integer, name; track::Integer = 0) =
    available() && ccall(sym(:cs_span_begin), Cvoid, (UInt32, Cint, UInt32), track, category, intern(name))
span_end(; track::Integer = 0) = available() && ccall(sym(:cs_span_end), Cvoid, (UInt32,), track)
span_complete(category::Integer, name, start_ns::Integer, dur_ns::Integer; track::Integer = 0) =
    available() && ccall(sym(:cs_span_complete), Cvoid, (UInt32, Cint, UInt32, Int64, Int64),
                         track, category, intern(name), start_ns, dur_ns)

"`span(f, category, name)`: runs `f()` inside a span on the calling thread."
function span(f, category::Integer, name; track::Integer = 0)
    span_begin(category, name; track)
    try
        return f()
    finally
        span_end(; track)
    end
end

step(n::Integer; epoch = nothing, label = nothing) =
    available() && ccall(sym(:cs_step), Cvoid, (Int64, Int64, UInt32), n, opt(epoch), intern(label))

counter(scope, name, value::Integer) =
    available() && ccall(sym(:cs_counter), Cvoid, (UInt32, UInt32, Int64), intern(scope), intern(name), value)

"""
    cache_lookup(cache, program, verdict; key = [], closure = [], handle, compile_ns, fingerprint, step)

`key`: (name, role, digest, value) tuples; `closure`: (method, world) pairs. Returns a handle for
`closure_add` (0 when not recorded).
"""
function cache_lookup(cache, program, verdict::Integer; key = (), closure = (), handle = nothing,
                      compile_ns = nothing, fingerprint = nothing, step = nothing, ts_ns::Integer = NOW)
    available() || return UInt64(0)
    keys = KeyComponent[KeyComponent(intern(n), r, intern(d), intern(v)) for (n, r, d, v) in key]
    clos = ClosureEntry[ClosureEntry(intern(m), 0, opt(w)) for (m, w) in closure]
    GC.@preserve keys clos begin
        rec = CacheLookup(ts_ns, intern(cache), intern(program), intern(handle), verdict, opt(compile_ns),
                          intern(fingerprint), 0, opt(step), pointer(keys), length(keys), length(clos),
                          pointer(clos))
        return ccall(sym(:cs_cache_lookup_record), UInt64, (Ref{CacheLookup},), rec)
    end
end

closure_add(lookup::Integer, method, world = nothing) =
    available() && ccall(sym(:cs_closure_add), Cvoid, (UInt64, UInt32, Int64), lookup, intern(method), opt(world))

"Records a method definition / redefinition / deletion (event: METHOD_*) at world `world`."
function method_event(event::Integer, name; signature = nothing, mod = nothing, file = nothing,
                      line = nothing, world = nothing, ts_ns::Integer = NOW)
    available() || return nothing
    info = MethodInfo(ts_ns, event, intern(name), intern(signature), intern(mod), intern(file), 0,
                      opt(line), opt(world))
    ccall(sym(:cs_method), Cvoid, (Ref{MethodInfo},), info)
end

invalidation_item(list::Integer, ordinal::Integer, kind::Integer, text::AbstractString) =
    available() && ccall(sym(:cs_invalidation_item), Cvoid, (Cint, Int64, Cint, Cstring), list, ordinal, kind, text)

function module_load(name, result::Integer; hash = nothing, device = nothing, block_dim = nothing,
                     start_ns::Integer = NOW, dur_ns = nothing, compile_ns = nothing, source_bytes = nothing,
                     options = (), kernels = ())
    available() || return nothing
    opts = ModuleOption[ModuleOption(intern(k), intern(v === nothing ? nothing : string(v))) for (k, v) in options]
    kers = ModuleKernel[ModuleKernel(intern(k), intern(d), intern(g), 0) for (k, d, g) in kernels]
    GC.@preserve opts kers begin
        rec = ModuleLoad(start_ns, opt(dur_ns), intern(name), intern(hash), intern(device), result,
                         opt(block_dim), opt(compile_ns), opt(source_bytes), NONE, 0, length(opts),
                         pointer(opts), pointer(kers), length(kers), 0)
        ccall(sym(:cs_module_load_record), Cvoid, (Ref{ModuleLoad},), rec)
    end
end

end # module Native
