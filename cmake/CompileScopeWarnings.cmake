# Strict warnings on our own code only (third-party headers come in as SYSTEM includes).
# C++-only flags are guarded so C targets (the collector's C tests) can use the same function.
# GCC 12 at -O3 reports false positives inside libstdc++: -Wrestrict in string concatenation (GCC
# bug 105329) and -Wmaybe-uninitialized through std::optional (bug 80635). Those two warnings are
# kept but not made errors, so release builds stay -Werror on everything else.
function(compilescope_strict target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Werror -Wshadow
    $<$<COMPILE_LANGUAGE:CXX>:-Wnon-virtual-dtor -Wold-style-cast -Woverloaded-virtual>
    $<$<CXX_COMPILER_ID:GNU>:-Wno-error=restrict>
    $<$<CXX_COMPILER_ID:GNU>:-Wno-error=maybe-uninitialized>)
endfunction()
