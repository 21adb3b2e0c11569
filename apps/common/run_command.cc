// warmup load: the read side alone, against the embedded engine, a running
// server, or nothing (the null target); and what every command that runs a
// load shares (the spec from the command line, its files, its report).
#include "common/run_command.h"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <optional>
#include <thread>
#include <utility>

#include "common/progress.h"
#include "warmup/catalog_admin.h"
#include "warmup/html_report.h"
#include "warmup/report.h"
#include "warmup/run_record.h"
#include "warmup/run_result.h"
#include "warmup/run_summary.h"
#include "warmup/trend.h"
#include "warmup/work_dir.h"

warmup::Status WriteFile(const std::filesystem::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::trunc);
  out << text;
  out.close();
  if (!out) return warmup::FailedPreconditionError("cannot write " + path.string());
  return warmup::OkStatus();
}

warmup::Status PrepareOutDir(const std::filesystem::path& out, const std::string& why) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::exists(out, ec)) {
    if (!fs::is_directory(out, ec))
      return warmup::FailedPreconditionError("--out " + out.string() + " is a file");
    if (!fs::is_empty(out, ec)) {
      return warmup::FailedPreconditionError("--out " + out.string() + " is not empty; " + why);
    }
    return warmup::OkStatus();
  }
  if (!fs::create_directories(out, ec)) {
    return warmup::FailedPreconditionError("--out " + out.string() + ": cannot create it: " + ec.message());
  }
  return warmup::OkStatus();
}

int FailWith(const warmup::Status& status) {
  std::cerr << "warmup: " << status.ToString() << "\n";
  return kExitFailed;
}

int FailToRun(const warmup::Status& status) {
  FailWith(status);
  return status.code() == warmup::StatusCode::kInvalidArgument ? kExitUsage : kExitFailed;
}

warmup::RunSpec SpecOf(const warmup::cli::LoadCommand& cmd) {
  warmup::RunSpec spec;
  spec.source = cmd.source;
  spec.target = cmd.target;
  auto* started = std::get_if<warmup::StartedServerTargetSpec>(&spec.target);
  if (started != nullptr && started->server.binary.empty() && started->server.command.empty()) {
    std::error_code ec;  // unreadable: RunLoad then says that a binary is needed
    started->server.binary = std::filesystem::read_symlink("/proc/self/exe", ec).string();
  }
  spec.copy = cmd.copy;
  spec.copy.config.command_line = cmd.command_line;
  spec.per_entity_csv = cmd.report.per_entity_csv;
  spec.outputs = {{"--report-json", cmd.report.report_json}, {"--html", cmd.report.html}};
  spec.names = warmup::cli::CliSpecNames();
  return spec;
}

warmup::StatusOr<warmup::RunResult> RunCommand(const warmup::cli::LoadCommand& cmd, const char* command,
                                               warmup::cli::SignalWatcher& signals, warmup::RunHooks hooks,
                                               const std::vector<warmup::PathInUse>& more_outputs) {
  warmup::cli::ProgressReporter progress(
      stderr, warmup::cli::ProgressForStderr(cmd.report.progress_interval_seconds));
  if (cmd.report.progress_lines && !cmd.report.quiet) hooks.observers.push_back(&progress);
  hooks.stop = &signals.stop();
  hooks.notice = [command](const std::string& line) {
    std::cerr << "warmup " << command << ": " << line << "\n";
  };
  warmup::RunSpec spec = SpecOf(cmd);
  spec.outputs.insert(spec.outputs.end(), more_outputs.begin(), more_outputs.end());
  auto result = warmup::RunLoad(spec, hooks);
  if (result.ok() && signals.received() != 0 &&
      warmup::KindOf(cmd.target) != warmup::TargetKind::kStartedServer &&
      result->abort_reason != warmup::AbortReason::kInterrupted) {
    std::cerr << "warmup " << command
              << ": the signal came during goLive (or after the load), which was let finish\n";
  }
  return result;
}

namespace {

bool WriteWhole(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::trunc);
  out << text;
  out.close();
  return static_cast<bool>(out);
}

}  // namespace

void WriteRunFiles(const warmup::cli::LoadCommand& cmd, warmup::RunResult& result,
                   const std::function<std::string(const warmup::RunResult&)>& render_json) {
  struct Output {
    const char* flag;
    std::string path;
    std::function<std::string(const warmup::RunResult&)> render;
    bool written = false;
  };
  std::vector<Output> outputs = {{"--report-json", cmd.report.report_json, render_json},
                                 {"--html", cmd.report.html, &warmup::RenderRunHtml}};
  std::erase_if(outputs, [](const Output& o) { return o.path.empty(); });
  auto fail = [&](const Output& o) {
    const std::string why = "cannot write " + std::string(o.flag) + " " + o.path;
    std::cerr << "warmup: " << why << "\n";
    result.output_error += (result.output_error.empty() ? "" : "; ") + why;
  };
  for (Output& o : outputs) {
    o.written = WriteWhole(o.path, o.render(result));
    if (!o.written) fail(o);
  }
  if (result.output_error.empty()) return;
  // The run now fails: what was written says so too, so that no file
  // claims a verdict the exit status contradicts.
  for (Output& o : outputs) {
    if (o.written && !WriteWhole(o.path, o.render(result))) fail(o);
  }
}

warmup::StatusOr<std::unique_ptr<warmup::History>> OpenHistory(const warmup::cli::LoadCommand& cmd) {
  if (cmd.report.history.empty()) return std::unique_ptr<warmup::History>();
  auto history = warmup::History::Open(cmd.report.history);
  if (!history.ok()) return history.status().WithContext("--history");
  return history;
}

warmup::Status RecordInHistory(warmup::History* history, const warmup::RunResult& result) {
  if (history == nullptr) return warmup::OkStatus();
  auto recorded = history->Record(warmup::RenderJsonReport(result), "run " + result.run_label);
  if (!recorded.ok()) return recorded.status().WithContext("--history: run " + result.run_label);
  return warmup::OkStatus();
}

int Finish(const warmup::cli::LoadCommand& cmd, warmup::RunResult result, warmup::History* history) {
  if (auto s = RecordInHistory(history, result); !s.ok()) {
    std::cerr << "warmup: " << s.ToString() << "\n";
    result.output_error = "the run could not be recorded in " + history->Describe();
  }
  WriteRunFiles(cmd, result);
  std::cout << warmup::RenderTextReport(result) << std::flush;
  if (cmd.report.hold_open_seconds > 0) {
    std::this_thread::sleep_for(std::chrono::seconds(cmd.report.hold_open_seconds));
  }
  return result.ExitCode();
}

EmptyOutDirGuard::EmptyOutDirGuard(std::filesystem::path out) : out_(std::move(out)) {
  std::error_code ec;
  made_ = !std::filesystem::exists(out_, ec) && !ec;
}

EmptyOutDirGuard::~EmptyOutDirGuard() {
  std::error_code ec;
  if (made_ && std::filesystem::is_empty(out_, ec) && !ec) std::filesystem::remove(out_, ec);
}

void KeepOrRemoveWork(const char* command, const std::string& label, const std::filesystem::path& work,
                      const std::filesystem::path& keep, bool failed, bool keep_work) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::exists(work, ec)) return;
  if (failed) {
    fs::rename(work, keep, ec);
    if (!ec) {
      std::cerr << "warmup " << command << ": run " << label
                << " failed; its work directory (its server's log and data) is kept in " << keep.string()
                << "\n";
      return;
    }
    std::cerr << "warmup " << command << ": cannot keep the work directory of failed run " << label << ", "
              << work.string() << " as " << keep.string() << ": " << ec.message() << "\n";
  }
  if (!keep_work) fs::remove_all(work, ec);
}

std::string RunLine(const warmup::RunResult& result) {
  double product_mean_us = result.upsert.mean_us;
  for (const auto& c : result.collections) {
    if (c.entity_type == "Product") product_mean_us = c.upsert.mean_us;
  }
  char total[32] = "n/a (no goLive)";
  if (const auto seconds = result.total_seconds()) std::snprintf(total, sizeof(total), "%.3f s", *seconds);
  char line[160];
  std::snprintf(line, sizeof(line), "TOTAL %s  Product mean %9.1f us  exit %d", total, product_mean_us,
                result.ExitCode());
  return line;
}

namespace {

// The label of a --runs run: LABEL-warmupK for the K-th warm-up run, else
// LABEL01 ... (three digits from 100 runs).
std::string SeriesLabel(const warmup::cli::LoadCommand& cmd, bool warm_up, int k) {
  if (warm_up) return cmd.copy.run_label + "-warmup" + std::to_string(k);
  char number[16];
  std::snprintf(number, sizeof(number), "%0*d", cmd.repeat.runs >= 100 ? 3 : 2, k);
  return cmd.copy.run_label + number;
}

// load and reindex with --runs (RepeatOptions): the runs one after another,
// each on a fresh target, every report in OUT, then the summary. A run that
// fails, or an interrupt, ends the series; what stood before it is
// summarized as partial (exit 1). Each measured run is recorded in
// `history` (when not null), a failed one too, marked by its exit status.
int RunRepeated(const warmup::cli::LoadCommand& cmd, const char* command, warmup::History* history) {
  namespace fs = std::filesystem;
  const fs::path out = cmd.repeat.out_dir;
  const std::string prefix = std::string("warmup ") + command + ": ";
  if (const std::string* work_dir = warmup::WorkDirOf(cmd.target)) {
    if (auto s = warmup::CheckOutsideWorkDir(*work_dir, {{"--out", out.string()}}); !s.ok()) {
      return FailToRun(warmup::InvalidArgumentError(s.message()));
    }
  }
  const EmptyOutDirGuard out_guard(out);
  if (auto s =
          PrepareOutDir(out, std::string("warmup ") + command + " --runs keeps each series of runs apart");
      !s.ok()) {
    return FailWith(s);
  }
  warmup::cli::SignalWatcher signals(command,
                                     warmup::KindOf(cmd.target) == warmup::TargetKind::kStartedServer);
  std::vector<std::string> measured;
  std::string incomplete;
  const int warm_ups = cmd.repeat.warmup_runs;
  const std::string of =
      (cmd.repeat.warmup_until_stable > 0 ? "at most " : "") + std::to_string(warm_ups + cmd.repeat.runs);
  int made = 0;
  std::optional<warmup::Status> first_refused;
  // One run of the series; false once the series must end (`incomplete` then
  // says why). `report_json` gets the run's JSON report when it stood.
  auto run_one = [&](const std::string& label, bool warm_up, std::string* report_json) {
    if (signals.received() != 0) {
      incomplete = "interrupted before " + label;
      return false;
    }
    warmup::cli::LoadCommand run = cmd;
    run.copy.run_label = label;
    auto result = RunCommand(run, command, signals);
    if (!result.ok() && made == 0) {
      first_refused = result.status();  // what a single run would refuse, refused as it would be
      return false;
    }
    ++made;
    if (!result.ok()) {
      std::cerr << prefix << result.status().ToString() << "\n";
      incomplete = label + " could not run: " + result.status().ToString();
      return false;
    }
    const auto* remote = std::get_if<warmup::RemoteTargetSpec>(&cmd.target);
    if (remote != nullptr && !cmd.copy.keep_target && result->target_drop == warmup::TargetDrop::kNotNeeded) {
      // A run's ALIVE catalog would stay on a server warmup did not start and
      // share its heap with every later run of the series.
      warmup::ServerAdminOptions admin;
      admin.tls = remote->tls;
      const warmup::Status dropped =
          warmup::DeleteServerCatalog(remote->address, result->target_catalog, admin);
      result->notes.push_back(dropped.ok() ? "the run's catalog " + result->target_catalog +
                                                 " was dropped after it, so that the next run of the series "
                                                 "does not share the server with it (--keep-target keeps it)"
                                           : "the run's catalog " + result->target_catalog +
                                                 " could not be dropped after it: " + dropped.ToString());
    }
    const fs::path json = out / (label + ".json");
    const std::string json_text = warmup::RenderJsonReport(*result);
    for (const auto& [path, text] :
         {std::pair{json, json_text}, std::pair{out / (label + ".txt"), warmup::RenderTextReport(*result)}}) {
      if (auto s = WriteFile(path, text); !s.ok()) {
        std::cerr << prefix << s.ToString() << "\n";
        incomplete = "the report of " + label + " could not be written";
      }
    }
    if (!cmd.report.quiet) {
      std::fprintf(stderr, "%srun %d of %s  %-14s %s%s\n", prefix.c_str(), made, of.c_str(), label.c_str(),
                   RunLine(*result).c_str(), warm_up ? "  (warm-up, not summarized)" : "");
    }
    if (!warm_up) {
      if (auto s = RecordInHistory(history, *result); !s.ok()) {
        std::cerr << prefix << s.ToString() << "\n";
        if (incomplete.empty()) incomplete = label + " could not be recorded in the history";
      }
    }
    const bool failed = result->ExitCode() == 1;
    if (!failed && !warm_up && incomplete.empty()) measured.push_back(json.string());
    if (failed && incomplete.empty()) {
      incomplete = label + (result->abort_reason == warmup::AbortReason::kInterrupted
                                ? " was interrupted"
                                : " failed (exit 1), see " + (out / (label + ".txt")).string());
    }
    if (!failed && report_json != nullptr) *report_json = json_text;
    return incomplete.empty();
  };
  // The warm-up: a fixed number of runs, or until its metric stops trending.
  const int window = cmd.repeat.warmup_until_stable;
  std::vector<double> watched;
  std::string rule;
  bool settled = false;  // by the watched metric; a fixed warm-up makes all its runs
  for (int k = 1; k <= warm_ups && !settled; ++k) {
    const std::string label = SeriesLabel(cmd, true, k);
    std::string report;
    if (!run_one(label, true, window > 0 ? &report : nullptr)) break;
    if (window == 0) continue;
    const auto record = warmup::ParseRunRecord(report, label);
    if (!record.ok() || !record->metrics.contains(cmd.repeat.warmup_metric)) {
      incomplete = label + " has no " + cmd.repeat.warmup_metric + " to watch the warm-up by";
      break;
    }
    watched.push_back(record->metrics.at(cmd.repeat.warmup_metric).value);
    if (static_cast<int>(watched.size()) < window) continue;
    const warmup::TrendTest trend =
        warmup::MannKendall(std::vector<double>(watched.end() - window, watched.end()));
    settled = !trend.trending;
    rule = "until " + cmd.repeat.warmup_metric + " showed no trend over its last " + std::to_string(window) +
           " runs, at most " + std::to_string(warm_ups) + ": " + std::to_string(k) + " runs, the last " +
           std::to_string(window) + " " + warmup::DescribeTrend(trend);
  }
  if (window == 0) settled = true;
  if (window > 0 && incomplete.empty() && !settled) {
    std::cerr << prefix << "the warm-up did not settle in " << warm_ups << " runs: " << rule << "\n";
  }
  const int warm_ups_made = made;
  for (int i = 1; i <= cmd.repeat.runs && incomplete.empty(); ++i) {
    run_one(SeriesLabel(cmd, false, i), false, nullptr);
    if (incomplete.empty() && signals.received() != 0 && i < cmd.repeat.runs) {
      incomplete = "interrupted after " + SeriesLabel(cmd, false, i);
    }
  }
  if (first_refused) return FailToRun(*first_refused);
  if (measured.empty()) {
    std::cerr << prefix << "no measured run stood (" << incomplete
              << "): nothing to summarize; the reports are in " << out.string() << "\n";
    return kExitFailed;
  }
  auto summary = warmup::SummarizeRuns(measured);
  if (!summary.ok()) return FailWith(summary.status());
  summary->warm_up_runs = warm_ups_made;
  summary->planned_runs = cmd.repeat.runs;
  summary->incomplete = incomplete;
  summary->warm_up_rule = rule;
  summary->warm_up_settled = settled;
  for (const auto& [name, text] : {std::pair{"summary.json", warmup::RenderRunsSummaryJson(*summary)},
                                   std::pair{"summary.txt", warmup::RenderRunsSummaryText(*summary)}}) {
    if (auto s = WriteFile(out / name, text); !s.ok()) return FailWith(s);
  }
  std::cout << warmup::RenderRunsSummaryText(*summary)
            << "every run's report and the summary: " << out.string() << "\n";
  return summary->ExitCode();
}

}  // namespace

int RunLoadUntilInterrupted(const warmup::cli::LoadCommand& cmd, const char* command) {
  auto history = OpenHistory(cmd);
  if (!history.ok()) return FailWith(history.status());
  if (cmd.repeat.repeated) return RunRepeated(cmd, command, history->get());
  warmup::cli::SignalWatcher signals(command,
                                     warmup::KindOf(cmd.target) == warmup::TargetKind::kStartedServer);
  auto result = RunCommand(cmd, command, signals);
  if (!result.ok()) return FailToRun(result.status());
  return Finish(cmd, *result, history->get());
}

int Load(const std::vector<std::string>& args) {
  auto cmd = warmup::cli::ParseLoad(args);
  if (auto stop = StopAfterParse(cmd)) return *stop;
  return RunLoadUntilInterrupted(*cmd, "load");
}
