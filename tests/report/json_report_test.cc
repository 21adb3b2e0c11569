// The JSON report against docs/measurement.md: every documented field, with
// the value it must carry, and no field the docs do not name.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <set>

#include "warmup/report.h"
#include "warmup/run_result.h"

namespace warmup {
namespace {

using nlohmann::json;

// A latency object whose every figure is distinct, derived from `base`.
LatencyStats Stats(double base, int64_t count, bool with_p999) {
  LatencyStats s;
  s.count = count;
  s.total_seconds = base + 0.1;
  s.mean_us = base + 0.2;
  s.median_us = base + 0.3;
  s.p90_us = base + 0.4;
  s.p95_us = base + 0.5;
  s.p99_us = base + 0.6;
  if (with_p999) s.p999_us = base + 0.7;
  s.max_us = base + 0.8;
  s.stddev_us = base + 0.9;
  s.cdf = {{0.0, base}, {1.0, base + 0.8}};
  return s;
}

void CheckStats(const json& j, const LatencyStats& s) {
  CHECK(j.size() == 11);
  CHECK(j["count"] == s.count);
  CHECK(j["total_seconds"] == s.total_seconds);
  CHECK(j["mean_us"] == s.mean_us);
  CHECK(j["stddev_us"] == s.stddev_us);
  CHECK(j["median_us"] == s.median_us);
  CHECK(j["p90_us"] == s.p90_us);
  CHECK(j["p95_us"] == s.p95_us);
  CHECK(j["p99_us"] == s.p99_us);
  if (s.p999_us) {
    CHECK(j["p999_us"] == *s.p999_us);
  } else {
    CHECK(j["p999_us"].is_null());
  }
  CHECK(j["max_us"] == s.max_us);
  json cdf = json::array();
  for (const auto& [q, us] : s.cdf) cdf.push_back({q, us});
  CHECK(j["cdf"] == cdf);
}

std::set<std::string> Keys(const json& j) {
  std::set<std::string> keys;
  for (const auto& [key, value] : j.items()) keys.insert(key);
  return keys;
}

RunResult Example() {
  RunResult r;
  r.run_label = "label";
  r.source = "snapshot /s";
  r.dataset_fingerprint = "f00d";
  r.target = "embedded engine in /w";
  r.source_catalog = "senesi";
  r.target_catalog = "senesi_beef";
  r.started_at = "2026-12-01T08:00:00Z";
  r.loader_pid = 4242;
  r.config.command_line = {"warmup", "reindex", "--pristine-dir", "/s"};
  r.config.target_kind = "remote";
  r.config.records = RecordStorage{RecordCompression::kZstd, RecordWrites::kInline};
  r.config.max_per_collection = 20;
  r.config.source_read_ahead = true;
  r.config.collections = {"Brand", "Product"};
  r.config.dataset_provenance = {{"generator.scale", "0.5"}};
  r.config.server_binary = "/opt/warmup";
  r.config.server_args = {"--inject-upsert-delay-us", "50"};
  r.config.storage = StorageInfo{"/w", "ext4", "/dev/vda1 (254:1)", "rw,relatime", 1000};
  r.first_upsert = RunResult::FirstUpsert{"Brand", 1, 737.5};
  r.notes = {"a note"};
  r.output_error = "cannot write --html /dev/full";
  r.environment.hostname = "host";
  r.environment.cpu_model = "cpu";
  r.environment.cores = 2;
  r.environment.memory_limit_bytes = 24LL << 30;
  r.environment.cpu_limit = "200000 100000";
  r.environment.kernel = "6.1";
  r.environment.build = "warmup 0.1.0 (abc)";
  r.environment.build_details = "0.1.0 (abc), GNU 12.2.0, Release [-O3]";
  r.environment.at_start = {0.5, 1000, 10};
  r.environment.at_end = {1.5, 3000, 60};  // 50 of 2000 ticks stolen
  r.source_cache = SourceCache{"prewarmed", 3, 3000, 2048};
  CollectionResult brand;
  brand.entity_type = "Brand";
  brand.source_count = 21;
  brand.expected_count = 20;
  brand.copied = 19;
  brand.failed = 1;
  brand.wall_seconds = 1.5;
  brand.read_seconds = 0.25;
  brand.upsert = Stats(10, 20, false);
  brand.server = Stats(20, 19, false);
  brand.target_count = 18;
  CollectionResult product;
  product.entity_type = "Product";
  product.source_count = 2000;
  product.expected_count = 2000;
  product.upsert = Stats(30, 2000, true);
  r.collections = {brand, product};
  r.index_statistics = {{"Product",
                         {{IndexKind::kGlobal, 1, 10, 200, 3000},
                          {IndexKind::kReferencedEntity, 4, 12, 90, 800},
                          {IndexKind::kReferencedEntityType, 1, 4, 4, 50}}}};
  r.load_wall_seconds = 7.5;
  r.source_read_seconds = 1.25;
  r.upsert = Stats(40, 2020, true);
  r.server = Stats(50, 19, false);
  r.loop_overhead_seconds = 0.125;
  r.golive = GoLiveOutcome::kCompleted;
  r.golive_seconds = 2.5;
  r.verify_mode = VerifyMode::kContent;
  r.verification = Verification::kContentDiffers;
  r.verification_error = "";
  r.verification_seconds = 0.75;
  r.content_compared = 41;
  r.content_differences = 2;
  r.first_differences = {"Brand/3: differs in prices", "Brand/9: missing from the target"};
  r.abort_error = "entity Brand/4 was rejected";
  r.abort_reason = AbortReason::kEntityRejected;
  r.collection_subset = true;
  r.target_drop = TargetDrop::kFailed;
  r.target_drop_error = "UNAVAILABLE: gone";
  r.loader = {3.5, 0.75, 123456789, 11, 2, 33, 44};
  ServerFigures server;
  server.binary = "/opt/warmup";
  server.header = "warmup serve 0.1.0: pid 77";
  server.build = "0.1.0 (abc), GNU 12.2.0, Release [-O3]";
  server.pid = 77;
  server.usage.peak_rss_bytes = 555;
  server.ended = "exited 0";
  server.stop_seconds = 0.375;
  server.data_dir = "/w";
  server.data_bytes = 4096;
  server.peak_rss_load_bytes = 500;
  server.peak_rss_golive_bytes = 555;
  server.samples = {{0.25, 500, 0.1, false}, {0.5, 555, 0.2, true}};
  server.gc = GcFigures{"/w/gc.log", 7, 1, 2, 0.125};
  r.server_process = server;
  r.server_identity = ServerIdentity{"127.0.0.1:5555",       "2026.2.0-SNAPSHOT", "evitaDB-a7c2",
                                     "2026-12-07T02:15:00Z", "API_UNKNOWN",       false};
  TimeSeries series;
  series.interval_seconds = 0.5;
  series.intervals = {{0, 0.5, 10, 20, 100, 900}};
  series.collections = {{"Brand", 0, 0.4}};
  series.golive_start_seconds = 0.6;
  r.time_series = series;
  r.target_data = TargetData{"/w/data", 1000, 3500};
  return r;
}

TEST_CASE("the JSON report carries every documented figure with its value") {
  const RunResult r = Example();
  const json j = json::parse(RenderJsonReport(r));
  CHECK(Keys(j) == std::set<std::string>{"schema",
                                         "run_label",
                                         "started_at",
                                         "source",
                                         "dataset_fingerprint",
                                         "target",
                                         "source_catalog",
                                         "target_catalog",
                                         "environment",
                                         "source_cache",
                                         "collections",
                                         "index_statistics",
                                         "loader_pid",
                                         "config",
                                         "first_upsert",
                                         "notes",
                                         "output_error",
                                         "verdict",
                                         "caveats",
                                         "load_wall_seconds",
                                         "source_read_seconds",
                                         "upsert",
                                         "server",
                                         "loop_overhead_seconds",
                                         "golive",
                                         "total_seconds",
                                         "verification",
                                         "abort_error",
                                         "abort_reason",
                                         "collection_subset",
                                         "target_drop",
                                         "loader",
                                         "server_process",
                                         "source_server_process",
                                         "server_identity",
                                         "time_series",
                                         "target_data",
                                         "copied",
                                         "expected",
                                         "exit_code"});
  CHECK(j["schema"] == "warmup-run/9");
  CHECK(j["loader_pid"] == 4242);
  CHECK(j["config"] == json{{"command_line", {"warmup", "reindex", "--pristine-dir", "/s"}},
                            {"target_kind", "remote"},
                            {"compression", "zstd"},
                            {"record_writes", "inline"},
                            {"max_per_collection", 20},
                            {"source_read_ahead", true},
                            {"collections", {"Brand", "Product"}},
                            {"dataset_provenance", {{"generator.scale", "0.5"}}},
                            {"server_binary", "/opt/warmup"},
                            {"server_command", nullptr},
                            {"server_args", {"--inject-upsert-delay-us", "50"}},
                            {"server_xmx", nullptr},
                            {"storage",
                             {{"path", "/w"},
                              {"filesystem", "ext4"},
                              {"device", "/dev/vda1 (254:1)"},
                              {"mount_options", "rw,relatime"},
                              {"free_bytes", 1000}}}});
  CHECK(j["first_upsert"] == json{{"entity_type", "Brand"}, {"primary_key", 1}, {"us", 737.5}});
  CHECK(j["notes"] == json{"a note"});
  CHECK(j["output_error"] == "cannot write --html /dev/full");
  CHECK(j["verdict"] == "FAILED: do not quote these figures");
  CHECK(j["caveats"].size() >= 2);
  CHECK(j["run_label"] == "label");
  CHECK(j["started_at"] == "2026-12-01T08:00:00Z");
  CHECK(j["source"] == "snapshot /s");
  CHECK(j["dataset_fingerprint"] == "f00d");
  CHECK(j["target"] == "embedded engine in /w");
  CHECK(j["source_catalog"] == "senesi");
  CHECK(j["target_catalog"] == "senesi_beef");
  CHECK(j["environment"] ==
        json{{"hostname", "host"},
             {"cpu_model", "cpu"},
             {"cores", 2},
             {"memory_limit_bytes", 24LL << 30},
             {"cpu_limit", "200000 100000"},
             {"kernel", "6.1"},
             {"build", "warmup 0.1.0 (abc)"},
             {"build_details", "0.1.0 (abc), GNU 12.2.0, Release [-O3]"},
             {"at_start", {{"load_average_1m", 0.5}, {"cpu_ticks", 1000}, {"steal_ticks", 10}}},
             {"at_end", {{"load_average_1m", 1.5}, {"cpu_ticks", 3000}, {"steal_ticks", 60}}},
             {"steal_share", 0.025}});
  CHECK(j["source_cache"] ==
        json{{"action", "prewarmed"}, {"files", 3}, {"bytes", 3000}, {"resident_bytes", 2048}});
  REQUIRE(j["index_statistics"].size() == 1);
  const json& indexes = j["index_statistics"][0];
  CHECK(indexes["entity_type"] == "Product");
  CHECK(indexes["indexes"] == 6);
  REQUIRE(indexes["kinds"].size() == 3);
  CHECK(
      indexes["kinds"][1] ==
      json{{"kind", "REFERENCED_ENTITY"}, {"indexes", 4}, {"entities", 12}, {"entries", 90}, {"bytes", 800}});
  CHECK(indexes["kinds"][2]["kind"] == "REFERENCED_ENTITY_TYPE");
  REQUIRE(j["collections"].size() == 2);
  const json& brand = j["collections"][0];
  CHECK(Keys(brand) == std::set<std::string>{"entity_type", "source_count", "expected_count", "copied",
                                             "failed", "wall_seconds", "read_seconds", "upsert", "server",
                                             "target_count", "reached"});
  CHECK(brand["entity_type"] == "Brand");
  CHECK(brand["source_count"] == 21);
  CHECK(brand["expected_count"] == 20);
  CHECK(brand["copied"] == 19);
  CHECK(brand["failed"] == 1);
  CHECK(brand["wall_seconds"] == 1.5);
  CHECK(brand["read_seconds"] == 0.25);
  CheckStats(brand["upsert"], r.collections[0].upsert);
  CheckStats(brand["server"], *r.collections[0].server);
  CHECK(brand["target_count"] == 18);
  const json& product = j["collections"][1];
  CHECK(product["server"].is_null());
  CHECK(product["target_count"].is_null());
  CheckStats(product["upsert"], r.collections[1].upsert);
  CHECK(j["load_wall_seconds"] == 7.5);
  CHECK(j["source_read_seconds"] == 1.25);
  CheckStats(j["upsert"], r.upsert);
  CheckStats(j["server"], *r.server);
  CHECK(j["loop_overhead_seconds"] == 0.125);
  CHECK(j["golive"] == json{{"outcome", "completed"}, {"seconds", 2.5}, {"error", ""}});
  CHECK(j["total_seconds"] == 10.0);
  CHECK(j["verification"] ==
        json{{"outcome", "content_differs"},
             {"check", "content"},
             {"seconds", 0.75},
             {"content_compared", 41},
             {"content_differences", 2},
             {"first_differences", {"Brand/3: differs in prices", "Brand/9: missing from the target"}},
             {"error", ""}});
  CHECK(j["abort_error"] == "entity Brand/4 was rejected");
  CHECK(j["abort_reason"] == "entity_rejected");
  CHECK(j["collection_subset"] == true);
  CHECK(j["target_drop"] == json{{"outcome", "failed"}, {"error", "UNAVAILABLE: gone"}});
  CHECK(j["loader"] == json{{"user_seconds", 3.5},
                            {"system_seconds", 0.75},
                            {"peak_rss_bytes", 123456789},
                            {"minor_faults", 11},
                            {"major_faults", 2},
                            {"voluntary_context_switches", 33},
                            {"involuntary_context_switches", 44}});
  const json& server = j["server_process"];
  CHECK(Keys(server) == std::set<std::string>{"binary", "header", "build", "usage_sampled", "gc",
                                              "gc_unavailable", "pid", "usage", "attached", "ended",
                                              "stop_seconds", "data_dir", "data_bytes", "peak_rss_load_bytes",
                                              "peak_rss_golive_bytes", "samples"});
  CHECK(server["binary"] == "/opt/warmup");
  CHECK(server["header"] == "warmup serve 0.1.0: pid 77");
  CHECK(server["pid"] == 77);
  CHECK(server["usage_sampled"] == false);
  CHECK(server["gc"] == json{{"log", "/w/gc.log"},
                             {"young_collections", 7},
                             {"full_collections", 1},
                             {"other_pauses", 2},
                             {"pause_seconds", 0.125}});
  CHECK(server["gc_unavailable"] == "");
  CHECK(server["usage"]["peak_rss_bytes"] == 555);
  CHECK(server["ended"] == "exited 0");
  CHECK(server["stop_seconds"] == 0.375);
  CHECK(server["attached"] == false);
  CHECK(j["server_identity"] == json{{"description",
                                      "evitaDB 2026.2.0-SNAPSHOT at 127.0.0.1:5555, instance evitaDB-a7c2, "
                                      "started 2026-12-07T02:15:00Z, readiness API_UNKNOWN"},
                                     {"address", "127.0.0.1:5555"},
                                     {"version", "2026.2.0-SNAPSHOT"},
                                     {"instance_id", "evitaDB-a7c2"},
                                     {"started_at", "2026-12-07T02:15:00Z"},
                                     {"readiness", "API_UNKNOWN"},
                                     {"readiness_probed", false}});
  // A readiness that was not probed is a caveat of the run.
  bool said = false;
  for (const auto& caveat : j["caveats"]) {
    said = said || caveat.get<std::string>().find("API_UNKNOWN") != std::string::npos;
  }
  CHECK(said);
  CHECK(j["target_data"] ==
        json{{"dir", "/w/data"}, {"bytes_at_golive_start", 1000}, {"bytes_at_golive_end", 3500}});
  CHECK(server["data_dir"] == "/w");
  CHECK(server["data_bytes"] == 4096);
  CHECK(server["peak_rss_load_bytes"] == 500);
  CHECK(server["peak_rss_golive_bytes"] == 555);
  CHECK(server["samples"] ==
        json::array({json{{"seconds", 0.25}, {"rss_bytes", 500}, {"cpu_seconds", 0.1}, {"golive", false}},
                     json{{"seconds", 0.5}, {"rss_bytes", 555}, {"cpu_seconds", 0.2}, {"golive", true}}}));
  CHECK(j["time_series"] ==
        json{{"interval_seconds", 0.5},
             {"intervals", json::array({json{{"start_seconds", 0},
                                             {"end_seconds", 0.5},
                                             {"upserts", 10},
                                             {"upserts_per_second", 20},
                                             {"p50_us", 100},
                                             {"p99_us", 900}}})},
             {"collections",
              json::array({json{{"entity_type", "Brand"}, {"start_seconds", 0}, {"end_seconds", 0.4}}})},
             {"golive_start_seconds", 0.6},
             {"golive_end_seconds", nullptr}});
  CHECK(j["copied"] == 19);
  CHECK(j["expected"] == 2020);
  CHECK(j["exit_code"] == 1);
}

TEST_CASE("the JSON report's outcome names, and nulls where a figure does not exist") {
  RunResult r = Example();
  r.collections.clear();
  r.server.reset();
  r.server_process.reset();
  r.server_identity.reset();
  r.abort_error.clear();
  r.output_error.clear();
  r.first_upsert.reset();
  r.config.storage.reset();
  {
    const json j = json::parse(RenderJsonReport(r));
    CHECK(j["first_upsert"].is_null());
    CHECK(j["output_error"].is_null());
    CHECK(j["config"]["storage"].is_null());
  }
  const std::pair<GoLiveOutcome, const char*> golive[] = {{GoLiveOutcome::kCompleted, "completed"},
                                                          {GoLiveOutcome::kFailed, "failed"},
                                                          {GoLiveOutcome::kNotAttempted, "not_attempted"}};
  for (const auto& [outcome, name] : golive) {
    r.golive = outcome;
    const json j = json::parse(RenderJsonReport(r));
    CHECK(j["golive"]["outcome"] == name);
    CHECK(j["total_seconds"].is_null() == (outcome != GoLiveOutcome::kCompleted));
    CHECK(j["server"].is_null());
    CHECK(j["server_process"].is_null());
    CHECK(j["source_server_process"].is_null());  // read from a snapshot, not through a source server
    CHECK(j["server_identity"].is_null());
    CHECK(j["abort_error"].is_null());
  }
  r.golive = GoLiveOutcome::kCompleted;
  const std::pair<Verification, const char*> verification[] = {
      {Verification::kVerified, "verified"},
      {Verification::kSkipped, "skipped"},
      {Verification::kUnknown, "unknown"},
      {Verification::kMismatch, "mismatch"},
      {Verification::kContentDiffers, "content_differs"},
      {Verification::kNotReached, "not_reached"},
      {Verification::kNotApplicable, "not_applicable"}};
  for (const auto& [outcome, name] : verification) {
    r.verification = outcome;
    r.verification_error = outcome == Verification::kUnknown ? "counting Brand: UNAVAILABLE" : "";
    const json j = json::parse(RenderJsonReport(r));
    CHECK(j["verification"]["outcome"] == name);
    CHECK(j["verification"]["error"] == r.verification_error);
    CHECK(j["exit_code"] == r.ExitCode());
  }
}

}  // namespace
}  // namespace warmup
