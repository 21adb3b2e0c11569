#include "warmup/copy_engine.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <random>
#include <range/v3/algorithm/contains.hpp>
#include <range/v3/range/conversion.hpp>
#include <range/v3/view/filter.hpp>
#include <range/v3/view/join.hpp>
#include <range/v3/view/transform.hpp>

#include "copy/read_ahead_stream.h"
#include "copy/verify_content.h"
#include "result/environment.h"
#include "warmup/environment.h"
#include "warmup/process_usage.h"
#include "warmup/run_result.h"

namespace warmup {
namespace {

namespace views = ranges::views;
using Clock = std::chrono::steady_clock;

int64_t Nanos(Clock::duration d) { return std::chrono::duration_cast<std::chrono::nanoseconds>(d).count(); }
double Seconds(int64_t ns) { return static_cast<double>(ns) / 1e9; }

std::string RandomSuffix() {
  std::random_device device;
  char buf[8];
  std::snprintf(buf, sizeof(buf), "%04x", device() & 0xFFFF);
  return buf;
}

// True when the target refused the entity itself (its data is the problem);
// false when the target could not take the call at all (a lost server, a
// passed deadline, a lost or refused session, a catalog or collection that
// is missing or cannot be written): the entity may be fine.
bool IsRejection(const Status& s) {
  switch (s.code()) {
    case StatusCode::kInvalidArgument:
    case StatusCode::kAlreadyExists:
    case StatusCode::kOutOfRange:
    case StatusCode::kResourceExhausted:  // over the request size limit
      return true;
    default:
      return false;
  }
}

// The collections to copy, in the source's order, or why the request is wrong.
StatusOr<std::vector<const CollectionInfo*>> SelectCollections(const CatalogSource& source,
                                                               const CopyOptions& options) {
  if (Status s = CheckCopyOptions(source, options); !s.ok()) return s;
  const auto& wanted = options.collections;
  return source.collections() | views::filter([&](const CollectionInfo& c) {
           return wanted.empty() || ranges::contains(wanted, c.entity_type);
         }) |
         views::transform([](const CollectionInfo& c) { return &c; }) |
         ranges::to<std::vector<const CollectionInfo*>>();
}

// "Type.reference: N in SCOPE, ..." for every reference that declares
// histogram indexes (evitaDB's `bucketed`), or "".
std::string BucketedHistograms(const CatalogSchema& schema) {
  std::string out;
  for (const auto& [type, entity] : schema.entities) {
    for (const auto& [name, reference] : entity.references) {
      if (reference.bucketed.empty()) continue;
      std::map<Scope, int> per_scope;
      for (const auto& histogram : reference.bucketed) ++per_scope[histogram.scope];
      for (const auto& [scope, count] : per_scope) {
        if (!out.empty()) out += ", ";
        out += type + "." + name + ": " + std::to_string(count) + " in " +
               (scope == Scope::kLive ? "LIVE" : "ARCHIVED");
      }
    }
  }
  return out;
}

// "Type.reference.attribute: N values, ..." of what `source` read and left
// out, or "".
std::string OmittedValues(const CatalogSource& source) {
  std::string out;
  for (const auto& [what, count] : source.OmittedValues()) {
    if (!out.empty()) out += ", ";
    out += what + ": " + std::to_string(count) + (count == 1 ? " value" : " values");
  }
  return out;
}

// The schema the target catalog is created with: the source's under the
// target's name. The source's primary keys are kept (references point at
// them), so every target loads with generated keys off, as evitaDB's copy
// tool does.
CatalogSchema TargetSchema(const CatalogSchema& source, const std::string& name) {
  CatalogSchema schema = source;
  schema.name = name;
  for (auto& [type, entity] : schema.entities) entity.with_generated_primary_key = false;
  return schema;
}

// The timed load: every collection's reads and upserts, with their samples.
class Load {
 public:
  Load(CatalogSource& source, CatalogTarget& target, const CopyOptions& options, RunResult& result)
      : source_(source), target_(target), options_(options), r_(result) {}

  // Copies the selected collections in order until one aborts.
  void Run(const std::vector<const CollectionInfo*>& selected) {
    start_ = Clock::now();
    end_ = start_;
    for (const CollectionInfo* info : selected) {
      if (!r_.abort_error.empty()) {
        AddUnreached(*info);
        continue;
      }
      CopyCollection(*info);
    }
    Summarise();
  }

 private:
  void Abort(AbortReason reason, std::string error) {
    r_.abort_reason = reason;
    r_.abort_error = std::move(error);
  }

  CollectionResult Expected(const CollectionInfo& info) const {
    CollectionResult c;
    c.entity_type = info.entity_type;
    c.source_count = info.expected_count;
    c.expected_count = options_.max_per_collection > 0 ? std::min(c.source_count, options_.max_per_collection)
                                                       : c.source_count;
    return c;
  }

  // A collection the load never got to, after an abort: listed with what was
  // expected of it, so that the run's expected total is the whole source's.
  void AddUnreached(const CollectionInfo& info) {
    CollectionResult c = Expected(info);
    c.reached = false;
    upsert_samples_.emplace_back();
    server_samples_.emplace_back();
    r_.collections.push_back(std::move(c));
  }

  void CopyCollection(const CollectionInfo& info) {
    CollectionResult c = Expected(info);
    const auto index = static_cast<int32_t>(r_.collections.size());
    for (RunObserver* o : options_.observers) o->OnCollectionStart(index);
    std::vector<int64_t> upserts;
    std::vector<int64_t> server;
    upserts.reserve(static_cast<size_t>(c.expected_count));
    int64_t read_ns = 0;
    const Clock::time_point collection_start = Clock::now();
    auto stream = source_.OpenCollection(c.entity_type);
    if (stream.ok() && options_.read_ahead) *stream = copy::ReadAhead(std::move(*stream));
    Clock::time_point t = Clock::now();
    read_ns += Nanos(t - collection_start);
    if (!stream.ok()) Abort(AbortReason::kSourceFailed, stream.status().ToString());
    while (r_.abort_error.empty() &&
           (options_.max_per_collection == 0 || c.copied < options_.max_per_collection)) {
      if (options_.stop != nullptr && options_.stop->load()) {
        Abort(AbortReason::kInterrupted, "interrupted after " + std::to_string(c.copied) + " entities of " +
                                             c.entity_type + " (" + std::to_string(copied_ + c.copied) +
                                             " in all)");
        break;
      }
      const Clock::time_point read_start = Clock::now();
      auto more = (*stream)->Next(&entity_);
      const Clock::time_point read_end = Clock::now();
      read_ns += Nanos(read_end - read_start);
      t = read_end;
      if (!more.ok()) {
        Abort(AbortReason::kSourceFailed, more.status().ToString());
        break;
      }
      if (!*more) break;
      UpsertReceipt receipt;
      const Status upserted = target_.Upsert(entity_, &receipt);
      t = Clock::now();
      const int64_t upsert_ns = Nanos(t - read_end);
      upserts.push_back(upsert_ns);
      if (sequence_ == 0) {
        r_.first_upsert =
            RunResult::FirstUpsert{entity_.type, entity_.primary_key, static_cast<double>(upsert_ns) / 1e3};
      }
      if (upserted.ok()) {
        ++c.copied;
        if (receipt.server_nanos) server.push_back(*receipt.server_nanos);
      } else if (IsRejection(upserted)) {
        ++c.failed;
        Abort(AbortReason::kEntityRejected,
              "entity " + EntityLabel(entity_) + " was rejected: " + upserted.ToString());
      } else {
        Abort(AbortReason::kTargetFailed,
              "the target failed while taking entity " + EntityLabel(entity_) + ": " + upserted.ToString());
      }
      if (!options_.observers.empty()) {
        const UpsertSample sample{index,
                                  entity_.primary_key,
                                  sequence_,
                                  Nanos(read_start - start_),
                                  Nanos(read_end - read_start),
                                  upsert_ns,
                                  upserted.ok() ? receipt.server_nanos : std::nullopt,
                                  receipt.request_bytes,
                                  upserted.ok()};
        for (RunObserver* o : options_.observers) o->OnUpsert(sample);
      }
      ++sequence_;
    }
    end_ = t;
    c.wall_seconds = Seconds(Nanos(t - collection_start));
    c.read_seconds = Seconds(read_ns);
    read_ns_ += read_ns;
    copied_ += c.copied;
    // Statistics are computed after the load: sorting samples is not the load's work.
    upsert_samples_.push_back(std::move(upserts));
    server_samples_.push_back(std::move(server));
    r_.collections.push_back(std::move(c));
    for (RunObserver* o : options_.observers) {
      o->OnCollectionEnd(r_.collections.back(), Seconds(Nanos(end_ - start_)), copied_);
    }
  }

  // The run's figures from the samples, outside the timed window.
  void Summarise() {
    r_.load_wall_seconds = Seconds(Nanos(end_ - start_));
    r_.source_read_seconds = Seconds(read_ns_);
    std::vector<int64_t> all_upserts;
    std::vector<int64_t> all_server;
    for (size_t i = 0; i < r_.collections.size(); ++i) {
      all_upserts.insert(all_upserts.end(), upsert_samples_[i].begin(), upsert_samples_[i].end());
      all_server.insert(all_server.end(), server_samples_[i].begin(), server_samples_[i].end());
      r_.collections[i].upsert = ComputeLatencyStats(upsert_samples_[i]);
      if (!server_samples_[i].empty()) r_.collections[i].server = ComputeLatencyStats(server_samples_[i]);
    }
    r_.upsert = ComputeLatencyStats(all_upserts);
    if (!all_server.empty()) r_.server = ComputeLatencyStats(all_server);
    r_.loop_overhead_seconds = r_.load_wall_seconds - r_.source_read_seconds - r_.upsert.total_seconds;
  }

  CatalogSource& source_;
  CatalogTarget& target_;
  const CopyOptions& options_;
  RunResult& r_;
  Entity entity_;
  Clock::time_point start_;
  Clock::time_point end_;
  int64_t read_ns_ = 0;
  int64_t copied_ = 0;
  int64_t sequence_ = 0;
  std::vector<std::vector<int64_t>> upsert_samples_;  // per collection, in nanoseconds
  std::vector<std::vector<int64_t>> server_samples_;
};

// Every copied entity read back from the target and compared with the
// source's (after the counts matched).
void VerifyContent(CatalogSource& source, CatalogTarget& target, RunResult& r) {
  auto back = target.ReadBack();
  if (!back.ok()) {
    r.verification = Verification::kUnknown;
    r.verification_error = "reading the target back: " + back.status().ToString();
    return;
  }
  copy::ContentComparison comparison;
  for (const auto& c : r.collections) {
    const int64_t limit = c.expected_count < c.source_count ? c.expected_count : -1;
    if (Status s = copy::CompareCollection(source, **back, c.entity_type, limit, &comparison); !s.ok()) {
      r.verification = Verification::kUnknown;
      r.verification_error = "comparing " + c.entity_type + ": " + s.ToString();
      break;
    }
  }
  r.content_compared = comparison.compared;
  r.content_differences = comparison.differences;
  r.first_differences = std::move(comparison.first_differences);
  if (r.verification == Verification::kVerified && r.content_differences > 0) {
    r.verification = Verification::kContentDiffers;
  }
}

// The counts against what should be there, then, when asked, the content.
void Verify(CatalogSource& source, CatalogTarget& target, const CopyOptions& options, RunResult& r) {
  if (options.verify == VerifyMode::kNone) {
    r.verification = Verification::kSkipped;
    return;
  }
  if (!target.StoresEntities()) {  // a count it kept of what it was given proves nothing
    r.verification = Verification::kNotApplicable;
    return;
  }
  const Clock::time_point start = Clock::now();
  r.verification = Verification::kVerified;
  for (auto& c : r.collections) {
    auto count = target.Count(c.entity_type);
    if (!count.ok()) {
      r.verification = Verification::kUnknown;
      r.verification_error = "counting " + c.entity_type + ": " + count.status().ToString();
      break;
    }
    c.target_count = *count;
    if (*count != c.expected_count) r.verification = Verification::kMismatch;
  }
  if (options.verify == VerifyMode::kContent && r.verification == Verification::kVerified &&
      r.golive == GoLiveOutcome::kCompleted) {
    VerifyContent(source, target, r);
  }
  r.verification_seconds = Seconds(Nanos(Clock::now() - start));
}

// goLive, timed on its own, then the verification.
void GoLiveAndVerify(CatalogSource& source, CatalogTarget& target, const CopyOptions& options, RunResult& r) {
  for (RunObserver* o : options.observers) o->OnGoLiveStart();
  target.SetGoLiveProgress([&options](int percent) {
    for (RunObserver* o : options.observers) o->OnGoLiveProgress(percent);
  });
  const Clock::time_point start = Clock::now();
  const Status live = target.GoLive();
  target.SetGoLiveProgress({});
  r.golive_seconds = Seconds(Nanos(Clock::now() - start));
  r.golive = live.ok() ? GoLiveOutcome::kCompleted : GoLiveOutcome::kFailed;
  if (live.ok()) r.index_statistics = target.IndexStatistics();
  if (!live.ok()) r.golive_error = live.ToString();
  for (RunObserver* o : options.observers) o->OnGoLiveEnd(r.golive, r.golive_seconds);
  Verify(source, target, options, r);
}

}  // namespace

Status CheckCopyOptions(const CatalogSource& source, const CopyOptions& options) {
  if (options.max_per_collection < 0) return InvalidArgumentError("max per collection must not be negative");
  for (const auto& wanted : options.collections) {
    if (FindCollection(source, wanted) == nullptr) {
      const std::string known = source.collections() | views::transform(&CollectionInfo::entity_type) |
                                views::join(std::string(", ")) | ranges::to<std::string>();
      return InvalidArgumentError("unknown collection '" + wanted + "' (the source has: " + known + ")");
    }
  }
  return OkStatus();
}

StatusOr<RunResult> RunCopy(CatalogSource& source, CatalogTarget& target, const CopyOptions& options) {
  // Everything that can be checked is checked before the target is touched.
  auto selected = SelectCollections(source, options);
  if (!selected.ok()) return selected.status();

  RunResult r;
  r.run_label = options.run_label;
  r.collection_subset = selected->size() < source.collections().size();
  r.source = source.Describe();
  r.dataset_fingerprint = source.Fingerprint();
  r.target = target.Describe();
  r.source_catalog = source.schema().name;
  r.target_catalog =
      options.target_catalog.empty() ? r.source_catalog + "_" + RandomSuffix() : options.target_catalog;
  r.started_at = UtcNow();
  r.loader_pid = static_cast<int>(::getpid());
  r.environment = DescribeEnvironment();
  r.config = options.config;
  if (r.config.target_kind.empty()) r.config.target_kind = target.Kind();
  r.config.max_per_collection = options.max_per_collection;
  r.config.source_read_ahead = options.read_ahead;
  r.config.collections = options.collections;
  r.config.dataset_provenance = source.Provenance();
  if (std::string bucketed = BucketedHistograms(source.schema()); !bucketed.empty()) {
    r.notes.push_back("the schema declares bucketed histogram indexes (" + bucketed +
                      "): they are copied with the schema, and evitaDB builds them, but warmup's engine "
                      "(embedded, warmup serve) does not, so its figures leave that index work out.");
  }

  // Schema reconstruction: before the clock starts, deliberately untimed.
  if (Status s = target.CreateCatalog(TargetSchema(source.schema(), r.target_catalog)); !s.ok()) {
    return s.WithContext("creating catalog " + r.target_catalog);
  }
  RunStart start{r.source, r.target, r.source_catalog, r.target_catalog, {}, {}};
  for (const CollectionInfo* c : *selected) {
    start.collections.push_back(c->entity_type);
    start.expected_counts.push_back(options.max_per_collection > 0
                                        ? std::min(c->expected_count, options.max_per_collection)
                                        : c->expected_count);
    // The bytes of the part the cap lets through (in double: bytes times count can overflow).
    const double share = c->expected_count > 0 ? static_cast<double>(start.expected_counts.back()) /
                                                     static_cast<double>(c->expected_count)
                                               : 1.0;
    start.stored_bytes.push_back(static_cast<int64_t>(static_cast<double>(c->stored_bytes) * share));
  }
  for (RunObserver* o : options.observers) o->OnRunStart(start);

  Load(source, target, options, r).Run(*selected);
  for (RunObserver* o : options.observers) {
    if (Status s = o->OnLoadEnd(r); !s.ok() && r.abort_error.empty()) {
      r.abort_reason = AbortReason::kOutputFailed;
      r.abort_error = s.ToString();
    }
  }
  // Taken before verification, which reads the source again.
  if (std::string omitted = OmittedValues(source); !omitted.empty()) {
    r.notes.push_back(
        "not copied: the own attributes of reflected references, which a copy cannot write "
        "(warmup rebuilds reflected references from the references they mirror; evitaDB keeps "
        "these values on the reflected side): " +
        omitted + ". Content verification compares without reflected references, so it does not see them.");
  }
  r.verify_mode = options.verify;
  if (r.abort_error.empty()) GoLiveAndVerify(source, target, options, r);
  if (r.ExitCode() == 1) {
    if (options.keep_target) {
      r.target_drop = TargetDrop::kKept;
    } else if (Status dropped = target.DropCatalog(); dropped.ok()) {
      r.target_drop = TargetDrop::kDropped;
    } else {
      r.target_drop = TargetDrop::kFailed;
      r.target_drop_error = dropped.ToString();
    }
  }
  r.loader = UsageOfThisProcess();
  r.environment.at_end = SampleHostLoad();
  for (RunObserver* o : options.observers) o->OnRunEnd(r);
  return r;
}

}  // namespace warmup
