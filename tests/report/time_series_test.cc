#include "warmup/time_series.h"

#include <doctest/doctest.h>

namespace warmup {
namespace {

UpsertSample Sample(int32_t collection, int64_t start_ms, int64_t upsert_us) {
  UpsertSample s;
  s.collection = collection;
  s.start_offset_ns = start_ms * 1'000'000;
  s.read_ns = 0;
  s.upsert_ns = upsert_us * 1000;
  return s;
}

TEST_CASE("TimeSeriesRecorder: intervals with counts, rates and percentiles, collection spans, goLive") {
  TimeSeriesRecorder recorder;
  CHECK(recorder.Build().intervals.empty());
  recorder.OnRunStart({"s", "t", "c", "c_1", {"Brand", "Product"}, {100, 200}});
  // Brand: 100 upserts of 100 us in the first 10 s; Product: 200 of 1 ms and one of 50 ms in the next 20 s.
  for (int i = 0; i < 100; ++i) recorder.OnUpsert(Sample(0, i * 100, 100));
  for (int i = 0; i < 200; ++i) recorder.OnUpsert(Sample(1, 10'000 + i * 100, i == 150 ? 50'000 : 1000));
  recorder.OnGoLiveStart();
  recorder.OnGoLiveEnd(GoLiveOutcome::kCompleted, 0);
  const TimeSeries series = recorder.Build();
  // 30 s / 150 = 0.2 s, a round interval: 150 intervals.
  CHECK(series.interval_seconds == doctest::Approx(0.2));
  REQUIRE(series.intervals.size() == 150);
  int64_t total = 0;
  for (const auto& i : series.intervals) total += i.upserts;
  CHECK(total == 300);
  const TimeSeriesInterval& first = series.intervals.front();
  CHECK(first.start_seconds == 0);
  CHECK(first.upserts == 2);  // the ones ending at 0.0001 and 0.1001 s
  CHECK(first.upserts_per_second == doctest::Approx(10));
  CHECK(first.p50_us == 100);
  // The slow Product upsert (started at 25 s, 50 ms) lands in the interval of 25.0-25.2 s with one other.
  const TimeSeriesInterval& slow = series.intervals[125];
  CHECK(slow.start_seconds == doctest::Approx(25.0));
  CHECK(slow.upserts == 2);
  CHECK(slow.p99_us == 50'000);
  CHECK(slow.p50_us == 1000);
  REQUIRE(series.collections.size() == 2);
  CHECK(series.collections[0].entity_type == "Brand");
  CHECK(series.collections[0].start_seconds == 0);
  CHECK(series.collections[0].end_seconds == doctest::Approx(9.9001));
  CHECK(series.collections[1].entity_type == "Product");
  CHECK(series.collections[1].start_seconds == doctest::Approx(10.0));
  CHECK(series.collections[1].end_seconds == doctest::Approx(29.901));
  REQUIRE(series.golive_start_seconds.has_value());
  REQUIRE(series.golive_end_seconds.has_value());
  CHECK(*series.golive_end_seconds >= *series.golive_start_seconds);
}

TEST_CASE("TimeSeriesRecorder: a short run gets 50 ms intervals, a collection with no upserts no span") {
  TimeSeriesRecorder recorder;
  recorder.OnRunStart({"s", "t", "c", "c_1", {"Empty", "Brand"}, {0, 3}});
  for (int i = 0; i < 3; ++i) recorder.OnUpsert(Sample(1, i * 40, 10));
  const TimeSeries series = recorder.Build();
  CHECK(series.interval_seconds == doctest::Approx(0.05));
  CHECK(series.intervals.size() == 2);  // 80 ms of load
  REQUIRE(series.collections.size() == 1);
  CHECK(series.collections[0].entity_type == "Brand");
  CHECK_FALSE(series.golive_start_seconds.has_value());
}

}  // namespace
}  // namespace warmup
