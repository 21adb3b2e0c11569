// The engine's catalogs on disk: goLive, reopen, index snapshots, replay, deletion.
#include "warmup/engine.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <regex>
#include <set>

#include "base/crc32c.h"
#include "common/status_matchers.h"
#include "common/temp_dir.h"
#include "engine/engine_fixtures.h"
#include "engine/env.h"
#include "engine/index_keys.h"
#include "generator/tiny_profile.h"
#include "warmup/digest.h"
#include "warmup/generator.h"

namespace warmup::engine_test {
namespace {

namespace fs = std::filesystem;

TEST_CASE("load -> goLive -> reopen keeps counts, entities and read results, and ALIVE upserts are durable") {
  testing::TempDir dir;
  std::vector<Entity> all;
  std::vector<std::vector<int32_t>> reads_before;
  std::vector<int32_t> facet_before;
  {
    auto engine = OpenEngine(dir.path());
    all = LoadTiny(*engine, 7);
    Catalog* catalog = *engine->GetCatalog("tiny");
    CHECK(catalog->state() == CatalogState::kWarmingUp);
    REQUIRE_OK(catalog->GoLive());
    CHECK(catalog->state() == CatalogState::kAlive);
    CHECK(catalog->GoLive().code() == StatusCode::kFailedPrecondition);
    facet_before = *catalog->FacetMembers("Product", "parameterValues", 3);
    reads_before = ReadResults(*catalog);
  }
  {
    auto engine = OpenEngine(dir.path());
    CHECK(engine->CatalogNames() == std::vector<std::string>{"tiny"});
    Catalog* catalog = *engine->GetCatalog("tiny");
    CHECK(catalog->state() == CatalogState::kAlive);
    CHECK(*catalog->FacetMembers("Product", "parameterValues", 3) == facet_before);
    CHECK(ReadResults(*catalog) == reads_before);
    for (const auto& e : all) {
      auto stored = catalog->Get(e.type, e.primary_key);
      REQUIRE_OK(stored);
      REQUIRE(stored->has_value());
      const EntitySchema& es = catalog->schema().entities.at(e.type);
      CHECK(EntityDigest(generator::WithoutReflectedReferences(**stored, es)) ==
            EntityDigest(generator::WithoutReflectedReferences(e, es)));
    }
    Entity late = OfType(all, "Brand").front();
    late.primary_key = 999;
    late.attributes.global["code"] = Value::String("late");
    REQUIRE_OK(catalog->Upsert(late));
  }
  auto engine = OpenEngine(dir.path());
  Catalog* catalog = *engine->GetCatalog("tiny");
  CHECK(*catalog->Count("Brand") == 21);
  CHECK(catalog->Get("Brand", 999)->has_value());
}

TEST_CASE("goLive writes index snapshots that a reopen reads, and a damaged one is reported") {
  testing::TempDir dir;
  {
    auto engine = OpenEngine(dir.path());
    LoadTiny(*engine, 9);
    REQUIRE_OK((*engine->GetCatalog("tiny"))->GoLive());
  }
  std::vector<std::string> snapshots;
  for (const auto& e : fs::directory_iterator(dir / "tiny/collections")) {
    if (e.path().extension() == ".index") snapshots.push_back(e.path().string());
  }
  CHECK(snapshots.size() == 5);
  CHECK(fs::exists(dir / "tiny/catalog.index"));
  const std::string victim = snapshots.front();
  {
    std::fstream f(victim, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(3);
    f.put('\x7f');
  }
  auto reopened = Engine::Open(dir.path());
  REQUIRE_FALSE(reopened.ok());
  CHECK(reopened.status().code() == StatusCode::kDataLoss);
  CHECK(reopened.status().message().find(victim + ": checksum does not match") != std::string::npos);
}

TEST_CASE("data-directory entries without a valid header are reported, never loaded") {
  testing::TempDir dir;
  fs::create_directories(dir / "stray/collections");
  fs::create_directories(dir / "damaged");
  std::ofstream(dir / "damaged/catalog.header")
      << "warmup-catalog 1\nname damaged\nstate ALIVE\ncrc32c 00000000\n";
  std::ofstream(dir / "notes.txt") << "x";
  // A catalog of the previous format, with a valid checksum: its index files
  // are laid out differently, so it is not read.
  const std::string old_body = "warmup-catalog 4\nname older\nstate ALIVE\n";
  char crc[9];
  std::snprintf(crc, sizeof(crc), "%08x", Crc32c(old_body.data(), old_body.size()));
  fs::create_directories(dir / "older/collections");
  std::ofstream(dir / "older/catalog.header") << old_body << "crc32c " << crc << "\n";
  auto engine = OpenEngine(dir.path());
  CHECK(engine->CatalogNames().empty());
  REQUIRE(engine->leftovers().size() == 4);
  CHECK(
      engine->leftovers()[2].find(
          "older: catalog header is not valid (written as warmup-catalog 4; this build reads warmup-catalog "
          "6)") != std::string::npos);
  CHECK(engine->leftovers()[0].find("damaged: catalog header is not valid (checksum does not match)") !=
        std::string::npos);
  CHECK(engine->leftovers()[3].find("stray: no catalog header") != std::string::npos);
  CatalogSchema schema = WordsSchema();
  schema.name = "stray";
  CHECK(engine->CreateCatalog(schema).status().code() == StatusCode::kAlreadyExists);
}

TEST_CASE("replay after reopen: the newest record of a primary key wins, in WARM_UP and after goLive") {
  testing::TempDir dir;
  Entity first = Named("Word", 1, "hrad");
  Entity second = Named("Word", 1, "chata");
  second.attributes.global["code"] = Value::String("second");
  Entity third = Named("Word", 1, "cibule");
  third.attributes.global["code"] = Value::String("third");
  {
    auto engine = OpenEngine(dir.path());
    Catalog* catalog = *engine->CreateCatalog(WordsSchema());
    REQUIRE_OK(catalog->Upsert(first));
    REQUIRE_OK(catalog->Upsert(second));
  }
  {  // WARM_UP replays its record file from the start.
    auto engine = OpenEngine(dir.path());
    Catalog* catalog = *engine->GetCatalog("words");
    CHECK(catalog->state() == CatalogState::kWarmingUp);
    CHECK(*catalog->Count("Word") == 1);
    CHECK(EntityDigest(**catalog->Get("Word", 1)) == EntityDigest(second));
    CHECK(catalog->FilterEquals("Word", "code", "", Value::String("Word1"))->empty());
    REQUIRE_OK(catalog->GoLive());
    REQUIRE(catalog->Upsert(third).ok());  // ALIVE: appended after the index snapshot
  }
  auto engine = OpenEngine(dir.path());
  Catalog* catalog = *engine->GetCatalog("words");
  CHECK(catalog->state() == CatalogState::kAlive);
  CHECK(*catalog->Count("Word") == 1);
  CHECK(EntityDigest(**catalog->Get("Word", 1)) == EntityDigest(third));
  CHECK(catalog->FilterEquals("Word", "code", "", Value::String("second"))->empty());
  CHECK(*catalog->FilterEquals("Word", "code", "", Value::String("third")) == std::vector<int32_t>{1});
}

TEST_CASE("a compressed engine (zstd, deflate) reopens with the same entities and reads") {
  for (RecordCompression codec : {RecordCompression::kZstd, RecordCompression::kDeflate}) {
    CAPTURE(static_cast<int>(codec));
    testing::TempDir dir;
    EngineOptions compressed;
    compressed.compression = codec;
    std::vector<Entity> all;
    std::vector<std::vector<int32_t>> before;
    {
      auto engine = Engine::Open(dir.path(), compressed);
      REQUIRE_OK(engine);
      all = LoadTiny(**engine, 8);
      Catalog* catalog = *(*engine)->GetCatalog("tiny");
      REQUIRE_OK(catalog->GoLive());
      before = ReadResults(*catalog);
    }
    uintmax_t stored = 0;
    for (const auto& f : fs::recursive_directory_iterator(dir.path())) {
      if (f.is_regular_file()) stored += f.file_size();
    }
    auto engine = Engine::Open(dir.path(), compressed);
    REQUIRE_MESSAGE(engine.ok(), engine.status().ToString());
    Catalog* catalog = *(*engine)->GetCatalog("tiny");
    CHECK(ReadResults(*catalog) == before);
    for (const auto& e : all) {
      const EntitySchema& es = catalog->schema().entities.at(e.type);
      CHECK(EntityDigest(generator::WithoutReflectedReferences(**catalog->Get(e.type, e.primary_key), es)) ==
            EntityDigest(generator::WithoutReflectedReferences(e, es)));
    }
    // The same catalog uncompressed takes more room: compression was applied.
    testing::TempDir plain;
    {
      auto uncompressed = OpenEngine(plain.path());
      LoadTiny(*uncompressed, 8);
      REQUIRE_OK((*uncompressed->GetCatalog("tiny"))->GoLive());
    }
    uintmax_t plain_size = 0;
    for (const auto& f : fs::recursive_directory_iterator(plain.path())) {
      if (f.is_regular_file()) plain_size += f.file_size();
    }
    CHECK(stored < plain_size);
  }
}

TEST_CASE("DeleteCatalog removes the catalog and its directory, and an unknown one is kNotFound") {
  testing::TempDir dir;
  auto engine = OpenEngine(dir.path());
  LoadTiny(*engine, 2);
  REQUIRE(fs::exists(dir / "tiny"));
  REQUIRE_OK(engine->DeleteCatalog("tiny"));
  CHECK_FALSE(fs::exists(dir / "tiny"));
  CHECK(engine->CatalogNames().empty());
  CHECK(engine->GetCatalog("tiny").status().code() == StatusCode::kNotFound);
  CHECK(engine->DeleteCatalog("tiny").code() == StatusCode::kNotFound);
  engine.reset();  // the data directory is one engine's at a time
  CHECK(OpenEngine(dir.path())->CatalogNames().empty());
}

TEST_CASE("an engine holds its data directory: a second open, here or in another process, names the holder") {
  testing::TempDir dir;
  auto first = OpenEngine(dir.path());
  auto second = Engine::Open(dir.path());
  CHECK(second.status().code() == StatusCode::kFailedPrecondition);
  CHECK_MESSAGE(second.status().message().find(dir.path() + " is in use by pid " + std::to_string(getpid()) +
                                               " (") == 0,
                second.status().message());
  const pid_t child = fork();
  if (child == 0) _exit(Engine::Open(dir.path()).status().code() == StatusCode::kFailedPrecondition ? 0 : 1);
  int status = 0;
  REQUIRE(waitpid(child, &status, 0) == child);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  first.reset();
  CHECK_OK(Engine::Open(dir.path()));                  // released with the engine
  CHECK(OpenEngine(dir.path())->leftovers().empty());  // the lock file is not a leftover
}

}  // namespace
}  // namespace warmup::engine_test
