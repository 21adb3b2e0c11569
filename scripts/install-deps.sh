#!/usr/bin/env bash
# Installs what warmup needs to build and test, from Debian 12 packages only.
# Idempotent: does nothing (and needs no network) when everything is present.
set -euo pipefail

# Build tools and the libraries the build links (see docs/building.md).
packages=(
  cmake ninja-build pkg-config g++ ccache git
  libgrpc++-dev libgrpc-dev protobuf-compiler-grpc libprotobuf-dev protobuf-compiler libabsl-dev
  libboost-dev libboost-program-options-dev
  librange-v3-dev doctest-dev nlohmann-json3-dev
  libssl-dev libicu-dev libroaring-dev libzstd-dev libzip-dev
  libdeflate-dev  # the engine's raw deflate records (--compress deflate), faster than zlib's
  libsqlite3-dev  # the run history's default store (warmup history, --history)
  libpq-dev postgresql  # a team's run history in PostgreSQL; the tests start a server of their own
  clang-format
  openssl  # the TLS tests make their certificates with it
  clang libclang-rt-14-dev  # the sanitized suites (ASan+UBSan, TSan) and the libFuzzer targets
  pybind11-dev python3-dev python3-pytest  # the Python package (bindings/python) and its tests
  python3-matplotlib  # the plotting example (examples/python)
  libbenchmark-dev  # the micro-benchmarks of the engine's hot structures (benchmarks/)
  libgoogle-perftools-dev google-perftools linux-perf  # profiler windows (warmup-profile, serve --profiler); google-pprof reads them
  libjs-chart.js  # Chart.js, inlined into the HTML pages at build time
  chromium  # renders the HTML pages in the tests (headless)
  openjdk-17-jdk-headless  # a real JVM: the GC-log test of server commands, and evitaDB's server
  maven curl  # scripts/fetch-evitadb.sh: evitaDB's server and its dependencies from Maven Central
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep "install ok installed" > /dev/null; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
"${sudo_cmd[@]}" apt-get update -qq
# Debian's postgresql makes a cluster and starts it as a system service; the
# tests start servers of their own (tests/common/postgres_server.h), so none
# is made: nothing keeps running after the tests.
# (createcluster.d is read by the package's own createcluster.conf, which
# stays the package's.)
if [[ " ${missing[*]} " == *" postgresql "* ]]; then
  "${sudo_cmd[@]}" mkdir -p /etc/postgresql-common/createcluster.d
  echo "create_main_cluster = false" |
    "${sudo_cmd[@]}" tee /etc/postgresql-common/createcluster.d/warmup-no-main-cluster.conf > /dev/null
fi
DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
