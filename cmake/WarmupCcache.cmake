# Uses ccache when it is installed: rebuilds on a 2-core machine are dominated
# by generated protobuf code that rarely changes.
find_program(WARMUP_CCACHE ccache)
if(WARMUP_CCACHE AND NOT CMAKE_CXX_COMPILER_LAUNCHER)
  set(CMAKE_CXX_COMPILER_LAUNCHER ${WARMUP_CCACHE})
endif()
