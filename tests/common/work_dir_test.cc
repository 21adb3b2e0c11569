#include "warmup/work_dir.h"

#include <unistd.h>

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "common/status_matchers.h"
#include "common/temp_dir.h"
#include "warmup/engine.h"

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
  CHECK_FALSE(fs::exists(dir / ".warmup-lock"));  // nothing written into a directory not ours
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

TEST_CASE(
    "regression: a second load on one --work-dir wiped the first's files while it ran, now it stops naming "
    "the first") {
  testing::TempDir dir;
  REQUIRE_OK(PrepareWorkDir(dir.path()));
  auto engine = Engine::Open(dir.path());  // the first load's target
  REQUIRE_OK(engine);
  CatalogSchema schema;
  schema.name = "first";
  EntitySchema word;
  word.name = "Word";
  schema.entities.emplace("Word", word);
  REQUIRE_OK((*engine)->CreateCatalog(schema));
  const Status second = PrepareWorkDir(dir.path());
  CHECK(second.code() == StatusCode::kFailedPrecondition);
  CHECK_MESSAGE(second.message().find(dir.path() + " is in use by pid " + std::to_string(getpid())) == 0,
                second.message());
  CHECK(fs::exists(dir / "first/catalog.header"));  // untouched
  engine->reset();
  CHECK_OK(PrepareWorkDir(dir.path()));  // free again once the engine is gone
  CHECK_FALSE(fs::exists(dir / "first"));
}

}  // namespace
}  // namespace warmup
