// PrefetchingStream: the entities of the stream it wraps, in order, read
// ahead on a thread of its own (also run under TSan: tests/CMakeLists.txt).
#include "copy/prefetching_stream.h"

#include <doctest/doctest.h>

#include <atomic>
#include <memory>
#include <string>

namespace warmup {
namespace {

// Entities 1..count of "Product", then an error when `fail` is set, else the end.
class CountingStream : public EntityStream {
 public:
  CountingStream(int count, bool fail, std::atomic<int>* calls) : count_(count), fail_(fail), calls_(calls) {}
  StatusOr<bool> Next(Entity* entity) override {
    calls_->fetch_add(1);
    if (next_ > count_) {
      if (fail_) return DataLossError("file: offset 99: damaged");
      return false;
    }
    entity->type = "Product";
    entity->primary_key = next_++;
    return true;
  }

 private:
  int next_ = 1;
  const int count_;
  const bool fail_;
  std::atomic<int>* calls_;
};

TEST_CASE("prefetching stream: every entity in order in batches that do not divide them, then the end") {
  std::atomic<int> calls = 0;
  PrefetchingStream stream(std::make_unique<CountingStream>(10, false, &calls), 3, 2);
  Entity entity;
  for (int pk = 1; pk <= 10; ++pk) {
    auto more = stream.Next(&entity);
    REQUIRE(more.ok());
    REQUIRE(*more);
    CHECK(entity.primary_key == pk);
    CHECK(entity.type == "Product");
  }
  for (int again = 0; again < 2; ++again) {
    auto end = stream.Next(&entity);
    REQUIRE(end.ok());
    CHECK_FALSE(*end);
  }
  CHECK(calls.load() == 11);  // ten entities and the end, each read once
}

TEST_CASE("prefetching stream: an error comes out after the entities before it, and stays") {
  std::atomic<int> calls = 0;
  PrefetchingStream stream(std::make_unique<CountingStream>(5, true, &calls), 4, 2);
  Entity entity;
  for (int pk = 1; pk <= 5; ++pk) {
    auto more = stream.Next(&entity);
    REQUIRE(more.ok());
    CHECK(entity.primary_key == pk);
  }
  for (int again = 0; again < 2; ++again) {
    auto failed = stream.Next(&entity);
    CHECK(failed.status().code() == StatusCode::kDataLoss);
    CHECK(failed.status().message() == "file: offset 99: damaged");
  }
}

TEST_CASE("prefetching stream: reads at most its batches ahead, and a stream left early stops its reader") {
  std::atomic<int> calls = 0;
  {
    PrefetchingStream stream(std::make_unique<CountingStream>(100000, false, &calls), 4, 2);
    Entity entity;
    REQUIRE(*stream.Next(&entity));
    CHECK(entity.primary_key == 1);
    // Ahead of the one taken: the rest of its batch (3), two queued batches
    // (8) and the batch being filled, which waits for room (4): 16 reads.
    for (int i = 0; i < 1000 && calls.load() < 16; ++i) std::this_thread::yield();
  }  // joins the reader
  CHECK(calls.load() <= 16);
  CHECK(calls.load() >= 4);  // the batch Next took
}

}  // namespace
}  // namespace warmup
