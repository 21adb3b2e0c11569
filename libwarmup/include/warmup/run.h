// One run, as every frontend makes it: a source, a target (embedded, remote,
// none, or a server warmup starts and supervises), the copy between them, and
// what a run records besides the copy (the snapshot's page-cache residency,
// the time series, the per-entity CSV, the started server's figures). The CLI
// (`load`, `reindex`, `ab`), warmup-profile and the Python module each build a
// RunSpec, call RunLoad and render the result; the benchmarks call RunCopy on
// purpose, to time the copy alone.
#ifndef WARMUP_RUN_H_
#define WARMUP_RUN_H_

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "warmup/catalog_source.h"
#include "warmup/catalog_target.h"
#include "warmup/page_cache.h"
#include "warmup/run_observer.h"
#include "warmup/run_result.h"
#include "warmup/run_spec.h"
#include "warmup/status.h"
#include "warmup/stop_request.h"

namespace warmup {

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

// Opens the source `spec` names: a snapshot or a live catalog (RunLoad
// reads a catalog folder through the server it starts, and an open source
// as it is). A snapshot's page cache is set as asked (SourceCacheStep) and
// measured into `*cache` when `cache` is given; without it the page cache
// is left alone. Errors: kNotFound or kInvalidArgument (in the context of
// names.source_dir) when the directory names no snapshot, or several and
// no catalog; kDataLoss for a snapshot that cannot be read as one (whatever
// its reader said); the gRPC source's (OpenGrpcSource), kFailedPrecondition
// when the server refuses the read; kInvalidArgument for the other kinds.
StatusOr<std::unique_ptr<CatalogSource>> OpenSource(const SourceSpec& spec,
                                                    std::optional<SourceCache>* cache = nullptr,
                                                    const SpecNames& names = {});

// Opens the target `spec` names: an embedded one on its work directory
// (which must be prepared already: PrepareWorkDir), a remote one at its
// address, a null one, an open one by its `open`. Errors: kInvalidArgument
// for a started server (RunLoad starts that one) and for an open spec
// without `open` or whose `open` returned null; the engine's, the client's
// (naming settings as `names` does: a passed upsert deadline,
// names.upsert_timeout), or what `open` returned.
StatusOr<std::unique_ptr<CatalogTarget>> OpenTarget(const TargetSpec& spec, const SpecNames& names = {});

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
