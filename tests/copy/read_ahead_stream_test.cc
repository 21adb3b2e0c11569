// The read-ahead stream: the inner stream's entities, end and error in the
// inner stream's order, never more than its depth read ahead of the load,
// and a stream closed early stops its thread (TSan in CI sees a race, ASan
// a leak).
#include "copy/read_ahead_stream.h"

#include <doctest/doctest.h>

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "common/status_matchers.h"

namespace warmup {
namespace {

// Entities 1..count of type "T", then the end, or `error` in place of
// entity `fail_at` (1-based; 0 = none). Counts its calls.
class CountingStream : public EntityStream {
 public:
  CountingStream(int count, int fail_at, std::atomic<int>* calls)
      : count_(count), fail_at_(fail_at), calls_(calls) {}
  StatusOr<bool> Next(Entity* entity) override {
    const int n = ++*calls_;
    if (n == fail_at_) return DataLossError("record " + std::to_string(n) + " is torn");
    if (n > count_) return false;
    *entity = Entity();
    entity->type = "T";
    entity->primary_key = n;
    entity->attributes.global["code"] = Value::String("c" + std::to_string(n));
    return true;
  }

 private:
  int count_;
  int fail_at_;
  std::atomic<int>* calls_;
};

TEST_CASE("a read-ahead stream gives the inner stream's entities in order, then its end, at every depth") {
  // The load is woken per half ring: an end before a half is filled (none,
  // five of 64) must wake it too.
  struct Case {
    size_t depth;
    int count;
  };
  for (const Case& c : {Case{1, 200}, Case{3, 200}, Case{64, 200}, Case{64, 5}, Case{64, 0}}) {
    const size_t depth = c.depth;
    const int count = c.count;
    CAPTURE(depth);
    CAPTURE(count);
    std::atomic<int> calls{0};
    auto stream = copy::ReadAhead(std::make_unique<CountingStream>(count, 0, &calls), depth);
    Entity entity;
    for (int pk = 1; pk <= count; ++pk) {
      auto more = stream->Next(&entity);
      REQUIRE_OK(more);
      REQUIRE(*more);
      REQUIRE(entity.primary_key == pk);
      REQUIRE(entity.attributes.global.at("code") == Value::String("c" + std::to_string(pk)));
    }
    for (int again = 0; again < 2; ++again) {  // the end, asked for twice, stays the end
      auto end = stream->Next(&entity);
      REQUIRE_OK(end);
      CHECK_FALSE(*end);
    }
    CHECK(calls.load() == count + 1);  // the inner stream is not read past its end
  }
}

TEST_CASE("a read-ahead stream gives every entity before an error, then the error, and reads no further") {
  std::atomic<int> calls{0};
  auto stream = copy::ReadAhead(std::make_unique<CountingStream>(100, 6, &calls), 4);
  Entity entity;
  for (int pk = 1; pk <= 5; ++pk) {
    auto more = stream->Next(&entity);
    REQUIRE_OK(more);
    REQUIRE(*more);
    CHECK(entity.primary_key == pk);
  }
  auto failed = stream->Next(&entity);
  REQUIRE_FALSE(failed.ok());
  CHECK(failed.status().code() == StatusCode::kDataLoss);
  CHECK(failed.status().message() == "record 6 is torn");
  CHECK_FALSE(stream->Next(&entity).ok());
  CHECK(calls.load() == 6);
}

TEST_CASE("a read-ahead stream reads at most its depth ahead, and closing it early stops its reader") {
  std::atomic<int> calls{0};
  {
    auto stream = copy::ReadAhead(std::make_unique<CountingStream>(100'000, 0, &calls), 3);
    Entity entity;
    for (int pk = 1; pk <= 5; ++pk) REQUIRE(*stream->Next(&entity));
    // The reader fills at most three slots beyond what was taken; it may
    // not have got there yet, so only the bound is certain.
    CHECK(calls.load() >= 5);
    CHECK(calls.load() <= 5 + 3);
  }  // destroyed with 99,995 entities unread: the reader is stopped and joined
  CHECK(calls.load() <= 5 + 3);
}

}  // namespace
}  // namespace warmup
