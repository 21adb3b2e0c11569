#include "warmup/version.h"

namespace warmup {

std::string Version() {
  std::string version = WARMUP_VERSION_STRING;
  const std::string commit = WARMUP_GIT_COMMIT;
  if (!commit.empty()) version += " (" + commit + ")";
  return version;
}

std::string ProtocolDescription() {
  return "package io.evitadb.externalApi.grpc.generated, subset checked against evitaDB 2026.2 "
         "(dev 720796cc53dd, field numbers identical in v2026.2.3)";
}

}  // namespace warmup
