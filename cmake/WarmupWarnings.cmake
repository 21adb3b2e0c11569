# warmup_set_warnings(<target>): the project's warning level, as errors when
# WARMUP_WERROR is on (CI and scripts/test.sh turn it on).
function(warmup_set_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow
                         -Wnon-virtual-dtor -Wimplicit-fallthrough)
  if(WARMUP_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()
