// A scratch directory for one test, removed with everything in it afterwards.
#ifndef WARMUP_TESTS_COMMON_TEMP_DIR_H_
#define WARMUP_TESTS_COMMON_TEMP_DIR_H_

#include <stdlib.h>

#include <filesystem>
#include <string>

namespace warmup::testing {

class TempDir {
 public:
  TempDir() {
    std::string name = (std::filesystem::temp_directory_path() / "warmup-test-XXXXXX").string();
    path_ = ::mkdtemp(name.data()) ? name : std::string();
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  std::string operator/(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

}  // namespace warmup::testing

#endif  // WARMUP_TESTS_COMMON_TEMP_DIR_H_
