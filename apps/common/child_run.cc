#include "common/child_run.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

extern char** environ;

namespace warmup::cli {

StatusOr<int> ChildRunner::Run(const std::vector<std::string>& argv,
                               const std::filesystem::path& stdout_file) {
  std::vector<char*> args;
  args.reserve(argv.size() + 1);
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  // posix_spawn, not fork: this process has threads (the watcher's, gRPC's),
  // and a forked copy of it may only exec, which spawn does for it.
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, stdout_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                   0644);
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attributes, 0);
  pid_t pid = 0;
  const int spawned = ::posix_spawn(&pid, argv[0].c_str(), &actions, &attributes, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  if (spawned != 0) return InternalError("cannot start " + argv[0] + ": " + std::strerror(spawned));
  {
    std::lock_guard lock(mu_);
    running_ = pid;
  }
  signals_.OnStop([this] {
    std::lock_guard lock(mu_);
    if (running_ > 0) ::kill(running_, signals_.received() == SIGINT ? SIGINT : SIGTERM);
  });
  // Waited for without reaping first, so that the pid a stop request
  // signals is never one the system has handed to another process.
  siginfo_t info{};
  while (::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOWAIT) != 0 && errno == EINTR) {
  }
  {
    std::lock_guard lock(mu_);
    running_ = 0;
  }
  signals_.OnStop([] {});  // nothing to pass a later request on to
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

StatusOr<std::string> ThisBinary() {
  std::error_code ec;
  std::string self = std::filesystem::read_symlink("/proc/self/exe", ec).string();
  if (ec) return InternalError("cannot find this binary (/proc/self/exe): " + ec.message());
  return self;
}

StatusOr<int> RunInChild(ChildRunner& runner, const std::string& binary, const LoadCommand& cmd,
                         const std::filesystem::path& stdout_file) {
  std::vector<std::string> argv = cmd.command_line;
  argv.front() = binary;  // command_line names the tool "warmup"; the child is this build of it
  return runner.Run(argv, stdout_file);
}

}  // namespace warmup::cli
