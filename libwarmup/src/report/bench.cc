// warmup bench's table: run reports read back, and the targets of the write
// path (issue 29's table, docs/performance.md) held against them.
#include "warmup/bench.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "report/format.h"
#include "report/json_file.h"
#include "warmup/record_storage.h"
#include "warmup/run_result.h"

namespace warmup {

namespace {

using json = nlohmann::json;

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
// What one run of each kind resolves, relative to the bound.
constexpr double kOneRunResolution = 0.10;

using report::Format;

// The row for a figure that could not be worked out.
BenchRow NotMeasured(BenchRow row, std::string why) {
  row.outcome = TargetOutcome::kNotMeasured;
  row.why = std::move(why);
  return row;
}

// The row with `measured` held against its bound.
BenchRow Measured(BenchRow row, double measured, std::string value) {
  row.measured = measured;
  row.value = std::move(value);
  if (std::fabs(measured - row.bound) <= kOneRunResolution * row.bound) {
    row.outcome = TargetOutcome::kTooClose;
  } else {
    row.outcome = (row.at_most ? measured <= row.bound : measured >= row.bound) ? TargetOutcome::kMet
                                                                                : TargetOutcome::kNotMet;
  }
  return row;
}

// The disk probes' rates, ascending, and their median.
struct DiskRates {
  std::vector<double> sorted;  // bytes per second
  double median = 0;
};
DiskRates RatesOf(const std::vector<DiskWrite>& probes) {
  DiskRates r;
  for (const DiskWrite& d : probes) r.sorted.push_back(d.bytes_per_second());
  std::sort(r.sorted.begin(), r.sorted.end());
  const size_t n = r.sorted.size();
  if (n > 0) r.median = n % 2 == 1 ? r.sorted[n / 2] : (r.sorted[n / 2 - 1] + r.sorted[n / 2]) / 2;
  return r;
}

// Why `run` cannot be used (empty when it can): absent, or not exit 0.
std::string Unusable(const char* name, const std::optional<BenchRun>& run, const std::string& absent) {
  if (!run) return std::string("no ") + name + " run" + (absent.empty() ? "" : " (" + absent + ")");
  if (run->exit_code != 0) {
    return std::string("the ") + name + " run exited " + std::to_string(run->exit_code) +
           (run->exit_code == 2 ? " (not verified)" : " (failed)") + ": " + run->report;
  }
  return "";
}

// `row` as the ratio of two runs' TOTALs, or not measured: `why` (a run
// that cannot be used) or a TOTAL that is missing.
BenchRow TotalsRatio(BenchRow row, const std::string& why, const std::optional<BenchRun>& top,
                     const std::optional<BenchRun>& bottom) {
  if (!why.empty()) return NotMeasured(std::move(row), why);
  if (!top->total_seconds || !bottom->total_seconds || *bottom->total_seconds <= 0) {
    return NotMeasured(std::move(row), "a TOTAL is missing (goLive did not complete)");
  }
  const double t = *top->total_seconds, b = *bottom->total_seconds;
  return Measured(std::move(row), t / b, Format("%.2f s / %.2f s", t, b));
}

// The first of `whys` that is not empty.
std::string FirstOf(std::initializer_list<std::string> whys) {
  for (const std::string& w : whys) {
    if (!w.empty()) return w;
  }
  return "";
}

// Whether the report's words say `run` wrote its records as evitaDB's
// WARM_UP upsert does (WrittenAsEvitaDb); not when it does not say.
bool ReportSaysWrittenAsEvitaDb(const BenchRun& run) {
  const auto compression = RecordCompressionNamed(run.compression);
  const auto writes = RecordWritesNamed(run.record_writes);
  return compression && writes && WrittenAsEvitaDb(RecordStorage{*compression, *writes});
}

// Empty when `run` wrote its records as evitaDB's WARM_UP upsert does, else
// what it did instead. The time targets are
// set for that mode, and a figure set against evitaDB's holds only for a run
// that did that work too (what it costs: docs/performance.md, "Stop 58").
std::string NotWrittenAsEvitaDb(const std::string& name, const BenchRun& run) {
  if (ReportSaysWrittenAsEvitaDb(run)) return "";
  return "the " + name + " run's records were " +
         (run.compression.empty() ? std::string("not said to be compressed") : run.compression) +
         ", written " +
         (run.record_writes.empty() ? std::string("as its report does not say") : run.record_writes) +
         ", where evitaDB's are " + RecordCompressionName(RecordCompression::kDeflate) + ", written " +
         RecordWritesName(RecordWrites::kInline);
}

// `row` shown but held against nothing when `why` (NotWrittenAsEvitaDb) is
// not empty: its figure would set less work against its target.
BenchRow UnquotedUnless(BenchRow row, const std::string& why) {
  if (!row.measured || why.empty()) return row;
  row.value += Format(" = %.3g %s, not quoted", *row.measured, row.unit.c_str());
  row.measured.reset();
  return NotMeasured(std::move(row), why + " (bench's defaults are evitaDB's)");
}

void SittingRows(const BenchSitting& s, const BenchFigures& figures, std::vector<BenchRow>& rows) {
  const std::string null_why = Unusable("null-target", s.null_run, s.null_absent);
  const std::string embedded_why = Unusable("embedded", s.embedded, s.embedded_absent);
  const std::string remote_why = Unusable("started warmup serve", s.remote, s.remote_absent);
  const std::string evitadb_why = Unusable("evitaDB", s.evitadb, s.evitadb_absent);

  auto row = [&](const char* figure, double bound, bool at_most, const char* unit) {
    BenchRow r;
    r.sitting = s.label;
    r.figure = figure;
    r.bound = bound;
    r.at_most = at_most;
    r.unit = unit;
    return r;
  };

  const std::string embedded_mode = s.embedded ? NotWrittenAsEvitaDb("embedded", *s.embedded) : "";
  rows.push_back(UnquotedUnless(TotalsRatio(row("embedded TOTAL / null-target TOTAL", 4, true, "x"),
                                            FirstOf({embedded_why, null_why}), s.embedded, s.null_run),
                                embedded_mode));

  BenchRow rss = row("embedded peak RSS (the loading process)", 2, true, "GiB");
  if (!embedded_why.empty()) {
    rows.push_back(NotMeasured(rss, embedded_why));
  } else {
    const double gib = static_cast<double>(s.embedded->loader_peak_rss_bytes) / kGiB;
    rows.push_back(Measured(rss, gib, Format("%.0f MiB", gib * 1024)));
  }

  BenchRow serve_rss = row("warmup serve peak RSS", 1.5, true, "GiB");
  BenchRow stop = row("warmup serve stop after SIGTERM", 2, true, "s");
  if (!remote_why.empty()) {
    rows.push_back(NotMeasured(serve_rss, remote_why));
    rows.push_back(NotMeasured(stop, remote_why));
  } else {
    if (!s.remote->server_peak_rss_bytes) {
      rows.push_back(NotMeasured(serve_rss, "the remote run started no server"));
    } else {
      const double gib = static_cast<double>(*s.remote->server_peak_rss_bytes) / kGiB;
      rows.push_back(Measured(serve_rss, gib, Format("%.0f MiB", gib * 1024)));
    }
    if (!s.remote->server_stop_seconds) {
      rows.push_back(NotMeasured(stop, "its report has no stop time (a report older than warmup-run/8)"));
    } else {
      BenchRow r =
          Measured(stop, *s.remote->server_stop_seconds,
                   Format("%.2f s, %s", *s.remote->server_stop_seconds, s.remote->server_ended.c_str()));
      if (s.remote->server_ended != "exited 0") {  // a stop that loses the catalog is no stop
        r.outcome = TargetOutcome::kNotMet;
        r.why = "it did not exit 0 (" + s.remote->server_ended + ")";
      }
      rows.push_back(r);
    }
  }

  BenchRow read = row("source read, embedded / null-target", 1.1, true, "x");
  if (auto why = FirstOf({embedded_why, null_why}); !why.empty()) {
    rows.push_back(NotMeasured(read, why));
  } else if (s.embedded->source_read_ahead != s.null_run->source_read_ahead) {
    // One figure would be a wait and the other a whole read.
    rows.push_back(NotMeasured(read, std::string("the embedded run read the source ") +
                                         (s.embedded->source_read_ahead ? "ahead" : "inline") +
                                         ", the null-target run " +
                                         (s.null_run->source_read_ahead ? "ahead" : "inline")));
  } else if (s.null_run->source_read_seconds <= 0) {
    rows.push_back(NotMeasured(read, "the null-target run read for no measurable time"));
  } else {
    const double e = s.embedded->source_read_seconds, n = s.null_run->source_read_seconds;
    // Read ahead, the embedded figure is how long the load waited for the
    // reader: what of the read is still on the critical path.
    rows.push_back(Measured(read, e / n,
                            Format("%.2f s / %.2f s%s", e, n,
                                   s.embedded->source_read_ahead ? " (embedded read ahead: its wait)" : "")));
  }

  BenchRow golive = row("embedded goLive write rate / disk's sequential write", 0.5, false, "x");
  if (!embedded_why.empty()) {
    rows.push_back(NotMeasured(golive, embedded_why));
  } else if (figures.disk.empty()) {
    rows.push_back(NotMeasured(
        golive,
        "the disk was not measured" + (figures.disk_absent.empty() ? "" : " (" + figures.disk_absent + ")")));
  } else if (!s.embedded->data_bytes_at_golive_start || !s.embedded->data_bytes_at_golive_end) {
    rows.push_back(NotMeasured(golive, "its report has no data sizes (a report older than warmup-run/8)"));
  } else {
    const double grown =
        static_cast<double>(*s.embedded->data_bytes_at_golive_end - *s.embedded->data_bytes_at_golive_start);
    const DiskRates disk = RatesOf(figures.disk);
    if (grown <= 0 || s.embedded->golive_seconds <= 0) {
      rows.push_back(NotMeasured(golive, "goLive added nothing to the data directory, or took no time"));
    } else if (disk.median <= 0) {
      rows.push_back(NotMeasured(golive, "the disk probe took no measurable time"));
    } else {
      const double rate = grown / s.embedded->golive_seconds;
      const size_t n = disk.sorted.size();
      const std::string spread = n == 1 ? ""
                                        : Format(" (median of %zu probes, %.1f to %.1f)", n,
                                                 disk.sorted.front() / 1e6, disk.sorted.back() / 1e6);
      BenchRow r =
          Measured(golive, rate / disk.median,
                   Format("%.1f MB in %.2f s = %.1f MB/s, disk %.1f MB/s%s", grown / 1e6,
                          s.embedded->golive_seconds, rate / 1e6, disk.median / 1e6, spread.c_str()));
      // One probe is no more trustworthy than another: a verdict that
      // depends on which one is no verdict.
      const double with_slowest = rate / disk.sorted.front(), with_fastest = rate / disk.sorted.back();
      if (r.outcome != TargetOutcome::kTooClose &&
          (with_slowest >= golive.bound) != (with_fastest >= golive.bound)) {
        r.outcome = TargetOutcome::kTooClose;
        r.why = Format("the disk probes disagree: %.3f x against the slowest, %.3f x against the fastest",
                       with_slowest, with_fastest);
      }
      rows.push_back(r);
    }
  }

  BenchRow remote = row("remote TOTAL / (embedded TOTAL + n x RTT p50 x 1.2)", 1, true, "x");
  if (auto why = FirstOf({remote_why, embedded_why}); !why.empty()) {
    rows.push_back(NotMeasured(remote, why));
  } else if (!s.rtt_p50_us) {
    rows.push_back(NotMeasured(remote, "the round trip was not measured"));
  } else if (!s.remote->total_seconds || !s.embedded->total_seconds) {
    rows.push_back(NotMeasured(remote, "a TOTAL is missing (goLive did not complete)"));
  } else {
    const double n = static_cast<double>(s.remote->copied);
    const double model = *s.embedded->total_seconds + n * *s.rtt_p50_us * 1e-6 * 1.2;
    rows.push_back(
        Measured(remote, *s.remote->total_seconds / model,
                 Format("%.2f s / (%.2f s + %.0f x %.1f us x 1.2 = %.2f s); remote / embedded %.2f x",
                        *s.remote->total_seconds, *s.embedded->total_seconds, n, *s.rtt_p50_us, model,
                        *s.remote->total_seconds / *s.embedded->total_seconds)));
  }

  rows.push_back(UnquotedUnless(TotalsRatio(row("evitaDB TOTAL / embedded TOTAL", 30, false, "x"),
                                            FirstOf({evitadb_why, embedded_why}), s.evitadb, s.embedded),
                                embedded_mode));
}

json RunJson(const std::optional<BenchRun>& run) { return run ? json(run->report) : json(nullptr); }

json OptionalJson(const std::optional<double>& v) { return v ? json(*v) : json(nullptr); }

}  // namespace

const char* TargetOutcomeName(TargetOutcome outcome) {
  switch (outcome) {
    case TargetOutcome::kMet:
      return "met";
    case TargetOutcome::kNotMet:
      return "not met";
    case TargetOutcome::kTooClose:
      return "too close to call";
    case TargetOutcome::kNotMeasured:
      return "not measured";
  }
  return "?";
}

StatusOr<BenchRun> ReadBenchRun(const std::string& report_json) {
  auto read = report::ReadJsonObject(report_json);
  if (!read.ok()) return read.status();
  const json& doc = *read;
  auto bad = [&](const std::string& why) { return InvalidArgumentError(report_json + ": " + why); };
  const std::string schema = doc.value("schema", "");
  if (!schema.starts_with("warmup-run/")) {
    return bad("not a run report, but " + (schema.empty() ? "no schema" : schema));
  }
  try {
    BenchRun run;
    run.report = report_json;
    run.exit_code = doc.at("exit_code").get<int>();
    if (!doc.at("total_seconds").is_null()) run.total_seconds = doc.at("total_seconds").get<double>();
    run.load_wall_seconds = doc.at("load_wall_seconds").get<double>();
    run.source_read_seconds = doc.at("source_read_seconds").get<double>();
    if (doc.contains("config") && doc.at("config").is_object()) {
      const json& config = doc.at("config");
      run.source_read_ahead = config.value("source_read_ahead", false);
      auto text = [&](const char* key) {
        return config.contains(key) && config.at(key).is_string() ? config.at(key).get<std::string>() : "";
      };
      run.compression = text("compression");
      run.record_writes = text("record_writes");
    }
    if (doc.contains("verification") && doc.at("verification").is_object()) {
      run.verify_check = doc.at("verification").value("check", "");
      run.verification = doc.at("verification").value("outcome", "");
    }
    run.upsert_seconds = doc.at("upsert").at("total_seconds").get<double>();
    run.golive_seconds = doc.at("golive").at("seconds").get<double>();
    run.copied = doc.at("copied").get<int64_t>();
    for (const json& c : doc.at("collections")) {
      if (c.at("entity_type").get<std::string>() == "Product" && c.at("copied").get<int64_t>() > 0) {
        run.product_mean_us = c.at("upsert").at("mean_us").get<double>();
      }
    }
    run.loader_peak_rss_bytes = doc.at("loader").at("peak_rss_bytes").get<int64_t>();
    const json& server = doc.at("server_process");
    if (!server.is_null()) {
      run.server_peak_rss_bytes = server.at("usage").at("peak_rss_bytes").get<int64_t>();
      run.server_ended = server.at("ended").get<std::string>();
      if (server.contains("stop_seconds")) run.server_stop_seconds = server.at("stop_seconds").get<double>();
    }
    if (doc.contains("target_data") && !doc.at("target_data").is_null()) {
      run.data_bytes_at_golive_start = doc.at("target_data").at("bytes_at_golive_start").get<int64_t>();
      run.data_bytes_at_golive_end = doc.at("target_data").at("bytes_at_golive_end").get<int64_t>();
    }
    return run;
  } catch (const json::exception& e) {
    return bad(std::string("a field of the run report is missing or of the wrong type (") + e.what() + ")");
  }
}

std::vector<BenchRow> BenchTable(const BenchFigures& figures) {
  std::vector<BenchRow> rows;
  for (const BenchSitting& s : figures.sittings) SittingRows(s, figures, rows);
  if (figures.sittings.size() >= 2) {
    const BenchSitting& first = figures.sittings.front();
    const BenchSitting& last = figures.sittings.back();
    BenchRow r;
    r.sitting = last.label + " vs " + first.label;
    r.figure = "Product mean upsert, embedded, last / first sitting";
    r.bound = 1.2;
    r.unit = "x";
    const std::string why = FirstOf({Unusable("embedded", last.embedded, last.embedded_absent),
                                     Unusable("embedded", first.embedded, first.embedded_absent)});
    if (!why.empty()) {
      rows.push_back(NotMeasured(r, why));
    } else if (!last.embedded->product_mean_us || !first.embedded->product_mean_us ||
               *first.embedded->product_mean_us <= 0) {
      rows.push_back(NotMeasured(r, "a sitting copied no Product"));
    } else {
      const double l = *last.embedded->product_mean_us, f = *first.embedded->product_mean_us;
      rows.push_back(UnquotedUnless(Measured(r, l / f, Format("%.1f us / %.1f us", l, f)),
                                    NotWrittenAsEvitaDb("embedded", *last.embedded)));
    }
  }
  return rows;
}

std::string RenderBenchText(const BenchFigures& figures, const std::vector<BenchRow>& rows) {
  std::string out;
  if (figures.disk.size() == 1) {
    const DiskWrite& d = figures.disk.front();
    out += Format("disk: %.1f MB/s sequential write, %.0f MiB with fdatasync in %.2f s (%s)\n",
                  d.bytes_per_second() / 1e6, static_cast<double>(d.bytes) / (1 << 20), d.seconds,
                  d.file.c_str());
  } else if (!figures.disk.empty()) {
    std::string each;
    for (const DiskWrite& d : figures.disk) {
      each += Format("%s%.1f", each.empty() ? "" : ", ", d.bytes_per_second() / 1e6);
    }
    const DiskWrite& d = figures.disk.front();
    out += Format(
        "disk: %.1f MB/s sequential write, the median of %zu probes of %.0f MiB with fdatasync (%s MB/s, in "
        "order; %s)\n",
        RatesOf(figures.disk).median / 1e6, figures.disk.size(), static_cast<double>(d.bytes) / (1 << 20),
        each.c_str(), d.file.c_str());
  } else {
    out +=
        "disk: not measured" + (figures.disk_absent.empty() ? "" : " (" + figures.disk_absent + ")") + "\n";
  }
  for (const BenchSitting& s : figures.sittings) {
    out += "\nsitting " + s.label + ": " + s.snapshot + "\n";
    auto run = [&](const char* name, const std::optional<BenchRun>& r, const std::string& absent) {
      if (!r) {
        out += Format("  %-9s not run%s\n", name, absent.empty() ? "" : (": " + absent).c_str());
        return;
      }
      const std::string total = r->total_seconds ? Format("%9.2f s", *r->total_seconds) : "      n/a  ";
      out += Format("  %-9s TOTAL %s  load %8.2f s  read %7.2f s  goLive %7.2f s  exit %d  %s\n", name,
                    total.c_str(), r->load_wall_seconds, r->source_read_seconds, r->golive_seconds,
                    r->exit_code, r->report.c_str());
      std::string setup;
      if (!r->compression.empty() && r->compression != "n/a") {
        setup = "records " + r->compression +
                (r->record_writes.empty() ? "" : ", written " + r->record_writes) +
                (ReportSaysWrittenAsEvitaDb(*r) ? " (as evitaDB writes them)" : "");
      }
      if (!r->verify_check.empty() && r->verification != VerificationName(Verification::kNotApplicable)) {
        setup += (setup.empty() ? "" : "; ") + ("verify " + r->verify_check) +
                 (r->verification.empty() ? "" : ": " + r->verification);
      }
      if (!setup.empty()) out += std::string(12, ' ') + setup + "\n";
    };
    run("null", s.null_run, s.null_absent);
    run("embedded", s.embedded, s.embedded_absent);
    run("remote", s.remote, s.remote_absent);
    run("evitaDB", s.evitadb, s.evitadb_absent);
    if (s.rtt_p50_us) out += Format("  unary round trip (IsReady) p50 %.1f us\n", *s.rtt_p50_us);
  }
  out += "\ntargets (one run of each kind: a figure within 10 % of its target is too close to call):\n";
  int met = 0, not_met = 0, too_close = 0, not_measured = 0;
  for (const BenchRow& r : rows) {
    const std::string target = std::string(r.at_most ? "<= " : ">= ") + Format("%g", r.bound) + " " + r.unit;
    std::string measured = r.measured ? Format("%.3g %s", *r.measured, r.unit.c_str()) : "-";
    out += Format("  %-14s %-54s %12s  target %-10s %s\n", r.sitting.c_str(), r.figure.c_str(),
                  measured.c_str(), target.c_str(), TargetOutcomeName(r.outcome));
    if (!r.value.empty()) out += "  " + std::string(15, ' ') + r.value + "\n";
    if (!r.why.empty()) out += "  " + std::string(15, ' ') + r.why + "\n";
    switch (r.outcome) {
      case TargetOutcome::kMet:
        ++met;
        break;
      case TargetOutcome::kNotMet:
        ++not_met;
        break;
      case TargetOutcome::kTooClose:
        ++too_close;
        break;
      case TargetOutcome::kNotMeasured:
        ++not_measured;
        break;
    }
  }
  out += Format("targets: %d met, %d not met, %d too close to call, %d not measured\n", met, not_met,
                too_close, not_measured);
  return out;
}

int BenchExitCode(const std::vector<BenchRow>& rows, bool every_run_stood, bool require_targets) {
  if (!every_run_stood) return 1;
  if (!require_targets) return 0;
  auto any = [&](TargetOutcome outcome) {
    return std::any_of(rows.begin(), rows.end(), [&](const BenchRow& r) { return r.outcome == outcome; });
  };
  if (any(TargetOutcome::kNotMet)) return 3;
  if (any(TargetOutcome::kTooClose)) return 4;
  return 0;
}

std::string RenderBenchJson(const BenchFigures& figures, const std::vector<BenchRow>& rows) {
  json sittings = json::array();
  for (const BenchSitting& s : figures.sittings) {
    sittings.push_back({{"label", s.label},
                        {"snapshot", s.snapshot},
                        {"rtt_p50_us", OptionalJson(s.rtt_p50_us)},
                        {"runs",
                         {{"null", RunJson(s.null_run)},
                          {"embedded", RunJson(s.embedded)},
                          {"remote", RunJson(s.remote)},
                          {"evitadb", RunJson(s.evitadb)}}},
                        {"remote_absent", s.remote_absent},
                        {"evitadb_absent", s.evitadb_absent}});
  }
  json table = json::array();
  for (const BenchRow& r : rows) {
    table.push_back({{"sitting", r.sitting},
                     {"figure", r.figure},
                     {"value", r.value},
                     {"measured", OptionalJson(r.measured)},
                     {"bound", r.bound},
                     {"at_most", r.at_most},
                     {"unit", r.unit},
                     {"outcome", TargetOutcomeName(r.outcome)},
                     {"why", r.why}});
  }
  json disk = nullptr;
  if (!figures.disk.empty()) {
    const double median = RatesOf(figures.disk).median;
    json probes = json::array();
    for (const DiskWrite& d : figures.disk) {
      probes.push_back({{"seconds", d.seconds}, {"bytes_per_second", d.bytes_per_second()}});
    }
    const int64_t bytes = figures.disk.front().bytes;
    disk = {{"file", figures.disk.front().file},
            {"bytes", bytes},
            {"seconds", median > 0 ? static_cast<double>(bytes) / median : 0.0},
            {"bytes_per_second", median},
            {"probes", std::move(probes)}};
  }
  json doc = {{"schema", "warmup-bench/1"},
              {"sittings", std::move(sittings)},
              {"disk", std::move(disk)},
              {"disk_absent", figures.disk_absent},
              {"rows", std::move(table)}};
  return doc.dump(2) + "\n";
}

}  // namespace warmup
