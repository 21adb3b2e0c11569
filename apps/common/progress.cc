#include "common/progress.h"

#include "common/human_figures.h"
#include "warmup/run_result.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <utility>

namespace warmup::cli {
namespace {

constexpr std::chrono::milliseconds kRedraw(250);       // live: four redraws a second
constexpr std::chrono::seconds kRateWindow(5);          // the rate is over the last five seconds
constexpr std::chrono::milliseconds kShortestTick(10);  // the ticker never spins

double SecondsBetween(std::chrono::steady_clock::time_point from, std::chrono::steady_clock::time_point to) {
  return std::chrono::duration<double>(to - from).count();
}

// The nearest-rank percentile of non-empty `v` (reordered): the value of rank
// ceil(percent * n / 100), in integers so that 99 % of 100 values is rank 99.
int64_t NearestRank(std::vector<int64_t>& v, size_t percent) {
  const size_t index = (v.size() * percent + 99) / 100 - 1;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(index), v.end());
  return v[index];
}

}  // namespace

ProgressOptions ProgressForStderr(double interval_seconds) {
  ProgressOptions options;
  options.interval_seconds = interval_seconds;
  options.live = ::isatty(STDERR_FILENO) != 0;
  struct winsize size {};
  if (options.live && ::ioctl(STDERR_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 20) {
    options.width = size.ws_col - 1;  // the last column would wrap on some terminals
  }
  return options;
}

ProgressReporter::ProgressReporter(std::FILE* out, ProgressOptions options)
    : out_(out), options_(std::move(options)) {
  if (!options_.now) options_.now = Clock::now;
}

ProgressReporter::~ProgressReporter() { StopTicker(); }

void ProgressReporter::StartTicker(Phase phase) {
  phase_ = phase;
  if (!options_.ticker) return;
  // Live, a redraw every 250 ms; plain, a look every 250 ms (or every interval when shorter) whether
  // a line is due, so that a line comes within a tick of its time.
  const Clock::duration interval = Every();
  const Clock::duration shortest = kShortestTick;
  const Clock::duration redraw = kRedraw;
  const Clock::duration period = options_.live ? redraw : std::clamp(interval, shortest, redraw);
  ticker_ = std::thread([this, phase, period] {
    std::unique_lock lock(mu_);
    while (!wake_.wait_for(lock, period, [this, phase] { return phase_ != phase; })) {
      TickLocked(options_.now());
    }
  });
}

void ProgressReporter::StopTicker() {
  {
    std::lock_guard lock(mu_);
    phase_ = Phase::kIdle;
  }
  wake_.notify_all();
  if (ticker_.joinable()) ticker_.join();
}

ProgressReporter::Clock::duration ProgressReporter::Every() const {
  return options_.live ? std::chrono::duration_cast<Clock::duration>(kRedraw)
                       : std::chrono::duration_cast<Clock::duration>(
                             std::chrono::duration<double>(options_.interval_seconds));
}

void ProgressReporter::OnRunStart(const RunStart& start) {
  std::lock_guard lock(mu_);
  collections_ = start.collections;
  expected_ = start.expected_counts;
  expected_.resize(collections_.size());
  // By bytes only when every collection with entities has its bytes: a mix would weigh apples and pears.
  by_bytes_ = !collections_.empty() && start.stored_bytes.size() == collections_.size();
  for (size_t i = 0; by_bytes_ && i < collections_.size(); ++i) {
    by_bytes_ = start.stored_bytes[i] > 0 || expected_[i] == 0;
  }
  weight_.assign(collections_.size(), 0);
  weight_total_ = 0;
  expected_total_ = 0;
  for (size_t i = 0; i < collections_.size(); ++i) {
    weight_[i] = static_cast<double>(by_bytes_ ? start.stored_bytes[i] : expected_[i]);
    weight_total_ += weight_[i];
    expected_total_ += expected_[i];
  }
  done_.assign(collections_.size(), 0);
  done_total_ = 0;
  collection_ = -1;
  finished_ = 0;
  last_collection_ = -1;
  start_ = last_emit_ = last_completed_ = options_.now();
  history_ = {{start_, 0}};
}

void ProgressReporter::OnCollectionStart(int32_t collection) {
  StopTicker();  // the previous collection's, should its end not have been reported
  std::lock_guard lock(mu_);
  collection_ = collection;
  const Clock::time_point now = options_.now();
  last_completed_ = now;            // nothing of this collection is overdue before it starts
  history_ = {{now, done_total_}};  // the rate is this collection's: collections differ by 100x
  StartTicker(Phase::kLoad);
}

void ProgressReporter::OnUpsert(const UpsertSample& sample) {
  const Clock::time_point now = options_.now();
  std::lock_guard lock(mu_);
  if (collection_ >= 0 && static_cast<size_t>(collection_) < done_.size()) {
    ++done_[static_cast<size_t>(collection_)];
  }
  ++done_total_;
  last_completed_ = now;
  last_collection_ = collection_;
  last_primary_key_ = sample.primary_key;
  interval_upserts_ns_.push_back(sample.upsert_ns);
}

void ProgressReporter::Tick() {
  std::lock_guard lock(mu_);
  TickLocked(options_.now());
}

void ProgressReporter::TickLocked(Clock::time_point now) {
  if (phase_ == Phase::kIdle) return;
  if (phase_ == Phase::kLoad) {
    history_.emplace_back(now, done_total_);
    // Keep one point at least kRateWindow old: the rate's start.
    while (history_.size() > 1 && now - history_[1].first >= kRateWindow) history_.pop_front();
  }
  if (now - last_emit_ < Every()) return;
  if (phase_ == Phase::kLoad) {
    last_percentiles_ = Percentiles();  // this interval's, or the last ones when it had no upsert
    interval_upserts_ns_.clear();
    Emit(LoadLine(now), false, now);
  } else {
    Emit(GoLiveLine(now), false, now);
  }
}

std::string ProgressReporter::StatusLine() {
  std::lock_guard lock(mu_);
  return LoadLine(options_.now());
}

std::string ProgressReporter::Percentiles() {
  if (interval_upserts_ns_.empty()) return last_percentiles_;
  return "p50 " + Latency(NearestRank(interval_upserts_ns_, 50)) + " p99 " +
         Latency(NearestRank(interval_upserts_ns_, 99));
}

double ProgressReporter::Fraction(size_t collection) const {
  if (expected_[collection] > 0) {
    return std::min(1.0, static_cast<double>(done_[collection]) / static_cast<double>(expected_[collection]));
  }
  return static_cast<int32_t>(collection) < finished_ ? 1.0 : 0.0;
}

std::string ProgressReporter::WaitingOn() const {
  const auto here = static_cast<size_t>(collection_);
  const std::string& name = collections_[here];
  if (done_[here] == 0 || last_collection_ != collection_) {
    return "waiting on " + name + "'s first entity (1 of " + WithThousands(expected_[here]) + ")";
  }
  const std::string after = " after pk " + std::to_string(last_primary_key_);
  if (done_[here] >= expected_[here]) return "waiting on the end of " + name + after;
  return "waiting on " + name + after + " (" + WithThousands(done_[here] + 1) + " of " +
         WithThousands(expected_[here]) + ")";
}

std::string ProgressReporter::LoadLine(Clock::time_point now) {
  // The rate over the last few seconds, from the newest point at least kRateWindow old (or the oldest).
  double rate = 0;
  if (!history_.empty()) {
    auto from = history_.front();
    for (const auto& point : history_) {
      if (now - point.first < kRateWindow) break;
      from = point;
    }
    const double window = SecondsBetween(from.first, now);
    if (window > 0) rate = static_cast<double>(done_total_ - from.second) / window;
  }
  const bool known = collection_ >= 0 && static_cast<size_t>(collection_) < collections_.size();
  const auto here = static_cast<size_t>(collection_);
  const std::string name = known ? collections_[here] : "?";
  const int64_t of = known ? expected_[here] : 0;
  const int64_t done_here = known ? done_[here] : 0;
  double weight_done = 0, entities_done = 0;
  double weight_after = 0, entities_after = 0;  // of the collections after this one
  for (size_t i = 0; i < collections_.size(); ++i) {
    const double fraction = Fraction(i);
    weight_done += weight_[i] * fraction;
    entities_done += static_cast<double>(expected_[i]) * fraction;
    if (!known || i > here) {
      weight_after += weight_[i] * (1 - fraction);
      entities_after += static_cast<double>(expected_[i]) * (1 - fraction);
    }
  }
  const double elapsed = SecondsBetween(start_, now);
  // Time left: this collection's rest at its own recent rate (its entities are alike), and the
  // collections after it at the run's average rate so far. For those that rate is a guess until
  // they start, and by bytes and by entities it can miss either way: the embedded engine's cost
  // follows the bytes (a product with 40 prices is 40 times the work), while evitaDB's per-entity
  // cost dominates (a cold JVM's small entities cost milliseconds each, bytes or not), so that the
  // rate in bytes of the small collections first overstated a catalog of products 5x. When the two
  // disagree by more than a quarter, the line gives both as a range.
  const int64_t rest_here = std::max<int64_t>(0, of - done_here);
  const double here_seconds = rest_here > 0 && rate > 0 ? static_cast<double>(rest_here) / rate : 0;
  auto after_seconds = [&](double done, double after) -> std::optional<double> {
    if (after <= 0) return 0.0;
    if (elapsed <= 0 || done <= 0) return std::nullopt;
    return after / (done / elapsed);
  };
  const std::optional<double> by_weight = after_seconds(weight_done, weight_after);
  std::string left = "?";
  if ((rest_here == 0 || rate > 0) && by_weight) {
    const std::optional<double> by_entities =
        by_bytes_ ? after_seconds(entities_done, entities_after) : std::nullopt;
    const double low = here_seconds + std::min(*by_weight, by_entities.value_or(*by_weight));
    const double high = here_seconds + std::max(*by_weight, by_entities.value_or(*by_weight));
    left = high > 1.25 * low ? Duration(low) + " to " + Duration(high) : "about " + Duration(high);
  }
  // No upsert for longer than the interval: say so, and what the loop waits on, before the
  // figures, where a terminal's width does not cut it off.
  std::string stall;
  if (known && now - last_completed_ > std::chrono::duration<double>(options_.interval_seconds)) {
    stall = ", no upsert completed for " + StallTime(SecondsBetween(last_completed_, now)) + "; " +
            WaitingOn() + ";";
  }
  char rate_text[32];  // tenths while slow: "0.2 entities/s" says more than "0"
  std::snprintf(rate_text, sizeof(rate_text), "%.*f", rate < 10 ? 1 : 0, rate);
  const std::string percentiles = Percentiles();
  return name + " " + WithThousands(done_here) + " / " + WithThousands(of) + " (" +
         Percent(static_cast<double>(done_here), static_cast<double>(of)) + ")" +
         (stall.empty() ? "," : stall) + " catalog " + WithThousands(done_total_) + " / " +
         WithThousands(expected_total_) + " entities" +
         (by_bytes_ ? ", " + Percent(weight_done, weight_total_) + " of the bytes"
                    : " (" + Percent(weight_done, weight_total_) + ")") +
         ", " + rate_text + " entities/s, " + (percentiles.empty() ? "" : "upsert " + percentiles + ", ") +
         Duration(elapsed) + " elapsed, " + left + " left";
}

void ProgressReporter::OnCollectionEnd(const CollectionResult& c, double load_seconds, int64_t load_copied) {
  StopTicker();
  char line[256];
  std::snprintf(line, sizeof(line),
                "  copied %10lld %-20s in %8.1f s (%7.2f us/entity)  |  cumulative %12lld entities, %8.1f s",
                static_cast<long long>(c.copied), c.entity_type.c_str(), c.wall_seconds,
                c.copied > 0 ? c.wall_seconds * 1e6 / static_cast<double>(c.copied) : 0.0,
                static_cast<long long>(load_copied), load_seconds);
  std::lock_guard lock(mu_);
  finished_ = std::max(finished_, collection_ + 1);
  Emit(line, true, options_.now());
}

std::string ProgressReporter::GoLiveLine(Clock::time_point now) const {
  const double elapsed = SecondsBetween(golive_start_, now);
  char tenths[32];
  std::snprintf(tenths, sizeof(tenths), "%.1f s", elapsed);
  return "goLive: " + (elapsed < 60 ? std::string(tenths) : Duration(elapsed)) + " elapsed" +
         (golive_percent_ >= 0 ? ", the server says " + std::to_string(golive_percent_) + " %" : "") +
         " (the catalog is going ALIVE)";
}

void ProgressReporter::OnGoLiveProgress(int percent) {
  std::lock_guard lock(mu_);
  if (percent == golive_percent_) return;
  golive_percent_ = percent;
  const Clock::time_point now = options_.now();
  Emit(GoLiveLine(now), false, now);  // a new percentage is worth a line of its own
}

void ProgressReporter::OnGoLiveStart() {
  StopTicker();
  std::lock_guard lock(mu_);
  golive_start_ = options_.now();
  Emit(GoLiveLine(golive_start_), false, golive_start_);
  StartTicker(Phase::kGoLive);
}

void ProgressReporter::OnGoLiveEnd(GoLiveOutcome outcome, double seconds) {
  StopTicker();
  char line[128];
  std::snprintf(line, sizeof(line), "  goLive %s in %.3f s",
                outcome == GoLiveOutcome::kCompleted ? "-> ALIVE" : "FAILED", seconds);
  std::lock_guard lock(mu_);
  Emit(line, true, options_.now());
}

void ProgressReporter::OnRunEnd(const RunResult& result) {
  (void)result;
  StopTicker();
}

void ProgressReporter::Emit(const std::string& line, bool final_line, Clock::time_point now) {
  if (options_.live) {
    // Back to the start of the line, the text (cut to the width), erase the rest.
    const std::string shown = final_line || static_cast<int>(line.size()) <= options_.width
                                  ? line
                                  : line.substr(0, static_cast<size_t>(options_.width));
    std::fprintf(out_, "\r%s\x1b[K%s", shown.c_str(), final_line ? "\n" : "");
  } else {
    std::fprintf(out_, "%s%s\n", final_line ? "" : "  progress: ", line.c_str());
  }
  std::fflush(out_);
  if (!final_line) last_emit_ = now;  // the next status line is due an interval after this one
}

}  // namespace warmup::cli
