// ChildRunner, held to what POSIX says of a child process: its exit status
// as given to exit(), 128 + the signal that ended it (as a shell reports
// it), a process group of its own (setpgid(0, 0) makes its pgid its pid),
// and a stop request passed on as the signal that made it.
#include "common/child_run.h"

#include <signal.h>
#include <unistd.h>

#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <string>
#include <thread>

#include "apps/cli.h"
#include "common/temp_dir.h"

namespace warmup {
namespace {

using testing::ReadText;
using testing::TempDir;

// A runner under a watcher of its own, and a scratch directory.
struct Children {
  TempDir dir;
  cli::SignalWatcher signals{"test", false};
  cli::ChildRunner runner{signals};
  const std::string out = dir / "out.txt";  // every child's stdout

  // A child: /bin/sh running `script`.
  StatusOr<int> Sh(const std::string& script) { return runner.Run({"/bin/sh", "-c", script}, out); }
};

TEST_CASE_FIXTURE(Children, "ChildRunner: a child's exit status as it exited, its stdout in the file named") {
  const auto exited = Sh("echo out; exit 3");
  REQUIRE_MESSAGE(exited.ok(), exited.status().ToString());
  CHECK(*exited == 3);
  CHECK(ReadText(out) == "out\n");
  const auto next = Sh("exit 0");  // one runner, child after child
  REQUIRE(next.ok());
  CHECK(*next == 0);
  CHECK(ReadText(out).empty());  // the file is truncated for each child
}

TEST_CASE_FIXTURE(Children, "ChildRunner: a child killed by a signal gives 128 + the signal") {
  const auto killed = Sh("kill -TERM $$; sleep 10");
  REQUIRE_MESSAGE(killed.ok(), killed.status().ToString());
  CHECK(*killed == 128 + SIGTERM);
}

TEST_CASE_FIXTURE(Children, "ChildRunner: the child leads a process group of its own") {
  // /proc/PID/stat's fifth field is the process group (proc(5)).
  const auto led = Sh("test \"$(cut -d' ' -f5 /proc/$$/stat)\" = \"$$\"");
  REQUIRE(led.ok());
  CHECK(*led == 0);
}

TEST_CASE_FIXTURE(Children,
                  "ChildRunner: a program that cannot be started is an error naming it, not a status") {
  const std::string missing = dir / "no-such-program";
  const auto started = runner.Run({missing}, out);
  REQUIRE_FALSE(started.ok());
  CHECK(started.status().code() == StatusCode::kInternal);
  CHECK(testing::Contains(started.status().message(), missing));
}

TEST_CASE_FIXTURE(Children, "ChildRunner: a stop request (SIGINT here) reaches the running child as SIGINT") {
  const std::string ready = dir / "ready";
  // The child is in a group of its own, so only the runner's forwarding can
  // reach it; its traps tell SIGINT and SIGTERM apart.
  std::atomic<bool> ended = false;  // a child that never got ready is not waited for
  std::thread interrupt([&] {
    while (!std::filesystem::exists(ready) && !ended) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    if (!ended) ::kill(::getpid(), SIGINT);  // as a terminal's ^C reaches this process
  });
  const auto stopped =
      Sh("trap 'exit 42' INT; trap 'exit 43' TERM; : > '" + ready +
         "'; i=0; while [ $i -lt 1200 ]; do sleep 0.05; i=$((i + 1)); done; exit 44");  // 44: never reached
  ended = true;
  interrupt.join();
  REQUIRE_MESSAGE(stopped.ok(), stopped.status().ToString());
  CHECK(*stopped == 42);
  CHECK(signals.received() == SIGINT);
}

TEST_CASE_FIXTURE(Children, "RunInChild: the command's own arguments, made by the binary given") {
  cli::LoadCommand cmd;
  cmd.command_line = {"warmup", "-c", "echo \"$0\"; exit 5"};  // argv[0] is the binary's own path
  const auto exited = cli::RunInChild(runner, "/bin/sh", cmd, out);
  REQUIRE(exited.ok());
  CHECK(*exited == 5);
  CHECK(ReadText(out) == "/bin/sh\n");
}

}  // namespace
}  // namespace warmup
