// The warmup binary as a test runs it: a command to completion with its
// output, or `warmup serve` in the background.
#ifndef WARMUP_TESTS_APPS_CLI_H_
#define WARMUP_TESTS_APPS_CLI_H_

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <doctest/doctest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "common/temp_dir.h"

namespace warmup::testing {

// How a finished process ended, with everything it wrote to stdout and stderr.
struct CliResult {
  bool exited = false;  // false: killed by a signal (or never started)
  int exit_code = -1;   // when exited
  int signal = 0;       // when killed
  std::string output;   // stdout and stderr, interleaved
};

// How a process that waitpid reported as `status` ended.
inline CliResult Ended(int status, std::string output) {
  CliResult result;
  result.exited = WIFEXITED(status);
  if (result.exited) result.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) result.signal = WTERMSIG(status);
  result.output = std::move(output);
  return result;
}

// Starts WARMUP_CLI_PATH with `args`, stdout and stderr into one pipe; returns its pid.
inline pid_t SpawnCli(const std::vector<std::string>& args, int* out_fd) {
  int fds[2];
  REQUIRE(::pipe2(fds, O_CLOEXEC) == 0);
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    ::dup2(fds[1], STDOUT_FILENO);
    ::dup2(fds[1], STDERR_FILENO);
    ::close(STDIN_FILENO);
    std::vector<char*> argv{const_cast<char*>("warmup")};
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    ::execv(WARMUP_CLI_PATH, argv.data());
    ::_exit(127);
  }
  ::close(fds[1]);
  *out_fd = fds[0];
  return child;
}

// Reads what the spawned `child` writes to `out` until it ends, closes `out`
// and returns how the child ended. A child that outlives `timeout_seconds` is
// killed, so a hang fails the test instead of the suite.
inline CliResult AwaitCli(pid_t child, int out, int timeout_seconds = 120) {
  std::string output;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeout_seconds);
  ::fcntl(out, F_SETFL, O_NONBLOCK);
  char buffer[4096];
  while (true) {
    const ssize_t n = ::read(out, buffer, sizeof(buffer));
    if (n > 0) {
      output.append(buffer, static_cast<size_t>(n));
      continue;
    }
    if (n == 0) break;
    if (std::chrono::steady_clock::now() > deadline) {
      ::kill(child, SIGKILL);
      break;
    }
    ::usleep(10'000);
  }
  ::close(out);
  int status = 0;
  REQUIRE(::waitpid(child, &status, 0) == child);
  return Ended(status, std::move(output));
}

// Runs WARMUP_CLI_PATH with `args` to its end (see AwaitCli).
inline CliResult RunCli(const std::vector<std::string>& args, int timeout_seconds = 120) {
  int out = -1;
  const pid_t child = SpawnCli(args, &out);
  return AwaitCli(child, out, timeout_seconds);
}

// Whether `part` occurs in `text`.
inline bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// The whole file at `path` ("" when it cannot be read).
inline std::string ReadText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// An executable shell script at `path`: "#!/bin/sh" and `body`.
inline void Script(const std::string& path, const std::string& body) {
  std::ofstream(path) << "#!/bin/sh\n" << body;
  std::filesystem::permissions(path, std::filesystem::perms::owner_all);
}

// Whether `pid` is gone (or a zombie nobody reaps).
inline bool Gone(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
  const size_t close = text.rfind(')');
  return text.empty() || (close != std::string::npos && text.substr(close + 2, 1) == "Z");
}

// `warmup generate --profile tiny --seed SEED` into DIR/pristine; returns DIR/pristine.
inline std::string GenerateTiny(const TempDir& dir, const std::string& seed = "1") {
  std::string pristine = dir / "pristine";
  const CliResult run = RunCli({"generate", "--profile", "tiny", "--seed", seed, "--out", pristine});
  REQUIRE_MESSAGE(run.exit_code == 0, run.output);
  return pristine;
}

// `warmup serve` on a free port of 127.0.0.1, its output read through a pipe.
// Start() has REQUIREd the header; the destructor kills the server if a test
// failed before Stop().
class ServeProcess {
 public:
  void Start(const std::string& data_dir, const std::vector<std::string>& extra_args = {}) {
    std::vector<std::string> args = {"serve", "--data-dir", data_dir, "--listen", "127.0.0.1:0"};
    args.insert(args.end(), extra_args.begin(), extra_args.end());
    pid_ = SpawnCli(args, &out_);
    const std::vector<std::string> header = AwaitOutput("pid (\\d+), listening on port (\\d+)");
    reported_pid_ = std::stoi(header[1]);
    address_ = "127.0.0.1:" + header[2];
  }
  // Reads the server's output until `pattern` matches in it and returns the
  // match and its groups. REQUIRE-d: the output ending, or `timeout_seconds`
  // passing, without it fails the test.
  std::vector<std::string> AwaitOutput(const std::string& pattern, int timeout_seconds = 60) {
    const std::regex expression(pattern);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeout_seconds);
    std::smatch match;
    while (!std::regex_search(seen_, match, expression)) {
      REQUIRE_MESSAGE(ReadSome(deadline), "no /", pattern, "/ in the server's output: ", seen_);
    }
    return {match.begin(), match.end()};
  }
  // SIGTERM; reads the output to its end (within `timeout_seconds`, else
  // the test fails and the server is killed), then returns how it ended.
  CliResult Stop(int timeout_seconds = 60) {
    REQUIRE(::kill(pid_, SIGTERM) == 0);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeout_seconds);
    while (ReadSome(deadline)) {
    }
    REQUIRE_MESSAGE(std::chrono::steady_clock::now() < deadline,
                    "the server did not stop on SIGTERM: ", seen_);
    int status = 0;
    REQUIRE(::waitpid(pid_, &status, 0) == pid_);
    pid_ = -1;
    return Ended(status, seen_);
  }
  ~ServeProcess() {
    if (pid_ > 0) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
    if (out_ >= 0) ::close(out_);
  }

  pid_t pid() const { return pid_; }
  int reported_pid() const { return reported_pid_; }
  // 127.0.0.1:<the port from the header>
  const std::string& address() const { return address_; }
  // What the server printed so far.
  const std::string& output() const { return seen_; }

 private:
  // Appends what the server wrote next; false at the end of its output or
  // once `deadline` has passed.
  bool ReadSome(std::chrono::steady_clock::time_point deadline) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return false;
    pollfd ready{out_, POLLIN, 0};
    if (::poll(&ready, 1, static_cast<int>(left.count())) <= 0) return false;
    char buffer[512];
    const ssize_t n = ::read(out_, buffer, sizeof(buffer));
    if (n <= 0) return false;
    seen_.append(buffer, static_cast<size_t>(n));
    return true;
  }

  pid_t pid_ = -1;
  int out_ = -1;
  std::string seen_;
  int reported_pid_ = -1;
  std::string address_;
};

// A doctest fixture (TEST_CASE_FIXTURE) for a command run against a real
// `warmup serve`: a temporary `dir`, the tiny snapshot generated into it
// (`pristine`) and a `server` not yet started. The test starts the server with
// the data directory and flags it is about, and stops it itself, so that the
// CHECK on how the server ended stands in the test, where it happens.
struct TinyAndServer {
  // The command line of `warmup load` from `pristine` into the started
  // `server`, with `more` after it.
  std::vector<std::string> RemoteLoad(const std::vector<std::string>& more = {}) const {
    std::vector<std::string> args = {"load",   "--pristine-dir", pristine,        "--target",
                                     "remote", "--address",      server.address()};
    args.insert(args.end(), more.begin(), more.end());
    return args;
  }

  TempDir dir;
  const std::string pristine = GenerateTiny(dir);
  ServeProcess server;
};

}  // namespace warmup::testing

#endif  // WARMUP_TESTS_APPS_CLI_H_
