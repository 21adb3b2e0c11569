// Do repeated runs still trend? The Mann-Kendall test of a series of run
// values in the order taken: a JVM server's first runs measure its JIT
// warm-up (one load took 48.4, 16.1, 12.5 and 10.5 s in one JVM), and a
// summary or comparison of such runs mixes warm-up with the steady state.
#ifndef WARMUP_TREND_H_
#define WARMUP_TREND_H_

#include <cstddef>
#include <string>
#include <vector>

namespace warmup {

struct TrendTest {
  size_t runs = 0;
  // Mann-Kendall's S: over every pair of runs i < j, +1 when the later is
  // larger, -1 when smaller, 0 when equal. Negative: falling run over run.
  double s = 0;
  // Two-sided: the probability of an |S| at least as large with no trend.
  // Exact (every order of the runs equally likely) up to 10 runs without
  // ties; else the normal approximation with the tie correction and a
  // continuity correction.
  double p_value = 1;
  bool exact = true;
  // False when no order of these runs could give p below alpha: 4 runs or
  // fewer at alpha 0.05 (the smallest two-sided p of 4 runs is 2/24).
  bool decidable = false;
  // decidable and p_value < alpha.
  bool trending = false;
};

// The test of `values` (in the order the runs were taken) at `alpha`.
TrendTest MannKendall(const std::vector<double>& values, double alpha = 0.05);

// "falling run over run (Mann-Kendall p 0.008)", "rising ...", "no trend
// found (p 0.42)", or "cannot tell from 4 runs (5 or more can show one)".
std::string DescribeTrend(const TrendTest& trend);

}  // namespace warmup

#endif  // WARMUP_TREND_H_
