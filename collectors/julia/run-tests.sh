#!/bin/sh
# Runs the CompileScope.jl tests where Julia >= 1.10 exists; otherwise says why and exits 77
# (ctest's SKIP_RETURN_CODE), so a machine without Julia skips them visibly, never silently.
here=$(cd "$(dirname "$0")" && pwd)
julia=${JULIA:-$(command -v julia)}
if [ -z "$julia" ]; then
    echo "SKIPPED: no julia on PATH (set JULIA=/path/to/julia); CompileScope.jl needs Julia >= 1.10"
    exit 77
fi
version=$("$julia" --startup-file=no -e 'print(VERSION >= v"1.10" ? "ok" : string(VERSION))' 2>/dev/null)
if [ "$version" != "ok" ]; then
    echo "SKIPPED: $julia is Julia ${version:-of unknown version}; CompileScope.jl needs Julia >= 1.10"
    exit 77
fi
exec "$julia" --startup-file=no --project="$here/CompileScope.jl" "$here/CompileScope.jl/test/runtests.jl"
