# Strict warnings on our own code only (third-party headers come in as SYSTEM includes).
function(compilescope_strict target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Werror -Wshadow -Wnon-virtual-dtor
    $<$<COMPILE_LANGUAGE:CXX>:-Wold-style-cast -Woverloaded-virtual>)
endfunction()
