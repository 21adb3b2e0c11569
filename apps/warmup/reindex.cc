// warmup reindex: one command, one number. Starts `warmup serve` on a fresh
// data directory under supervision (or uses --address), loads over evitaDB's
// protocol, goLive, verify, stops the server, and reports with the server's
// figures as data. SIGINT/SIGTERM stop the load after the current upsert (the
// server after the stop grace, or at a second signal); the partial report,
// marked interrupted, follows.
#include "reindex.h"

#include <signal.h>
#include <string.h>

#include <atomic>
#include <filesystem>
#include <functional>
#include <iostream>
#include <thread>
#include <utility>  // before Asio: Boost 1.74's awaitable.hpp needs std::exchange
// clang-format off
#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
// clang-format on

#include "load.h"
#include "warmup/server_process.h"
#include "warmup/work_dir.h"

namespace {

int64_t DirectoryBytes(const std::string& dir) {
  int64_t total = 0;
  std::error_code ec;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir, ec)) {
    if (e.is_regular_file(ec)) total += static_cast<int64_t>(e.file_size(ec));
  }
  return total;
}

// A run a signal cut short is interrupted, whatever the load saw last: when
// the server had to be stopped under it, its upsert, goLive or check failed
// as a lost server, which is not what happened. A run that had finished well
// before the signal could stop anything stands as it is. Where the partial
// catalog is, if it could not be dropped, is said.
void MarkInterrupted(warmup::RunResult& result, int signal, const std::string& data_dir) {
  if (result.ExitCode() == 0) return;
  const std::string by = "interrupted by SIG" + std::string(::sigabbrev_np(signal));
  if (result.abort_reason == warmup::AbortReason::kInterrupted) {
    // The load saw the stop itself, between two upserts.
  } else if (result.abort_reason != warmup::AbortReason::kNone) {
    result.abort_error = by + ", which stopped the server under the load (" + result.abort_error + ")";
  } else if (result.golive == warmup::GoLiveOutcome::kFailed) {
    result.abort_error = by + " during goLive, which stopped the server (" + result.golive_error + ")";
  } else {
    result.abort_error = by + " after goLive, which stopped the server before the check was done";
  }
  result.abort_reason = warmup::AbortReason::kInterrupted;
  if (result.target_drop == warmup::TargetDrop::kFailed || result.target_drop == warmup::TargetDrop::kKept) {
    result.notes.push_back("the partial catalog " + result.target_catalog + " is kept in the server's data " +
                           "directory " + data_dir + "; the next run on this --work-dir clears it");
  }
}

}  // namespace

warmup::StatusOr<warmup::RunResult> ReindexWithOwnServer(const warmup::cli::LoadCommand& cmd,
                                                         const char* command, int* interrupted_by) {
  *interrupted_by = 0;
  if (auto s = warmup::PrepareWorkDir(cmd.target.work_dir, PathsInUse(cmd)); !s.ok()) return s;
  warmup::ServerProcessOptions options;
  // The server's data directory is a fresh subdirectory of the work
  // directory, beside a command's log and GC log; each is recorded as
  // warmup's, so that the next run clears it and nothing else.
  const std::filesystem::path work = cmd.target.work_dir;
  const std::string data_dir = (work / "data").string();
  for (const char* made : {"data", "server.log", "gc.log"}) {
    if (auto s = warmup::RecordInWorkDir(cmd.target.work_dir, made); !s.ok()) return s;
  }
  if (!cmd.server.command.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(data_dir, ec);
    if (ec) return warmup::InternalError("cannot create " + data_dir + ": " + ec.message());
    options.command = cmd.server.command;
    options.data_dir = data_dir;
    options.run_label = cmd.copy.run_label;
    options.gc_log = (work / "gc.log").string();
    options.xmx = cmd.server.xmx;
    options.log = (work / "server.log").string();
  }
  options.binary = cmd.server.binary.empty() ? std::filesystem::read_symlink("/proc/self/exe").string()
                                             : cmd.server.binary;
  options.serve_args = {"--data-dir", data_dir};
  // zstd as the bare flag, which every serve build has read (another build may be older).
  if (cmd.target.compression == warmup::RecordCompression::kZstd) options.serve_args.push_back("--compress");
  if (cmd.target.compression == warmup::RecordCompression::kDeflate) {
    options.serve_args.insert(options.serve_args.end(), {"--compress", "deflate"});
  }
  options.serve_args.insert(options.serve_args.end(), cmd.server.extra_args.begin(),
                            cmd.server.extra_args.end());
  options.start_timeout = std::chrono::seconds(cmd.server.start_timeout_seconds);
  options.stop_grace = std::chrono::seconds(cmd.server.stop_grace_seconds);
  // Signals wait on a thread of ours from here on. The first asks the load
  // to stop after the current upsert, so that the partial catalog is dropped
  // by a server that still runs and the run is recorded as interrupted; a
  // server that does not let the load get there within the stop grace (a
  // hung upsert) is stopped then, and a second signal stops it at once.
  boost::asio::io_context signals_io;
  boost::asio::signal_set signals(signals_io, SIGINT, SIGTERM);
  boost::asio::steady_timer grace(signals_io);
  auto server = warmup::ServerProcess::Start(options);
  if (!server.ok()) return server.status();
  std::atomic<bool> stop{false};
  std::function<void(const boost::system::error_code&, int)> on_signal =
      [&](const boost::system::error_code& ec, int signal) {
        if (ec) return;
        if (*interrupted_by != 0) {
          std::cerr << "warmup " << command << ": SIG" << ::sigabbrev_np(signal)
                    << " received again; stopping the server now\n";
          (*server)->Stop();
          return;
        }
        *interrupted_by = signal;
        stop = true;
        std::cerr << "warmup " << command << ": SIG" << ::sigabbrev_np(signal)
                  << " received; stopping after the current upsert (again: stop the server now)\n";
        grace.expires_after(options.stop_grace);
        grace.async_wait([&](const boost::system::error_code& timer_ec) {
          if (timer_ec) return;
          std::cerr << "warmup " << command << ": the load did not stop within the grace period; "
                    << "stopping the server\n";
          (*server)->Stop();
        });
        signals.async_wait(on_signal);
      };
  signals.async_wait(on_signal);
  std::thread watcher([&] { signals_io.run(); });

  warmup::cli::LoadCommand load = cmd;
  load.target.address = (*server)->address();
  warmup::ServerSampler sampler(**server);
  auto result = RunLoad(load, {&sampler}, &stop);
  warmup::ServerFigures figures = (*server)->Stop();
  signals_io.stop();
  watcher.join();
  if (*interrupted_by != 0) {
    std::cerr << "warmup " << command << ": interrupted by SIG" << ::sigabbrev_np(*interrupted_by)
              << "; the server was stopped (" << figures.ended << ")\n";
  }
  if (!result.ok()) {
    std::cerr << "warmup " << command << ": the server " << figures.binary << " (pid " << figures.pid << ") "
              << figures.ended << "\n";
    return result.status();
  }
  if (*interrupted_by != 0) MarkInterrupted(*result, *interrupted_by, data_dir);
  warmup::RunConfig& config = result->config;
  config.storage = warmup::DescribeStorage(data_dir);
  if (cmd.server.command.empty()) {
    config.compression = warmup::RecordCompressionName(cmd.target.compression);
    config.server_binary = options.binary;
    config.server_args = cmd.server.extra_args;
  } else {
    config.server_command = cmd.server.command;  // its storage settings are in the command
    config.server_xmx = cmd.server.xmx;
  }
  sampler.AddTo(figures);
  figures.data_dir = data_dir;
  figures.data_bytes = DirectoryBytes(data_dir);
  result->server_process = std::move(figures);
  return result;
}

int Reindex(const std::vector<std::string>& args) {
  auto cmd = warmup::cli::ParseReindex(args);
  if (auto stop = StopAfterParse(cmd)) return *stop;
  if (!cmd->server.start) return RunLoadUntilInterrupted(*cmd, "reindex");
  // Before a server is started for nothing.
  if (auto s = warmup::CheckOutsideWorkDir(cmd->target.work_dir, PathsInUse(*cmd)); !s.ok())
    return FailWith(s);
  if (auto s = CheckOutputs(*cmd); !s.ok()) return FailWith(s);
  int interrupted_by = 0;
  auto result = ReindexWithOwnServer(*cmd, "reindex", &interrupted_by);
  if (!result.ok()) return FailWith(result.status());
  return Finish(*cmd, *result);
}
