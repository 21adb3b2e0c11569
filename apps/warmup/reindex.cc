// warmup reindex: one command, one number. Starts `warmup serve` on a fresh
// data directory under supervision (or uses --address), loads over evitaDB's
// protocol, goLive, verify, stops the server, and reports with the server's
// figures as data. SIGINT/SIGTERM stop the server; the partial report follows.
#include "reindex.h"

#include <signal.h>
#include <string.h>

#include <filesystem>
#include <iostream>
#include <thread>
#include <utility>  // before Asio: Boost 1.74's awaitable.hpp needs std::exchange
// clang-format off
#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
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

}  // namespace

warmup::StatusOr<warmup::RunResult> ReindexWithOwnServer(const warmup::cli::LoadCommand& cmd,
                                                         const char* command, int* interrupted_by) {
  *interrupted_by = 0;
  if (auto s = warmup::PrepareWorkDir(cmd.target.work_dir); !s.ok()) return s;
  warmup::ServerProcessOptions options;
  // A server command's data directory is a subdirectory of the work directory, beside its log and GC log.
  const std::filesystem::path work = cmd.target.work_dir;
  std::string data_dir = cmd.target.work_dir;
  if (!cmd.server.command.empty()) {
    data_dir = (work / "data").string();
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
  options.serve_args = {"--data-dir", cmd.target.work_dir};
  // zstd as the bare flag, which every serve build has read (another build may be older).
  if (cmd.target.compression == warmup::RecordCompression::kZstd) options.serve_args.push_back("--compress");
  if (cmd.target.compression == warmup::RecordCompression::kDeflate) {
    options.serve_args.insert(options.serve_args.end(), {"--compress", "deflate"});
  }
  options.serve_args.insert(options.serve_args.end(), cmd.server.extra_args.begin(),
                            cmd.server.extra_args.end());
  options.start_timeout = std::chrono::seconds(cmd.server.start_timeout_seconds);
  options.stop_grace = std::chrono::seconds(cmd.server.stop_grace_seconds);
  // Signals wait on a thread of ours from here on, so an interrupt stops the
  // server, which ends the load at its next call, and the report still comes.
  boost::asio::io_context signals_io;
  boost::asio::signal_set signals(signals_io, SIGINT, SIGTERM);
  auto server = warmup::ServerProcess::Start(options);
  if (!server.ok()) return server.status();
  signals.async_wait([&](const boost::system::error_code& ec, int signal) {
    if (ec) return;
    *interrupted_by = signal;
    std::cerr << "warmup " << command << ": SIG" << ::sigabbrev_np(signal)
              << " received; stopping the server\n";
    (*server)->Stop();
  });
  std::thread watcher([&] { signals_io.run(); });

  warmup::cli::LoadCommand load = cmd;
  load.target.address = (*server)->address();
  warmup::ServerSampler sampler(**server);
  auto result = RunLoad(load, {&sampler});
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
  if (auto s = CheckOutputs(*cmd); !s.ok()) return FailWith(s);  // before a server is started for nothing
  int interrupted_by = 0;
  auto result = ReindexWithOwnServer(*cmd, "reindex", &interrupted_by);
  if (!result.ok()) return FailWith(result.status());
  const int exit_code = Finish(*cmd, *result);
  return interrupted_by != 0 && exit_code == 0 ? 1 : exit_code;
}
