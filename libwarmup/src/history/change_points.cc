// E-divisive means and the history's series searched with it
// (warmup/change_points.h).
#include "warmup/change_points.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <random>
#include <sstream>

#include "warmup/run_record.h"

namespace warmup {
namespace {

struct Split {
  size_t tau = 0;  // the first index of the right part
  double q = -std::numeric_limits<double>::infinity();
};

// The split of `v` with the largest energy statistic, at least `min` values
// on each side. With D(i, j) = |v_i - v_j| and X = v[0, tau), Y = v[tau, n):
//   E = 2 / (m k) sum_{X x Y} D - sum_{pairs in X} D / C(m, 2) - sum_{pairs in Y} D / C(k, 2),
//   Q = m k / (m + k) E.
// Moving one value from Y to X changes the three sums by its distances to
// the values before and after it, so every split costs O(n^2) together.
Split BestSplit(const std::vector<double>& v, size_t min) {
  const size_t n = v.size();
  std::vector<double> before(n, 0), after(n, 0);  // sum of D to earlier / later values
  double total = 0;
  for (size_t t = 1; t < n; ++t) {
    for (size_t i = 0; i < t; ++i) {
      const double d = std::abs(v[i] - v[t]);
      before[t] += d;
      after[i] += d;
      total += d;
    }
  }
  Split best;
  double within_x = 0, within_y = total, across = 0;
  for (size_t tau = 1; tau < n; ++tau) {
    const size_t t = tau - 1;  // moves from Y to X
    within_x += before[t];
    within_y -= after[t];
    across += after[t] - before[t];
    const double m = static_cast<double>(tau), k = static_cast<double>(n - tau);
    if (tau < min || n - tau < min) continue;
    const double e = 2 * across / (m * k) - within_x / (m * (m - 1) / 2) - within_y / (k * (k - 1) / 2);
    const double q = m * k / (m + k) * e;
    if (q > best.q) best = {tau, q};
  }
  return best;
}

// Fisher-Yates over a standard generator: the same seed, the same order on
// every build (std::shuffle's algorithm is the library's choice).
void Shuffle(std::vector<double>& v, std::mt19937_64& rng) {
  for (size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[rng() % i]);
}

double Mean(const std::vector<double>& v) {
  double sum = 0;
  for (double x : v) sum += x;
  return sum / static_cast<double>(v.size());
}

const std::vector<std::string>& HeadlineMetrics() {
  static const std::vector<std::string> kMetrics = {
      run_metric::kTotalSeconds,      run_metric::kNetLoadSeconds,     run_metric::kGoLiveSeconds,
      run_metric::kProductMeanUpsert, run_metric::kServerCpuPerEntity, run_metric::kServerPeakRss};
  return kMetrics;
}

MetricChanges SearchMetric(const std::string& metric, const std::vector<const HistoryRun*>& runs,
                           const HistoryChangesOptions& options, double alpha) {
  MetricChanges out;
  out.metric = metric;
  std::vector<double> values;
  std::vector<const HistoryRun*> with;
  for (const HistoryRun* r : runs) {
    auto it = r->record.metrics.find(metric);
    if (it == r->record.metrics.end()) continue;
    out.unit = it->second.unit;
    values.push_back(it->second.value);
    with.push_back(r);
    out.points.push_back(
        {r->record.run_label, r->record.started_at, r->record.build, r->record.server, it->second.value});
  }
  out.runs = values.size();
  if (values.size() < 2 * static_cast<size_t>(options.detection.min_segment)) return out;
  const std::vector<ChangePoint> points = EDivisive(values, options.detection, alpha);
  std::vector<size_t> bounds = {0};
  for (const ChangePoint& p : points) bounds.push_back(p.index);
  bounds.push_back(values.size());
  auto segment = [&](size_t s) {
    return std::vector<double>(values.begin() + static_cast<std::ptrdiff_t>(bounds[s]),
                               values.begin() + static_cast<std::ptrdiff_t>(bounds[s + 1]));
  };
  // The series' noise: each run's distance from its segment's median,
  // relative to that median; their median, scaled to a standard deviation.
  std::vector<double> deviations;
  for (size_t s = 0; s + 1 < bounds.size(); ++s) {
    const std::vector<double> part = segment(s);
    const double median = Median(part);
    if (median == 0) continue;
    for (double v : part) deviations.push_back(std::abs(v - median) / std::abs(median));
  }
  out.noise = deviations.empty() ? 0 : 1.4826 * Median(deviations);
  const double threshold = options.threshold > 0 ? options.threshold : std::max(0.01, 2 * out.noise);
  out.threshold = threshold;
  out.detectable_change = DetectableRelativeChange(out.noise, values.size() - bounds[bounds.size() - 2],
                                                   static_cast<size_t>(options.detection.min_segment));
  for (size_t c = 0; c < points.size(); ++c) {
    const std::vector<double> before = segment(c), after = segment(c + 1);
    MetricChange change;
    change.index = points[c].index;
    const HistoryRun& first = *with[change.index];
    change.run_label = first.record.run_label;
    change.started_at = first.record.started_at;
    change.build = first.record.build;
    change.build_before = with[change.index - 1]->record.build;
    change.server = first.record.server;
    change.server_before = with[change.index - 1]->record.server;
    change.mean_before = Mean(before);
    change.mean_after = Mean(after);
    change.median_before = Median(before);
    change.median_after = Median(after);
    change.relative_change = change.mean_before == 0 ? 0 : change.mean_after / change.mean_before - 1;
    if (change.median_before != 0) {
      change.ratio_ci =
          BootstrapRatioOfMedians(before, after, options.resamples, options.detection.seed + change.index);
    }
    change.p_value = points[c].p_value;
    change.threshold = threshold;
    change.regression = change.relative_change > threshold && change.ratio_ci.low > 1;
    out.changes.push_back(change);
  }
  return out;
}

std::string Fixed(double v, int places) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.*f", places, v);
  return buf;
}

// A value in its metric's unit as a reader takes it in.
std::string Figure(double value, const std::string& unit) {
  if (unit == "bytes") return Fixed(value / (1024.0 * 1024.0), 1) + " MiB";
  return Fixed(value, unit == "s" ? 3 : 1) + " " + unit;
}

std::string SignedPercent(double share) { return (share >= 0 ? "+" : "") + Fixed(share * 100, 1) + " %"; }

}  // namespace

std::string HistoryChanges::Verdict() const {
  const HistoryChanges& h = *this;
  std::string verdict;
  for (size_t i = 0; i < h.series.size() && verdict.empty(); ++i) {
    for (const MetricChanges& m : h.series[i].metrics) {
      if (!m.changes.empty() && m.changes.back().regression) {
        verdict = "REGRESSION: " + m.metric + " of series " + std::to_string(i + 1) + " at " +
                  m.changes.back().run_label + " (" + SignedPercent(m.changes.back().relative_change) + ")";
        break;
      }
    }
  }
  const int exit_code = h.ExitCode();
  if (exit_code == kCompareInconclusive) {
    for (size_t i = 0; i < h.series.size() && verdict.empty(); ++i) {
      for (const MetricChanges& m : h.series[i].metrics) {
        if (m.searched(h.min_segment) && !m.resolves_threshold()) {
          verdict = "inconclusive: " + m.metric + " of series " + std::to_string(i + 1) +
                    " could not have shown a change of " + SignedPercent(m.threshold) +
                    " (its threshold) in " + std::to_string(m.runs) + " runs at " + Fixed(m.noise * 100, 1) +
                    " % noise; the smallest it could show is " + SignedPercent(m.detectable_change) +
                    ": take more runs, or give the --threshold that matters";
          break;
        }
      }
    }
    if (verdict.empty()) {
      verdict = "inconclusive: no series has enough runs (" + std::to_string(2 * h.min_segment) +
                ") to look for a change";
    }
  } else if (verdict.empty()) {
    verdict = "no regression at the newest change point of any series";
  }
  return verdict + " (exit " + std::to_string(exit_code) + ")";
}

std::vector<ChangePoint> EDivisive(const std::vector<double>& values, const ChangePointOptions& options,
                                   double alpha) {
  const size_t min = static_cast<size_t>(std::max(2, options.min_segment));
  std::mt19937_64 rng(options.seed);
  std::vector<std::pair<size_t, size_t>> segments = {{0, values.size()}};
  std::vector<ChangePoint> points;
  for (;;) {
    size_t chosen = segments.size();
    Split best;
    for (size_t s = 0; s < segments.size(); ++s) {
      const auto [begin, end] = segments[s];
      if (end - begin < 2 * min) continue;
      const Split split = BestSplit(std::vector<double>(values.begin() + static_cast<std::ptrdiff_t>(begin),
                                                        values.begin() + static_cast<std::ptrdiff_t>(end)),
                                    min);
      if (split.q > best.q) {
        best = split;
        chosen = s;
      }
    }
    if (chosen == segments.size()) break;
    const auto [begin, end] = segments[chosen];
    std::vector<double> shuffled(values.begin() + static_cast<std::ptrdiff_t>(begin),
                                 values.begin() + static_cast<std::ptrdiff_t>(end));
    int as_large = 0;
    // A tie in exact arithmetic may differ in the last bits after reordering.
    const double bar = best.q - 1e-9 * std::abs(best.q);
    for (int r = 0; r < options.permutations; ++r) {
      Shuffle(shuffled, rng);
      if (BestSplit(shuffled, min).q >= bar) ++as_large;
    }
    const double p = (1.0 + as_large) / (1.0 + options.permutations);
    if (p >= alpha) break;
    points.push_back({begin + best.tau, best.q, p});
    segments[chosen] = {begin, begin + best.tau};
    segments.insert(segments.begin() + static_cast<std::ptrdiff_t>(chosen) + 1, {begin + best.tau, end});
  }
  std::sort(points.begin(), points.end(),
            [](const ChangePoint& a, const ChangePoint& b) { return a.index < b.index; });
  return points;
}

int HistoryChanges::ExitCode() const {
  bool searched = false, unresolved = false;
  for (const SeriesChanges& s : series) {
    for (const MetricChanges& m : s.metrics) {
      if (m.searched(min_segment)) {
        searched = true;
        unresolved = unresolved || !m.resolves_threshold();
      }
      if (!m.changes.empty() && m.changes.back().regression) return kCompareRegression;
    }
  }
  return searched && !unresolved ? kCompareNoRegression : kCompareInconclusive;
}

HistoryChanges FindHistoryChanges(const std::vector<HistoryRun>& runs, const HistoryChangesOptions& options) {
  HistoryChanges out;
  out.alpha = options.detection.alpha;
  out.min_segment = options.detection.min_segment;
  std::vector<std::string> order;
  std::map<std::string, std::vector<const HistoryRun*>> by_series;
  std::map<std::string, size_t> failed;
  for (const HistoryRun& r : runs) {
    if (!by_series.contains(r.series)) order.push_back(r.series);
    std::vector<const HistoryRun*>& series = by_series[r.series];
    if (r.record.exit_code == 1 || (r.record.exit_code == 2 && !options.count_unverified)) {
      ++failed[r.series];
    } else {
      series.push_back(&r);
    }
  }
  for (const std::string& name : order) {
    const std::vector<const HistoryRun*>& series = by_series[name];
    SeriesChanges s;
    s.series = name;
    s.runs = series.size();
    s.not_counted_runs = failed[name];
    std::vector<std::string> metrics = options.metrics;
    if (metrics.empty()) {
      for (const std::string& m : HeadlineMetrics()) {
        for (const HistoryRun* r : series) {
          if (r->record.metrics.contains(m)) {
            metrics.push_back(m);
            break;
          }
        }
      }
    }
    if (s.runs >= 2 * static_cast<size_t>(options.detection.min_segment)) {
      const double alpha = options.detection.alpha / static_cast<double>(std::max<size_t>(1, metrics.size()));
      for (const std::string& m : metrics) s.metrics.push_back(SearchMetric(m, series, options, alpha));
    }
    out.series.push_back(std::move(s));
  }
  return out;
}

std::string RenderHistoryChangesText(const HistoryChanges& h) {
  std::ostringstream out;
  size_t runs = 0;
  for (const SeriesChanges& s : h.series) runs += s.runs;
  out << "history: " << runs << " runs that stood, in " << h.series.size()
      << " series; change points at alpha " << h.alpha
      << " per series (Bonferroni over its metrics), segments of at least " << h.min_segment << " runs\n";
  for (size_t i = 0; i < h.series.size(); ++i) {
    const SeriesChanges& s = h.series[i];
    out << "\nseries " << i + 1 << ": " << s.series << "\n  " << s.runs << " runs"
        << (s.not_counted_runs == 0
                ? ""
                : " (" + std::to_string(s.not_counted_runs) + " more failed or not verified, not counted)")
        << "\n";
    if (s.metrics.empty()) {
      out << "  not searched: fewer than " << 2 * h.min_segment << " runs\n";
      continue;
    }
    for (const MetricChanges& m : s.metrics) {
      out << "  " << m.metric << ": ";
      if (m.runs < 2 * static_cast<size_t>(h.min_segment)) {
        out << "not searched (" << m.runs << " runs have it)\n";
        continue;
      }
      out << (m.changes.empty()
                  ? "no change point"
                  : std::to_string(m.changes.size()) + " change point" + (m.changes.size() == 1 ? "" : "s"))
          << " in " << m.runs << " runs (noise " << Fixed(m.noise * 100, 1) << " %; threshold "
          << SignedPercent(m.threshold) << ", the smallest change it could show "
          << SignedPercent(m.detectable_change) << (m.resolves_threshold() ? "" : ": NOT RESOLVED") << ")\n";
      for (const MetricChange& c : m.changes) {
        out << "    at " << c.run_label << " (started " << c.started_at << ", build " << c.build;
        if (c.build_before != c.build) out << "; before it " << c.build_before;
        out << "): mean " << Figure(c.mean_before, m.unit) << " -> " << Figure(c.mean_after, m.unit) << ", "
            << SignedPercent(c.relative_change) << ", ratio of medians "
            << Fixed(c.median_after / c.median_before, 3) << " [" << Fixed(c.ratio_ci.low, 3) << ", "
            << Fixed(c.ratio_ci.high, 3) << "], p " << Fixed(c.p_value, 4)
            << (c.regression ? "  REGRESSION (beyond " + Fixed(c.threshold * 100, 1) + " %)" : "") << "\n";
        if (c.server_before != c.server) {
          out << "      server: " << (c.server.empty() ? "none" : c.server)
              << "; before it: " << (c.server_before.empty() ? "none" : c.server_before) << "\n";
        }
      }
    }
  }
  out << "\nverdict: " << h.Verdict() << "\n";
  return out.str();
}

std::string RenderHistoryChangesJson(const HistoryChanges& h) {
  using json = nlohmann::json;
  json series = json::array();
  for (const SeriesChanges& s : h.series) {
    json metrics = json::array();
    for (const MetricChanges& m : s.metrics) {
      json changes = json::array();
      for (const MetricChange& c : m.changes) {
        changes.push_back({{"index", c.index},
                           {"run_label", c.run_label},
                           {"started_at", c.started_at},
                           {"build", c.build},
                           {"build_before", c.build_before},
                           {"server", c.server},
                           {"server_before", c.server_before},
                           {"mean_before", c.mean_before},
                           {"mean_after", c.mean_after},
                           {"median_before", c.median_before},
                           {"median_after", c.median_after},
                           {"relative_change", c.relative_change},
                           {"ratio_ci", {c.ratio_ci.low, c.ratio_ci.high}},
                           {"p_value", c.p_value},
                           {"threshold", c.threshold},
                           {"regression", c.regression}});
      }
      json points = json::array();
      for (const SeriesPoint& p : m.points) {
        points.push_back({{"run_label", p.run_label},
                          {"started_at", p.started_at},
                          {"build", p.build},
                          {"server", p.server},
                          {"value", p.value}});
      }
      metrics.push_back({{"metric", m.metric},
                         {"unit", m.unit},
                         {"runs", m.runs},
                         {"noise", m.noise},
                         {"threshold", m.threshold},
                         {"detectable_change", m.detectable_change},
                         {"resolves_threshold", m.resolves_threshold()},
                         {"points", points},
                         {"changes", changes}});
    }
    series.push_back({{"series", s.series},
                      {"runs", s.runs},
                      {"not_counted_runs", s.not_counted_runs},
                      {"metrics", metrics}});
  }
  json doc = {{"schema", "warmup-changes/1"},
              {"alpha", h.alpha},
              {"min_segment", h.min_segment},
              {"series", series},
              {"exit_code", h.ExitCode()}};
  return doc.dump(2) + "\n";
}

}  // namespace warmup
