// warmup serve: the write side alone, the process to attach a profiler to.
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "common/options.h"
#include "common/run_command.h"
#include "common/signal_watcher.h"
#include "warmup/environment.h"
#include "warmup/process_usage.h"
#include "warmup/readiness_line.h"
#include "warmup/run_observer.h"
#include "warmup/server.h"
#include "warmup/version.h"
#include "warmup/work_dir.h"

namespace {

// The start-up header's note of how records are compressed.
const char* CompressionLabel(warmup::RecordCompression compression) {
  switch (compression) {
    case warmup::RecordCompression::kZstd:
      return ", compress zstd";
    case warmup::RecordCompression::kDeflate:
      return ", compress deflate";
    default:
      return "";
  }
}

// --profiler: one window from the first upsert of a warming-up catalog to the
// start of its goLive, and with --profile-golive one over that goLive; for
// the first catalog that opens one (a profile file holds one window).
class ProfilerObserver : public warmup::ServerObserver {
 public:
  ProfilerObserver(std::unique_ptr<warmup::cli::ProfilerWindow> load,
                   std::unique_ptr<warmup::cli::ProfilerWindow> golive)
      : load_(std::move(load)), golive_(std::move(golive)) {}

  void OnFirstUpsert(const std::string& catalog) override {
    if (!catalog_.empty()) {
      if (catalog != catalog_) Say(catalog + " is not profiled: the window was " + catalog_ + "'s");
      return;
    }
    catalog_ = catalog;
    Open(*load_, "at the first upsert of " + catalog);
  }
  void OnGoLiveStart(const std::string& catalog) override {
    if (catalog != catalog_ || !load_->open()) return;
    Close(*load_);
    if (golive_ != nullptr) Open(*golive_, "over the goLive of " + catalog);
  }
  void OnGoLiveEnd(const std::string& catalog, bool ok) override {
    if (catalog != catalog_ || golive_ == nullptr || !golive_->open()) return;
    Close(*golive_);
    if (!ok) Say("(that goLive failed)");
  }

 private:
  static void Say(const std::string& message) {
    std::printf("warmup serve: profiler: %s\n", message.c_str());
    std::fflush(stdout);
  }
  static void Open(warmup::cli::ProfilerWindow& window, const std::string& when) {
    if (auto s = window.Open(); !s.ok()) {
      Say("the window did not open: " + s.ToString());
      return;
    }
    Say(std::string(warmup::cli::ProfilerKindName(window.kind())) + " window opened " + when);
  }
  static void Close(warmup::cli::ProfilerWindow& window) {
    if (auto s = window.Close(); !s.ok()) {
      Say("the window did not close cleanly: " + s.ToString());
      return;
    }
    Say("window closed; wrote " + window.Describe());
  }

  std::unique_ptr<warmup::cli::ProfilerWindow> load_;
  std::unique_ptr<warmup::cli::ProfilerWindow> golive_;  // null without --profile-golive
  std::string catalog_;                                  // the catalog the window is for
};

// What serve says as it runs, as evitaDB logs it ("Catalog X is now alive!",
// which wrappers look for), passed on to the profiler when there is one.
class ServeLog : public warmup::ServerObserver {
 public:
  explicit ServeLog(warmup::ServerObserver* next) : next_(next) {}
  void OnFirstUpsert(const std::string& catalog) override {
    if (next_ != nullptr) next_->OnFirstUpsert(catalog);
  }
  void OnGoLiveStart(const std::string& catalog) override {
    if (next_ != nullptr) next_->OnGoLiveStart(catalog);
  }
  void OnGoLiveEnd(const std::string& catalog, bool ok) override {
    if (next_ != nullptr) next_->OnGoLiveEnd(catalog, ok);
    if (ok) std::fprintf(stderr, "Catalog %s is now alive!\n", catalog.c_str());
  }
  void OnOrphanedSessionClosed(const std::string& description) override {
    std::printf("warmup serve: closed %s\n", description.c_str());
    std::fflush(stdout);
  }
  void OnInternalError(const std::string& description) override {
    std::fprintf(stderr, "ERROR warmup serve: %s\n", description.c_str());
  }

 private:
  warmup::ServerObserver* next_;
};

// The profiler observer for --profiler, null without it. Made before the
// server starts, so that a missing profiler is an error and not a run
// without its profile.
warmup::StatusOr<std::unique_ptr<ProfilerObserver>> MakeProfiler(
    const warmup::cli::ProfilerOptions& options) {
  if (options.kind == warmup::cli::ProfilerKind::kNone) return std::unique_ptr<ProfilerObserver>();
  auto load = warmup::cli::ProfilerWindow::Make(options.kind, options.out);
  if (!load.ok()) return load.status();
  std::unique_ptr<warmup::cli::ProfilerWindow> golive;
  if (options.golive) {
    auto window = warmup::cli::ProfilerWindow::Make(options.kind, options.out + ".golive");
    if (!window.ok()) return window.status();
    golive = std::move(window).value();
  }
  return std::make_unique<ProfilerObserver>(std::move(load).value(), std::move(golive));
}

// The start-up header: what serves where, on which host, and every testing
// aid in force.
void PrintHeader(const warmup::cli::ServeCommand& cmd, const warmup::Server& server) {
  const warmup::ServerOptions& options = cmd.server;
  const warmup::Environment env = warmup::DescribeEnvironment();
  std::printf("warmup serve %s: pid %d, listening on port %d (%s), data %s%s%s\n", env.build.c_str(),
              static_cast<int>(getpid()), server.port(), options.listen.c_str(), options.data_dir.c_str(),
              CompressionLabel(options.engine.compression),
              options.engine.background_records ? "" : ", records inline");
  std::printf("  host %s: %s, %d cores, memory limit %.1f GiB\n", env.hostname.c_str(), env.cpu_model.c_str(),
              env.cores, static_cast<double>(env.memory_limit_bytes) / (1 << 30));
  if (!options.tls.cert_file.empty()) {
    std::printf("  gRPC over TLS, certificate %s%s%s\n", options.tls.cert_file.c_str(),
                options.tls.client_ca_file.empty() ? "" : "; clients need a certificate signed by ",
                options.tls.client_ca_file.c_str());
  }
  if (server.system_port() != 0) {
    const auto system =
        warmup::SplitHostPort(options.system_listen, warmup::AddressUse::kListen);  // parsed already
    std::printf("  system endpoint: http://%s:%d/system/server.crt\n", system->host.c_str(),
                server.system_port());
  }
  if (!warmup::IsLoopback(options.listen)) {
    std::printf("  WARNING: listening on %s, which other machines can reach; nothing authenticates them\n",
                options.listen.c_str());
  }
  for (const auto& leftover : server.leftovers()) {
    std::printf("  leftover, not loaded: %s\n", leftover.c_str());
  }
  // Said up front, so that nobody takes figures from a server made to fail.
  for (const auto& fault : options.faults) {
    std::printf("  testing aid: %s fails after %lld calls\n", fault.method.c_str(),
                static_cast<long long>(fault.after_calls));
  }
  if (options.upsert_delay_ms > 0) {
    std::printf("  testing aid: every upsert waits %d ms first\n", options.upsert_delay_ms);
  }
  if (options.golive_delay_ms > 0) {
    std::printf("  testing aid: goLive waits %d ms first\n", options.golive_delay_ms);
  }
  if (options.inject_upsert_delay_us > 0) {
    std::printf("  simulated slower build: every upsert spends %d us more in the measured server time\n",
                options.inject_upsert_delay_us);
  }
  if (cmd.profiler.kind != warmup::cli::ProfilerKind::kNone) {
    std::printf("  profiler %s into %s: from the first upsert of a warming-up catalog to its goLive%s\n",
                warmup::cli::ProfilerKindName(cmd.profiler.kind), cmd.profiler.out.c_str(),
                cmd.profiler.golive ? ", and over the goLive" : "");
  }
  std::fflush(stdout);
}

// --ready-fd: the supervisor's readiness channel gets one JSON line, then is closed.
void SayReady(int fd, const warmup::Server& server) {
  const std::string ready = warmup::FormatReadinessLine({.pid = static_cast<int>(getpid()),
                                                         .port = server.port(),
                                                         .system_port = server.system_port(),
                                                         .build = warmup::DescribeBuild().Summary()});
  (void)!write(fd, ready.data(), ready.size());
  close(fd);
}

// Destroys a server that has stopped, all but its engine. The engine is not
// freed: at scale 1.0 that took longer than a supervisor's 10 s grace, and
// the process's end frees it at once. What it holds buffered reaches the OS
// first, as its destruction would have made it; it stays reachable, so that
// no leak checker calls it lost. The rest of the server is destroyed, so
// that no gRPC or system-endpoint thread runs on while the process ends (one
// that did ended it by a signal now and then, after a clean stop).
// Errors: Server::Flush's.
warmup::Status EndKeepingEngine(std::unique_ptr<warmup::Server> server) {
  warmup::Status flushed = server->Flush();
  static warmup::Engine* const kKeptUntilExit = server->ReleaseEngine().release();
  (void)kKeptUntilExit;
  server.reset();
  return flushed;
}

// The closing line: what serving cost this process.
void PrintUsage() {
  const warmup::ProcessUsage usage = warmup::UsageOfThisProcess();
  std::printf(
      "warmup serve stopped: user %.2f s, sys %.2f s, peak RSS %.1f MB, page faults %lld minor / %lld major, "
      "context switches %lld voluntary / %lld involuntary; %d thread(s) left running\n",
      usage.user_seconds, usage.system_seconds, static_cast<double>(usage.peak_rss_bytes) / (1024.0 * 1024.0),
      static_cast<long long>(usage.minor_faults), static_cast<long long>(usage.major_faults),
      static_cast<long long>(usage.voluntary_context_switches),
      static_cast<long long>(usage.involuntary_context_switches), warmup::ThreadsOfThisProcess());
}

}  // namespace

int Serve(const std::vector<std::string>& args) {
  auto cmd = warmup::cli::ParseServe(args);
  if (auto stop = StopAfterParse(cmd)) return *stop;
  const std::string& data_dir = cmd->server.data_dir;
  // A data directory serve makes is a work directory (marked, so that
  // --reset-data may clear it later), and is removed again when the server
  // does not start; --reset-data clears only what warmup made in one.
  std::error_code fs_ec;
  const bool makes_data_dir = !std::filesystem::exists(data_dir, fs_ec);
  auto fail_before_start = [&](const warmup::Status& status) {
    if (makes_data_dir) std::filesystem::remove_all(data_dir, fs_ec);  // only the marker and lock in it
    return FailWith(status);
  };
  if (cmd->reset_data || makes_data_dir) {
    const std::vector<warmup::PathInUse> in_use = {{"--profile-out", cmd->profiler.out},
                                                   {"--tls-cert", cmd->server.tls.cert_file},
                                                   {"--tls-key", cmd->server.tls.key_file},
                                                   {"--client-ca", cmd->server.tls.client_ca_file}};
    if (auto s = warmup::PrepareWorkDir(data_dir, in_use); !s.ok()) return fail_before_start(s);
  }
  // SIGTERM and SIGINT shut the server down, also one that comes while it starts.
  std::optional<warmup::cli::SignalWatcher> signals;
  signals.emplace("serve", /*started_server=*/false, "shutting down");
  auto profiler = MakeProfiler(cmd->profiler);
  if (!profiler.ok()) return fail_before_start(profiler.status());

  ServeLog log(profiler->get());
  cmd->server.observer = &log;
  auto server = warmup::Server::Start(cmd->server);
  if (!server.ok()) return fail_before_start(server.status());
  PrintHeader(*cmd, **server);
  if (cmd->ready_fd >= 0) SayReady(cmd->ready_fd, **server);

  signals->OnStop([&] { (*server)->Shutdown(); });
  (*server)->Wait();
  signals.reset();  // joins the watcher's thread: no shutdown call outlives the server
  if (auto s = EndKeepingEngine(std::move(*server)); !s.ok()) {
    return FailWith(s.WithContext("warmup serve stopping"));
  }
  PrintUsage();
  return 0;
}
