# Strict warnings on our own code only (third-party headers come in as SYSTEM includes).
# C++-only flags are guarded so C targets (the collector's C tests) can use the same function.
function(compilescope_strict target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Werror -Wshadow
    $<$<COMPILE_LANGUAGE:CXX>:-Wnon-virtual-dtor -Wold-style-cast -Woverloaded-virtual>)
endfunction()
