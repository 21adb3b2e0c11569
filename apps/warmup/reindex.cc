// warmup reindex: one command, one number. Starts `warmup serve` on a fresh
// data directory (or uses --address), loads over evitaDB's protocol, goLive,
// verify, stops the server, and reports with the server's resource usage.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <iostream>
#include <regex>
#include <thread>

#include "load.h"
#include "warmup/report.h"
#include "warmup/work_dir.h"

namespace {

// A `warmup serve` child process and what it printed.
struct ServerProcess {
  pid_t pid = -1;
  int out = -1;
  std::string output;

  // Reads the child's output until `pattern` appears or it closes; false then.
  bool ReadUntil(const std::regex& pattern, std::smatch* match) {
    char buffer[512];
    while (!std::regex_search(output, *match, pattern)) {
      const ssize_t n = ::read(out, buffer, sizeof(buffer));
      if (n <= 0) return false;
      output.append(buffer, static_cast<size_t>(n));
    }
    return true;
  }
};

warmup::StatusOr<ServerProcess> StartServer(const warmup::cli::LoadCommand& cmd) {
  if (auto s = warmup::PrepareWorkDir(cmd.work_dir); !s.ok()) return s;
  const std::string binary = cmd.server_binary.empty()
                                 ? std::filesystem::read_symlink("/proc/self/exe").string()
                                 : cmd.server_binary;
  int pipe_fds[2];
  if (::pipe(pipe_fds) != 0) return warmup::InternalError("cannot create a pipe for the server");
  ServerProcess server;
  server.pid = ::fork();
  if (server.pid < 0) return warmup::InternalError("cannot fork the server");
  if (server.pid == 0) {
    ::dup2(pipe_fds[1], STDOUT_FILENO);
    ::dup2(pipe_fds[1], STDERR_FILENO);
    ::close(pipe_fds[0]);
    std::vector<const char*> argv = {binary.c_str(),       "serve",    "--data-dir",
                                     cmd.work_dir.c_str(), "--listen", "127.0.0.1:0"};
    if (cmd.compress) argv.push_back("--compress");
    argv.push_back(nullptr);
    ::execv(binary.c_str(), const_cast<char* const*>(argv.data()));
    ::_exit(127);
  }
  ::close(pipe_fds[1]);
  server.out = pipe_fds[0];
  std::smatch port;
  if (!server.ReadUntil(std::regex("listening on port (\\d+)"), &port)) {
    ::waitpid(server.pid, nullptr, 0);
    return warmup::UnavailableError("the server " + binary + " did not start:\n" + server.output);
  }
  return server;
}

// SIGTERM, then the rest of its output (its resource usage); returns that part.
std::string StopServer(ServerProcess& server) {
  const size_t before = server.output.size();
  ::kill(server.pid, SIGTERM);
  std::smatch done;
  server.ReadUntil(std::regex("stopped: [^\n]*\n"), &done);
  ::waitpid(server.pid, nullptr, 0);
  ::close(server.out);
  return server.output.substr(before);
}

int64_t DirectoryBytes(const std::string& dir) {
  int64_t total = 0;
  std::error_code ec;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir, ec)) {
    if (e.is_regular_file(ec)) total += static_cast<int64_t>(e.file_size(ec));
  }
  return total;
}

}  // namespace

int Reindex(const std::vector<std::string>& args) {
  auto cmd = warmup::cli::ParseReindex(args);
  if (!cmd.ok()) return FailWith(cmd.status());
  ServerProcess server;
  if (cmd->start_server) {
    auto started = StartServer(*cmd);
    if (!started.ok()) return FailWith(started.status());
    server = std::move(started).value();
    std::smatch port;
    std::regex_search(server.output, port, std::regex("listening on port (\\d+)"));
    cmd->address = "127.0.0.1:" + port[1].str();
  }
  auto result = RunLoad(*cmd);
  const std::string server_lines = cmd->start_server ? StopServer(server) : "";
  if (!result.ok()) return FailWith(result.status());
  std::string report = warmup::RenderTextReport(*result);
  const size_t status_line = report.rfind("RUN_STATUS=");
  std::cout << report.substr(0, status_line);
  if (cmd->start_server) {
    std::cout << "server (" << server.output.substr(0, server.output.find('\n')) << ")\n" << server_lines;
    std::cout << "server data: " << DirectoryBytes(cmd->work_dir) / 1000000.0 << " MB in " << cmd->work_dir
              << "\n";
  }
  std::cout << report.substr(status_line) << std::flush;
  if (cmd->hold_open_seconds > 0) std::this_thread::sleep_for(std::chrono::seconds(cmd->hold_open_seconds));
  return result->ExitCode();
}
