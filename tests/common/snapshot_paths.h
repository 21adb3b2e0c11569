// Where a test finds a snapshot's files, to damage them on purpose.
#ifndef WARMUP_TESTS_COMMON_SNAPSHOT_PATHS_H_
#define WARMUP_TESTS_COMMON_SNAPSHOT_PATHS_H_

#include <filesystem>
#include <string>

namespace warmup::testing {

// The entity file of the Product collection in `snapshot`, or "" when there is none.
inline std::string ProductFile(const std::string& snapshot) {
  for (const auto& e : std::filesystem::directory_iterator(snapshot + "/collections")) {
    if (e.path().filename().string().find("Product") != std::string::npos) return e.path().string();
  }
  return "";
}

}  // namespace warmup::testing

#endif  // WARMUP_TESTS_COMMON_SNAPSHOT_PATHS_H_
