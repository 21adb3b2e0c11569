// warmup load: the read side alone, against the embedded engine, a running
// server, or nothing (the null target); and what every command that runs a
// load shares (the spec from the command line, its files, its report).
#include "common/run_command.h"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <thread>

#include "common/progress.h"
#include "warmup/html_report.h"
#include "warmup/report.h"
#include "warmup/run_result.h"

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
  spec.server = cmd.server;
  if (spec.target.kind == warmup::TargetKind::kStartedServer && spec.server.binary.empty() &&
      spec.server.command.empty()) {
    std::error_code ec;  // unreadable: RunLoad then says that a binary is needed
    spec.server.binary = std::filesystem::read_symlink("/proc/self/exe", ec).string();
  }
  spec.copy = cmd.copy;
  spec.copy.config.command_line = cmd.command_line;
  spec.per_entity_csv = cmd.report.per_entity_csv;
  spec.outputs = {{"--report-json", cmd.report.report_json}, {"--html", cmd.report.html}};
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
  if (result.ok() && signals.received() != 0 && cmd.target.kind != warmup::TargetKind::kStartedServer &&
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

int Finish(const warmup::cli::LoadCommand& cmd, warmup::RunResult result) {
  WriteRunFiles(cmd, result);
  std::cout << warmup::RenderTextReport(result) << std::flush;
  if (cmd.report.hold_open_seconds > 0) {
    std::this_thread::sleep_for(std::chrono::seconds(cmd.report.hold_open_seconds));
  }
  return result.ExitCode();
}

int RunLoadUntilInterrupted(const warmup::cli::LoadCommand& cmd, const char* command) {
  warmup::cli::SignalWatcher signals(command, cmd.target.kind == warmup::TargetKind::kStartedServer);
  auto result = RunCommand(cmd, command, signals);
  if (!result.ok()) return FailToRun(result.status());
  return Finish(cmd, *result);
}

int Load(const std::vector<std::string>& args) {
  auto cmd = warmup::cli::ParseLoad(args);
  if (auto stop = StopAfterParse(cmd)) return *stop;
  return RunLoadUntilInterrupted(*cmd, "load");
}
