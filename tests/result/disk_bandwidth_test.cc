#include "warmup/disk_bandwidth.h"

#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "common/temp_dir.h"

namespace warmup {
namespace {

using testing::TempDir;
namespace fs = std::filesystem;

TEST_CASE("the disk probe writes whole MiB, durably, and leaves nothing behind") {
  TempDir dir;
  auto written = MeasureSequentialWrite(dir.path(), (3 << 20) + 1);
  REQUIRE_MESSAGE(written.ok(), written.status().ToString());
  CHECK(written->bytes == 4 << 20);  // rounded up to whole MiB
  CHECK(written->seconds > 0);
  CHECK(written->file == dir / (".warmup-disk-probe-" + std::to_string(::getpid())));
  CHECK(fs::is_empty(dir.path()));
}

TEST_CASE("the disk probe never overwrites a file of its name, and refuses nothing to write") {
  TempDir dir;
  const std::string theirs = dir / (".warmup-disk-probe-" + std::to_string(::getpid()));
  std::ofstream(theirs) << "someone's";
  auto refused = MeasureSequentialWrite(dir.path(), 1 << 20);
  CHECK(refused.status().code() == StatusCode::kFailedPrecondition);
  CHECK(refused.status().message().find(theirs) != std::string::npos);
  std::ifstream kept(theirs);
  std::string content;
  std::getline(kept, content);
  CHECK(content == "someone's");
  CHECK(MeasureSequentialWrite(dir.path(), 0).status().code() == StatusCode::kInvalidArgument);
  CHECK(MeasureSequentialWrite(dir / "absent", 1 << 20).status().code() == StatusCode::kFailedPrecondition);
}

}  // namespace
}  // namespace warmup
