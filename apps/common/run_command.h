// What every command that runs a load shares: the library's RunSpec from the
// command line, the run under a signal watcher, its files and its report.
#ifndef WARMUP_APPS_COMMON_RUN_COMMAND_H_
#define WARMUP_APPS_COMMON_RUN_COMMAND_H_

#include <filesystem>
#include <functional>
#include <iostream>
#include <memory>
#include <optional>

#include "common/options.h"
#include "common/signal_watcher.h"
#include "warmup/history.h"
#include "warmup/report.h"
#include "warmup/run.h"
#include "warmup/status.h"

// The library's spec of the run `cmd` describes: its report files are the
// run's outputs, and a started server's binary is this one unless named.
warmup::RunSpec SpecOf(const warmup::cli::LoadCommand& cmd);
// RunLoad(SpecOf(cmd)) with `hooks`, progress lines on stderr (unless
// --quiet or turned off), the library's notices as "warmup COMMAND: ..."
// lines, and `signals`' stop request. `command` names the command;
// `more_outputs`: files the caller writes besides the report files (a profile).
warmup::StatusOr<warmup::RunResult> RunCommand(const warmup::cli::LoadCommand& cmd, const char* command,
                                               warmup::cli::SignalWatcher& signals,
                                               warmup::RunHooks hooks = {},
                                               const std::vector<warmup::PathInUse>& more_outputs = {});
// One line for a run among many: TOTAL, the Product mean upsert (all
// upserts' without Products), and the exit status.
std::string RunLine(const warmup::RunResult& result);
// RunCommand under a SignalWatcher of its own, then Finish; with --runs
// (RepeatOptions), every run in turn into --out and their summary, whose
// exit status (RunsSummary::ExitCode) is the command's.
int RunLoadUntilInterrupted(const warmup::cli::LoadCommand& cmd, const char* command);
// Writes the run's files (--report-json with `render_json`, --html). When one
// cannot be written, the run fails (RunResult::output_error, exit 1) and the
// files that were written are written again saying so: no file, and no
// printed verdict, claims what the exit status contradicts.
void WriteRunFiles(
    const warmup::cli::LoadCommand& cmd, warmup::RunResult& result,
    const std::function<std::string(const warmup::RunResult&)>& render_json = &warmup::RenderJsonReport);
// Records the run in `history` (when not null), WriteRunFiles, then prints
// the text report, stays alive --hold-open-seconds, and returns the exit
// status. A run that could not be recorded fails (exit 1), as one whose
// report could not be written.
int Finish(const warmup::cli::LoadCommand& cmd, warmup::RunResult result, warmup::History* history = nullptr);
// Writes `text` to `path`, replacing it. Errors: kFailedPrecondition naming it.
warmup::Status WriteFile(const std::filesystem::path& path, const std::string& text);
// Makes `out` a directory for a command's reports (ab's, bench's): it must be
// absent (created) or empty, so that nothing older is ever read as this
// command's; `why` ends the refusal of a non-empty one.
warmup::Status PrepareOutDir(const std::filesystem::path& out, const std::string& why);
// Made before PrepareOutDir: at the end of its scope, removes `out` when it
// was absent at construction and is empty then, so that a command that
// ended before its first report (a flag its first run refused) leaves no
// directory behind.
class EmptyOutDirGuard {
 public:
  explicit EmptyOutDirGuard(std::filesystem::path out);
  ~EmptyOutDirGuard();
  EmptyOutDirGuard(const EmptyOutDirGuard&) = delete;
  EmptyOutDirGuard& operator=(const EmptyOutDirGuard&) = delete;

 private:
  std::filesystem::path out_;
  bool made_;
};

// A run's work directory `work` after it, for a command that makes many runs
// (ab, bench): when the run `failed`, moved to `keep` (beside its report,
// out of the OUT/work the command removes), so that its server's log and
// data are there to read, and stderr says where ("warmup COMMAND: run
// LABEL failed; ...");
// else, and when it cannot be moved, removed unless `keep_work`.
void KeepOrRemoveWork(const char* command, const std::string& label, const std::filesystem::path& work,
                      const std::filesystem::path& keep, bool failed, bool keep_work = false);

// The store --history names (ReportOptions::history), opened, or null when
// the run is not to be recorded. Opened before anything runs, so that a
// store that cannot take the run stops the command before it measures.
warmup::StatusOr<std::unique_ptr<warmup::History>> OpenHistory(const warmup::cli::LoadCommand& cmd);
// Records `result` (as its JSON report) in `history` when there is one.
// Errors: History::Record's, in the context of the run's label.
warmup::Status RecordInHistory(warmup::History* history, const warmup::RunResult& result);

// Exit statuses of the warmup commands besides a run's own (docs/measurement.md).
inline constexpr int kExitFailed = 1;
inline constexpr int kExitUsage = 64;  // EX_USAGE: the command line is wrong

// Prints a failure ("warmup: ...") to stderr and returns kExitFailed.
int FailWith(const warmup::Status& status);
// FailWith for a run that could not start (RunLoad's error): kExitUsage when
// its spec was wrong (kInvalidArgument: e.g. a started serve that refused its
// --server-args, several snapshots and no --catalog), else kExitFailed.
int FailToRun(const warmup::Status& status);

// After parsing: the exit status when the command must not run (kExitUsage
// with the error for a bad command line, 0 after printing --help's text), or
// nullopt when it should run.
template <typename Command>
std::optional<int> StopAfterParse(const warmup::StatusOr<Command>& cmd) {
  if (!cmd.ok()) {
    std::cerr << "warmup: " << cmd.status().ToString() << "\n";
    return kExitUsage;
  }
  if (!cmd->help.empty()) {
    std::cout << cmd->help << "\n";
    return 0;
  }
  return std::nullopt;
}

#endif  // WARMUP_APPS_COMMON_RUN_COMMAND_H_
