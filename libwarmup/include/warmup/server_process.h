// ServerProcess: a `warmup serve` binary run as a supervised child process.
// It is ready when it says so on a pipe of its own (`serve --ready-fd N`
// writes one JSON line with its pid and port), within a deadline; it is
// stopped with SIGTERM, a grace period, then SIGKILL; it dies with its parent
// (PR_SET_PDEATHSIG), so a killed loader leaves no server behind. Its usage
// and its RSS over time are data (run_result.h's ServerFigures).
#ifndef WARMUP_SERVER_PROCESS_H_
#define WARMUP_SERVER_PROCESS_H_

#include <sys/types.h>

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "warmup/run_observer.h"
#include "warmup/server_figures.h"
#include "warmup/server_identity.h"
#include "warmup/status.h"

namespace warmup {

struct ServerProcessOptions {
  // The warmup binary whose `serve` is started.
  std::string binary;
  // Arguments after `serve` (e.g. --data-dir D, --compress). `--listen
  // 127.0.0.1:0` and `--ready-fd` are added.
  std::vector<std::string> serve_args;

  // Any server instead (evitaDB's JVM): a command line run by /bin/sh -c,
  // with {port} (a free loopback port picked here), {data}, {run}, {gclog}
  // and {xmx} replaced by the fields below, each as one shell word (quoted
  // when it holds a space or another character the shell reads: write the
  // placeholders bare, not inside quotes); another {word} is refused. It
  // runs in a process group of its own, which is signalled and sampled as a
  // whole (a wrapper script and its JVM alike); its output goes to `log`.
  // It is ready when CheckServerReady (catalog_admin.h) says so over
  // evitaDB's protocol, polled until the deadline: its output is never read
  // for that. Used instead of `binary` when not empty.
  std::string command;
  std::string data_dir;   // {data}
  std::string run_label;  // {run}
  std::string gc_log;     // {gclog}: read after the stop into ServerFigures::gc
  std::string xmx;        // {xmx}, e.g. "8g"
  std::string log;        // where the command's output goes (the work directory's server.log)
  // How long the server may take to say it is ready.
  std::chrono::milliseconds start_timeout = std::chrono::seconds(60);
  // How long the server may take to exit after SIGTERM before it is killed.
  std::chrono::milliseconds stop_grace = std::chrono::seconds(10);
};

// Thread-safety: Stop() may be called from any thread, also while another
// thread uses the server over the network (it is how an interrupt ends a run).
class ServerProcess {
 public:
  // Starts the server and waits until it is ready.
  // Errors (the child is gone by then): kUnavailable when the binary cannot
  // be executed (with errno's text), exits before it is ready (with its exit
  // status and last output), or is not ready within the deadline (naming it
  // and, for a command, the command); kInvalidArgument for a command with an
  // unknown placeholder or one whose value is not set, and for a serve that
  // exits 64 (EX_USAGE) before it is ready: its arguments were wrong.
  static StatusOr<std::unique_ptr<ServerProcess>> Start(const ServerProcessOptions& options);
  // A server warmup did not start (a load by --address), named by the user
  // (--server-pid): sampled as a started one is, never signalled. Its CPU
  // figures count from here on; its GC log `gc_log` ("" for none) is read
  // from where it ends now, so that only this run's collections count.
  // Stop() leaves it running and returns its figures.
  // Errors: kNotFound when /proc has no readable process `pid`.
  static StatusOr<std::unique_ptr<ServerProcess>> Attach(pid_t pid, const std::string& address,
                                                         const std::string& gc_log);
  // Stops the server if it still runs (an attached one is left running).
  virtual ~ServerProcess() = default;

  virtual pid_t pid() const = 0;
  // "127.0.0.1:<port>" the server listens on.
  virtual std::string address() const = 0;
  // The first line the server printed (its start-up header), for reports;
  // for a command, "command: <the command line as run>".
  virtual std::string header() const = 0;
  // The last 64 KiB the server printed on stdout and stderr (for a command,
  // of its log file).
  virtual std::string output() const = 0;
  // Its resident set size and CPU time now, read from /proc (for a command,
  // summed over its process group).
  virtual StatusOr<ProcessSample> SampleNow() const = 0;
  // What the server said of itself when its readiness was probed (a server
  // command's ServerStatus); none when it was not asked (a started serve
  // says it is ready on a pipe, an attached server was never probed).
  virtual std::optional<ServerIdentity> identity() const { return std::nullopt; }
  // Whether a started server has already ended by itself (crashed, killed,
  // exited) while Stop has not been called: a failure is then the server's
  // death, which Stop's figures say the cause of. Always false for an
  // attached server.
  virtual bool HasEnded() const { return false; }
  // SIGTERM, the grace period, SIGKILL if it still runs; then its usage and
  // how it ended. Idempotent: later calls return the first result.
  virtual ServerFigures Stop() = 0;
};

// The last `max_lines` error lines of the server log at `path` (a server
// command's WORK/server.log), oldest first: lines with "ERROR" in them
// (evitaDB's logger and serve's own), and the exception lines under them
// ("java.lang.IllegalArgumentException: ...", "Caused by: ..."), never the
// stack frames. Reads at most the log's last 256 KiB; each line is cut at
// 400 characters. Empty when there is no such line or no log: what a failed
// run adds to its error, since evitaDB answers an exception it did not
// expect with no message at all and logs the reason.
std::vector<std::string> LastErrorLines(const std::string& path, size_t max_lines = 8);
// Those lines as a failure's message gives them: "WHOSE log PATH ends
// with:\n  LINE\n  LINE", `whose` e.g. "the server's"; empty when there are none.
std::string LogEndsWith(const std::string& whose, const std::string& path);

// An observer that samples `server` every `interval` from the run's start to
// its end, marking the samples taken during goLive. Thread-safety: the
// sampling thread only reads /proc; results are read after the run.
class ServerSampler : public RunObserver {
 public:
  explicit ServerSampler(const ServerProcess& server,
                         std::chrono::milliseconds interval = std::chrono::milliseconds(250));
  ~ServerSampler() override;
  void OnRunStart(const RunStart& start) override;
  void OnGoLiveStart() override;
  void OnGoLiveEnd(GoLiveOutcome outcome, double seconds) override;
  void OnRunEnd(const RunResult& result) override;
  // Copies the samples and the load/goLive peaks into `figures`.
  void AddTo(ServerFigures& figures) const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace warmup

#endif  // WARMUP_SERVER_PROCESS_H_
