#include <algorithm>
#include <cmath>
#include <functional>
#include <range/v3/numeric/accumulate.hpp>

#include "warmup/run_result.h"

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

const char* AbortReasonName(AbortReason reason) {
  switch (reason) {
    case AbortReason::kNone:
      return "none";
    case AbortReason::kEntityRejected:
      return "entity_rejected";
    case AbortReason::kTargetFailed:
      return "target_failed";
    case AbortReason::kSourceFailed:
      return "source_failed";
    case AbortReason::kOutputFailed:
      return "output_failed";
    case AbortReason::kInterrupted:
      return "interrupted";
  }
  return "?";
}

const char* TargetDropName(TargetDrop drop) {
  switch (drop) {
    case TargetDrop::kNotNeeded:
      return "not_needed";
    case TargetDrop::kKept:
      return "kept";
    case TargetDrop::kDropped:
      return "dropped";
    case TargetDrop::kFailed:
      return "failed";
  }
  return "?";
}

int64_t RunResult::copied() const {
  return ranges::accumulate(collections, int64_t{0}, std::plus<>(), &CollectionResult::copied);
}

int64_t RunResult::expected() const {
  return ranges::accumulate(collections, int64_t{0}, std::plus<>(), &CollectionResult::expected_count);
}

std::optional<double> RunResult::total_seconds() const {
  if (golive != GoLiveOutcome::kCompleted) return std::nullopt;
  return load_wall_seconds + golive_seconds;
}

int RunResult::ExitCode() const {
  if (!abort_error.empty() || golive != GoLiveOutcome::kCompleted || !output_error.empty()) return 1;
  for (const auto& c : collections) {
    if (c.failed > 0) return 1;
  }
  switch (verification) {
    case Verification::kVerified:
    case Verification::kSkipped:
    case Verification::kNotApplicable:
      return 0;
    case Verification::kUnknown:
      return 2;
    case Verification::kMismatch:
    case Verification::kContentDiffers:
    case Verification::kNotReached:
      return 1;
  }
  return 1;
}

const char* VerifyModeName(VerifyMode mode) {
  switch (mode) {
    case VerifyMode::kNone:
      return "none";
    case VerifyMode::kCounts:
      return "counts";
    case VerifyMode::kContent:
      return "content";
  }
  return "?";
}

}  // namespace warmup
