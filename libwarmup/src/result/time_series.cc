#include "warmup/time_series.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace warmup {
namespace {

using Clock = std::chrono::steady_clock;

double SecondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// A round interval near `seconds`: 1, 2 or 5 times a power of ten, at least 50 ms.
double RoundInterval(double seconds) {
  seconds = std::max(seconds, 0.05);
  const double decade = std::pow(10.0, std::floor(std::log10(seconds)));
  for (const double step : {1.0, 2.0, 5.0}) {
    if (step * decade >= seconds) return step * decade;
  }
  return 10 * decade;
}

// Nearest-rank percentile of `values` (reordered).
double Percentile(std::vector<uint32_t>& values, double q) {
  if (values.empty()) return 0;
  const auto rank = static_cast<size_t>(std::ceil(q * static_cast<double>(values.size())));
  const size_t index = std::min(values.size() - 1, rank == 0 ? 0 : rank - 1);
  std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(index), values.end());
  return values[index];
}

}  // namespace

void TimeSeriesRecorder::OnRunStart(const RunStart& start) {
  run_start_ = Clock::now();
  collections_ = start.collections;
  collection_start_ns_.assign(collections_.size(), -1);
  int64_t expected = 0;
  for (const int64_t count : start.expected_counts) expected += count;
  points_.reserve(static_cast<size_t>(std::min<int64_t>(expected, int64_t{1} << 24)));
}

void TimeSeriesRecorder::OnUpsert(const UpsertSample& sample) {
  const int64_t end_ns = sample.start_offset_ns + sample.read_ns + sample.upsert_ns;
  const int64_t us = sample.upsert_ns / 1000;
  points_.push_back({end_ns,
                     static_cast<uint32_t>(std::min<int64_t>(us, std::numeric_limits<uint32_t>::max())),
                     sample.collection});
  if (sample.collection >= 0 && static_cast<size_t>(sample.collection) < collection_start_ns_.size() &&
      collection_start_ns_[static_cast<size_t>(sample.collection)] < 0) {
    collection_start_ns_[static_cast<size_t>(sample.collection)] = sample.start_offset_ns;
  }
}

void TimeSeriesRecorder::OnGoLiveStart() { golive_start_ = SecondsSince(run_start_); }

void TimeSeriesRecorder::OnGoLiveEnd(GoLiveOutcome, double) { golive_end_ = SecondsSince(run_start_); }

TimeSeries TimeSeriesRecorder::Build() const {
  TimeSeries series;
  series.golive_start_seconds = golive_start_;
  series.golive_end_seconds = golive_end_;
  if (points_.empty()) return series;
  const double load_seconds = static_cast<double>(points_.back().end_ns) / 1e9;
  series.interval_seconds = RoundInterval(load_seconds / 150);
  const double width = series.interval_seconds;
  const auto count = static_cast<size_t>(std::max(1.0, std::ceil(load_seconds / width)));
  std::vector<std::vector<uint32_t>> latencies(count);
  std::vector<int64_t> collection_end_ns(collections_.size(), -1);  // each collection's last upsert's end
  for (const Point& p : points_) {
    const auto bucket = std::min(count - 1, static_cast<size_t>(static_cast<double>(p.end_ns) / 1e9 / width));
    latencies[bucket].push_back(p.upsert_us);
    if (p.collection >= 0 && static_cast<size_t>(p.collection) < collection_end_ns.size()) {
      int64_t& end = collection_end_ns[static_cast<size_t>(p.collection)];
      end = std::max(end, p.end_ns);
    }
  }
  for (size_t i = 0; i < count; ++i) {
    TimeSeriesInterval interval;
    interval.start_seconds = static_cast<double>(i) * width;
    interval.end_seconds = std::min(load_seconds, static_cast<double>(i + 1) * width);
    interval.upserts = static_cast<int64_t>(latencies[i].size());
    const double span = interval.end_seconds - interval.start_seconds;
    interval.upserts_per_second = span > 0 ? static_cast<double>(interval.upserts) / span : 0;
    interval.p50_us = Percentile(latencies[i], 0.50);
    interval.p99_us = Percentile(latencies[i], 0.99);
    series.intervals.push_back(interval);
  }
  for (size_t c = 0; c < collections_.size(); ++c) {
    if (collection_start_ns_[c] < 0) continue;
    series.collections.push_back(
        {collections_[c], static_cast<double>(collection_start_ns_[c]) / 1e9,
         static_cast<double>(std::max(collection_end_ns[c], collection_start_ns_[c])) / 1e9});
  }
  return series;
}

}  // namespace warmup
