#include "common/progress.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>

namespace warmup::cli {
namespace {

constexpr std::chrono::milliseconds kRedraw(250);  // live: four redraws a second
constexpr std::chrono::seconds kRateWindow(5);     // the rate is over the last five seconds

double SecondsBetween(std::chrono::steady_clock::time_point from, std::chrono::steady_clock::time_point to) {
  return std::chrono::duration<double>(to - from).count();
}

std::string Percent(int64_t part, int64_t whole) {
  char buf[16];
  std::snprintf(buf, sizeof(buf), "%.1f %%",
                whole > 0 ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0);
  return buf;
}

// "850 us" or "2.9 ms".
std::string Latency(int64_t ns) {
  char buf[32];
  if (ns < 1'000'000) {
    std::snprintf(buf, sizeof(buf), "%lld us", static_cast<long long>(ns / 1000));
  } else {
    std::snprintf(buf, sizeof(buf), "%.1f ms", static_cast<double>(ns) / 1e6);
  }
  return buf;
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

std::string WithThousands(int64_t value) {
  std::string digits = std::to_string(value < 0 ? -value : value);
  for (int i = static_cast<int>(digits.size()) - 3; i > 0; i -= 3) digits.insert(static_cast<size_t>(i), ",");
  return value < 0 ? "-" + digits : digits;
}

std::string Duration(double seconds) {
  const auto total = static_cast<int64_t>(std::llround(std::max(0.0, seconds)));
  char buf[32];
  if (total < 60) {
    std::snprintf(buf, sizeof(buf), "%lld s", static_cast<long long>(total));
  } else if (total < 3600) {
    std::snprintf(buf, sizeof(buf), "%lld min %02lld s", static_cast<long long>(total / 60),
                  static_cast<long long>(total % 60));
  } else {
    std::snprintf(buf, sizeof(buf), "%lld h %02lld min", static_cast<long long>(total / 3600),
                  static_cast<long long>(total % 3600 / 60));
  }
  return buf;
}

ProgressReporter::ProgressReporter(std::FILE* out, ProgressOptions options) : out_(out), options_(options) {}

ProgressReporter::~ProgressReporter() {
  {
    std::lock_guard lock(mu_);
    in_golive_ = false;
  }
  golive_wake_.notify_all();
  if (golive_ticker_.joinable()) golive_ticker_.join();
}

void ProgressReporter::OnRunStart(const RunStart& start) {
  std::lock_guard lock(mu_);
  collections_ = start.collections;
  expected_ = start.expected_counts;
  expected_total_ = 0;
  for (const int64_t n : expected_) expected_total_ += n;
  start_ = last_emit_ = Clock::now();
  history_ = {{start_, 0}};
}

void ProgressReporter::OnCollectionStart(int32_t collection) {
  std::lock_guard lock(mu_);
  collection_ = collection;
  done_in_collection_ = 0;
  history_ = {{Clock::now(), done_total_}};  // the rate is this collection's: collections differ by 100x
}

void ProgressReporter::OnUpsert(const UpsertSample& sample) {
  const Clock::time_point now = Clock::now();
  std::lock_guard lock(mu_);
  ++done_in_collection_;
  ++done_total_;
  interval_upserts_ns_.push_back(sample.upsert_ns);
  const auto every = options_.live ? std::chrono::duration_cast<Clock::duration>(kRedraw)
                                   : std::chrono::duration_cast<Clock::duration>(
                                         std::chrono::duration<double>(options_.interval_seconds));
  if (now - last_emit_ < every) return;
  Emit(LoadLine(now), false);
  last_emit_ = now;
}

std::string ProgressReporter::StatusLine() {
  std::lock_guard lock(mu_);
  return LoadLine(Clock::now());
}

std::string ProgressReporter::LoadLine(Clock::time_point now) {
  // The rate over the last few seconds, from the oldest point still in the window.
  history_.emplace_back(now, done_total_);
  while (history_.size() > 2 && now - history_[1].first > kRateWindow) history_.pop_front();
  const double window = SecondsBetween(history_.front().first, now);
  const double rate = window > 0 ? static_cast<double>(done_total_ - history_.front().second) / window : 0;
  if (!interval_upserts_ns_.empty()) {
    auto& v = interval_upserts_ns_;
    const auto at = [&](double q) {
      const auto index =
          std::min(v.size() - 1, static_cast<size_t>(std::ceil(q * static_cast<double>(v.size()))) - 1);
      std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(index), v.end());
      return v[index];
    };
    last_percentiles_ = "p50 " + Latency(at(0.5)) + " p99 " + Latency(at(0.99));
    v.clear();
  }
  const bool known = collection_ >= 0 && static_cast<size_t>(collection_) < collections_.size();
  const std::string name = known ? collections_[static_cast<size_t>(collection_)] : "?";
  const int64_t of = known ? expected_[static_cast<size_t>(collection_)] : 0;
  const double elapsed = SecondsBetween(start_, now);
  // Time left: this collection's rest at its own recent rate, the collections after it at the
  // run's average rate so far (a guess until they start; "about" says so).
  std::string left = "?";
  const double average = elapsed > 0 ? static_cast<double>(done_total_) / elapsed : 0;
  const int64_t rest_here = std::max<int64_t>(0, of - done_in_collection_);
  const int64_t rest_after = std::max<int64_t>(0, expected_total_ - done_total_ - rest_here);
  if (rate > 0 && average > 0) {
    left = "about " +
           Duration(static_cast<double>(rest_here) / rate + static_cast<double>(rest_after) / average);
  }
  char rate_text[32];
  std::snprintf(rate_text, sizeof(rate_text), "%.0f", rate);
  return name + " " + WithThousands(done_in_collection_) + " / " + WithThousands(of) + " (" +
         Percent(done_in_collection_, of) + "), catalog " + WithThousands(done_total_) + " / " +
         WithThousands(expected_total_) + " (" + Percent(done_total_, expected_total_) + "), " + rate_text +
         " entities/s, " + (last_percentiles_.empty() ? "" : "upsert " + last_percentiles_ + ", ") +
         Duration(elapsed) + " elapsed, " + left + " left";
}

void ProgressReporter::OnCollectionEnd(const CollectionResult& c, double load_seconds, int64_t load_copied) {
  char line[256];
  std::snprintf(line, sizeof(line),
                "  copied %10lld %-20s in %8.1f s (%7.2f us/entity)  |  cumulative %12lld entities, %8.1f s",
                static_cast<long long>(c.copied), c.entity_type.c_str(), c.wall_seconds,
                c.copied > 0 ? c.wall_seconds * 1e6 / static_cast<double>(c.copied) : 0.0,
                static_cast<long long>(load_copied), load_seconds);
  std::lock_guard lock(mu_);
  Emit(line, true);
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
  Emit(GoLiveLine(Clock::now()), false);  // a new percentage is worth a line of its own
}

void ProgressReporter::OnGoLiveStart() {
  std::lock_guard lock(mu_);
  golive_start_ = Clock::now();
  in_golive_ = true;
  Emit(GoLiveLine(golive_start_), false);
  golive_ticker_ = std::thread([this] {
    const auto every = options_.live ? std::chrono::duration_cast<Clock::duration>(kRedraw)
                                     : std::chrono::duration_cast<Clock::duration>(
                                           std::chrono::duration<double>(options_.interval_seconds));
    std::unique_lock ticker_lock(mu_);
    const auto wait = std::max<Clock::duration>(every, std::chrono::milliseconds(10));  // never a spin
    while (!golive_wake_.wait_for(ticker_lock, wait, [this] { return !in_golive_; })) {
      Emit(GoLiveLine(Clock::now()), false);
    }
  });
}

void ProgressReporter::OnGoLiveEnd(GoLiveOutcome outcome, double seconds) {
  {
    std::lock_guard lock(mu_);
    in_golive_ = false;
  }
  golive_wake_.notify_all();
  if (golive_ticker_.joinable()) golive_ticker_.join();
  char line[128];
  std::snprintf(line, sizeof(line), "  goLive %s in %.3f s",
                outcome == GoLiveOutcome::kCompleted ? "-> ALIVE" : "FAILED", seconds);
  std::lock_guard lock(mu_);
  Emit(line, true);
}

void ProgressReporter::Emit(const std::string& line, bool final_line) {
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
}

}  // namespace warmup::cli
