# Every dependency comes from Debian 12 packages; scripts/install-deps.sh installs them.
find_package(Threads REQUIRED)
find_package(Protobuf REQUIRED)          # CMake's FindProtobuf: Debian ships no protobuf config
find_package(gRPC CONFIG REQUIRED)       # needs protobuf-compiler-grpc for its plugin check
find_package(OpenSSL REQUIRED)           # SHA-256 for entity digests and fingerprints
find_package(zstd CONFIG REQUIRED)       # zstd::libzstd_shared: snapshot compression
# libzip's CMake config demands its command-line tools (zipcmp, ...); pkg-config does not.
find_package(PkgConfig REQUIRED)
# PkgConfig::LIBDEFLATE: raw deflate for engine records (evitaDB's codec), without a CMake config in Debian.
pkg_check_modules(LIBDEFLATE REQUIRED IMPORTED_TARGET libdeflate)
pkg_check_modules(LIBZIP REQUIRED IMPORTED_TARGET libzip)  # PkgConfig::LIBZIP: exports
find_package(nlohmann_json CONFIG REQUIRED)  # snapshot manifests, JSON reports
find_package(absl CONFIG REQUIRED)       # absl::flat_hash_map, absl::btree: compact index maps
find_package(roaring CONFIG REQUIRED)    # roaring::roaring (CRoaring 0.2.66): index bitmaps
find_package(ICU REQUIRED COMPONENTS uc i18n)  # collation keys for localized sorting
find_package(SQLite3 REQUIRED)           # SQLite::SQLite3: the run history's default store
find_package(PostgreSQL REQUIRED)        # PostgreSQL::PostgreSQL (libpq): a team's run history
find_package(range-v3 CONFIG REQUIRED)  # range-v3::range-v3: in .cc files only, where a pipeline reads better
find_package(doctest CONFIG)
# Boost.Asio (header-only, Boost::headers) supervises child processes in the
# library; Boost.Program_options parses the apps' command lines.
if(WARMUP_BUILD_APPS)
  find_package(Boost 1.74 REQUIRED COMPONENTS program_options)
else()
  find_package(Boost 1.74 REQUIRED)
endif()
