#include "warmup/latency_stats.h"

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

namespace warmup {
namespace {

TEST_CASE("percentiles are exact nearest-rank order statistics of the samples") {
  std::vector<int64_t> samples;
  for (int64_t i = 1000; i >= 1; --i) samples.push_back(i * 1000);  // 1..1000 us, reversed
  const LatencyStats s = ComputeLatencyStats(samples);
  CHECK(s.count == 1000);
  CHECK(s.mean_us == doctest::Approx(500.5));
  CHECK(s.median_us == 500);
  CHECK(s.p90_us == 900);
  CHECK(s.p95_us == 950);
  CHECK(s.p99_us == 990);
  REQUIRE(s.p999_us.has_value());
  CHECK(*s.p999_us == 999);
  CHECK(s.max_us == 1000);
  CHECK(s.total_seconds == doctest::Approx(0.5005));
  // The CDF: minimum, every 5 %, 99 %, 99.9 %, maximum, by the same nearest rank.
  REQUIRE(s.cdf.size() == 23);
  CHECK(s.cdf.front() == std::pair<double, double>{0.0, 1});
  CHECK(s.cdf[1] == std::pair<double, double>{0.05, 50});
  CHECK(s.cdf[10] == std::pair<double, double>{0.5, 500});
  CHECK(s.cdf[20] == std::pair<double, double>{0.99, 990});
  CHECK(s.cdf[21] == std::pair<double, double>{0.999, 999});
  CHECK(s.cdf.back() == std::pair<double, double>{1.0, 1000});
}

TEST_CASE("the standard deviation is the samples' own, n - 1 in the denominator, and none from one sample") {
  // 2, 4, 4, 4, 5, 5, 7, 9 us: mean 5, squared deviations 9+1+1+1+0+0+4+16 = 32, over 7.
  std::vector<int64_t> samples = {4000, 2000, 9000, 4000, 5000, 7000, 4000, 5000};
  CHECK(ComputeLatencyStats(samples).stddev_us == doctest::Approx(std::sqrt(32.0 / 7)));
  std::vector<int64_t> one = {3000};
  CHECK(ComputeLatencyStats(one).stddev_us == 0);
}

TEST_CASE("nearest rank where p x n is not whole: the next sample up, never interpolated") {
  std::vector<int64_t> samples = {7000, 1000, 6000, 2000, 5000, 3000, 4000};  // 1..7 us
  const LatencyStats s = ComputeLatencyStats(samples);
  CHECK(s.median_us == 4);  // rank ceil(3.5) = 4
  CHECK(s.p90_us == 7);     // rank ceil(6.3) = 7
  CHECK(s.max_us == 7);
  std::vector<int64_t> ten;
  for (int64_t i = 1; i <= 10; ++i) ten.push_back(i * 1000);
  const LatencyStats t = ComputeLatencyStats(ten);
  CHECK(t.median_us == 5);  // rank 5 exactly
  CHECK(t.p95_us == 10);    // rank ceil(9.5) = 10
  CHECK(t.p90_us == 9);     // rank 9 exactly
  std::vector<int64_t> one = {42000};
  const LatencyStats u = ComputeLatencyStats(one);
  CHECK(u.median_us == 42);
  CHECK(u.p99_us == 42);
}

TEST_CASE("p99.9 is only given from 1000 samples on") {
  std::vector<int64_t> samples(999, 5000);
  CHECK_FALSE(ComputeLatencyStats(samples).p999_us.has_value());
  CHECK(ComputeLatencyStats(samples).cdf.size() == 22);  // no 99.9 % point under 1000 samples
  std::vector<int64_t> none;
  CHECK(ComputeLatencyStats(none).count == 0);
}

}  // namespace
}  // namespace warmup
