// warmup load: the read side alone, against the embedded engine, a running
// server, or nothing (the null target).
#include "load.h"

#include <signal.h>
#include <string.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <thread>
#include <utility>  // before Asio: Boost 1.74's awaitable.hpp needs std::exchange
// clang-format off
#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
// clang-format on

#include "common/progress.h"
#include "warmup/copy_engine.h"
#include "warmup/engine.h"
#include "warmup/grpc_source.h"
#include "warmup/html_report.h"
#include "warmup/page_cache.h"
#include "warmup/remote_target.h"
#include "warmup/report.h"
#include "warmup/run_observer.h"
#include "warmup/snapshot.h"
#include "warmup/time_series.h"
#include "warmup/work_dir.h"

int FailWith(const warmup::Status& status) {
  std::cerr << "warmup: " << status.ToString() << "\n";
  return kExitFailed;
}

warmup::Status CheckOutputFile(const std::string& flag, const std::string& path, bool may_exist) {
  namespace fs = std::filesystem;
  if (path.empty()) return warmup::OkStatus();
  auto fail = [&](const std::string& why) {
    return warmup::FailedPreconditionError(flag + " " + path + ": " + why + "; nothing was run");
  };
  std::error_code ec;
  if (fs::exists(path, ec)) {
    if (fs::is_directory(path, ec)) return fail("is a directory");
    if (!may_exist) return fail("exists already");
    if (::access(path.c_str(), W_OK) != 0) return fail("cannot be written");
    return warmup::OkStatus();
  }
  const fs::path parent = fs::path(path).has_parent_path() ? fs::path(path).parent_path() : fs::path(".");
  if (!fs::is_directory(parent, ec)) return fail("the directory " + parent.string() + " does not exist");
  if (::access(parent.c_str(), W_OK) != 0)
    return fail("the directory " + parent.string() + " cannot be written");
  return warmup::OkStatus();
}

namespace {

// Prewarms or drops the snapshot as asked, then measures what is resident.
warmup::StatusOr<warmup::SourceCache> SetSourceCache(const std::string& snapshot,
                                                     const warmup::cli::SourceOptions& source) {
  if (source.prewarm) {
    if (auto s = warmup::PrewarmPageCache(snapshot); !s.ok()) return s.WithContext("--prewarm-source");
  }
  if (source.drop_cache) {
    if (auto s = warmup::DropFromPageCache(snapshot); !s.ok()) return s.WithContext("--drop-source-cache");
  }
  auto cache = warmup::MeasurePageCache(snapshot);
  if (!cache.ok()) return cache.status().WithContext("measuring the snapshot's page-cache residency");
  cache->action = source.prewarm ? "prewarmed" : source.drop_cache ? "dropped" : "none";
  return cache;
}

}  // namespace

warmup::Status CheckOutputs(const warmup::cli::LoadCommand& cmd) {
  if (auto s = CheckOutputFile("--report-json", cmd.report.report_json, true); !s.ok()) return s;
  if (auto s = CheckOutputFile("--html", cmd.report.html, true); !s.ok()) return s;
  return CheckOutputFile("--per-entity-csv", cmd.report.per_entity_csv, true);
}

std::vector<warmup::PathInUse> PathsInUse(const warmup::cli::LoadCommand& cmd) {
  return {{"--pristine-dir", cmd.source.pristine_dir},
          {"--report-json", cmd.report.report_json},
          {"--html", cmd.report.html},
          {"--per-entity-csv", cmd.report.per_entity_csv}};
}

warmup::StatusOr<warmup::RunResult> RunLoad(const warmup::cli::LoadCommand& cmd,
                                            const std::vector<warmup::RunObserver*>& observers,
                                            const std::atomic<bool>* stop, const TargetWrapper& wrap,
                                            const std::vector<warmup::PathInUse>& also_in_use) {
  std::vector<warmup::PathInUse> in_use = PathsInUse(cmd);
  in_use.insert(in_use.end(), also_in_use.begin(), also_in_use.end());
  if (cmd.target.kind == "embedded") {  // the first thing: a user's file would be in the way of the run
    if (auto s = warmup::CheckOutsideWorkDir(cmd.target.work_dir, in_use); !s.ok()) return s;
  }
  if (auto s = CheckOutputs(cmd); !s.ok()) return s;
  std::optional<warmup::SourceCache> source_cache;
  auto open_source = [&]() -> warmup::StatusOr<std::unique_ptr<warmup::CatalogSource>> {
    if (!cmd.source.grpc_address.empty()) {
      warmup::GrpcSourceOptions options;
      options.tls = cmd.source.tls;
      options.allow_not_alive = cmd.source.allow_not_alive;
      return warmup::OpenGrpcSource(cmd.source.grpc_address, cmd.source.grpc_catalog, options);
    }
    auto path = warmup::FindSnapshot(cmd.source.pristine_dir, cmd.source.catalog);
    if (!path.ok()) return path.status().WithContext("--pristine-dir");
    auto snapshot = warmup::OpenSnapshotSource(*path);  // its errors first: they say what is wrong
    if (!snapshot.ok()) return snapshot.status();
    auto cache = SetSourceCache(*path, cmd.source);
    if (!cache.ok()) return cache.status();
    source_cache = *cache;
    return snapshot;
  };
  auto source = open_source();
  if (!source.ok()) return source.status();
  // The target after the source: a source that cannot be read leaves the work directory untouched.
  std::unique_ptr<warmup::CatalogTarget> target;
  if (cmd.target.kind == "embedded") {
    if (auto s = warmup::PrepareWorkDir(cmd.target.work_dir, in_use); !s.ok()) return s;
    warmup::EngineOptions options;
    options.compression = cmd.target.compression;
    auto embedded = warmup::MakeEmbeddedTarget(cmd.target.work_dir, options);
    if (!embedded.ok()) return embedded.status();
    target = std::move(embedded).value();
  } else if (cmd.target.kind == "remote") {
    warmup::RemoteTargetOptions options;
    options.golive_timeout_seconds = cmd.target.golive_timeout_seconds;
    options.upsert_timeout_seconds = cmd.target.upsert_timeout_seconds;
    options.tls = cmd.target.tls;
    auto remote = warmup::MakeRemoteTarget(cmd.target.address, options);
    if (!remote.ok()) return remote.status();
    target = std::move(remote).value();
  } else {
    target = warmup::MakeNullTarget();
  }
  warmup::CopyOptions copy = cmd.copy;
  copy.stop = stop;
  copy.config.command_line = cmd.command_line;
  copy.config.target_kind = cmd.target.kind;
  if (cmd.target.kind == "embedded") {
    copy.config.compression = warmup::RecordCompressionName(cmd.target.compression);
    copy.config.storage = warmup::DescribeStorage(cmd.target.work_dir);
  } else if (cmd.target.kind == "null") {
    copy.config.compression = "n/a";
  }  // a remote server's storage is its own: the caller that started it says
  copy.observers.insert(copy.observers.end(), observers.begin(), observers.end());
  warmup::TimeSeriesRecorder series;
  copy.observers.push_back(&series);
  warmup::cli::ProgressReporter progress(
      stderr, warmup::cli::ProgressForStderr(cmd.report.progress_interval_seconds));
  if (cmd.report.progress_lines && !cmd.report.quiet) copy.observers.push_back(&progress);
  std::unique_ptr<warmup::RunObserver> csv;
  if (!cmd.report.per_entity_csv.empty()) {
    auto writer = warmup::MakePerEntityCsvWriter(cmd.report.per_entity_csv);
    if (!writer.ok()) return writer.status();
    csv = std::move(writer).value();
    copy.observers.push_back(csv.get());
  }
  if (wrap) target = wrap(std::move(target));
  auto result = warmup::RunCopy(**source, *target, copy);
  if (result.ok()) {
    result->source_cache = source_cache;
    result->time_series = series.Build();
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

warmup::StatusOr<warmup::RunResult> RunUntilInterrupted(
    const char* command,
    const std::function<warmup::StatusOr<warmup::RunResult>(const std::atomic<bool>*)>& run) {
  std::atomic<bool> stop{false};
  std::atomic<int> received{0};
  // Asio turns the signals into a handler call on a thread of ours.
  boost::asio::io_context signals_io;
  boost::asio::signal_set signals(signals_io, SIGINT, SIGTERM);
  signals.async_wait([&](const boost::system::error_code& ec, int signal) {
    if (ec) return;
    received = signal;
    stop = true;
    std::cerr << "warmup " << command << ": SIG" << ::sigabbrev_np(signal)
              << " received; stopping after the current upsert\n";
  });
  std::thread watcher([&] { signals_io.run(); });
  auto result = run(&stop);
  signals_io.stop();
  watcher.join();
  if (result.ok() && received != 0 && result->abort_reason != warmup::AbortReason::kInterrupted) {
    std::cerr << "warmup " << command
              << ": the signal came during goLive (or after the load), which was let finish\n";
  }
  return result;
}

int RunLoadUntilInterrupted(const warmup::cli::LoadCommand& cmd, const char* command) {
  auto result =
      RunUntilInterrupted(command, [&](const std::atomic<bool>* stop) { return RunLoad(cmd, {}, stop); });
  if (!result.ok()) return FailWith(result.status());
  return Finish(cmd, *result);
}

int Load(const std::vector<std::string>& args) {
  auto cmd = warmup::cli::ParseLoad(args);
  if (auto stop = StopAfterParse(cmd)) return *stop;
  return RunLoadUntilInterrupted(*cmd, "load");
}
