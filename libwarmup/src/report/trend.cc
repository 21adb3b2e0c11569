// The Mann-Kendall trend test (warmup/trend.h).
#include "warmup/trend.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "report/format.h"

namespace warmup {
namespace {

constexpr size_t kExactUpTo = 10;

double NormalTail(double z) { return 0.5 * std::erfc(z / std::sqrt(2.0)); }  // P(Z > z)

// How many orders of n distinct values have k inversions, for every k (the
// Mahonian numbers), as shares of n!: S = n(n-1)/2 - 2k for such an order.
std::vector<double> InversionShares(size_t n) {
  std::vector<double> counts = {1};
  for (size_t m = 2; m <= n; ++m) {  // insert the m-th value: it adds 0..m-1 inversions
    std::vector<double> next(counts.size() + m - 1, 0);
    for (size_t k = 0; k < counts.size(); ++k) {
      for (size_t add = 0; add < m; ++add) next[k + add] += counts[k];
    }
    counts = std::move(next);
  }
  double total = 0;
  for (double c : counts) total += c;
  for (double& c : counts) c /= total;
  return counts;
}

// P(|S| >= |s|) for n distinct values in random order.
double ExactTwoSided(size_t n, double s) {
  const std::vector<double> shares = InversionShares(n);
  const double pairs = static_cast<double>(n) * static_cast<double>(n - 1) / 2;
  double p = 0;
  for (size_t k = 0; k < shares.size(); ++k) {
    if (std::abs(pairs - 2 * static_cast<double>(k)) >= std::abs(s) - 1e-9) p += shares[k];
  }
  return std::min(1.0, p);
}

}  // namespace

TrendTest MannKendall(const std::vector<double>& values, double alpha) {
  TrendTest t;
  t.runs = values.size();
  const size_t n = values.size();
  if (n < 2) return t;
  for (size_t i = 0; i < n; ++i) {
    for (size_t j = i + 1; j < n; ++j) t.s += (values[j] > values[i]) - (values[j] < values[i]);
  }
  std::map<double, size_t> ties;
  for (double v : values) ++ties[v];
  const bool tied = ties.size() < n;
  // The smallest p any order could give: the monotone one, exact, no ties.
  const double smallest =
      n <= kExactUpTo ? ExactTwoSided(n, static_cast<double>(n) * static_cast<double>(n - 1) / 2) : 0;
  t.decidable = smallest < alpha;
  if (n <= kExactUpTo && !tied) {
    t.exact = true;
    t.p_value = ExactTwoSided(n, t.s);
  } else {
    t.exact = false;
    const auto nd = static_cast<double>(n);
    double variance = nd * (nd - 1) * (2 * nd + 5);
    for (const auto& [value, count] : ties) {
      const auto c = static_cast<double>(count);
      variance -= c * (c - 1) * (2 * c + 5);
    }
    variance /= 18;
    if (variance <= 0) {
      t.p_value = 1;  // every run the same
    } else {
      const double z = (std::abs(t.s) - 1) / std::sqrt(variance);
      t.p_value = std::min(1.0, 2 * NormalTail(std::max(0.0, z)));
    }
  }
  t.trending = t.decidable && t.p_value < alpha;
  return t;
}

std::string DescribeTrend(const TrendTest& t) {
  if (!t.decidable) {
    return "cannot tell from " + std::to_string(t.runs) + " run" + (t.runs == 1 ? "" : "s") +
           " (5 or more can show one)";
  }
  const std::string p = report::Format("Mann-Kendall p %.*f", t.p_value < 0.001 ? 4 : 3, t.p_value);
  if (!t.trending) return "no trend found (" + p + ")";
  return std::string(t.s < 0 ? "falling" : "rising") + " run over run (" + p + ")";
}

}  // namespace warmup
