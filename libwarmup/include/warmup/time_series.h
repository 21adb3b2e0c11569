// TimeSeriesRecorder: an observer that turns a run's upserts into a time
// series (run_result.h's TimeSeries): per interval the upserts that ended in
// it, their rate, p50 and p99, and where each collection and goLive began
// and ended. The interval is chosen after the run, about 150 of them, at
// least 50 ms, so a short and a long run both read well.
#ifndef WARMUP_TIME_SERIES_H_
#define WARMUP_TIME_SERIES_H_

#include <chrono>
#include <cstdint>
#include <vector>

#include "warmup/run_observer.h"
#include "warmup/run_result.h"

namespace warmup {

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
