#include "warmup/work_dir.h"

#include <unistd.h>

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

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

TEST_CASE("a marked directory loses what warmup recorded there, and keeps the marker") {
  testing::TempDir dir;
  REQUIRE_OK(PrepareWorkDir(dir.path()));
  fs::create_directories(dir / "catalog/collections");
  std::ofstream(dir / "catalog/collections/x") << "old run";
  REQUIRE_OK(RecordInWorkDir(dir.path(), "catalog"));
  REQUIRE_OK(RecordInWorkDir(dir.path(), "server.log"));  // recorded, never made: nothing to remove
  REQUIRE_OK(PrepareWorkDir(dir.path()));
  CHECK_FALSE(fs::exists(dir / "catalog"));
  CHECK(fs::exists(dir / ".warmup-workdir"));
  CHECK(WorkDirEntries(dir.path()).empty());  // a fresh marker: what it listed is gone
}

TEST_CASE("regression: a marker-owned work directory was wiped whole, a user's notes.txt with it") {
  testing::TempDir dir;
  REQUIRE_OK(PrepareWorkDir(dir.path()));
  std::ofstream(dir / "notes.txt") << "mine";
  fs::create_directories(dir / "photos");
  std::ofstream(dir / "r1.json") << "{}";  // an earlier run's report, written there by hand
  REQUIRE_OK(PrepareWorkDir(dir.path()));
  std::ifstream notes(dir / "notes.txt");
  std::string text;
  std::getline(notes, text);
  CHECK(text == "mine");
  CHECK(fs::is_directory(dir / "photos"));
  CHECK(fs::exists(dir / "r1.json"));
}

TEST_CASE(
    "regression: a source or an output inside the work directory was wiped with it, now refused first") {
  testing::TempDir dir;
  REQUIRE_OK(PrepareWorkDir(dir / "work"));
  fs::create_directories(dir / "work/pristine/tiny");
  std::ofstream(dir / "work/pristine/tiny/manifest.json") << "{}";
  REQUIRE_OK(RecordInWorkDir(dir / "work", "pristine"));  // even one warmup made itself
  const Status s = PrepareWorkDir(
      dir / "work", {{"--report-json", dir / "elsewhere.json"}, {"--pristine-dir", dir / "work/pristine"}});
  CHECK(s.code() == StatusCode::kFailedPrecondition);
  CHECK_MESSAGE(s.message().find("--pristine-dir " + dir / "work/pristine" +
                                 " lies inside the work directory " + dir / "work") == 0,
                s.message());
  CHECK(fs::exists(dir / "work/pristine/tiny/manifest.json"));
  // The directory itself, through another spelling of its path, is inside too.
  CHECK(PrepareWorkDir(dir / "work", {{"--html", dir / "work/../work/page.html"}}).code() ==
        StatusCode::kFailedPrecondition);
  // Paths beside it are not.
  REQUIRE_OK(PrepareWorkDir(dir / "work", {{"--report-json", dir / "work2/r.json"}}));
}

TEST_CASE("a marker line naming anything but a plain entry never makes warmup remove it") {
  testing::TempDir dir;
  fs::create_directories(dir / "work");
  fs::create_directories(dir / "outside");
  std::ofstream(dir / "outside/keep") << "x";
  std::ofstream(dir / "work/.warmup-workdir") << "heading\ncreated: ../outside\ncreated: " << dir.path()
                                              << "/outside\ncreated: .\ncreated: \ncreated: a/b\n";
  CHECK(WorkDirEntries(dir / "work").empty());
  REQUIRE_OK(PrepareWorkDir(dir / "work"));
  CHECK(fs::exists(dir / "outside/keep"));
  CHECK(RecordInWorkDir(dir / "work", "../outside").code() == StatusCode::kInvalidArgument);
}

TEST_CASE("the engine records each catalog it creates in a work directory, and only there") {
  testing::TempDir dir;
  REQUIRE_OK(PrepareWorkDir(dir / "work"));
  CatalogSchema schema;
  schema.name = "made";
  EntitySchema word;
  word.name = "Word";
  schema.entities.emplace("Word", word);
  {
    auto engine = Engine::Open(dir / "work");
    REQUIRE_OK(engine);
    REQUIRE_OK((*engine)->CreateCatalog(schema));
  }
  CHECK(WorkDirEntries(dir / "work") == std::vector<std::string>{"made"});
  REQUIRE_OK(PrepareWorkDir(dir / "work"));
  CHECK_FALSE(fs::exists(dir / "work/made"));
  {  // A directory that is not a work directory gets no marker from the engine.
    auto engine = Engine::Open(dir / "plain");
    REQUIRE_OK(engine);
    REQUIRE_OK((*engine)->CreateCatalog(schema));
  }
  CHECK_FALSE(fs::exists(dir / "plain/.warmup-workdir"));
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
