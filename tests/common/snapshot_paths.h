// Where a test finds a snapshot's files, to damage them on purpose.
#ifndef WARMUP_TESTS_COMMON_SNAPSHOT_PATHS_H_
#define WARMUP_TESTS_COMMON_SNAPSHOT_PATHS_H_

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "base/crc32c.h"

namespace warmup::testing {

// The entity file of the Product collection in `snapshot`, or "" when there is none.
inline std::string ProductFile(const std::string& snapshot) {
  for (const auto& e : std::filesystem::directory_iterator(snapshot + "/collections")) {
    if (e.path().filename().string().find("Product") != std::string::npos) return e.path().string();
  }
  return "";
}

// Cuts the uncompressed entity file `file` of `snapshot` to `size` bytes and
// rewrites the manifest to agree with what is left (its size and
// checksums): a file damaged in a way no checksum can see, as a writer's bug
// would leave it, so that only the record reader can tell.
inline void TruncateBehindTheManifest(const std::string& snapshot, const std::string& file, uintmax_t size) {
  std::filesystem::resize_file(file, size);
  std::ifstream data(file, std::ios::binary);
  std::stringstream bytes;
  bytes << data.rdbuf();
  const std::string content = bytes.str();
  char crc[9];
  std::snprintf(crc, sizeof(crc), "%08x", Crc32c(content.data(), content.size()));
  std::ifstream in(snapshot + "/manifest.json");
  nlohmann::json manifest = nlohmann::json::parse(in);
  const std::string name = std::filesystem::path(file).filename().string();
  for (auto& c : manifest["collections"]) {
    if (std::filesystem::path(c["file"].get<std::string>()).filename() != name) continue;
    c["stored_bytes"] = content.size();
    c["serialized_bytes"] = content.size();
    c["crc32c"] = crc;
    c["serialized_crc32c"] = crc;
  }
  std::ofstream(snapshot + "/manifest.json", std::ios::trunc) << manifest.dump(2);
}

}  // namespace warmup::testing

#endif  // WARMUP_TESTS_COMMON_SNAPSHOT_PATHS_H_
