// The load both `warmup load` and `warmup reindex` run.
#ifndef WARMUP_APPS_WARMUP_LOAD_H_
#define WARMUP_APPS_WARMUP_LOAD_H_

#include <atomic>
#include <functional>
#include <iostream>
#include <memory>
#include <optional>

#include "common/options.h"
#include "warmup/catalog_target.h"
#include "warmup/report.h"
#include "warmup/run_observer.h"
#include "warmup/run_result.h"
#include "warmup/status.h"
#include "warmup/work_dir.h"

// Wraps the target a load writes to, e.g. to measure inside each upsert.
using TargetWrapper =
    std::function<std::unique_ptr<warmup::CatalogTarget>(std::unique_ptr<warmup::CatalogTarget>)>;

// Opens the source, makes the target `cmd` names (passed through `wrap` when
// set) and runs the copy, with progress lines on a terminal, the per-entity
// CSV if asked, and `observers`. `stop`: see CopyOptions::stop.
// An embedded target's work directory is prepared first (PrepareWorkDir),
// refusing `cmd`'s source and outputs, and `also_in_use`, inside it.
warmup::StatusOr<warmup::RunResult> RunLoad(const warmup::cli::LoadCommand& cmd,
                                            const std::vector<warmup::RunObserver*>& observers = {},
                                            const std::atomic<bool>* stop = nullptr,
                                            const TargetWrapper& wrap = {},
                                            const std::vector<warmup::PathInUse>& also_in_use = {});
// The paths `cmd` reads and writes besides its work directory (the snapshot,
// the report files), named by their flags: none may lie inside it.
std::vector<warmup::PathInUse> PathsInUse(const warmup::cli::LoadCommand& cmd);
// Calls `run` with a stop flag that SIGINT and SIGTERM set: the load ends
// after the current upsert, the partial target is dropped (unless
// --keep-target), and the result of what was measured comes back. `command`
// names the command in the messages.
warmup::StatusOr<warmup::RunResult> RunUntilInterrupted(
    const char* command,
    const std::function<warmup::StatusOr<warmup::RunResult>(const std::atomic<bool>*)>& run);
// RunLoad under RunUntilInterrupted, then Finish.
int RunLoadUntilInterrupted(const warmup::cli::LoadCommand& cmd, const char* command);
// Writes the run's files (--report-json with `render_json`, --html). When one
// cannot be written, the run fails (RunResult::output_error, exit 1) and the
// files that were written are written again saying so: no file, and no
// printed verdict, claims what the exit status contradicts.
void WriteRunFiles(
    const warmup::cli::LoadCommand& cmd, warmup::RunResult& result,
    const std::function<std::string(const warmup::RunResult&)>& render_json = &warmup::RenderJsonReport);
// WriteRunFiles, then prints the text report, stays alive
// --hold-open-seconds, and returns the exit status.
int Finish(const warmup::cli::LoadCommand& cmd, warmup::RunResult result);
// Exit statuses of the warmup commands besides a run's own (docs/measurement.md).
inline constexpr int kExitFailed = 1;
inline constexpr int kExitUsage = 64;  // EX_USAGE: the command line is wrong

// Prints a failure ("warmup: ...") to stderr and returns kExitFailed.
int FailWith(const warmup::Status& status);

// Checked before a run starts, so that a run's figures never end up with
// nowhere to go: OK when `path` is empty (no such output) or a file that can
// be written (replacing one only when `may_exist`). Errors:
// kFailedPrecondition naming `flag` and the path, and why not.
warmup::Status CheckOutputFile(const std::string& flag, const std::string& path, bool may_exist);
// CheckOutputFile for every file a load writes (--report-json, --per-entity-csv).
warmup::Status CheckOutputs(const warmup::cli::LoadCommand& cmd);

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

#endif  // WARMUP_APPS_WARMUP_LOAD_H_
