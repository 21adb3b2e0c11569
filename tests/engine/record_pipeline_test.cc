// The record pipeline on its own: order, the thread it writes on, its bound,
// errors and exceptions, several sinks, and what it writes when destroyed.
#include "engine/record_pipeline.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "common/status_matchers.h"
#include "common/temp_dir.h"
#include "warmup/engine.h"
#include "warmup/generator.h"

namespace warmup::engine {
namespace {

Entity WithKey(int32_t pk) {
  Entity e;
  e.type = "T";
  e.primary_key = pk;
  return e;
}

// Records each entity's key and the thread it came on; its "offset" is ten
// times the key. Fails on `fail_on` (with an error, or by throwing); waits
// while held.
class TestSink : public EntityRecordSink {
 public:
  StatusOr<uint64_t> WriteRecords(const Entity& entity) override {
    std::unique_lock lock(mu_);
    entered_.notify_all();
    ++calls_;
    released_.wait(lock, [&] { return !held_; });
    keys_.push_back(entity.primary_key);
    threads_.push_back(std::this_thread::get_id());
    if (entity.primary_key == fail_on_) {
      if (throw_) throw std::runtime_error("disk on fire");
      return UnavailableError("injected fault at " + std::to_string(entity.primary_key));
    }
    return static_cast<uint64_t>(entity.primary_key) * 10;
  }
  void Hold() {
    std::lock_guard lock(mu_);
    held_ = true;
  }
  void Release() {
    {
      std::lock_guard lock(mu_);
      held_ = false;
    }
    released_.notify_all();
  }
  // Waits until the pipeline's thread is inside WriteRecords (held there).
  void AwaitEntered() {
    std::unique_lock lock(mu_);
    entered_.wait(lock, [&] { return calls_ > 0; });
  }
  void FailOn(int32_t pk, bool by_throwing = false) {
    fail_on_ = pk;
    throw_ = by_throwing;
  }
  std::vector<int32_t> keys() {
    std::lock_guard lock(mu_);
    return keys_;
  }
  std::vector<std::thread::id> threads() {
    std::lock_guard lock(mu_);
    return threads_;
  }

 private:
  std::mutex mu_;
  std::condition_variable entered_, released_;
  bool held_ = false;
  int calls_ = 0;
  int32_t fail_on_ = -1;
  bool throw_ = false;
  std::vector<int32_t> keys_;
  std::vector<std::thread::id> threads_;
};

TEST_CASE(
    "the record pipeline writes in the order given, on its own thread, and Settle hands back each offset") {
  TestSink sink;
  RecordPipeline pipeline(8);
  for (int32_t pk = 1; pk <= 100; ++pk) REQUIRE_OK(pipeline.Write(&sink, WithKey(pk)));
  RecordPipeline::Written written;
  REQUIRE_OK(pipeline.Settle(&sink, &written));
  REQUIRE(written.size() == 100);
  for (int32_t pk = 1; pk <= 100; ++pk) {
    CHECK(written[pk - 1].first == pk);
    CHECK(written[pk - 1].second == static_cast<uint64_t>(pk) * 10);
  }
  const std::vector<int32_t> keys = sink.keys();
  REQUIRE(keys.size() == 100);
  CHECK(std::is_sorted(keys.begin(), keys.end()));
  for (const std::thread::id id : sink.threads()) CHECK(id != std::this_thread::get_id());
  // A second Settle hands back only what was written since the first.
  REQUIRE_OK(pipeline.Write(&sink, WithKey(101)));
  written.clear();
  REQUIRE_OK(pipeline.Settle(&sink, &written));
  CHECK(written == RecordPipeline::Written{{101, 1010}});
}

TEST_CASE("the record pipeline settles a batch smaller than the one its thread waits for") {
  TestSink sink;
  RecordPipeline pipeline(64);  // the thread waits for 32 before it starts
  REQUIRE_OK(pipeline.Write(&sink, WithKey(7)));
  RecordPipeline::Written written;
  REQUIRE_OK(pipeline.Settle(&sink, &written));
  CHECK(written == RecordPipeline::Written{{7, 70}});
}

TEST_CASE("the record pipeline holds at most its depth: Write waits while the queue is full") {
  TestSink sink;
  sink.Hold();
  RecordPipeline pipeline(4);
  std::atomic<int> written{0};
  std::thread writer([&] {
    for (int32_t pk = 1; pk <= 20; ++pk) {
      REQUIRE_OK(pipeline.Write(&sink, WithKey(pk)));
      ++written;
    }
  });
  sink.AwaitEntered();  // one entity taken; then 4 queued at most
  // The writer has time to run past the bound if there were none.
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  CHECK(written.load() <= 1 + 4);
  sink.Release();
  writer.join();
  RecordPipeline::Written done;
  REQUIRE_OK(pipeline.Settle(&sink, &done));
  CHECK(done.size() == 20);
}

TEST_CASE(
    "a record pipeline's write error: Settle and every later Write return it, nothing after it is written") {
  for (const bool by_throwing : {false, true}) {
    CAPTURE(by_throwing);
    TestSink sink;
    sink.FailOn(5, by_throwing);
    RecordPipeline pipeline(4);
    Status first;
    for (int32_t pk = 1; pk <= 30 && first.ok(); ++pk) first = pipeline.Write(&sink, WithKey(pk));
    RecordPipeline::Written written;
    const Status settled = pipeline.Settle(&sink, &written);
    CHECK(settled.code() == (by_throwing ? StatusCode::kInternal : StatusCode::kUnavailable));
    CHECK_MESSAGE(
        settled.message().find(by_throwing ? "disk on fire" : "injected fault at 5") != std::string::npos,
        settled.message());
    // What was written before the failure is handed back; nothing after it was written.
    CHECK(written == RecordPipeline::Written{{1, 10}, {2, 20}, {3, 30}, {4, 40}});
    CHECK(sink.keys() == std::vector<int32_t>{1, 2, 3, 4, 5});
    const Status later = pipeline.Write(&sink, WithKey(99));
    CHECK(later.code() == settled.code());
    RecordPipeline::Written none;
    CHECK(pipeline.Settle(&sink, &none).code() == settled.code());
    CHECK(none.empty());
    CHECK(sink.keys() == std::vector<int32_t>{1, 2, 3, 4, 5});
  }
}

TEST_CASE("a record pipeline serves several sinks: each Settle hands back its own sink's writes") {
  TestSink a, b;
  RecordPipeline pipeline(8);
  for (int32_t pk = 1; pk <= 10; ++pk) {
    REQUIRE_OK(pipeline.Write(&a, WithKey(pk)));
    REQUIRE_OK(pipeline.Write(&b, WithKey(100 + pk)));
  }
  RecordPipeline::Written of_a, of_b;
  REQUIRE_OK(pipeline.Settle(&a, &of_a));
  REQUIRE(of_a.size() == 10);
  for (const auto& [pk, offset] : of_a) CHECK(pk <= 10);
  REQUIRE_OK(pipeline.Settle(&b, &of_b));
  REQUIRE(of_b.size() == 10);
  for (const auto& [pk, offset] : of_b) CHECK(pk > 100);
}

TEST_CASE("a record pipeline destroyed with entities queued writes them all first") {
  TestSink sink;
  {
    RecordPipeline pipeline(64);  // fewer than the 32 its thread waits for: none written yet
    for (int32_t pk = 1; pk <= 12; ++pk) REQUIRE_OK(pipeline.Write(&sink, WithKey(pk)));
  }
  CHECK(sink.keys() == std::vector<int32_t>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12});
}

// Every file of `dir` and below, by relative path, with its bytes.
std::map<std::string, std::string> FilesOf(const std::string& dir, const std::string& suffix) {
  std::map<std::string, std::string> files;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
    const std::string path = entry.path().string();
    if (!entry.is_regular_file() || !path.ends_with(suffix)) continue;
    std::ifstream in(path, std::ios::binary);
    std::ostringstream bytes;
    bytes << in.rdbuf();
    files[std::filesystem::relative(entry.path(), dir).string()] = bytes.str();
  }
  return files;
}

// Loads tiny of `seed` into an engine on `dir`, records written in the
// background or not, with what makes the pipeline wait or step aside mixed
// in: a read of each entity right after its upsert (its records not yet
// written), re-upserts of written and unwritten ones (one changed, one the
// same), removals; then goLive. Returns what each read gave.
std::vector<std::optional<Entity>> LoadMixed(const std::string& dir, uint64_t seed, bool background,
                                             RecordCompression compression) {
  EngineOptions options;
  options.background_records = background;
  options.compression = compression;
  auto engine = Engine::Open(dir, options);
  REQUIRE_OK(engine);
  auto source = OpenGeneratorSource({"tiny", 1.0, seed, "tiny"});
  REQUIRE_OK(source);
  auto catalog = (*engine)->CreateCatalog((*source)->schema());
  REQUIRE_OK(catalog);
  std::vector<std::optional<Entity>> reads;
  std::vector<Entity> loaded;
  Entity e;
  for (const auto& c : (*source)->collections()) {
    auto stream = (*source)->OpenCollection(c.entity_type);
    while (*(*stream)->Next(&e)) {
      REQUIRE_OK((*catalog)->Upsert(e));
      loaded.push_back(e);
      if (loaded.size() % 7 == 0) {
        auto read = (*catalog)->Get(e.type, e.primary_key);
        REQUIRE_OK(read);
        reads.push_back(*read);
      }
      if (loaded.size() % 11 == 0)
        REQUIRE_OK((*catalog)->Upsert(loaded[loaded.size() - 5]));  // the same again
      if (loaded.size() % 13 == 0 && !loaded[loaded.size() - 3].prices.empty()) {
        Entity changed = loaded[loaded.size() - 3];
        changed.prices.pop_back();
        REQUIRE_OK((*catalog)->Upsert(changed));
      }
      if (loaded.size() % 29 == 0) {
        const Entity& gone = loaded[loaded.size() - 2];
        if ((*catalog)->Get(gone.type, gone.primary_key)->has_value()) {
          REQUIRE_OK((*catalog)->Remove(gone.type, gone.primary_key));
        }
      }
    }
  }
  REQUIRE_OK((*catalog)->GoLive());
  for (const Entity& entity : loaded) {
    auto read = (*catalog)->Get(entity.type, entity.primary_key);
    REQUIRE_OK(read);
    reads.push_back(*read);
  }
  return reads;
}

TEST_CASE(
    "records written in the background are byte for byte what the upserting thread writes, and every read in "
    "between sees its entity") {
  for (const uint64_t seed : {1, 2, 3}) {
    for (const RecordCompression compression : {RecordCompression::kNone, RecordCompression::kZstd}) {
      CAPTURE(seed);
      CAPTURE(static_cast<int>(compression));
      testing::TempDir dir;
      const std::string inline_dir = dir / "inline";
      const std::string background_dir = dir / "background";
      const auto inline_reads = LoadMixed(inline_dir, seed, false, compression);
      const auto background_reads = LoadMixed(background_dir, seed, true, compression);
      CHECK(background_reads == inline_reads);
      const auto inline_records = FilesOf(inline_dir, ".records");
      REQUIRE(inline_records.size() == 5);  // tiny's collections
      CHECK(FilesOf(background_dir, ".records") == inline_records);
      CHECK(FilesOf(background_dir, ".offsets") == FilesOf(inline_dir, ".offsets"));
      // And the catalog reopens from them as the inline one does.
      auto reopened = Engine::Open(background_dir);
      REQUIRE_OK(reopened);
      auto catalog = (*reopened)->GetCatalog("tiny");
      REQUIRE_OK(catalog);
      CHECK((*catalog)->state() == CatalogState::kAlive);
      CHECK(*(*catalog)->Count("Product") ==
            *(*(*Engine::Open(inline_dir))->GetCatalog("tiny"))->Count("Product"));
    }
  }
}

}  // namespace
}  // namespace warmup::engine
