# warmup_set_warnings(<target>): the project's warning level, as errors when
# WARMUP_WERROR is on (CI and scripts/test.sh turn it on).
function(warmup_set_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow
                         -Wnon-virtual-dtor -Wimplicit-fallthrough)
  # GCC 12 at -O3 reports impossible overlaps in "literal" + std::string&&
  # (-Wrestrict false positive, GCC bug 105329, fixed in GCC 13).
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
    target_compile_options(${target} PRIVATE -Wno-restrict)
  endif()
  if(WARMUP_THREAD_SAFETY_ANALYSIS)  # clang only (checked where the option is declared)
    target_compile_options(${target} PRIVATE -Wthread-safety -Werror=thread-safety)
  endif()
  if(WARMUP_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()
