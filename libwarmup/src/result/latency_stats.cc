#include "warmup/latency_stats.h"

#include <algorithm>
#include <cmath>

namespace warmup {
namespace {

// Nearest-rank percentile of sorted samples: the smallest sample with at
// least p of all samples at or below it.
double Percentile(const std::vector<int64_t>& sorted, double p) {
  const auto n = static_cast<double>(sorted.size());
  const auto rank = static_cast<size_t>(std::max(1.0, std::ceil(p * n)));
  return static_cast<double>(sorted[std::min(rank, sorted.size()) - 1]) / 1e3;
}

}  // namespace

LatencyStats ComputeLatencyStats(std::vector<int64_t>& samples_ns) {
  LatencyStats s;
  s.count = static_cast<int64_t>(samples_ns.size());
  if (samples_ns.empty()) return s;
  std::sort(samples_ns.begin(), samples_ns.end());
  long double total = 0;
  for (int64_t v : samples_ns) total += v;
  s.total_seconds = static_cast<double>(total / 1e9L);
  s.mean_us = static_cast<double>(total / static_cast<long double>(samples_ns.size()) / 1e3L);
  if (s.count >= 2) {
    const long double mean_ns = total / static_cast<long double>(samples_ns.size());
    long double squares = 0;
    for (int64_t v : samples_ns) squares += (v - mean_ns) * (v - mean_ns);
    s.stddev_us = static_cast<double>(std::sqrt(squares / static_cast<long double>(s.count - 1)) / 1e3L);
  }
  s.median_us = Percentile(samples_ns, 0.5);
  s.p90_us = Percentile(samples_ns, 0.9);
  s.p95_us = Percentile(samples_ns, 0.95);
  s.p99_us = Percentile(samples_ns, 0.99);
  if (s.count >= 1000) s.p999_us = Percentile(samples_ns, 0.999);
  s.max_us = static_cast<double>(samples_ns.back()) / 1e3;
  s.cdf.emplace_back(0.0, static_cast<double>(samples_ns.front()) / 1e3);
  for (int step = 1; step <= 19; ++step) s.cdf.emplace_back(step / 20.0, Percentile(samples_ns, step / 20.0));
  s.cdf.emplace_back(0.99, s.p99_us);
  if (s.p999_us) s.cdf.emplace_back(0.999, *s.p999_us);
  s.cdf.emplace_back(1.0, s.max_us);
  return s;
}

}  // namespace warmup
