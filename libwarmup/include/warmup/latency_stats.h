// LatencyStats: how a run reports a set of durations (every upsert, a
// collection's, the server's own), exactly, from every sample.
#ifndef WARMUP_LATENCY_STATS_H_
#define WARMUP_LATENCY_STATS_H_

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace warmup {

// Exact order statistics of a set of durations (nearest-rank percentiles
// over the stored samples; no histogram, no interpolation).
struct LatencyStats {
  int64_t count = 0;
  double total_seconds = 0;
  double mean_us = 0;
  // The samples' standard deviation (n - 1 in the denominator; 0 below two
  // samples): with count, how precisely the run itself fixed its mean, the
  // within-run evidence a comparison of few runs uses (docs/comparing.md).
  double stddev_us = 0;
  double median_us = 0;
  double p90_us = 0;
  double p95_us = 0;
  double p99_us = 0;
  std::optional<double> p999_us;  // only when count >= 1000
  double max_us = 0;
  // The distribution, for plotting: (quantile, us) at 0 (the minimum), 0.05,
  // 0.10, ..., 0.95, 0.99, 0.999 (only when count >= 1000) and 1 (the
  // maximum), nearest rank like the rest; empty without samples.
  std::vector<std::pair<double, double>> cdf;
};

// Computes LatencyStats from samples in nanoseconds (reordered in place).
LatencyStats ComputeLatencyStats(std::vector<int64_t>& samples_ns);

}  // namespace warmup

#endif  // WARMUP_LATENCY_STATS_H_
