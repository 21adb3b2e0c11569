// What a person sees while a load runs: on a terminal, one status line
// redrawn a few times a second (the collection, n / N of it and of the
// catalog, the share of the catalog's bytes done, the recent rate, upsert p50
// and p99 of the last interval, elapsed and estimated time left; then goLive
// with its elapsed time), and a line that stays for each finished collection;
// elsewhere (a pipe, a log file, CI) the same figures as plain lines every few
// seconds, never an escape code. A thread of the reporter's own draws the
// lines, so they keep coming while no upsert completes, and then say so and
// name the entity being waited on. All terminal handling of the tools is in
// this file and progress.cc.
#ifndef WARMUP_APPS_COMMON_PROGRESS_H_
#define WARMUP_APPS_COMMON_PROGRESS_H_

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <functional>
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
  // Both modes: a line says no upsert completed when none did for longer than this.
  double interval_seconds = 10;
  // Live: the line is cut to this many columns (the terminal's width).
  int width = 100;
  // The time every figure is taken at. Tests give a clock they advance by
  // hand, so that the lines do not depend on how fast the machine is.
  std::function<std::chrono::steady_clock::time_point()> now = std::chrono::steady_clock::now;
  // true: a thread of the reporter's own calls Tick() a few times a second
  // during each collection and goLive. false: no thread; whoever owns the
  // reporter calls Tick() (tests, so that each line comes at a time they chose).
  bool ticker = true;
};

// Writes to `out` (stderr in the tools). The status line of a load reads
//   Product 316 / 1,188 (26.6 %), catalog 2,735 / 3,869 entities, 43.0 % of
//   the bytes, 467 entities/s, upsert p50 116 us p99 2.4 ms, 1 s elapsed,
//   about 2 s left
// ("catalog 2,735 / 3,869 entities (70.7 %)" when weighted by entities; the
// time left "12 s to 1 min 40 s" when, for the collections not started yet,
// the run's rate by entities and by bytes disagree by more than a quarter), and
// when no upsert completed for longer than the interval, the collection's
// figure is followed by "no upsert completed for 12 s; waiting on Product
// after pk 215 (216 of 1,188);". The time left is "?" while a rate it needs
// is 0.
// Thread-safety: the observer methods are called on RunCopy's thread; during
// each collection and goLive the ticker thread draws the lines, and both
// write under one lock.
class ProgressReporter : public RunObserver {
 public:
  ProgressReporter(std::FILE* out, ProgressOptions options);
  // Stops the ticker, if still going.
  ~ProgressReporter() override;

  // The catalog's percentage and the time left are weighted by
  // `start.stored_bytes` when every non-empty collection's is known (one
  // collection's entities can be many times another's), by entity counts
  // otherwise.
  void OnRunStart(const RunStart& start) override;
  // Starts the ticker for the collection.
  void OnCollectionStart(int32_t collection) override;
  // Counts the upsert; never writes (its time is the copy loop's overhead).
  void OnUpsert(const UpsertSample& sample) override;
  // Stops the ticker, then writes the collection's line, which stays.
  void OnCollectionEnd(const CollectionResult& result, double load_seconds, int64_t load_copied) override;
  // Starts the ticker for goLive's elapsed time.
  void OnGoLiveStart() override;
  void OnGoLiveProgress(int percent) override;
  // Stops the ticker, then writes goLive's outcome.
  void OnGoLiveEnd(GoLiveOutcome outcome, double seconds) override;
  // Stops the ticker, if an aborted run left it going.
  void OnRunEnd(const RunResult& result) override;

  // What the ticker does, at options.now(): during a collection, takes a
  // point for the rate and, when a line is due (live: 250 ms after the last
  // one; plain: the interval after it), writes the status line, whether or not
  // an upsert completed since; during goLive, the same with goLive's line;
  // otherwise nothing.
  void Tick();

  // The status line of the load at options.now(), without writing it or
  // starting a new interval, for tests.
  std::string StatusLine();

 private:
  using Clock = std::chrono::steady_clock;
  enum class Phase { kIdle, kLoad, kGoLive };  // what Tick draws
  void StartTicker(Phase phase);               // under mu_; the ticker must be stopped
  void StopTicker();                           // not under mu_: joins the ticker, which takes mu_
  void TickLocked(Clock::time_point now);      // under mu_
  Clock::duration Every() const;               // between two lines
  void Emit(const std::string& line, bool final_line, Clock::time_point now);  // under mu_
  std::string LoadLine(Clock::time_point now);                                 // under mu_
  std::string Percentiles();                                                   // under mu_
  std::string WaitingOn() const;                                               // under mu_
  double Fraction(size_t collection) const;                                    // under mu_
  std::string GoLiveLine(Clock::time_point now) const;                         // under mu_

  std::FILE* out_;
  ProgressOptions options_;
  std::mutex mu_;
  Phase phase_ = Phase::kIdle;
  std::condition_variable wake_;  // the ticker's, for a stop
  std::thread ticker_;            // started and joined on the observer's thread only
  std::vector<std::string> collections_;
  std::vector<int64_t> expected_;  // per collection
  std::vector<double> weight_;     // per collection: its stored bytes, or its count (by_bytes_ false)
  double weight_total_ = 0;
  bool by_bytes_ = false;
  std::vector<int64_t> done_;  // per collection
  int64_t expected_total_ = 0;
  int64_t done_total_ = 0;
  int32_t collection_ = -1;
  int32_t finished_ = 0;  // collections ended; they are the first ones, in copy order
  Clock::time_point start_;
  Clock::time_point last_emit_;
  // The last upsert's end, or the collection's start when later: how long nothing completed.
  Clock::time_point last_completed_;
  int32_t last_collection_ = -1;  // the last completed upsert's collection and primary key
  int32_t last_primary_key_ = 0;
  // (time, entities done) at each tick of the collection, for the rate over the last few seconds.
  std::deque<std::pair<Clock::time_point, int64_t>> history_;
  std::vector<int64_t> interval_upserts_ns_;  // since the last line
  std::string last_percentiles_;              // of the last interval that had upserts
  // goLive
  Clock::time_point golive_start_;
  int golive_percent_ = -1;  // the server's, when it says; -1 until then
};

// Progress on standard error: live when it is a terminal (cut to its width),
// plain lines every `interval_seconds` otherwise.
ProgressOptions ProgressForStderr(double interval_seconds);

}  // namespace warmup::cli

#endif  // WARMUP_APPS_COMMON_PROGRESS_H_
