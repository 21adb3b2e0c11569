// Repeated runs summarized (warmup/run_summary.h).
#include "warmup/run_summary.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>
#include <sstream>

#include "warmup/compare.h"
#include "warmup/run_record.h"

namespace warmup {
namespace {

using json = nlohmann::json;

// The order a reader looks for them in: the whole first, the server's last.
int Rank(const std::string& metric) {
  for (const auto& [prefix, rank] :
       {std::pair{"total_seconds", 0}, std::pair{"net_load_seconds", 1}, std::pair{"golive_seconds", 2},
        std::pair{"upsert_mean_us:", 3}, std::pair{"upsert_median_us:", 4}, std::pair{"server_", 5}}) {
    if (metric.starts_with(prefix)) return rank;
  }
  return 6;
}

MetricSummary Summarize(const std::string& metric, const std::string& unit, std::vector<double> values) {
  MetricSummary m;
  m.metric = metric;
  m.unit = unit;
  m.values = values;
  m.trend = MannKendall(values);
  m.median = Median(values);
  const auto [min, max] = std::minmax_element(values.begin(), values.end());
  m.min = *min;
  m.max = *max;
  for (double& v : values) v = std::abs(v - m.median);
  m.range_relative = (m.max - m.min) / m.median;
  m.mad_relative = Median(values) / m.median;
  return m;
}

// A figure in the metric's unit as a reader takes it in: bytes as MiB.
std::string Figure(double value, const std::string& unit) {
  char buf[64];
  if (unit == "bytes") {
    std::snprintf(buf, sizeof(buf), "%.1f", value / (1024.0 * 1024.0));
  } else if (unit == "s") {
    std::snprintf(buf, sizeof(buf), "%.3f", value);
  } else {
    std::snprintf(buf, sizeof(buf), "%.1f", value);
  }
  return buf;
}

std::string Percent(double share) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.1f %%", share * 100);
  return buf;
}

std::string Runs(size_t n) { return std::to_string(n) + (n == 1 ? " run" : " runs"); }

}  // namespace

bool RunsSummary::complete() const {
  return incomplete.empty() && (planned_runs == 0 || files.size() >= static_cast<size_t>(planned_runs));
}

int RunsSummary::ExitCode() const {
  if (!complete()) return 1;
  return not_verified.empty() ? 0 : 2;
}

StatusOr<RunsSummary> SummarizeRuns(const std::vector<std::string>& files, int64_t min_collection_count) {
  if (files.empty()) return InvalidArgumentError("no run reports to summarize");
  std::vector<RunRecord> runs;
  for (const std::string& file : files) {
    auto run = ReadStandingRunRecord(file);
    if (!run.ok()) return run.status();
    for (const auto& [field, value] : run->setup) {
      const RunRecord& first = runs.empty() ? *run : runs.front();
      if (first.setup.at(field) != value) {
        return InvalidArgumentError(file + " and " + first.file + " measured different things (" + field +
                                    " " + value + " vs " + first.setup.at(field) +
                                    "): a summary is of one configuration");
      }
    }
    runs.push_back(std::move(run).value());
  }
  std::vector<const RunRecord*> all;
  for (const RunRecord& r : runs) all.push_back(&r);
  if (Status s = RefuseDuplicateRuns(all); !s.ok()) return s;
  RunsSummary out;
  out.files = files;
  for (const RunRecord& r : runs) {
    out.labels.push_back(r.run_label);
    if (r.exit_code == 2) out.not_verified.push_back(r.run_label);
  }
  for (const auto& [field, value] : runs.front().setup) out.setup.push_back(field + ": " + value);
  const std::set<std::string> small = SmallCollections(all, min_collection_count);
  out.small_collections.assign(small.begin(), small.end());
  out.min_collection_count = min_collection_count;
  for (const auto& [metric, first] : runs.front().metrics) {
    if (metric.starts_with(run_metric::kCollectionMedianPrefix) &&
        small.contains(metric.substr(metric.find(':') + 1))) {
      continue;
    }
    std::vector<double> values = MetricValues(runs, metric);
    if (values.empty() || Median(values) == 0) continue;
    out.metrics.push_back(Summarize(metric, first.unit, std::move(values)));
  }
  std::stable_sort(
      out.metrics.begin(), out.metrics.end(),
      [](const MetricSummary& a, const MetricSummary& b) { return Rank(a.metric) < Rank(b.metric); });
  return out;
}

std::string RenderRunsSummaryText(const RunsSummary& s) {
  std::ostringstream out;
  const size_t n = s.files.size();
  const std::string warm_up = s.warm_up_runs == 0 ? ""
                                                  : " after " + Runs(static_cast<size_t>(s.warm_up_runs)) +
                                                        " of warm-up, not counted";
  if (!s.complete()) {
    out << "PARTIAL: " << Runs(n) << " of " << std::max<size_t>(n, static_cast<size_t>(s.planned_runs))
        << " planned" << warm_up << (s.incomplete.empty() ? "" : " (" + s.incomplete + ")")
        << ": do not quote these figures as the configuration's\n";
  } else {
    out << Runs(n) << " of one configuration" << warm_up << ": "
        << (s.not_verified.empty() ? "every one verified" : "NOT all verified") << "\n";
  }
  if (!s.warm_up_rule.empty()) {
    out << (s.warm_up_settled ? "warm-up: " : "WARNING: the warm-up did not settle: ") << s.warm_up_rule
        << (s.warm_up_settled ? "" : "; the runs below may still measure it") << "\n";
  }
  if (!s.not_verified.empty()) {
    out << "not verified (exit 2, counts unknown):";
    for (const std::string& label : s.not_verified) out << " " << label;
    out << "\n";
  }
  for (const std::string& line : s.setup) out << "  " << line << "\n";
  int width = 6;
  for (const MetricSummary& m : s.metrics) width = std::max(width, static_cast<int>(m.metric.size()));
  char row[512];
  std::snprintf(row, sizeof(row), "%-*s %-9s %12s %12s %12s %9s %9s  %s\n", width, "metric", "unit", "median",
                "min", "max", "range", "MAD", "trend");
  out << row;
  for (const MetricSummary& m : s.metrics) {
    const std::string unit = m.unit == "bytes" ? "MiB" : m.unit;
    const bool one = m.values.size() == 1;
    const char* trend = !m.trend.decidable  ? "?"
                        : !m.trend.trending ? "none"
                        : m.trend.s < 0     ? "FALLING"
                                            : "RISING";
    std::snprintf(row, sizeof(row), "%-*s %-9s %12s %12s %12s %9s %9s  %s\n", width, m.metric.c_str(),
                  unit.c_str(), Figure(m.median, m.unit).c_str(), Figure(m.min, m.unit).c_str(),
                  Figure(m.max, m.unit).c_str(), one ? "n/a" : Percent(m.range_relative).c_str(),
                  one ? "n/a" : Percent(m.mad_relative).c_str(), trend);
    out << row;
  }
  for (const MetricSummary& m : s.metrics) {
    if (m.trend.trending && run_metric::ShowsWarmUp(m.metric)) {
      out << "WARNING: " << m.metric << " is " << DescribeTrend(m.trend)
          << ": these runs still measure a warm-up (a JVM's JIT, caches), not one steady configuration; "
             "take more --warmup-runs, or summarize the runs after it stops\n";
    }
  }
  if (!s.small_collections.empty()) {
    out << "median upsert not summarized, fewer than " << s.min_collection_count << " entities in a run:";
    for (const std::string& type : s.small_collections) out << " " << type;
    out << "\n";
  }
  out << "range: (max - min) / median; MAD: the median absolute deviation / median"
      << (n < 5 ? "; with fewer than 5 runs both understate the spread" : "") << "\n";
  out << "trend: Mann-Kendall over the runs in the order taken, at 5 % (FALLING, RISING or none); ?: "
         "cannot tell from fewer than 5 runs\n";
  return out.str();
}

std::string RenderRunsSummaryJson(const RunsSummary& s) {
  json metrics = json::array();
  for (const MetricSummary& m : s.metrics) {
    metrics.push_back({{"metric", m.metric},
                       {"unit", m.unit},
                       {"values", m.values},
                       {"median", m.median},
                       {"min", m.min},
                       {"max", m.max},
                       {"range_relative", m.range_relative},
                       {"mad_relative", m.mad_relative},
                       {"trend",
                        {{"s", m.trend.s},
                         {"p_value", m.trend.p_value},
                         {"exact", m.trend.exact},
                         {"decidable", m.trend.decidable},
                         {"trending", m.trend.trending}}}});
  }
  json doc = {{"schema", "warmup-runs/1"},
              {"complete", s.complete()},
              {"incomplete", s.incomplete.empty() ? json(nullptr) : json(s.incomplete)},
              {"planned_runs", std::max<size_t>(s.files.size(), static_cast<size_t>(s.planned_runs))},
              {"warm_up_runs", s.warm_up_runs},
              {"warm_up_rule", s.warm_up_rule.empty() ? json(nullptr) : json(s.warm_up_rule)},
              {"warm_up_settled", s.warm_up_settled},
              {"runs", s.labels},
              {"files", s.files},
              {"not_verified", s.not_verified},
              {"small_collections", s.small_collections},
              {"setup", s.setup},
              {"metrics", metrics},
              {"exit_code", s.ExitCode()}};
  return doc.dump(2) + "\n";
}

}  // namespace warmup
