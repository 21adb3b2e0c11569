# Every dependency comes from Debian 12 packages; scripts/install-deps.sh installs them.
find_package(Threads REQUIRED)
find_package(Protobuf REQUIRED)          # CMake's FindProtobuf: Debian ships no protobuf config
find_package(gRPC CONFIG REQUIRED)       # needs protobuf-compiler-grpc for its plugin check
find_package(OpenSSL REQUIRED)           # SHA-256 for entity digests
find_package(doctest CONFIG)
if(WARMUP_BUILD_APPS)
  find_package(Boost 1.74 REQUIRED COMPONENTS program_options)
endif()
