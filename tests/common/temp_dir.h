// A scratch directory for one test, removed with everything in it afterwards.
// It lives under $TMPDIR, which ctest points into the build directory, so a
// test that leaves something behind is caught by the leftovers check.
#ifndef WARMUP_TESTS_COMMON_TEMP_DIR_H_
#define WARMUP_TESTS_COMMON_TEMP_DIR_H_

#include <stdlib.h>
#include <string.h>

#include <cerrno>
#include <filesystem>
#include <stdexcept>
#include <string>

namespace warmup::testing {

class TempDir {
 public:
  // Throws when the directory cannot be made: a test must never fall back to
  // a path of someone else's (an empty path would put its files under /).
  // `parent` defaults to $TMPDIR.
  explicit TempDir(const std::filesystem::path& parent = std::filesystem::temp_directory_path()) {
    std::string name = (parent / "warmup-test-XXXXXX").string();
    if (::mkdtemp(name.data()) == nullptr) {
      throw std::runtime_error("TempDir: mkdtemp(" + name + ") failed: " + ::strerror(errno));
    }
    path_ = name;
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
