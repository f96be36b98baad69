# Strict warnings on our own code only (third-party headers come in as SYSTEM includes).
# C++-only flags are guarded so C targets (the collector's C tests) can use the same function.
# GCC 12 reports false -Wrestrict positives inside libstdc++'s string concatenation at -O3 (GCC
# bug 105329); that one warning is kept but not made an error, so release builds stay -Werror.
function(compilescope_strict target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Werror -Wshadow
    $<$<COMPILE_LANGUAGE:CXX>:-Wnon-virtual-dtor -Wold-style-cast -Woverloaded-virtual>
    $<$<CXX_COMPILER_ID:GNU>:-Wno-error=restrict>)
endfunction()
