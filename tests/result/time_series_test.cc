#include "warmup/time_series.h"

#include <doctest/doctest.h>

#include <chrono>
#include <thread>

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

UpsertSample SampleUs(int32_t collection, int64_t start_us, int64_t read_us, int64_t upsert_us) {
  UpsertSample s;
  s.collection = collection;
  s.start_offset_ns = start_us * 1000;
  s.read_ns = read_us * 1000;
  s.upsert_ns = upsert_us * 1000;
  return s;
}

double SecondsBetween(std::chrono::steady_clock::time_point from, std::chrono::steady_clock::time_point to) {
  return std::chrono::duration<double>(to - from).count();
}

TEST_CASE(
    "TimeSeriesRecorder: an upsert belongs to the interval its read and upsert end in, the last "
    "interval ends with the load and its rate is over its real length, goLive starts and ends when it did") {
  TimeSeriesRecorder recorder;
  const auto before_start = std::chrono::steady_clock::now();
  recorder.OnRunStart({"s", "t", "c", "c_1", {"Brand", "Product"}, {3, 4}});
  const auto after_start = std::chrono::steady_clock::now();
  // {collection, start of the read, read, upsert} in us; each ends at start + read + upsert
  // (docs/measurement.md: start_offset_ns is where the entity's read began). A 120 ms load: intervals of 50
  // ms (the floor), three of them, [0, 50), [50, 100) and [100, 120] ms.
  struct {
    int32_t collection;
    int64_t start_us, read_us, upsert_us;
  } const upserts[] = {
      {0, 0, 10'000, 2'000},        // ends at 12 ms: interval 0
      {0, 12'000, 30'000, 3'000},   // ends at 45 ms: interval 0
      {0, 45'000, 3'000, 4'000},    // ends at 52 ms: interval 1 (start + upsert alone would be 49 ms: 0)
      {1, 52'000, 40'000, 1'000},   // ends at 93 ms: interval 1
      {1, 93'000, 9'000, 5'000},    // ends at 107 ms: interval 2 (start + upsert alone would be 98 ms: 1)
      {1, 107'000, 1'000, 6'000},   // ends at 114 ms: interval 2
      {1, 114'000, 2'000, 4'000}};  // ends at 120 ms, the load's last upsert: interval 2
  for (const auto& u : upserts) recorder.OnUpsert(SampleUs(u.collection, u.start_us, u.read_us, u.upsert_us));
  // goLive 30 ms after the run started (at least: sleep_for never returns early), for 40 ms at least.
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  const auto before_golive = std::chrono::steady_clock::now();
  recorder.OnGoLiveStart();
  const auto after_golive = std::chrono::steady_clock::now();
  std::this_thread::sleep_for(std::chrono::milliseconds(40));
  const auto before_end = std::chrono::steady_clock::now();
  recorder.OnGoLiveEnd(GoLiveOutcome::kCompleted, 0.04);
  const auto after_end = std::chrono::steady_clock::now();
  const TimeSeries series = recorder.Build();

  CHECK(series.interval_seconds == doctest::Approx(0.05));
  REQUIRE(series.intervals.size() == 3);
  struct {
    double start, end;
    int64_t upserts;
    double rate, p50, p99;
  } const expected[] = {
      // 2 upserts in 50 ms; upsert times (not read + upsert) 2000 and 3000 us: nearest ranks 1 and 2 of 2.
      {0.00, 0.05, 2, 2 / 0.05, 2000, 3000},
      // 4000 and 1000 us.
      {0.05, 0.10, 2, 2 / 0.05, 1000, 4000},
      // Clipped at the last upsert's end, 120 ms: 3 upserts in 20 ms are 150/s, not 3 / 50 ms = 60/s;
      // 5000, 6000 and 4000 us: ranks 2 and 3 of 3.
      {0.10, 0.12, 3, 3 / 0.02, 5000, 6000}};
  for (size_t i = 0; i < 3; ++i) {
    CAPTURE(i);
    const TimeSeriesInterval& got = series.intervals[i];
    CHECK(got.start_seconds == doctest::Approx(expected[i].start));
    CHECK(got.end_seconds == doctest::Approx(expected[i].end));
    CHECK(got.upserts == expected[i].upserts);
    CHECK(got.upserts_per_second == doctest::Approx(expected[i].rate));
    CHECK(got.p50_us == expected[i].p50);
    CHECK(got.p99_us == expected[i].p99);
  }
  REQUIRE(series.collections.size() == 2);
  // A collection begins where its first entity's read begins and ends where its last upsert ends.
  CHECK(series.collections[0].entity_type == "Brand");
  CHECK(series.collections[0].start_seconds == doctest::Approx(0.0));
  CHECK(series.collections[0].end_seconds == doctest::Approx(0.052));
  CHECK(series.collections[1].entity_type == "Product");
  CHECK(series.collections[1].start_seconds == doctest::Approx(0.052));
  CHECK(series.collections[1].end_seconds == doctest::Approx(0.120));

  // goLive's start and end on the recorder's clock from OnRunStart, bracketed by this test's clock readings.
  REQUIRE(series.golive_start_seconds.has_value());
  REQUIRE(series.golive_end_seconds.has_value());
  const double start = *series.golive_start_seconds;
  const double end = *series.golive_end_seconds;
  CHECK(start >= SecondsBetween(after_start, before_golive));
  CHECK(start <= SecondsBetween(before_start, after_golive));
  CHECK(end >= SecondsBetween(after_start, before_end));
  CHECK(end <= SecondsBetween(before_start, after_end));
  CHECK(start >= 0.030);
  CHECK(end - start >= 0.040);
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
