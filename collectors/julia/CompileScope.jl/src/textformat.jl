# SPDX-License-Identifier: MIT
#
# The collector's text output: what `compilescope import` reads as format "julia-collector".
# One record per line, fields separated by TAB; text fields escape backslash, TAB and newline as
# \\ \t \n. The first line names the format version.
#
#   # compilescope-julia 1
#   meta      <key> <value>                      julia_version, recorded_at_ns, compile_ns, recompile_ns
#   item      <methods|edges> <kind> <text>      one raw list item in order; kind: mi ci int tag method
#                                                type binding vector nothing other; text = show(item)
#   instance  <MethodInstance> <Method> <module> <file> <line>   the Method an invalidated instance specializes
#   compile   <a --trace-compile statement, as Julia printed it>
#   import    <an @time_imports row, as Julia printed it>
#   nitro_stats   <t_ns> <where> <hits> <misses> <entries>
#   nitro_key     <t_ns> <where> <ordinal> <key>  a ReactantNitro program-cache key, first seen here
#   nitro_closure <key ordinal> <method> <world>  that entry's dependency closure

mutable struct TextWriter
    io::IOStream
end

function TextWriter(path::AbstractString)
    io = open(path, "w")
    println(io, "# compilescope-julia 1")
    return TextWriter(io)
end

Base.close(w::TextWriter) = close(w.io)

escape_field(s::AbstractString) = replace(s, "\\" => "\\\\", "\t" => "\\t", "\n" => "\\n")
escape_field(x) = escape_field(string(x))

function record!(w::TextWriter, fields...)
    print(w.io, join((escape_field(f) for f in fields), '\t'))
    print(w.io, '\n')
    return nothing
end

meta!(w::TextWriter, key, value) = record!(w, "meta", key, value)
