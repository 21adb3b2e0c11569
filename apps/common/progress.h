// What a person sees while a load runs: on a terminal, one status line
// redrawn a few times a second (the collection, n / N of it and of the
// catalog, the recent rate, upsert p50 and p99 of the last interval, elapsed
// and estimated time left; then goLive with its elapsed time), and a line
// that stays for each finished collection; elsewhere (a pipe, a log file,
// CI) the same figures as plain lines every few seconds, never an escape
// code. All terminal handling of the tools is in this file and progress.cc.
#ifndef WARMUP_APPS_COMMON_PROGRESS_H_
#define WARMUP_APPS_COMMON_PROGRESS_H_

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "warmup/run_observer.h"

namespace warmup::cli {

struct ProgressOptions {
  // true: redraw one line in place (a terminal); false: plain lines.
  bool live = false;
  // Plain lines: one every this many seconds (and one per finished collection).
  double interval_seconds = 10;
  // Live: the line is cut to this many columns (the terminal's width).
  int width = 100;
};

// Writes to `out` (stderr in the tools). Thread-safety: the observer methods
// are called on RunCopy's thread; during goLive a thread of its own redraws
// the elapsed time, and both write under one lock.
class ProgressReporter : public RunObserver {
 public:
  ProgressReporter(std::FILE* out, ProgressOptions options);
  ~ProgressReporter() override;

  void OnRunStart(const RunStart& start) override;
  void OnCollectionStart(int32_t collection) override;
  void OnUpsert(const UpsertSample& sample) override;
  void OnCollectionEnd(const CollectionResult& result, double load_seconds, int64_t load_copied) override;
  void OnGoLiveStart() override;
  void OnGoLiveProgress(int percent) override;
  void OnGoLiveEnd(GoLiveOutcome outcome, double seconds) override;

  // The status line of the load now (without redrawing), for tests.
  std::string StatusLine();

 private:
  using Clock = std::chrono::steady_clock;
  void Emit(const std::string& line, bool final_line);  // under mu_
  std::string LoadLine(Clock::time_point now);          // under mu_
  std::string GoLiveLine(Clock::time_point now) const;  // under mu_

  std::FILE* out_;
  ProgressOptions options_;
  std::mutex mu_;
  std::vector<std::string> collections_;
  std::vector<int64_t> expected_;
  int64_t expected_total_ = 0;
  int32_t collection_ = -1;
  int64_t done_in_collection_ = 0;
  int64_t done_total_ = 0;
  Clock::time_point start_;
  Clock::time_point last_emit_;
  // (time, entities done) at each emit, for the rate over the last few seconds.
  std::deque<std::pair<Clock::time_point, int64_t>> history_;
  std::vector<int64_t> interval_upserts_ns_;  // since the last emit
  std::string last_percentiles_;
  // goLive
  Clock::time_point golive_start_;
  int golive_percent_ = -1;  // the server's, when it says; -1 until then
  bool in_golive_ = false;
  std::condition_variable golive_wake_;
  std::thread golive_ticker_;
};

// Progress on standard error: live when it is a terminal (cut to its width),
// plain lines every `interval_seconds` otherwise.
ProgressOptions ProgressForStderr(double interval_seconds);

// "1,234,567".
std::string WithThousands(int64_t value);
// "42 s", "3 min 05 s", "1 h 02 min".
std::string Duration(double seconds);

}  // namespace warmup::cli

#endif  // WARMUP_APPS_COMMON_PROGRESS_H_
