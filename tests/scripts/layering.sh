#!/usr/bin/env bash
# The house rules for includes that the build cannot enforce. (Which folder
# of src/ may include which, and who sees generated headers, the build fences
# itself: libwarmup/CMakeLists.txt, tried by build_fences.sh.)
#   - engine/ and snapshot/ headers include no generated header (*.pb.h): the
#     two folders speak protobuf inside, but hand the model out;
#   - public headers (include/warmup/) include only <standard> and "warmup/..."
#     headers: no generated code, gRPC, protobuf, Boost or Abseil;
#   - only rpc/client.cc makes a client-side grpc::ClientContext, so that every
#     call carries what EvitaClient::Context puts on it (clientversion, deadline);
#   - base/ (Status, checksums) includes only base/ and warmup/status.h;
#   - only run/, the umbrella warmup/warmup.h and what stands above the
#     library include warmup/run.h;
#   - the umbrella warmup/warmup.h includes every other public header;
#   - a public header that only declares a type (`struct X;`) does not return
#     it by value: a caller could not use what it gets without another header
#     (regression: run.h declared RunResult and returned StatusOr<RunResult>,
#     and the README's example did not compile against the installed package).
# usage: layering.sh LIBWARMUP_DIR     checks the tree, lists every violation
#        layering.sh --self-test DIR   plants violations in a copy, requires each to be found
set -uo pipefail

check() {
  local lib=$1 found=0
  report() { echo "layering: $1"; found=1; }
  while IFS= read -r line; do report "$line (no generated header in an engine or snapshot header)"; done < <(
    grep -Hn '#include ".*\.pb\.h"' "$lib"/src/engine/*.h "$lib"/src/snapshot/*.h 2> /dev/null)
  while IFS= read -r line; do report "$line (public headers include <standard> or \"warmup/\" headers only)"; done < <(
    grep -Hn '#include' "$lib"/include/warmup/*.h | grep -v '#include <[a-z_]*\(\.h\)\?>' |
      grep -v '#include "warmup/[a-z_]*\.h"' | grep -v '#include <sys/[a-z_]*\.h>')
  while IFS= read -r line; do report "$line (client contexts come from rpc::EvitaClient::Context)"; done < <(
    grep -Hn 'ClientContext\( [a-z_]*;\|>()\|()\)' "$lib"/src/*/*.cc 2> /dev/null | grep -v '/src/rpc/client\.cc:')
  while IFS= read -r line; do report "$line (base/ includes base/ and warmup/status.h only)"; done < <(
    grep -Hn '#include "' "$lib"/src/base/* 2> /dev/null | grep -v '#include "\(base/[a-z0-9_]*\.h\|warmup/status\.h\)"')
  while IFS= read -r line; do report "$line (only run/ includes warmup/run.h)"; done < <(
    grep -Hn '#include "warmup/run\.h"' "$lib"/src/*/* "$lib"/include/warmup/*.h 2> /dev/null |
      grep -v '/src/run/' | grep -v '/include/warmup/warmup\.h:')
  for header in "$lib"/include/warmup/*.h; do
    local declared
    for declared in $(sed -n 's/^\(struct\|class\) \([A-Za-z]*\);.*/\2/p' "$header"); do
      while IFS= read -r line; do
        report "$line (returns $declared, which this header only declares: include its header)"
      done < <(grep -Hn "StatusOr<$declared>\|^$declared [A-Za-z]*(" "$header")
    done
  done
  for header in "$lib"/include/warmup/*.h; do
    local name=${header##*/}
    [ "$name" = warmup.h ] && continue
    grep -q "^#include \"warmup/$name\"$" "$lib"/include/warmup/warmup.h ||
      report "include/warmup/warmup.h lacks warmup/$name (the umbrella includes every public header)"
  done
  return $found
}

if [ "${1:-}" = --self-test ]; then
  lib=$2
  scratch=$(mktemp -d)
  trap 'rm -rf "$scratch"' EXIT
  plant() {  # plant FILE LINE: copy the tree, add LINE to FILE, expect a violation
    rm -rf "$scratch/lib"
    mkdir -p "$scratch/lib"
    cp -r "$lib/include" "$lib/src" "$scratch/lib/"
    echo "$2" >> "$scratch/lib/$1"
    if check "$scratch/lib" > /dev/null; then
      echo "layering self-test: '$2' in $1 went unnoticed"
      exit 1
    fi
  }
  check "$lib" > /dev/null || { echo "layering self-test: the tree itself does not pass"; exit 1; }
  plant src/engine/collection.h '#include "GrpcEntity.pb.h"'
  plant include/warmup/engine.h '#include "GrpcEntity.pb.h"'
  plant include/warmup/server.h '#include <grpcpp/grpcpp.h>'
  plant include/warmup/status.h '#include <boost/asio.hpp>'
  plant include/warmup/entity.h '#include "engine/collection.h"'
  plant src/rpc/remote_target.cc '::grpc::ClientContext context;'
  plant src/rpc/grpc_source.cc 'auto c = std::make_unique<::grpc::ClientContext>();'
  plant src/base/status.cc '#include "model/value.h"'
  plant src/copy/copy_engine.cc '#include "warmup/run.h"'
  plant include/warmup/planted_concept.h '// a public header the umbrella does not include'
  plant include/warmup/report.h 'StatusOr<RunResult> PlantedRead();'
  echo "layering self-test: all 11 planted violations found"
  exit 0
fi
check "$1" && echo "layering: every include follows the rules"
