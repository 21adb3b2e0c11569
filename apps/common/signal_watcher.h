// The one place the warmup tools turn SIGINT and SIGTERM into a stop request.
#ifndef WARMUP_APPS_COMMON_SIGNAL_WATCHER_H_
#define WARMUP_APPS_COMMON_SIGNAL_WATCHER_H_

#include <functional>
#include <memory>
#include <string>

#include "warmup/stop_request.h"

namespace warmup::cli {

// While it lives, SIGINT and SIGTERM do not end the process: the first
// requests a stop (stop(), the signal as its reason) and says so on stderr
// as "warmup COMMAND: SIGINT received; stopping ...", a second asks a started
// server to stop now. Signals are handled on a thread of the watcher's own
// (gRPC starts threads before main, so a signal mask cannot be relied on).
class SignalWatcher {
 public:
  // `command` names the command in the lines; `started_server`: the run has a
  // server of its own, which a second signal stops at once (the first line
  // says so); `stopping`: what the first signal does, for its line.
  SignalWatcher(std::string command, bool started_server,
                std::string stopping = "stopping after the current upsert");
  ~SignalWatcher();
  SignalWatcher(const SignalWatcher&) = delete;
  SignalWatcher& operator=(const SignalWatcher&) = delete;

  StopRequest& stop();
  // Calls `on_stop` once, on the watcher's thread when the first signal
  // comes, or here and now when it came already: for a process that stops
  // by a call (serve's Shutdown) rather than by polling stop(). A later call
  // replaces a callback that has not run. Destroying the watcher joins its
  // thread, so a callback never runs after the watcher is gone.
  void OnStop(std::function<void()> on_stop);
  // The first signal received, 0 when none came.
  int received() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace warmup::cli

#endif  // WARMUP_APPS_COMMON_SIGNAL_WATCHER_H_
