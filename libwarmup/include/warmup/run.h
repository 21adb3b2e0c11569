// One run, as every frontend makes it: a source, a target (embedded, remote,
// none, or a server warmup starts and supervises), the copy between them, and
// what a run records besides the copy (the snapshot's page-cache residency,
// the time series, the per-entity CSV, the started server's figures). The CLI
// (`load`, `reindex`, `ab`), warmup-profile and the Python module each build a
// RunSpec, call RunLoad and render the result; the benchmarks call RunCopy on
// purpose, to time the copy alone.
#ifndef WARMUP_RUN_H_
#define WARMUP_RUN_H_

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "warmup/catalog_source.h"
#include "warmup/catalog_target.h"
#include "warmup/copy_engine.h"
#include "warmup/engine.h"
#include "warmup/page_cache.h"
#include "warmup/run_observer.h"
#include "warmup/status.h"
#include "warmup/tls.h"
#include "warmup/work_dir.h"

namespace warmup {

// What RunCopy and RunLoad return: include warmup/run_result.h to read it.
struct RunResult;

// Where the copy reads: a snapshot, or a live catalog over evitaDB's protocol.
struct SourceSpec {
  std::string pristine_dir;  // a snapshot's parent directory, or an export zip
  std::string catalog;       // the snapshot in pristine_dir; empty = its only one
  // A live catalog instead of the snapshot when `grpc_address` is set.
  std::string grpc_address;
  std::string grpc_catalog;
  ClientTlsOptions tls;  // the gRPC source's TLS (enabled by tls.enabled)
  // Snapshots: the page cache's hold on the snapshot before the run:
  // `prewarm` reads it all, `drop_cache` drops it (prewarm first when both);
  // the result says how much was resident either way (RunResult::source_cache).
  bool prewarm = false;
  bool drop_cache = false;
  // A gRPC source's catalog may be other than ALIVE (GrpcSourceOptions).
  bool allow_not_alive = false;
  // A source the caller opened (a generator, a CatalogSource of its own):
  // read as it is when set, the fields above unused. Not owned; it must
  // outlive the run.
  CatalogSource* open = nullptr;
};

// The kinds of target a run writes to: a closed set.
enum class TargetKind {
  kEmbedded,       // warmup's engine in this process, in TargetSpec::work_dir
  kRemote,         // a server already running at TargetSpec::address
  kNull,           // nothing: the read side alone
  kStartedServer,  // a server warmup starts on a fresh work directory and stops (ServerSpec)
};
// "embedded", "remote", "null", "started-server": the names messages use, and
// the first three --target's (the command line starts a server for reindex's
// remote target without --address).
const char* TargetKindName(TargetKind kind);
// The kind `name` names (TargetKindName's inverse). Errors: kInvalidArgument
// naming `name` and the kinds there are.
StatusOr<TargetKind> ParseTargetKind(const std::string& name);

// Where the copy writes.
struct TargetSpec {
  TargetKind kind = TargetKind::kEmbedded;
  std::string address = "127.0.0.1:5555";  // kRemote
  int golive_timeout_seconds = 0;          // kRemote, kStartedServer: 0 = none
  int upsert_timeout_seconds = 3600;       // kRemote, kStartedServer: each upsert's deadline
  ClientTlsOptions tls;                    // kRemote
  // kEmbedded: the engine's data directory; kStartedServer: the directory the
  // server's data (WORK/data), log and GC log go in. A work directory
  // (work_dir.h): prepared fresh, refusing a directory warmup did not make.
  std::string work_dir = "warmup-work";
  // How the engine's records are compressed (kEmbedded; a started warmup serve's --compress).
  RecordCompression compression = RecordCompression::kNone;
};

// kStartedServer: the server warmup starts, supervises and stops.
struct ServerSpec {
  // The warmup binary whose `serve` is started. Required unless `command` is
  // set: the library does not guess which binary is meant.
  std::string binary;
  // More serve flags, e.g. a build's settings or --inject-upsert-delay-us N.
  std::vector<std::string> extra_args;
  // Any server instead of a warmup serve (evitaDB's JVM): a command line with
  // {port} {data} {run} {gclog} {xmx} (see ServerProcessOptions::command).
  std::string command;
  std::string xmx;                 // {xmx}
  int start_timeout_seconds = 60;  // until the started server must be ready
  // After SIGTERM, before SIGKILL; also how long a stop request may take to
  // end the load before the server is stopped under it (StopRequest).
  int stop_grace_seconds = 10;
};

// One run, described.
struct RunSpec {
  SourceSpec source;
  TargetSpec target;
  ServerSpec server;  // TargetKind::kStartedServer only
  // The copy's settings; its `stop` is RunHooks', its observers run beside
  // RunHooks', and config.target_kind, compression and storage are filled in
  // by RunLoad.
  CopyOptions copy;
  std::string per_entity_csv;  // one row per upsert here; empty = none
  // The files the caller writes after the run (report JSON, HTML, a
  // profile), named by their flags: checked writable before anything runs,
  // and refused inside the work directory.
  std::vector<PathInUse> outputs;
};

// How a caller ends a run early, from any thread (a signal watcher). Request
// once: the load stops after the current upsert and the partial target is
// dropped; a started server that does not let the load get there within its
// stop grace is stopped under it. StopNow stops a started server at once.
class StopRequest {
 public:
  // `reason` is the signal that asked (SIGINT, SIGTERM), or 0 for none in particular.
  void Request(int reason) {
    reason_ = reason;
    requested_ = true;
  }
  void StopNow() { now_ = true; }
  bool requested() const { return requested_; }
  bool now() const { return now_; }
  int reason() const { return reason_; }
  // What CopyOptions::stop points at.
  const std::atomic<bool>* flag() const { return &requested_; }

 private:
  std::atomic<bool> requested_{false};
  std::atomic<bool> now_{false};
  std::atomic<int> reason_{0};
};

// Wraps the target a run writes to, e.g. to measure inside each upsert.
using TargetWrapper = std::function<std::unique_ptr<CatalogTarget>(std::unique_ptr<CatalogTarget>)>;

// What a caller adds to a run.
struct RunHooks {
  std::vector<RunObserver*> observers;  // besides the time series and the CSV RunLoad keeps
  StopRequest* stop = nullptr;          // null: the run is not stopped early
  TargetWrapper wrap_target;            // empty: the target as opened
  // A line for a person (the server was stopped after the grace, how a
  // started server ended when the run failed); the library prints nothing.
  std::function<void(const std::string&)> notice;
};

// Opens the source `spec` names (not SourceSpec::open, which is open). A
// snapshot's page cache is set as asked (prewarm, drop) and measured into
// `*cache` when `cache` is given; without it the page cache is left alone. Errors: kNotFound or
// kInvalidArgument (with
// "--pristine-dir" context) when the directory names no snapshot, or several
// and no catalog; kDataLoss for a snapshot that cannot be read as one
// (whatever its reader said); the gRPC source's (OpenGrpcSource).
StatusOr<std::unique_ptr<CatalogSource>> OpenSource(const SourceSpec& spec,
                                                    std::optional<SourceCache>* cache = nullptr);

// Opens the target `spec` names: kEmbedded on its work directory (which
// must be prepared already: PrepareWorkDir), kRemote at its address,
// kNull. Errors: kInvalidArgument for kStartedServer (RunLoad starts that
// one); the engine's or the client's.
StatusOr<std::unique_ptr<CatalogTarget>> OpenTarget(const TargetSpec& spec);

// Checked before a run starts, so that a run's figures never end up with
// nowhere to go: OK when `path` is empty (no such output) or a file that can
// be written (replacing one only when `may_exist`). Errors:
// kFailedPrecondition naming `flag` and the path, and why not.
Status CheckOutputFile(const std::string& flag, const std::string& path, bool may_exist);

// Runs `spec`: checks the outputs and that none lies in the work directory,
// opens the source, prepares the work directory (an embedded target's, a
// started server's), opens or starts the target, copies, goLive, verifies,
// and returns the result with the time series, the snapshot's page-cache
// residency, the run's configuration and, for a started server, its figures
// (RunResult::server_process) after it was stopped. A run a StopRequest cut
// short is AbortReason::kInterrupted, whatever the load saw last (a server
// stopped under an upsert fails it as a lost server, which is not what
// happened); its notes say where a partial catalog that could not be
// dropped is. A failed run is a result, not an error.
// Errors (nothing was measured): an output that cannot be written or lies in
// the work directory, the source, the work directory, the server's start,
// the target's opening, the per-entity CSV; kFailedPrecondition when a stop
// was requested before a started server was started. kInvalidArgument means
// the spec itself is wrong (an unknown collection or a negative cap, checked
// before anything is prepared; a started server without a binary, one that
// refused its arguments with exit 64 or an unknown placeholder in its
// command; several snapshots and no catalog named; an address that is not
// HOST:PORT; TLS files that do not fit): the command line's fault, which the
// CLI exits 64 for. What is not the spec's is recoded so: a snapshot that
// cannot be read is kDataLoss; a live source, a target or a CSV file that
// refuses the run is kFailedPrecondition.
StatusOr<RunResult> RunLoad(const RunSpec& spec, const RunHooks& hooks = {});

}  // namespace warmup

#endif  // WARMUP_RUN_H_
