// Run reports read back (warmup/run_record.h): the one place that knows
// which fields of a report are metrics and which say what was measured.
#include "warmup/run_record.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <string_view>

#include "report/json_file.h"
#include "report/setup_fields.h"
#include "warmup/server_identity.h"

namespace warmup {
namespace {

using json = nlohmann::json;
using report::JoinedWords;

// "0.1.0 (1d8870bdffb8, with uncommitted changes), GNU 12.2.0, ..." ->
// "0.1.0 (1d8870bdffb8+)"; a build said otherwise (another server's) as it is.
std::string ShortBuild(const std::string& details) {
  const size_t close = details.find(')');
  if (close == std::string::npos) return details;
  std::string build = details.substr(0, close + 1);
  const std::string dirty = ", with uncommitted changes)";
  if (build.ends_with(dirty)) build = build.substr(0, build.size() - dirty.size()) + "+)";
  return build;
}

// The setup (report/setup_fields.h, and the dataset and the host) and what
// made the run.
void ReadSetup(const json& doc, RunRecord& run) {
  const json& env = doc.at("environment");
  run.setup["dataset"] = doc.at("dataset_fingerprint").get<std::string>();
  run.setup["host"] = env.at("hostname").get<std::string>() + ", " + env.at("cpu_model").get<std::string>() +
                      ", " + std::to_string(env.at("cores").get<int>()) + " cores";
  const json* config = doc.contains("config") && doc.at("config").is_object() ? &doc.at("config") : nullptr;
  for (const report::SetupField& field : report::SetupFields()) {
    run.setup[field.label] = field.read(config, doc, run.setup);
  }
  if (config != nullptr) {
    auto text = [&](const char* name) {
      return config->contains(name) && config->at(name).is_string() ? config->at(name).get<std::string>()
                                                                    : std::string();
    };
    std::string server =
        !text("server_command").empty() ? "command " + text("server_command") : text("server_binary");
    if (!config->at("server_args").empty()) {
      server += " (serve " + JoinedWords(config->at("server_args")) + ")";
    }
    if (!text("server_xmx").empty()) server += ", heap " + text("server_xmx");
    run.server = server;
    run.command_line = JoinedWords(config->at("command_line"));
  }
  run.loader_build = env.at("build_details").get<std::string>();
  run.host_cores = env.at("cores").get<int>();
  if (env.contains("at_start") && env.at("at_start").value("load_average_1m", json()).is_number()) {
    run.load_average_at_start = env.at("at_start").at("load_average_1m").get<double>();
  }
  if (env.contains("steal_share") && env.at("steal_share").is_number()) {
    run.steal_share = env.at("steal_share").get<double>();
  }
  const json& server = doc.at("server_process");
  if (!server.is_null()) {
    run.server_build = server.value("build", "");
    if (run.server.empty()) run.server = server.value("binary", "");
  }
  // What the server said of itself (warmup-run/9): a server warmup did not
  // start is named by where it was reached, and evitaDB's build by its version.
  if (doc.contains("server_identity") && doc.at("server_identity").is_object()) {
    const json& said = doc.at("server_identity");
    ServerIdentity identity;
    identity.version = said.value("version", "");
    if (run.server_build.empty()) run.server_build = identity.named_version();
    if (run.server.empty()) run.server = "at " + said.value("address", "") + " (not started by warmup)";
  }
  run.build = ShortBuild(run.server_build.empty() ? run.loader_build : run.server_build);
  run.identity =
      doc.at("run_label").get<std::string>() + ", started " + doc.at("started_at").get<std::string>() +
      " on " + env.at("hostname").get<std::string>() +
      (doc.contains("loader_pid") ? ", pid " + std::to_string(doc.at("loader_pid").get<int>()) : "");
}

void ReadMetrics(const json& doc, RunRecord& run) {
  auto put = [&](const std::string& name, double value, const char* unit) {
    run.metrics[name] = {value, unit, std::nullopt};
  };
  if (!doc.at("total_seconds").is_null()) {
    put(run_metric::kTotalSeconds, doc.at("total_seconds").get<double>(), "s");
  }
  put(run_metric::kNetLoadSeconds,
      doc.at("load_wall_seconds").get<double>() - doc.at("source_read_seconds").get<double>(), "s");
  put(run_metric::kGoLiveSeconds, doc.at("golive").at("seconds").get<double>(), "s");
  for (const json& c : doc.at("collections")) {
    const int64_t copied = c.at("copied").get<int64_t>();
    if (copied == 0) continue;
    const std::string type = c.at("entity_type").get<std::string>();
    run.collection_counts[type] = copied;
    put(run_metric::kCollectionMedianPrefix + type, c.at("upsert").at("median_us").get<double>(), "us");
    if (type == "Product") {
      const json& upsert = c.at("upsert");
      const double mean = upsert.at("mean_us").get<double>();
      put(run_metric::kProductMeanUpsert, mean, "us");
      const int64_t count = upsert.value("count", int64_t{0});
      if (upsert.contains("stddev_us") && count >= 2 && mean > 0) {
        const double relative = upsert.at("stddev_us").get<double>() / mean;
        run.metrics[run_metric::kProductMeanUpsert].within_run_log_variance =
            relative * relative / static_cast<double>(count);
      }
    }
  }
  const json& server = doc.at("server_process");
  if (!server.is_null()) {
    const json& usage = server.at("usage");
    const double copied = doc.at("copied").get<double>();
    if (copied > 0) {
      put(run_metric::kServerCpuPerEntity,
          (usage.at("user_seconds").get<double>() + usage.at("system_seconds").get<double>()) * 1e6 / copied,
          "us/entity");
    }
    put(run_metric::kServerPeakRss, usage.at("peak_rss_bytes").get<double>(), "bytes");
  }
}

StatusOr<RunRecord> FromJson(const json& doc, const std::string& file, const std::string& path) {
  auto bad = [&](const std::string& why) { return InvalidArgumentError(file + ": " + why); };
  const std::string schema = doc.value("schema", "");
  if (schema != "warmup-run/9" && schema != "warmup-run/8" && schema != "warmup-run/7" &&
      schema != "warmup-run/6" && schema != "warmup-run/5") {
    return bad("not a run report (schema warmup-run/9, 8, 7, 6 or 5), but " +
               doc.value("schema", std::string("no schema")));
  }
  try {
    RunRecord run;
    run.file = file;
    run.path = path;
    run.schema = schema;
    run.run_label = doc.at("run_label").get<std::string>();
    run.started_at = doc.at("started_at").get<std::string>();
    run.exit_code = doc.at("exit_code").get<int>();
    if (run.exit_code == 1) {
      const std::string abort = doc.at("abort_reason").get<std::string>();
      run.failure = doc.at("verification").at("outcome").get<std::string>() +
                    (abort == "none" ? std::string() : ", " + abort);
    }
    ReadSetup(doc, run);
    ReadMetrics(doc, run);
    return run;
  } catch (const json::exception& e) {
    return bad(std::string("a field of the run report is missing or of the wrong type (") + e.what() + ")");
  }
}

}  // namespace

namespace {
// Every metric name but the collections' medians, in the order a reader looks for them.
constexpr const char* kFixedMetrics[] = {run_metric::kTotalSeconds,       run_metric::kNetLoadSeconds,
                                         run_metric::kGoLiveSeconds,      run_metric::kProductMeanUpsert,
                                         run_metric::kServerCpuPerEntity, run_metric::kServerPeakRss};
}  // namespace

bool IsRunMetricName(const std::string& metric) {
  for (const char* name : kFixedMetrics) {
    if (metric == name) return true;
  }
  const std::string per_collection = run_metric::kCollectionMedianPrefix;
  return metric.size() > per_collection.size() && metric.starts_with(per_collection);
}

std::string RunMetricNames() {
  std::string names;
  for (const char* name : kFixedMetrics) {
    names += (names.empty() ? "" : ", ") + std::string(name);
    if (std::string_view(name) == run_metric::kProductMeanUpsert) {  // the collections' medians after it
      names += std::string(", ") + run_metric::kCollectionMedianPrefix + "TYPE";
    }
  }
  return names;
}

StatusOr<RunRecord> ReadRunRecord(const std::string& file) {
  auto read = report::ReadJsonObject(file);
  if (!read.ok()) return read.status();
  std::error_code ec;
  return FromJson(*read, file, std::filesystem::weakly_canonical(file, ec).string());
}

StatusOr<RunRecord> ReadStandingRunRecord(const std::string& file) {
  auto run = ReadRunRecord(file);
  if (run.ok() && run->exit_code == 1) {
    return InvalidArgumentError(file + ": the run failed (exit 1: " + run->failure +
                                "); its figures do not stand");
  }
  return run;
}

Status RefuseDuplicateRuns(const std::vector<const RunRecord*>& runs, const std::string& context) {
  for (size_t i = 0; i < runs.size(); ++i) {
    for (size_t j = 0; j < i; ++j) {
      const bool same_file = runs[i]->path == runs[j]->path;
      if (!same_file && runs[i]->identity != runs[j]->identity) continue;
      return InvalidArgumentError(
          runs[j]->file + " and " + runs[i]->file +
          (same_file ? " are the same file" : " are the same run (" + runs[i]->identity + ")") +
          ": a run counts once" + context);
    }
  }
  return OkStatus();
}

std::set<std::string> SmallCollections(const std::vector<const RunRecord*>& runs, int64_t min_count) {
  std::set<std::string> small;
  for (const RunRecord* r : runs) {
    for (const auto& [type, count] : r->collection_counts) {
      if (count < min_count) small.insert(type);
    }
  }
  return small;
}

std::vector<double> MetricValues(const std::vector<RunRecord>& runs, const std::string& metric) {
  std::vector<double> values;
  for (const RunRecord& r : runs) {
    auto it = r.metrics.find(metric);
    if (it == r.metrics.end()) return {};
    values.push_back(it->second.value);
  }
  return values;
}

std::vector<double> WithinRunLogVariances(const std::vector<RunRecord>& runs, const std::string& metric) {
  std::vector<double> variances;
  for (const RunRecord& r : runs) {
    auto it = r.metrics.find(metric);
    if (it == r.metrics.end() || !it->second.within_run_log_variance) return {};
    variances.push_back(*it->second.within_run_log_variance);
  }
  return variances;
}

StatusOr<RunRecord> ParseRunRecord(const std::string& report_json, const std::string& name) {
  const json doc = json::parse(report_json, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded() || !doc.is_object()) return InvalidArgumentError(name + ": not JSON");
  return FromJson(doc, name, name);
}

}  // namespace warmup
