#include "warmup/run_result.h"

#include <doctest/doctest.h>

#include <condition_variable>
#include <deque>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "warmup/server_process.h"

namespace warmup {
namespace {

TEST_CASE("the exit code is decided by verification, goLive and aborts") {
  RunResult r;
  r.golive = GoLiveOutcome::kCompleted;
  r.verification = Verification::kVerified;
  CHECK(r.ExitCode() == 0);
  r.verification = Verification::kSkipped;
  CHECK(r.ExitCode() == 0);
  r.verification = Verification::kUnknown;
  CHECK(r.ExitCode() == 2);
  r.verification = Verification::kMismatch;
  CHECK(r.ExitCode() == 1);
  r.verification = Verification::kVerified;
  r.golive = GoLiveOutcome::kFailed;
  CHECK(r.ExitCode() == 1);
  r.golive = GoLiveOutcome::kCompleted;
  r.abort_error = "source damaged";
  CHECK(r.ExitCode() == 1);
  r.abort_error.clear();
  r.verification = Verification::kNotReached;
  CHECK(r.ExitCode() == 1);
  // A rejected upsert fails the run even when the counts were declined or unknown.
  for (const auto verification : {Verification::kVerified, Verification::kSkipped, Verification::kUnknown}) {
    r.verification = verification;
    r.collections = {CollectionResult{}};
    CHECK(r.ExitCode() != 1);
    r.collections[0].failed = 1;
    CHECK(r.ExitCode() == 1);
  }
}

// The report's names of the outcomes are checked through the JSON report
// (json_report_test.cc); here, what a person reads of them.
TEST_CASE("verification verdicts: one per outcome, each its own, as the text report and the page say them") {
  std::set<std::string> verdicts;
  for (Verification v :
       {Verification::kVerified, Verification::kSkipped, Verification::kUnknown, Verification::kMismatch,
        Verification::kContentDiffers, Verification::kNotReached, Verification::kNotApplicable}) {
    verdicts.insert(VerificationVerdict(v));
  }
  CHECK(verdicts.size() == 7);
  CHECK(std::string(VerificationVerdict(Verification::kContentDiffers)) == "CONTENT DIFFERS");
  CHECK(std::string(VerificationVerdict(Verification::kSkipped)) == "DECLINED (skip verify)");
}

TEST_CASE("copied, expected and total add up over collections and goLive") {
  RunResult r;
  r.collections.resize(3);
  for (int i = 0; i < 3; ++i) {
    r.collections[i].copied = 10 * (i + 1);
    r.collections[i].expected_count = 11 * (i + 1);
  }
  CHECK(r.copied() == 60);
  CHECK(r.expected() == 66);
  r.load_wall_seconds = 4.5;
  r.golive_seconds = 1.25;
  CHECK_FALSE(r.total_seconds().has_value());
  r.golive = GoLiveOutcome::kFailed;
  CHECK_FALSE(r.total_seconds().has_value());
  r.golive = GoLiveOutcome::kCompleted;
  CHECK(r.total_seconds() == 5.75);
}

// A server whose readings the test hands out. The readings taken on the test's thread (ServerSampler's at
// each end of goLive) come from `direct`, in order; the sampling thread's come one at a time from Feed, so
// that the test knows which phase each of them was taken in.
class ScriptedServer : public ServerProcess {
 public:
  pid_t pid() const override { return 0; }
  std::string address() const override { return "127.0.0.1:0"; }
  std::string header() const override { return "scripted"; }
  std::string output() const override { return ""; }
  ServerFigures Stop() override { return {}; }
  StatusOr<ProcessSample> SampleNow() const override {
    std::unique_lock lock(mu_);
    if (std::this_thread::get_id() == test_thread_) {
      if (direct_.empty()) return UnavailableError("no direct reading scripted");
      const int64_t rss = direct_.front();
      direct_.pop_front();
      return Reading(rss);
    }
    wake_.wait(lock, [this] { return closed_ || fed_.has_value(); });
    if (closed_) return UnavailableError("closed");
    const std::optional<int64_t> rss = *fed_;
    fed_.reset();
    wake_.notify_all();
    if (!rss) return UnavailableError("a reading dropped on purpose");
    return Reading(*rss);
  }

  void SetDirect(std::deque<int64_t> readings) {
    std::lock_guard lock(mu_);
    direct_ = std::move(readings);
  }
  // The sampling thread's next reading (nullopt: a failed one, which the sampler does not keep); returns
  // once the thread has taken it.
  void Feed(std::optional<int64_t> rss) {
    std::unique_lock lock(mu_);
    fed_ = rss;
    wake_.notify_all();
    wake_.wait(lock, [this] { return !fed_.has_value(); });
  }
  // The sampling thread gets no reading from now on.
  void Close() {
    std::lock_guard lock(mu_);
    closed_ = true;
    wake_.notify_all();
  }

 private:
  static ProcessSample Reading(int64_t rss) {
    ProcessSample sample;
    sample.rss_bytes = rss;
    return sample;
  }

  const std::thread::id test_thread_ = std::this_thread::get_id();
  mutable std::mutex mu_;
  mutable std::condition_variable wake_;
  mutable std::deque<int64_t> direct_;
  mutable std::optional<std::optional<int64_t>> fed_;
  bool closed_ = false;
};

// A run watched by a ServerSampler: the sampling thread reads `load` during the load, then goLive starts
// (a reading of its own, `at_golive_start`), the thread reads `golive`, goLive ends (`at_golive_end`).
// The one thread reading that may straddle goLive's start is dropped, so every kept thread reading was
// taken wholly inside its phase.
ServerFigures SampledRun(const std::vector<int64_t>& load, int64_t at_golive_start,
                         const std::vector<int64_t>& golive, int64_t at_golive_end) {
  ScriptedServer server;
  server.SetDirect({at_golive_start, at_golive_end});
  ServerSampler sampler(server, std::chrono::milliseconds(1));
  sampler.OnRunStart(RunStart{});
  for (const int64_t rss : load) server.Feed(rss);
  sampler.OnGoLiveStart();
  if (!golive.empty()) server.Feed(std::nullopt);
  for (const int64_t rss : golive) server.Feed(rss);
  server.Close();
  sampler.OnGoLiveEnd(GoLiveOutcome::kCompleted, 0);
  sampler.OnRunEnd(RunResult{});
  ServerFigures figures;
  sampler.AddTo(figures);
  return figures;
}

// The phase each kept reading was marked with, by its (distinct) value.
std::optional<bool> MarkedGoLive(const ServerFigures& figures, int64_t rss) {
  for (const ProcessSample& s : figures.samples) {
    if (s.rss_bytes == rss) return s.golive;
  }
  return std::nullopt;
}

TEST_CASE("ServerSampler: the load's RSS peak is the highest reading of the load, goLive's of goLive") {
  constexpr int64_t kMB = 1'000'000;
  SUBCASE("the load peaks higher than goLive") {
    const std::vector<int64_t> load = {300 * kMB, 1500 * kMB, 500 * kMB};
    const std::vector<int64_t> golive = {600 * kMB, 1200 * kMB, 400 * kMB};
    const ServerFigures f = SampledRun(load, 200 * kMB, golive, 700 * kMB);
    CHECK(f.peak_rss_load_bytes == 1500 * kMB);    // a max over all readings would say the same ...
    CHECK(f.peak_rss_golive_bytes == 1200 * kMB);  // ... but 1500 here
    REQUIRE(f.samples.size() == 8);                // 3 + 3 from the thread, one at each end of goLive
    for (const int64_t rss : load) CHECK(MarkedGoLive(f, rss) == false);
    for (const int64_t rss : golive) CHECK(MarkedGoLive(f, rss) == true);
  }
  SUBCASE("goLive peaks higher than the load") {
    const ServerFigures f = SampledRun({800 * kMB, 400 * kMB, 900 * kMB}, 850 * kMB,
                                       {1000 * kMB, 2500 * kMB, 1100 * kMB}, 1300 * kMB);
    CHECK(f.peak_rss_load_bytes == 900 * kMB);  // a max over all readings would say 2500
    CHECK(f.peak_rss_golive_bytes == 2500 * kMB);
    CHECK(f.samples.size() == 8);
  }
  SUBCASE("a goLive shorter than the interval: its peak is the reading at its end") {
    // docs/measurement.md: read every interval "and at each end of goLive".
    const ServerFigures f = SampledRun({500 * kMB, 700 * kMB}, 600 * kMB, {}, 900 * kMB);
    CHECK(f.peak_rss_load_bytes == 700 * kMB);
    CHECK(f.peak_rss_golive_bytes == 900 * kMB);
    CHECK(f.samples.size() == 4);
  }
}

}  // namespace
}  // namespace warmup
