// The Mann-Kendall trend test, its p values worked by hand from the count of
// orders of n runs with each number of inversions (the Mahonian numbers).
#include "warmup/trend.h"

#include <doctest/doctest.h>

namespace warmup {
namespace {

TEST_CASE("MannKendall: exact p values of small series, by hand") {
  // 5 runs falling every time: S = -10; of the 120 orders only this one and
  // its mirror reach |S| = 10: p = 2/120.
  const TrendTest falling = MannKendall({48.4, 16.1, 12.5, 10.5, 10.2});
  CHECK(falling.s == -10);
  CHECK(falling.exact);
  CHECK(falling.decidable);
  CHECK(falling.p_value == doctest::Approx(2.0 / 120));
  CHECK(falling.trending);
  CHECK(DescribeTrend(falling) == "falling run over run (Mann-Kendall p 0.017)");

  // One pair out of order: S = 8 (one inversion); the orders with 0 or 1
  // inversions, and their mirrors: (1 + 4) x 2 = 10 of 120, p = 0.083.
  const TrendTest rising = MannKendall({1, 3, 2, 4, 5});
  CHECK(rising.s == 8);
  CHECK(rising.p_value == doctest::Approx(10.0 / 120));
  CHECK_FALSE(rising.trending);
  CHECK(DescribeTrend(rising) == "no trend found (Mann-Kendall p 0.083)");
}

// Issue 50: in one JVM the same load took 48.4, 16.1, 12.5 and 10.5 s, and
// nothing said the series was still trending. Four runs cannot show it at
// 5 % (the smallest two-sided p of 4 runs is 2/24): the summary says so
// rather than "no trend".
TEST_CASE("regression: four falling runs are 'cannot tell', never 'no trend'") {
  const TrendTest four = MannKendall({48.4, 16.1, 12.5, 10.5});
  CHECK(four.s == -6);
  CHECK(four.p_value == doctest::Approx(2.0 / 24));
  CHECK_FALSE(four.decidable);
  CHECK_FALSE(four.trending);
  CHECK(DescribeTrend(four) == "cannot tell from 4 runs (5 or more can show one)");
}

TEST_CASE("MannKendall: ties and long series by the normal approximation") {
  // 12 runs, no order: S near 0, p near 1.
  const TrendTest flat = MannKendall({10, 11, 10, 11, 10, 11, 10, 11, 10, 11, 10, 11});
  CHECK_FALSE(flat.exact);
  CHECK(flat.s == 6);  // 36 pairs of an 11 after a 10, 30 of a 10 after an 11
  // Ties: 6 tens and 6 elevens, var = (12*11*29 - 2*6*5*17) / 18 = 156.0; z = (6 - 1) / sqrt(156).
  CHECK(flat.p_value == doctest::Approx(0.6889).epsilon(0.001));
  CHECK_FALSE(flat.trending);
  // Every run the same: no trend, whatever the count.
  CHECK(MannKendall({5, 5, 5, 5, 5, 5}).p_value == 1);
}

}  // namespace
}  // namespace warmup
