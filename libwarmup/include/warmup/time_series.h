// TimeSeries: the load over time, and TimeSeriesRecorder, the observer that
// records it from a run's upserts: per interval the upserts that ended in
// it, their rate, p50 and p99, and where each collection and goLive began
// and ended. The interval is chosen after the run, about 150 of them, at
// least 50 ms, so a short and a long run both read well.
#ifndef WARMUP_TIME_SERIES_H_
#define WARMUP_TIME_SERIES_H_

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "warmup/run_observer.h"

namespace warmup {

// The load over time: what a single
// figure per run hides, a slowdown as an index grows, a stall, a collection
// that starts slow. Times are seconds since the load started.
struct TimeSeriesInterval {
  double start_seconds = 0;
  double end_seconds = 0;
  int64_t upserts = 0;  // that ended in the interval
  double upserts_per_second = 0;
  double p50_us = 0;  // of those upserts (nearest rank); 0 when there were none
  double p99_us = 0;
};
struct CollectionSpan {
  std::string entity_type;
  double start_seconds = 0;  // its first upsert's start
  double end_seconds = 0;    // its last upsert's end
};
struct TimeSeries {
  double interval_seconds = 0;
  std::vector<TimeSeriesInterval> intervals;
  std::vector<CollectionSpan> collections;  // in load order
  std::optional<double> golive_start_seconds, golive_end_seconds;
};

// Keeps 12 bytes per upsert (its end and its duration) until the run ends.
// Thread-safety: none needed; observers are called on RunCopy's thread.
class TimeSeriesRecorder : public RunObserver {
 public:
  void OnRunStart(const RunStart& start) override;
  void OnUpsert(const UpsertSample& sample) override;
  void OnGoLiveStart() override;
  void OnGoLiveEnd(GoLiveOutcome outcome, double seconds) override;
  // goLive's times are taken on this observer's clock from OnRunStart, which
  // RunCopy calls just before the load's clock starts (microseconds apart).
  // The series of what was observed; an empty one before any upsert.
  TimeSeries Build() const;

 private:
  struct Point {
    int64_t end_ns;      // since the load started
    uint32_t upsert_us;  // saturating
    int32_t collection;
  };
  std::vector<std::string> collections_;
  std::vector<Point> points_;
  std::vector<int64_t> collection_start_ns_;  // per collection, -1 until its first upsert
  std::chrono::steady_clock::time_point run_start_;
  std::optional<double> golive_start_, golive_end_;
};

}  // namespace warmup

#endif  // WARMUP_TIME_SERIES_H_
