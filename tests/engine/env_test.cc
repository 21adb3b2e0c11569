// The engine on other Envs: in memory, with injected write faults, and killed mid-run.
#include "warmup/engine.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <doctest/doctest.h>

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <fstream>
#include <map>
#include <numeric>
#include <regex>
#include <set>

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

TEST_CASE("the engine runs on the in-memory Env: load, goLive, reopen") {
  auto env = engine::NewMemEnv();
  std::vector<std::vector<int32_t>> before;
  {
    auto engine = engine::OpenEngineWithEnv(env.get(), "/mem/data", {});
    REQUIRE_OK(engine);
    LoadTiny(**engine, 6);
    Catalog* catalog = *(*engine)->GetCatalog("tiny");
    REQUIRE_OK(catalog->GoLive());
    before = ReadResults(*catalog);
  }
  auto engine = engine::OpenEngineWithEnv(env.get(), "/mem/data", {});
  REQUIRE_MESSAGE(engine.ok(), engine.status().ToString());
  Catalog* catalog = *(*engine)->GetCatalog("tiny");
  CHECK(catalog->state() == CatalogState::kAlive);
  CHECK(*catalog->Count("Product") == 200);
  CHECK(ReadResults(*catalog) == before);
  CHECK_FALSE(fs::exists("/mem"));  // nothing reached the disk
}

TEST_CASE("a write failing mid-goLive: goLive errs, the catalog stays WARM_UP, nothing outside is touched") {
  // The header is written once when the catalog is created; the second write is goLive's.
  for (const auto& [fail_on_binding, fail_after] :
       std::vector<std::pair<std::string, int>>{{".offsets", 2}, {"catalog.header", 1}}) {
    const std::string& fail_on = fail_on_binding;  // doctest captures it; a binding cannot be
    CAPTURE(fail_on);
    testing::TempDir dir;
    const std::string data = dir / "data";
    std::ofstream(dir / "neighbour.txt") << "untouched";
    {
      engine::FaultInjectingEnv env(engine::DefaultEnv(), fail_on, fail_after);
      auto opened = engine::OpenEngineWithEnv(&env, data, {});
      REQUIRE_OK(opened);
      LoadTiny(**opened, 5);
      Catalog* catalog = *(*opened)->GetCatalog("tiny");
      Status live = catalog->GoLive();
      CHECK(live.code() == StatusCode::kUnavailable);
      CHECK(live.message().find("injected fault") != std::string::npos);
      CHECK(catalog->state() == CatalogState::kWarmingUp);
      CHECK(env.injected() >= 1);
    }
    auto engine = OpenEngine(data);
    CHECK((*engine->GetCatalog("tiny"))->state() == CatalogState::kWarmingUp);
    std::set<std::string> names;
    for (const auto& e : fs::directory_iterator(dir.path())) names.insert(e.path().filename().string());
    CHECK(names == std::set<std::string>{"data", "neighbour.txt"});
  }
}

TEST_CASE(
    "a full disk during the load: the upsert fails with the disk's error, nothing is corrupted, a retry "
    "works") {
  // Inline, the upsert whose records hit the full disk fails; in the
  // background (the default), a later call reports it, naming the entity.
  for (const bool background : {false, true}) {
    CAPTURE(background);
    testing::TempDir dir;
    const std::string data = dir / "data";
    std::vector<std::pair<std::string, int32_t>> accepted;  // in upsert order
    Status failed;
    {
      engine::FaultInjectingEnv env(engine::DefaultEnv(), ".records", 150, ENOSPC);
      EngineOptions options;
      options.background_records = background;
      auto opened = engine::OpenEngineWithEnv(&env, data, options);
      REQUIRE_OK(opened);
      auto source = OpenGeneratorSource({"tiny", 1.0, 3, "tiny"});
      auto catalog = (*opened)->CreateCatalog((*source)->schema());
      REQUIRE_OK(catalog);
      Entity e;
      for (const auto& c : (*source)->collections()) {
        auto stream = (*source)->OpenCollection(c.entity_type);
        while (failed.ok() && *(*stream)->Next(&e)) {
          failed = (*catalog)->Upsert(e);
          if (failed.ok()) accepted.emplace_back(e.type, e.primary_key);
        }
      }
      if (failed.ok()) failed = (*catalog)->GoLive();  // the last writes fail only there
      CHECK(failed.code() == StatusCode::kUnavailable);
      CHECK_MESSAGE(failed.message().find(".records: write: No space left on device") != std::string::npos,
                    failed.message());
      // goLive refuses a catalog whose records did not all reach the disk.
      const Status live = (*catalog)->GoLive();
      CHECK(live.code() == StatusCode::kUnavailable);
      CHECK((*catalog)->state() == CatalogState::kWarmingUp);
    }
    // What reached the disk: every accepted upsert inline; in the
    // background, those accepted before the one whose records failed.
    size_t stored_upserts = accepted.size();
    if (background) {
      std::smatch named;
      const std::string message = failed.message();
      REQUIRE_MESSAGE(
          std::regex_search(message, named,
                            std::regex("writing the records of (\\w+)/(\\d+) \\(accepted earlier")),
          message);
      const std::pair<std::string, int32_t> lost{named[1].str(), std::stoi(named[2].str())};
      auto at = std::find(accepted.begin(), accepted.end(), lost);
      REQUIRE(at != accepted.end());
      stored_upserts = static_cast<size_t>(at - accepted.begin());
    }
    std::map<std::string, int64_t> stored;
    for (size_t i = 0; i < stored_upserts; ++i) ++stored[accepted[i].first];
    // Reopened on a disk with room again: the catalog is as it was when the disk filled up.
    auto engine = OpenEngine(data);
    Catalog* catalog = *engine->GetCatalog("tiny");
    CHECK(catalog->state() == CatalogState::kWarmingUp);
    auto source = OpenGeneratorSource({"tiny", 1.0, 3, "tiny"});
    for (const auto& c : (*source)->collections())
      CHECK(*catalog->Count(c.entity_type) == stored[c.entity_type]);
    REQUIRE_OK(engine->DeleteCatalog("tiny"));
    LoadTiny(*engine, 3);  // the retry
    REQUIRE_OK((*engine->GetCatalog("tiny"))->GoLive());
    CHECK(*(*engine->GetCatalog("tiny"))->Count("Product") == 200);
  }
}

// Forks a child that loads tiny and (optionally) goes live; kills it with
// SIGKILL after `delay_us` from the moment it reports being at `stage`.
void KillDuring(const std::string& data, const std::string& stage, int delay_us) {
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    ::close(fds[0]);
    auto engine = Engine::Open(data);
    if (!engine.ok()) ::_exit(3);
    auto source = OpenGeneratorSource({"tiny", 4.0, 11, "tiny"});
    auto catalog = (*engine)->CreateCatalog((*source)->schema());
    if (!catalog.ok()) ::_exit(4);
    Entity e;
    int64_t n = 0;
    for (const auto& c : (*source)->collections()) {
      auto stream = (*source)->OpenCollection(c.entity_type);
      while (*(*stream)->Next(&e)) {
        (void)(*catalog)->Upsert(e);
        if (++n == 100 && stage == "load") (void)!::write(fds[1], "x", 1);
      }
    }
    if (stage == "golive") (void)!::write(fds[1], "x", 1);
    const bool live = (*catalog)->GoLive().ok();
    if (stage == "alive") (void)!::write(fds[1], live ? "x" : "!", 1);
    ::pause();  // wait to be killed
    ::_exit(0);
  }
  ::close(fds[1]);
  char c;
  REQUIRE(::read(fds[0], &c, 1) == 1);
  ::usleep(static_cast<useconds_t>(delay_us));
  ::kill(child, SIGKILL);
  int status = 0;
  ::waitpid(child, &status, 0);
  ::close(fds[0]);
}

TEST_CASE("SIGKILL during the load or during goLive never leaves an ALIVE catalog with missing entities") {
  auto expected = OpenGeneratorSource({"tiny", 4.0, 11, "tiny"});
  int64_t total = 0;
  for (const auto& c : (*expected)->collections()) total += c.expected_count;
  int alive_seen = 0;
  for (const auto& [stage_binding, delay_binding] :
       std::vector<std::pair<std::string, int>>{{"load", 0},
                                                {"load", 2000},
                                                {"golive", 0},
                                                {"golive", 500},
                                                {"golive", 3000},
                                                {"golive", 20000},
                                                {"golive", 200000},
                                                {"alive", 0}}) {
    const std::string& stage = stage_binding;  // doctest captures them; bindings cannot be
    const int delay = delay_binding;
    CAPTURE(stage);
    CAPTURE(delay);
    testing::TempDir dir;
    KillDuring(dir.path(), stage, delay);
    auto engine = OpenEngine(dir.path());
    auto catalog = engine->GetCatalog("tiny");
    if (!catalog.ok()) continue;  // killed before the catalog existed
    if ((*catalog)->state() == CatalogState::kAlive) {
      ++alive_seen;
      int64_t count = 0;
      for (const auto& c : (*expected)->collections()) count += *(*catalog)->Count(c.entity_type);
      CHECK(count == total);
    } else {
      CHECK((*catalog)->state() == CatalogState::kWarmingUp);
    }
    if (stage == "load") CHECK((*catalog)->state() == CatalogState::kWarmingUp);
    if (stage == "alive") CHECK((*catalog)->state() == CatalogState::kAlive);
  }
  // The "alive" run is killed after goLive returned: with no ALIVE run the
  // ALIVE branch above, the point of this test, was never checked.
  CHECK(alive_seen >= 1);
}

}  // namespace
}  // namespace warmup::engine_test
