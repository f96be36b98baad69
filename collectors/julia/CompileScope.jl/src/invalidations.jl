# SPDX-License-Identifier: MIT
#
# Both invalidation lists, switched on and off around the recorded call (as SnoopCompileCore's
# `@snoop_invalidations` does), then written item by item with the Julia type of each item.

# Julia >= 1.12 keeps the edge-validation list in Julia code; its home moved once already.
function edge_log_module()
    isdefined(Base, :ReinferUtils) && return Base.ReinferUtils
    isdefined(Base, :StaticData) && isdefined(Base.StaticData, :debug_method_invalidation) && return Base.StaticData
    return nothing
end

struct Lists
    logmeths::Vector{Any}
    logedges::Union{Nothing,Vector{Any}}
end

function start_invalidation_logs()
    m = edge_log_module()
    logedges = m === nothing ? nothing : m.debug_method_invalidation(true)
    logmeths = ccall(:jl_debug_method_invalidation, Any, (Cint,), 1)
    return Lists(logmeths, logedges)
end

function stop_invalidation_logs()
    m = edge_log_module()
    m === nothing || m.debug_method_invalidation(false)
    ccall(:jl_debug_method_invalidation, Any, (Cint,), 0)
    return nothing
end

function item_kind(@nospecialize x)
    x isa Core.MethodInstance && return "mi"
    isdefined(Core, :CodeInstance) && x isa Core.CodeInstance && return "ci"
    x isa Integer && return "int"
    x isa AbstractString && return "tag"
    x isa Method && return "method"
    x isa Type && return "type"
    isdefined(Core, :Binding) && x isa Core.Binding && return "binding"
    x isa AbstractVector && return "vector"
    x === nothing && return "nothing"
    return "other"
end

# As the REPL shows a Vector{Any} element: strings quoted, everything else through `show`.
item_text(@nospecialize x) = x isa AbstractString ? repr(x) : sprint(show, x)

function instance_of(@nospecialize x)
    x isa Core.MethodInstance && return x
    if isdefined(Core, :CodeInstance) && x isa Core.CodeInstance
        def = x.def
        return def isa Core.MethodInstance ? def : (isdefined(def, :def) ? def.def : nothing)
    end
    return nothing
end

function write_list(w, name::String, list, seen::Set{Core.MethodInstance})
    for item in list
        record!(w, "item", name, item_kind(item), item_text(item))
        mi = instance_of(item)
        if mi isa Core.MethodInstance && !(mi in seen) && mi.def isa Method
            push!(seen, mi)
            m = mi.def::Method
            record!(w, "instance", sprint(show, mi), sprint(show, m), string(m.module), string(m.file), string(m.line))
        end
    end
end

function write_invalidation_lists(w, lists::Lists)
    seen = Set{Core.MethodInstance}()
    write_list(w, "methods", lists.logmeths, seen)
    lists.logedges === nothing || write_list(w, "edges", lists.logedges, seen)
    return nothing
end
