// A run in a process of its own: `warmup bench` makes each of its runs in a
// child so that each has its own peak RSS and its own heap, which no
// earlier run of the sitting has grown.
#ifndef WARMUP_APPS_COMMON_CHILD_RUN_H_
#define WARMUP_APPS_COMMON_CHILD_RUN_H_

#include <sys/types.h>

#include <filesystem>
#include <mutex>
#include <string>
#include <vector>

#include "common/options.h"
#include "common/signal_watcher.h"
#include "warmup/status.h"

namespace warmup::cli {

// Runs child processes one at a time, each to its end. Each child is the
// leader of a process group of its own, so that a terminal's ^C reaches it
// once, through `signals`: the first stop request is passed on to the child
// running then (SIGINT for SIGINT, else SIGTERM), which ends as it would
// have ended on its own terminal.
class ChildRunner {
 public:
  explicit ChildRunner(SignalWatcher& signals) : signals_(signals) {}

  // Runs `argv` (argv[0] the program's path, not looked up in PATH) with its
  // stdout in `stdout_file` (created or truncated) and this process's stdin
  // and stderr. Returns its exit status, or 128 + the signal that ended it,
  // as a shell reports it. Errors: kInternal naming argv[0] when it cannot
  // be started.
  StatusOr<int> Run(const std::vector<std::string>& argv, const std::filesystem::path& stdout_file);

 private:
  SignalWatcher& signals_;
  std::mutex mu_;      // guards running_ against the watcher's thread
  pid_t running_ = 0;  // the child a stop request goes to; 0 between children
};

// This binary (/proc/self/exe), for a child that is another warmup command.
// Errors: kInternal when it cannot be read.
StatusOr<std::string> ThisBinary();

// `cmd` (a parsed `warmup load` or `reindex`) made by `binary` in a child of
// `runner`, with the very arguments it was parsed from (its command_line),
// so that what the caller holds and what the child runs cannot differ.
// Returns and errors as ChildRunner::Run.
StatusOr<int> RunInChild(ChildRunner& runner, const std::string& binary, const LoadCommand& cmd,
                         const std::filesystem::path& stdout_file);

}  // namespace warmup::cli

#endif  // WARMUP_APPS_COMMON_CHILD_RUN_H_
