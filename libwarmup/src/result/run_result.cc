#include <functional>
#include <range/v3/numeric/accumulate.hpp>

#include "warmup/run_result.h"

namespace warmup {
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

namespace {

constexpr struct {
  Verification verification;
  const char* name;
  const char* verdict;
} kVerifications[] = {
    {Verification::kVerified, "verified", "VERIFIED"},
    {Verification::kSkipped, "skipped", "DECLINED (skip verify)"},
    {Verification::kUnknown, "unknown", "UNKNOWN"},
    {Verification::kMismatch, "mismatch", "MISMATCH"},
    {Verification::kContentDiffers, "content_differs", "CONTENT DIFFERS"},
    {Verification::kNotReached, "not_reached", "NOT REACHED"},
    {Verification::kNotApplicable, "not_applicable",
     "NOT APPLICABLE (the target stores nothing; there is nothing to verify)"},
};

}  // namespace

const char* VerificationName(Verification v) {
  for (const auto& known : kVerifications) {
    if (known.verification == v) return known.name;
  }
  return "?";
}

const char* VerificationVerdict(Verification v) {
  for (const auto& known : kVerifications) {
    if (known.verification == v) return known.verdict;
  }
  return "?";
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

namespace {
// `name` of the storage, "n/a" when nothing is stored, empty when unknown.
template <typename Name>
std::string RecordsWord(const TargetRecords& records, Name name) {
  if (std::holds_alternative<RecordsNotStored>(records)) return "n/a";
  const auto* storage = std::get_if<RecordStorage>(&records);
  return storage != nullptr ? name(*storage) : "";
}
}  // namespace

std::string CompressionWord(const TargetRecords& records) {
  return RecordsWord(records, [](const RecordStorage& s) { return RecordCompressionName(s.compression); });
}

std::string RecordWritesWord(const TargetRecords& records) {
  return RecordsWord(records, [](const RecordStorage& s) { return RecordWritesName(s.writes); });
}

}  // namespace warmup
