#include "warmup/version.h"

#include "build_stamp.h"  // generated at build time: WARMUP_GIT_COMMIT, WARMUP_GIT_DIRTY

namespace warmup {

BuildInfo DescribeBuild() {
  BuildInfo info;
  info.version = WARMUP_VERSION_STRING;
  info.commit = WARMUP_GIT_COMMIT;
  info.dirty = WARMUP_GIT_DIRTY != 0;
  info.compiler = WARMUP_COMPILER;
  info.build_type = WARMUP_BUILD_TYPE;
  info.flags = WARMUP_CXX_FLAGS;
  return info;
}

std::string BuildInfo::Summary() const {
  std::string text = version;
  if (!commit.empty()) text += " (" + commit + (dirty ? ", with uncommitted changes" : "") + ")";
  text += ", " + compiler + ", " + (build_type.empty() ? std::string("no build type") : build_type);
  if (!flags.empty()) text += " [" + flags + "]";
  return text;
}

std::string Version() {
  const BuildInfo info = DescribeBuild();
  std::string version = info.version;
  if (!info.commit.empty()) version += " (" + info.commit + (info.dirty ? "+" : "") + ")";
  return version;
}

std::string ProtocolDescription() {
  return "package io.evitadb.externalApi.grpc.generated, subset checked against evitaDB 2026.2 "
         "(dev 720796cc53dd, field numbers identical in v2026.2.3)";
}

}  // namespace warmup
