// warmup serve: the write side alone, the process to attach a profiler to.
#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cstdio>
#include <thread>

#include "common/options.h"
#include "load.h"
#include "warmup/run_result.h"
#include "warmup/server.h"
#include "warmup/work_dir.h"

namespace {

// SIGTERM and SIGINT write to this pipe; a thread reading it shuts the server
// down. gRPC starts threads before main, so a signal mask cannot be relied on.
int g_signal_pipe[2] = {-1, -1};

void OnSignal(int) {
  const char byte = 1;
  (void)!write(g_signal_pipe[1], &byte, 1);
}

}  // namespace

int Serve(const std::vector<std::string>& args) {
  auto cmd = warmup::cli::ParseServe(args);
  if (!cmd.ok()) return FailWith(cmd.status());
  if (cmd->reset_data) {
    if (auto s = warmup::PrepareWorkDir(cmd->data_dir); !s.ok()) return FailWith(s);
  }
  if (pipe(g_signal_pipe) != 0) return FailWith(warmup::InternalError("cannot create the signal pipe"));
  struct sigaction action {};
  action.sa_handler = OnSignal;
  sigaction(SIGTERM, &action, nullptr);
  sigaction(SIGINT, &action, nullptr);

  warmup::ServerOptions options;
  options.data_dir = cmd->data_dir;
  options.listen = cmd->listen;
  options.engine.compress = cmd->compress;
  options.session_idle_seconds = cmd->session_idle_seconds;
  options.golive_delay_ms = cmd->golive_delay_ms;
  options.faults = cmd->faults;
  auto server = warmup::Server::Start(options);
  if (!server.ok()) return FailWith(server.status());
  const warmup::Environment env = warmup::DescribeEnvironment();
  std::printf("warmup serve %s: pid %d, listening on port %d (%s), data %s%s\n", env.build.c_str(),
              static_cast<int>(getpid()), (*server)->port(), cmd->listen.c_str(), cmd->data_dir.c_str(),
              cmd->compress ? ", compress" : "");
  std::printf("  host %s: %s, %d cores, memory limit %.1f GiB\n", env.hostname.c_str(), env.cpu_model.c_str(),
              env.cores, static_cast<double>(env.memory_limit_bytes) / (1 << 30));
  for (const auto& leftover : (*server)->leftovers())
    std::printf("  leftover, not loaded: %s\n", leftover.c_str());
  // Said up front, so that nobody takes figures from a server made to fail.
  for (const auto& fault : cmd->faults) {
    std::printf("  testing aid: %s fails after %lld calls\n", fault.method.c_str(),
                static_cast<long long>(fault.after_calls));
  }
  if (cmd->golive_delay_ms > 0)
    std::printf("  testing aid: goLive waits %d ms first\n", cmd->golive_delay_ms);
  std::fflush(stdout);

  std::thread watcher([&] {
    char byte = 0;
    while (read(g_signal_pipe[0], &byte, 1) < 0) {
    }
    std::printf("warmup serve: shutting down\n");
    (*server)->Shutdown();
  });
  (*server)->Wait();
  watcher.join();

  struct rusage usage {};
  getrusage(RUSAGE_SELF, &usage);
  std::printf(
      "warmup serve stopped: user %.2f s, sys %.2f s, peak RSS %.1f MB, page faults %ld minor / %ld major, "
      "context switches %ld voluntary / %ld involuntary\n",
      static_cast<double>(usage.ru_utime.tv_sec) + static_cast<double>(usage.ru_utime.tv_usec) / 1e6,
      static_cast<double>(usage.ru_stime.tv_sec) + static_cast<double>(usage.ru_stime.tv_usec) / 1e6,
      static_cast<double>(usage.ru_maxrss) / 1024.0, usage.ru_minflt, usage.ru_majflt, usage.ru_nvcsw,
      usage.ru_nivcsw);
  return 0;
}
