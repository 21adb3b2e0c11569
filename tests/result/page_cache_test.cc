#include "warmup/page_cache.h"

#include <linux/magic.h>
#include <sys/vfs.h>

#include <doctest/doctest.h>

#include <fstream>

#include "common/status_matchers.h"
#include "common/temp_dir.h"

namespace warmup {
namespace {

TEST_CASE("page cache: files and bytes counted, prewarmed all resident, dropped no more than before") {
  testing::TempDir temp;
  const std::filesystem::path dir = temp.path();
  std::filesystem::create_directories(dir / "sub");
  std::ofstream(dir / "a.bin") << std::string(3 * 4096 + 100, 'a');
  std::ofstream(dir / "sub" / "b.bin") << std::string(5000, 'b');
  std::ofstream(dir / "empty.bin");
  const int64_t bytes = 3 * 4096 + 100 + 5000;

  REQUIRE_OK(PrewarmPageCache(dir.string()));
  auto warm = MeasurePageCache(dir.string());
  REQUIRE_OK(warm);
  CHECK(warm->files == 3);
  CHECK(warm->bytes == bytes);
  CHECK(warm->resident_bytes == bytes);
  CHECK(warm->action == "none");

  auto one = MeasurePageCache((dir / "a.bin").string());  // a single file too
  REQUIRE_OK(one);
  CHECK(one->files == 1);
  CHECK(one->bytes == 3 * 4096 + 100);

  REQUIRE_OK(DropFromPageCache(dir.string()));
  auto cold = MeasurePageCache(dir.string());
  REQUIRE_OK(cold);
  CHECK(cold->bytes == bytes);
  CHECK(cold->resident_bytes <= warm->resident_bytes);
  struct statfs fs {};
  REQUIRE(::statfs(dir.c_str(), &fs) == 0);
  // tmpfs keeps its pages (they are the files); a disk-backed file system lets them go.
  if (fs.f_type != TMPFS_MAGIC) CHECK(cold->resident_bytes == 0);

  auto missing = MeasurePageCache((dir / "nothing").string());
  CHECK(missing.status().code() == StatusCode::kNotFound);
  CHECK(missing.status().message().find("nothing: not found") != std::string::npos);
  CHECK(PrewarmPageCache((dir / "nothing").string()).code() == StatusCode::kNotFound);
}

}  // namespace
}  // namespace warmup
