#include "warmup/copy_engine.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <random>

#include "report/environment.h"

namespace warmup {
namespace {

using Clock = std::chrono::steady_clock;

int64_t Nanos(Clock::duration d) { return std::chrono::duration_cast<std::chrono::nanoseconds>(d).count(); }
double Seconds(int64_t ns) { return static_cast<double>(ns) / 1e9; }

// One upsert, for the per-entity CSV.
struct UpsertRecord {
  int32_t collection = 0;
  int32_t primary_key = 0;
  int64_t start_offset_ns = 0;  // from the start of the load to the start of the read
  int64_t read_ns = 0;
  int64_t upsert_ns = 0;
  int64_t server_ns = -1;  // -1 = not reported
  int64_t request_bytes = 0;
  bool ok = true;
};

std::string RandomSuffix() {
  std::random_device device;
  char buf[8];
  std::snprintf(buf, sizeof(buf), "%04x", device() & 0xFFFF);
  return buf;
}

Status WriteCsv(const std::string& path, const std::vector<UpsertRecord>& rows,
                const std::vector<CollectionResult>& collections) {
  std::ofstream out(path, std::ios::trunc);
  out << "collection,primary_key,sequence,start_offset_ns,read_ns,upsert_ns,server_ns,request_bytes,status\n";
  int64_t sequence = 0;
  for (const auto& r : rows) {
    out << collections[r.collection].entity_type << ',' << r.primary_key << ',' << sequence++ << ','
        << r.start_offset_ns << ',' << r.read_ns << ',' << r.upsert_ns << ',';
    if (r.server_ns >= 0) out << r.server_ns;
    out << ',' << r.request_bytes << ',' << (r.ok ? "ok" : "rejected") << '\n';
  }
  out.close();
  if (!out) return Status(StatusCode::kUnavailable, path + ": cannot write the per-entity CSV");
  return OkStatus();
}

}  // namespace

StatusOr<RunResult> RunCopy(CatalogSource& source, CatalogTarget& target, const CopyOptions& options) {
  // Check everything that can be checked before the target is touched.
  if (options.max_per_collection < 0) return InvalidArgumentError("max per collection must not be negative");
  std::vector<const CollectionInfo*> selected;
  for (const auto& c : source.collections()) {
    if (options.collections.empty() || std::find(options.collections.begin(), options.collections.end(),
                                                 c.entity_type) != options.collections.end()) {
      selected.push_back(&c);
    }
  }
  for (const auto& wanted : options.collections) {
    if (FindCollection(source, wanted) == nullptr) {
      std::string message = "unknown collection '" + wanted + "' (the source has: ";
      for (size_t i = 0; i < source.collections().size(); ++i) {
        if (i > 0) message += ", ";
        message += source.collections()[i].entity_type;
      }
      message += ")";
      return InvalidArgumentError(std::move(message));
    }
  }
  if (!options.per_entity_csv.empty() && !std::ofstream(options.per_entity_csv, std::ios::trunc)) {
    return InvalidArgumentError("cannot write the per-entity CSV at " + options.per_entity_csv);
  }

  RunResult r;
  r.run_label = options.run_label;
  r.source = source.Describe();
  r.dataset_fingerprint = source.Fingerprint();
  r.target = target.Describe();
  r.source_catalog = source.schema().name;
  r.target_catalog =
      options.target_catalog.empty() ? r.source_catalog + "_" + RandomSuffix() : options.target_catalog;
  r.started_at = report::UtcNow();
  r.environment = report::CollectEnvironment();

  // Schema reconstruction: before the clock starts, deliberately untimed.
  CatalogSchema schema = source.schema();
  schema.name = r.target_catalog;
  if (Status s = target.CreateCatalog(schema); !s.ok()) {
    return s.WithContext("creating catalog " + r.target_catalog);
  }

  std::vector<UpsertRecord> rows;
  std::vector<std::vector<int64_t>> upsert_samples;  // per collection, in nanoseconds
  std::vector<std::vector<int64_t>> server_samples;
  std::vector<int64_t> all_upserts;
  std::vector<int64_t> all_server;
  int64_t read_ns_total = 0;
  Entity entity;
  const Clock::time_point load_start = Clock::now();
  Clock::time_point load_end = load_start;
  int64_t cumulative = 0;
  for (const CollectionInfo* info : selected) {
    CollectionResult c;
    c.entity_type = info->entity_type;
    c.source_count = info->expected_count;
    c.expected_count = options.max_per_collection > 0 ? std::min(c.source_count, options.max_per_collection)
                                                      : c.source_count;
    std::vector<int64_t> upserts;
    std::vector<int64_t> server;
    upserts.reserve(static_cast<size_t>(c.expected_count));
    int64_t read_ns = 0;
    const auto collection_index = static_cast<int32_t>(r.collections.size());
    const Clock::time_point collection_start = Clock::now();
    auto stream = source.OpenCollection(c.entity_type);
    Clock::time_point t = Clock::now();
    read_ns += Nanos(t - collection_start);
    if (!stream.ok()) r.abort_error = stream.status().ToString();
    while (r.abort_error.empty() &&
           (options.max_per_collection == 0 || c.copied < options.max_per_collection)) {
      const Clock::time_point read_start = Clock::now();
      auto more = (*stream)->Next(&entity);
      const Clock::time_point read_end = Clock::now();
      read_ns += Nanos(read_end - read_start);
      t = read_end;
      if (!more.ok()) {
        r.abort_error = more.status().ToString();
        break;
      }
      if (!*more) break;
      const Status upserted = target.Upsert(entity);
      t = Clock::now();
      const int64_t upsert_ns = Nanos(t - read_end);
      upserts.push_back(upsert_ns);
      UpsertRecord row{collection_index,
                       entity.primary_key,
                       Nanos(read_start - load_start),
                       Nanos(read_end - read_start),
                       upsert_ns,
                       -1,
                       target.LastRequestBytes(),
                       upserted.ok()};
      if (upserted.ok()) {
        ++c.copied;
        if (auto server_ns = target.LastServerNanos()) {
          server.push_back(*server_ns);
          row.server_ns = *server_ns;
        }
      } else {
        ++c.failed;
        r.abort_error = "entity " + EntityLabel(entity) + " was rejected: " + upserted.ToString();
      }
      if (!options.per_entity_csv.empty()) rows.push_back(row);
    }
    load_end = t;
    c.wall_seconds = Seconds(Nanos(t - collection_start));
    c.read_seconds = Seconds(read_ns);
    read_ns_total += read_ns;
    // Statistics are computed after the load: sorting samples is not the load's work.
    upsert_samples.push_back(std::move(upserts));
    server_samples.push_back(std::move(server));
    cumulative += c.copied;
    r.collections.push_back(std::move(c));
    if (options.on_progress) {
      const auto& done = r.collections.back();
      options.on_progress({done.entity_type, done.copied, done.wall_seconds, cumulative,
                           Seconds(Nanos(load_end - load_start))});
    }
    if (!r.abort_error.empty()) break;
  }
  r.load_wall_seconds = Seconds(Nanos(load_end - load_start));
  r.source_read_seconds = Seconds(read_ns_total);
  for (size_t i = 0; i < r.collections.size(); ++i) {
    all_upserts.insert(all_upserts.end(), upsert_samples[i].begin(), upsert_samples[i].end());
    all_server.insert(all_server.end(), server_samples[i].begin(), server_samples[i].end());
    r.collections[i].upsert = ComputeLatencyStats(upsert_samples[i]);
    if (!server_samples[i].empty()) r.collections[i].server = ComputeLatencyStats(server_samples[i]);
  }
  r.upsert = ComputeLatencyStats(all_upserts);
  if (!all_server.empty()) r.server = ComputeLatencyStats(all_server);
  r.loop_overhead_seconds = r.load_wall_seconds - r.source_read_seconds - r.upsert.total_seconds;

  // The per-entity CSV is written before goLive, so a goLive that never
  // returns still leaves it behind.
  if (!options.per_entity_csv.empty()) {
    if (Status s = WriteCsv(options.per_entity_csv, rows, r.collections); !s.ok() && r.abort_error.empty()) {
      r.abort_error = s.ToString();
    }
  }

  if (r.abort_error.empty()) {
    const Clock::time_point golive_start = Clock::now();
    const Status live = target.GoLive();
    r.golive_seconds = Seconds(Nanos(Clock::now() - golive_start));
    r.golive = live.ok() ? GoLiveOutcome::kCompleted : GoLiveOutcome::kFailed;
    if (!live.ok()) r.golive_error = live.ToString();

    if (options.skip_verify) {
      r.verification = Verification::kSkipped;
    } else {
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
    }
  }
  if (r.ExitCode() == 1 && !options.keep_target) r.target_dropped = target.DropCatalog().ok();
  r.loader = report::CollectResourceUsage();
  return r;
}

}  // namespace warmup
