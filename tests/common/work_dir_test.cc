#include "warmup/work_dir.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

#include "common/status_matchers.h"
#include "common/temp_dir.h"

namespace warmup {
namespace {

namespace fs = std::filesystem;

TEST_CASE("a work directory is created when absent and marked") {
  testing::TempDir dir;
  REQUIRE_OK(PrepareWorkDir(dir / "work"));
  CHECK(fs::exists(dir / "work/.warmup-workdir"));
}

TEST_CASE("a directory with a foreign file is refused and left intact") {
  testing::TempDir dir;
  std::ofstream(dir / "precious.txt") << "keep me";
  Status s = PrepareWorkDir(dir.path());
  CHECK(s.code() == StatusCode::kFailedPrecondition);
  CHECK(s.message().find("holds precious.txt") != std::string::npos);
  CHECK(fs::exists(dir / "precious.txt"));
  CHECK(fs::file_size(dir / "precious.txt") == 7);
  CHECK_FALSE(fs::exists(dir / ".warmup-workdir"));
}

TEST_CASE("a marked directory is wiped, keeping the marker") {
  testing::TempDir dir;
  REQUIRE_OK(PrepareWorkDir(dir.path()));
  fs::create_directories(dir / "catalog/collections");
  std::ofstream(dir / "catalog/collections/x") << "old run";
  REQUIRE_OK(PrepareWorkDir(dir.path()));
  CHECK_FALSE(fs::exists(dir / "catalog"));
  CHECK(fs::exists(dir / ".warmup-workdir"));
}

}  // namespace
}  // namespace warmup
