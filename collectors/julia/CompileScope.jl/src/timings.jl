# SPDX-License-Identifier: MIT
#
# Compile timings of the recorded call. On Julia >= 1.12 `--trace-compile-timing` can be switched on
# in-process (`jl_force_trace_compile_timing_enable`, what `@trace_compile` uses); its statements
# go to stderr. `@time_imports` rows go to stdout while Base.TIMING_IMPORTS is raised. Both streams
# are captured to temporary files for the call; the timing lines are recorded and every other line
# is written back to the original stream afterwards, so nothing the program printed is lost.

cumulative_compile_ns() = Base.cumulative_compile_time_ns()

has_forced_trace_compile() = VERSION >= v"1.12.0-"

is_compile_statement(l) = occursin(r"^(#=\s*[0-9.]+ ms =#\s*)?precompile\(", l)
is_import_row(l) = occursin(r"^\s*(┌|├)?\s*[0-9.]+ ms ", l)

function replay(w, path, kind_match, out::IO)
    for raw in eachline(path)
        line = replace(raw, r"\e\[[0-9;]*m" => "")
        kind = kind_match(line)
        kind === nothing ? println(out, raw) : record!(w, kind, line)
    end
end

function with_compile_timings(w, f)
    errpath, errio = mktemp()
    outpath, outio = mktemp()
    oldout, olderr = stdout, stderr
    Base.cumulative_compile_timing(true)
    has_imports = isdefined(Base, :TIMING_IMPORTS)
    has_imports && Threads.atomic_add!(Base.TIMING_IMPORTS, 1)
    forced = has_forced_trace_compile()
    try
        redirect_stdout(outio) do
            redirect_stderr(errio) do
                forced && ccall(:jl_force_trace_compile_timing_enable, Cvoid, ())
                try
                    f()
                finally
                    forced && ccall(:jl_force_trace_compile_timing_disable, Cvoid, ())
                end
            end
        end
    finally
        has_imports && Threads.atomic_sub!(Base.TIMING_IMPORTS, 1)
        Base.cumulative_compile_timing(false)
        close(outio); close(errio)
        replay(w, errpath, l -> is_compile_statement(l) ? "compile" : nothing, olderr)
        replay(w, outpath, l -> is_import_row(l) ? "import" : nothing, oldout)
        rm(errpath; force=true); rm(outpath; force=true)
    end
end
