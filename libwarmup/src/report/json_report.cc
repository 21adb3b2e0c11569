// RunResult as JSON, schema "warmup-run/9" (docs/measurement.md).
#include <nlohmann/json.hpp>

#include "report/setup_fields.h"
#include "warmup/report.h"
#include "warmup/run_result.h"

namespace warmup {
namespace {

using nlohmann::json;
using report::OrNull;

json Stats(const LatencyStats& s) {
  json j = {{"count", s.count},         {"total_seconds", s.total_seconds},
            {"mean_us", s.mean_us},     {"stddev_us", s.stddev_us},
            {"median_us", s.median_us}, {"p90_us", s.p90_us},
            {"p95_us", s.p95_us},       {"p99_us", s.p99_us},
            {"max_us", s.max_us}};
  j["p999_us"] = s.p999_us ? json(*s.p999_us) : json(nullptr);
  json cdf = json::array();
  for (const auto& [q, us] : s.cdf) cdf.push_back({q, us});
  j["cdf"] = std::move(cdf);
  return j;
}

json Usage(const ProcessUsage& u) {
  return {{"user_seconds", u.user_seconds},
          {"system_seconds", u.system_seconds},
          {"peak_rss_bytes", u.peak_rss_bytes},
          {"minor_faults", u.minor_faults},
          {"major_faults", u.major_faults},
          {"voluntary_context_switches", u.voluntary_context_switches},
          {"involuntary_context_switches", u.involuntary_context_switches}};
}

json Load(const HostLoad& load) {
  return {{"load_average_1m", load.load_average_1m < 0 ? json(nullptr) : json(load.load_average_1m)},
          {"cpu_ticks", load.cpu_ticks},
          {"steal_ticks", load.steal_ticks}};
}

json Cache(const std::optional<SourceCache>& cache) {
  if (!cache) return nullptr;
  return {{"action", cache->action},
          {"files", cache->files},
          {"bytes", cache->bytes},
          {"resident_bytes", cache->resident_bytes}};
}

json Series(const std::optional<TimeSeries>& series) {
  if (!series) return nullptr;
  json intervals = json::array();
  for (const auto& i : series->intervals) {
    intervals.push_back({{"start_seconds", i.start_seconds},
                         {"end_seconds", i.end_seconds},
                         {"upserts", i.upserts},
                         {"upserts_per_second", i.upserts_per_second},
                         {"p50_us", i.p50_us},
                         {"p99_us", i.p99_us}});
  }
  json collections = json::array();
  for (const auto& c : series->collections) {
    collections.push_back(
        {{"entity_type", c.entity_type}, {"start_seconds", c.start_seconds}, {"end_seconds", c.end_seconds}});
  }
  auto optional = [](const std::optional<double>& v) { return v ? json(*v) : json(nullptr); };
  return {{"interval_seconds", series->interval_seconds},
          {"intervals", std::move(intervals)},
          {"collections", std::move(collections)},
          {"golive_start_seconds", optional(series->golive_start_seconds)},
          {"golive_end_seconds", optional(series->golive_end_seconds)}};
}

json Config(const RunConfig& c) {
  json storage = nullptr;
  if (c.storage) {
    storage = {{"path", c.storage->path},
               {"filesystem", c.storage->filesystem},
               {"device", c.storage->device},
               {"mount_options", c.storage->mount_options},
               {"free_bytes", c.storage->free_bytes < 0 ? json(nullptr) : json(c.storage->free_bytes)}};
  }
  json config = {{"command_line", c.command_line},
                 {"server_binary", OrNull(c.server_binary)},
                 {"server_command", OrNull(c.server_command)},
                 {"server_args", c.server_args},
                 {"server_xmx", OrNull(c.server_xmx)},
                 {"storage", std::move(storage)}};
  for (const report::SetupField& field : report::SetupFields()) config[field.json_name] = field.write(c);
  return config;
}

json Server(const std::optional<ServerFigures>& server, bool golive_ran) {
  if (!server) return nullptr;
  json samples = json::array();
  for (const auto& s : server->samples) {
    samples.push_back({{"seconds", s.seconds},
                       {"rss_bytes", s.rss_bytes},
                       {"cpu_seconds", s.cpu_seconds},
                       {"golive", s.golive}});
  }
  return {{"binary", server->binary},
          {"header", server->header},
          {"build", server->build},
          {"pid", server->pid},
          {"usage", Usage(server->usage)},
          {"usage_sampled", server->usage_sampled},
          {"gc", server->gc ? json{{"log", server->gc->log},
                                   {"young_collections", server->gc->young_collections},
                                   {"full_collections", server->gc->full_collections},
                                   {"other_pauses", server->gc->other_pauses},
                                   {"pause_seconds", server->gc->pause_seconds}}
                            : json(nullptr)},
          {"gc_unavailable", server->gc_unavailable},
          {"attached", server->attached},
          {"ended", server->ended},
          {"stop_seconds", server->stop_seconds},
          {"data_dir", server->data_dir},
          {"data_bytes", server->data_bytes},
          {"peak_rss_load_bytes", server->peak_rss_load_bytes},
          {"peak_rss_golive_bytes", golive_ran ? json(server->peak_rss_golive_bytes) : json(nullptr)},
          {"samples", std::move(samples)}};
}

const char* Name(GoLiveOutcome g) {
  switch (g) {
    case GoLiveOutcome::kCompleted:
      return "completed";
    case GoLiveOutcome::kFailed:
      return "failed";
    case GoLiveOutcome::kNotAttempted:
      return "not_attempted";
  }
  return "?";
}

}  // namespace

std::string RenderJsonReport(const RunResult& r) {
  json collections = json::array();
  for (const auto& c : r.collections) {
    json entry = {{"entity_type", c.entity_type},
                  {"source_count", c.source_count},
                  {"expected_count", c.expected_count},
                  {"copied", c.copied},
                  {"failed", c.failed},
                  {"wall_seconds", c.wall_seconds},
                  {"read_seconds", c.read_seconds},
                  {"upsert", Stats(c.upsert)}};
    entry["server"] = c.server ? Stats(*c.server) : json(nullptr);
    entry["target_count"] = c.target_count ? json(*c.target_count) : json(nullptr);
    entry["reached"] = c.reached;
    collections.push_back(std::move(entry));
  }
  json indexes = json::array();
  for (const auto& c : r.index_statistics) {
    json kinds = json::array();
    for (const auto& k : c.kinds) {
      kinds.push_back({{"kind", IndexKindName(k.kind)},
                       {"indexes", k.indexes},
                       {"entities", k.entities},
                       {"entries", k.entries},
                       {"bytes", k.bytes}});
    }
    indexes.push_back({{"entity_type", c.entity_type}, {"indexes", c.total_indexes()}, {"kinds", kinds}});
  }
  const auto& e = r.environment;
  json doc = {
      {"schema", "warmup-run/9"},
      {"run_label", r.run_label},
      {"started_at", r.started_at},
      {"loader_pid", r.loader_pid},
      {"config", Config(r.config)},
      {"source", r.source},
      {"dataset_fingerprint", r.dataset_fingerprint},
      {"target", r.target},
      {"source_catalog", r.source_catalog},
      {"target_catalog", r.target_catalog},
      {"environment",
       {{"hostname", e.hostname},
        {"cpu_model", e.cpu_model},
        {"cores", e.cores},
        {"memory_limit_bytes", e.memory_limit_bytes},
        {"cpu_limit", e.cpu_limit},
        {"kernel", e.kernel},
        {"build", e.build},
        {"build_details", e.build_details},
        {"at_start", Load(e.at_start)},
        {"at_end", Load(e.at_end)},
        {"steal_share", e.steal_share() ? json(*e.steal_share()) : json(nullptr)}}},
      {"source_cache", Cache(r.source_cache)},
      {"collections", std::move(collections)},
      {"index_statistics", std::move(indexes)},
      {"load_wall_seconds", r.load_wall_seconds},
      {"source_read_seconds", r.source_read_seconds},
      {"upsert", Stats(r.upsert)},
      {"server", r.server ? Stats(*r.server) : json(nullptr)},
      {"first_upsert", r.first_upsert ? json{{"entity_type", r.first_upsert->entity_type},
                                             {"primary_key", r.first_upsert->primary_key},
                                             {"us", r.first_upsert->us}}
                                      : json(nullptr)},
      {"loop_overhead_seconds", r.loop_overhead_seconds},
      {"golive", {{"outcome", Name(r.golive)}, {"seconds", r.golive_seconds}, {"error", r.golive_error}}},
      {"total_seconds", r.total_seconds() ? json(*r.total_seconds()) : json(nullptr)},
      {"verification",
       {{"outcome", VerificationName(r.verification)},
        {"check", VerifyModeName(r.verify_mode)},
        {"seconds", r.verification_seconds},
        {"content_compared", r.content_compared},
        {"content_differences", r.content_differences},
        {"first_differences", r.first_differences},
        {"error", r.verification_error}}},
      {"abort_error", r.abort_error.empty() ? json(nullptr) : json(r.abort_error)},
      {"abort_reason", AbortReasonName(r.abort_reason)},
      {"collection_subset", r.collection_subset},
      {"target_drop",
       {{"outcome", TargetDropName(r.target_drop)},
        {"error", r.target_drop_error.empty() ? json(nullptr) : json(r.target_drop_error)}}},
      {"loader", Usage(r.loader)},
      {"server_process", Server(r.server_process, r.golive != GoLiveOutcome::kNotAttempted)},
      {"source_server_process", Server(r.source_server_process, false)},
      {"server_identity", r.server_identity ? json{{"description", DescribeServer(*r.server_identity)},
                                                   {"address", r.server_identity->address},
                                                   {"version", r.server_identity->version},
                                                   {"instance_id", r.server_identity->instance_id},
                                                   {"started_at", r.server_identity->started_at},
                                                   {"readiness", r.server_identity->readiness},
                                                   {"readiness_probed", r.server_identity->readiness_probed}}
                                            : json(nullptr)},
      {"notes", r.notes},
      {"output_error", r.output_error.empty() ? json(nullptr) : json(r.output_error)},
      {"time_series", Series(r.time_series)},
      {"target_data", r.target_data ? json{{"dir", r.target_data->dir},
                                           {"bytes_at_golive_start", r.target_data->bytes_at_golive_start},
                                           {"bytes_at_golive_end", r.target_data->bytes_at_golive_end}}
                                    : json(nullptr)},
      {"copied", r.copied()},
      {"expected", r.expected()},
      {"exit_code", r.ExitCode()},
      {"verdict", RunVerdict(r)},
      {"caveats", RunCaveats(r)},
  };
  return doc.dump(2) + "\n";
}

}  // namespace warmup
