# warmup_add_proto_library(<target> PROTOS <files...>): a static library of the
# C++ and gRPC code generated from <files>. Generated headers land flat in
# ${CMAKE_CURRENT_BINARY_DIR}/proto, matching the bare-name imports the
# evitaDB protocol files use.
function(warmup_add_proto_library target)
  cmake_parse_arguments(ARG "" "" "PROTOS" ${ARGN})
  set(out_dir ${CMAKE_CURRENT_BINARY_DIR}/proto)
  file(MAKE_DIRECTORY ${out_dir})
  add_library(${target} STATIC ${ARG_PROTOS})
  target_link_libraries(${target} PUBLIC protobuf::libprotobuf gRPC::grpc++)
  # Generated headers are never installed: only the build tree sees them.
  target_include_directories(${target} SYSTEM PUBLIC $<BUILD_INTERFACE:${out_dir}>)
  protobuf_generate(TARGET ${target} LANGUAGE cpp APPEND_PATH PROTOC_OUT_DIR ${out_dir})
  protobuf_generate(TARGET ${target} LANGUAGE grpc APPEND_PATH
                    GENERATE_EXTENSIONS .grpc.pb.h .grpc.pb.cc
                    PLUGIN "protoc-gen-grpc=$<TARGET_FILE:gRPC::grpc_cpp_plugin>"
                    PROTOC_OUT_DIR ${out_dir})
  set_target_properties(${target} PROPERTIES POSITION_INDEPENDENT_CODE ON)
  separate_arguments(generated_flags UNIX_COMMAND "${WARMUP_GENERATED_CXX_FLAGS}")
  target_compile_options(${target} PRIVATE ${generated_flags})
endfunction()
