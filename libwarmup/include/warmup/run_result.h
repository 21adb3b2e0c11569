// RunResult: every figure one copy run measured, what became of it, and the
// exit status that follows. Filled by RunCopy (copy_engine.h), rendered by
// report.h. The meaning of each figure is the measurement contract in
// docs/measurement.md; the parts a run records beside its figures have
// headers of their own (environment.h, run_config.h, server_figures.h,
// time_series.h, latency_stats.h).
#ifndef WARMUP_RUN_RESULT_H_
#define WARMUP_RUN_RESULT_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "warmup/environment.h"
#include "warmup/index_statistics.h"
#include "warmup/latency_stats.h"
#include "warmup/page_cache.h"
#include "warmup/process_usage.h"
#include "warmup/run_config.h"
#include "warmup/server_figures.h"
#include "warmup/server_identity.h"
#include "warmup/time_series.h"

namespace warmup {

struct CollectionResult {
  std::string entity_type;
  int64_t source_count = 0;             // what the source says the collection holds
  int64_t expected_count = 0;           // what should be copied: source_count, capped by max per collection
  int64_t copied = 0;                   // upserts that succeeded
  int64_t failed = 0;                   // upserts the target rejected
  double wall_seconds = 0;              // first read to last upsert of this collection
  double read_seconds = 0;              // sum of source fetches (opening included)
  LatencyStats upsert;                  // of the individual Upsert calls
  std::optional<LatencyStats> server;   // the target's own time, when it reports one
  std::optional<int64_t> target_count;  // from verification; nullopt = not asked or unknown
  // false: the load stopped before this collection (its counts are what was
  // expected of it; nothing was copied or timed).
  bool reached = true;
};

enum class Verification {
  kVerified,        // what VerifyMode asked for holds
  kSkipped,         // VerifyMode::kNone
  kUnknown,         // the check could not get its answer (see verification_error)
  kMismatch,        // a count differs
  kContentDiffers,  // the counts match, but entities differ (see content_differences)
  kNotReached,      // the run failed before the check
  kNotApplicable,   // the target stores nothing (the null target): there is nothing to check
};
// The report's name of `v` (its JSON "verification" outcome): "verified",
// "skipped", "unknown", "mismatch", "content_differs", "not_reached",
// "not_applicable".
const char* VerificationName(Verification v);
// What a person reads of `v` (the text report, the HTML page): "VERIFIED",
// "DECLINED (skip verify)", "UNKNOWN", "MISMATCH", "CONTENT DIFFERS",
// "NOT REACHED", "NOT APPLICABLE (the target stores nothing; there is
// nothing to verify)".
const char* VerificationVerdict(Verification v);

// Why a load stopped before its end. A rejected entity is the data's fault
// (the target said no to it); a failed target is the target's (the server
// went away, a deadline passed, a session was lost): different repairs.
enum class AbortReason {
  kNone,
  kEntityRejected,  // the target refused one entity (invalid, duplicate, too large)
  kTargetFailed,    // the target could not take the call (transport, deadline, server error)
  kSourceFailed,    // the source could not deliver (damaged snapshot, lost connection)
  kOutputFailed,    // an observer could not write what it records (per-entity CSV)
  kInterrupted,     // told to stop (CopyOptions::stop: SIGINT, SIGTERM)
};
const char* AbortReasonName(AbortReason reason);

// What became of the target catalog of a failed run.
enum class TargetDrop {
  kNotNeeded,  // the run did not fail
  kKept,       // kept on purpose (keep target)
  kDropped,
  kFailed,  // the drop itself failed (see target_drop_error)
};
const char* TargetDropName(TargetDrop drop);

// The target's data directory as warmup measured it around goLive (sizes of
// its regular files): what the target held when the load ended and what goLive
// added. The directory is warmup's to look into only for targets it made:
// the embedded engine's work directory, a started server's data directory.
struct TargetData {
  std::string dir;
  int64_t bytes_at_golive_start = 0;
  int64_t bytes_at_golive_end = 0;
};

struct RunResult {
  std::string run_label;
  std::string source;  // CatalogSource::Describe()
  std::string dataset_fingerprint;
  std::string target;  // CatalogTarget::Describe()
  std::string source_catalog;
  std::string target_catalog;
  std::string started_at;  // UTC, ISO 8601
  int loader_pid = 0;      // the process that ran the copy: with the label, start and host, names a run
  Environment environment;
  RunConfig config;

  std::vector<CollectionResult> collections;
  // The target's indexes at goLive, when it reports them (CatalogTarget::IndexStatistics).
  std::vector<CollectionIndexStatistics> index_statistics;
  double load_wall_seconds = 0;  // first source read to the return of the last upsert
  double source_read_seconds = 0;
  LatencyStats upsert;  // all upserts
  std::optional<LatencyStats> server;
  // The run's first upsert, also in the figures above, said apart: it pays
  // for cold caches and lazy set-up (a connection, a session's first call),
  // often many times an ordinary upsert's time.
  struct FirstUpsert {
    std::string entity_type;
    int32_t primary_key = 0;
    double us = 0;
  };
  std::optional<FirstUpsert> first_upsert;
  double loop_overhead_seconds = 0;  // wall - read - upsert

  GoLiveOutcome golive = GoLiveOutcome::kNotAttempted;
  double golive_seconds = 0;  // transition time, or time to failure
  std::string golive_error;

  VerifyMode verify_mode = VerifyMode::kCounts;  // what was asked
  Verification verification = Verification::kNotReached;
  std::string verification_error;   // why the answer is unknown, when it is
  double verification_seconds = 0;  // the whole check: counts, and the read back
  // Content verification: entities compared, differences found (an entity
  // missing, extra or with other content), and the first few, described
  // ("Product/17: content differs: prices, references").
  int64_t content_compared = 0;
  int64_t content_differences = 0;
  std::vector<std::string> first_differences;

  std::string abort_error;  // set when the load stopped before the end
  AbortReason abort_reason = AbortReason::kNone;
  // What was asked, so the verdict can say what a verified run proved.
  bool collection_subset = false;  // only some of the source's collections
  // After a failed run: dropped (unless kept), and why a drop failed.
  TargetDrop target_drop = TargetDrop::kNotNeeded;
  std::string target_drop_error;
  ProcessUsage loader;
  // What the command that ran the copy has to add, printed with the report,
  // e.g. where a partial catalog that could not be dropped was kept.
  std::vector<std::string> notes;
  // Set when an output of the run (the JSON report, the page) could not be
  // written: the run then fails (exit 1), and every report says why.
  std::string output_error;
  // Set when the run started its own server (warmup reindex).
  std::optional<ServerFigures> server_process;
  // The server a catalog folder was read through (ServerFolderSourceSpec): the
  // reader's figures, apart from the target's (server_process).
  std::optional<ServerFigures> source_server_process;
  // What a remote target's server said of itself before the load (started
  // or reached by --address); nullopt for other targets, or when it would
  // not say (a note says why).
  std::optional<ServerIdentity> server_identity;
  // Snapshot sources: the page cache's share of the snapshot before the run.
  std::optional<SourceCache> source_cache;
  // When a TimeSeriesRecorder watched the run.
  std::optional<TimeSeries> time_series;
  // Set for an embedded target and a started server when goLive was attempted.
  std::optional<TargetData> target_data;

  int64_t copied() const;
  int64_t expected() const;
  // load wall + goLive; only when goLive completed.
  std::optional<double> total_seconds() const;
  // The loader's exit status, decided here and nowhere else:
  //   0  the load and goLive completed, and what VerifyMode asked for was
  //      verified, or the check was declined on purpose (VerifyMode::kNone);
  //      The null target's runs, which store nothing to verify
  //      (Verification::kNotApplicable), are 0 too: their figures are the
  //      harness's own.
  //   2  the load and goLive completed and the figures stand, but verification
  //      never got its answer: counts unknown;
  //   1  the run failed: counts or content differ (a short load is wrong and
  //      flatteringly fast), an upsert was rejected, goLive failed, the load
  //      aborted (interrupted too), or its report could not be written.
  int ExitCode() const;
};

}  // namespace warmup

#endif  // WARMUP_RUN_RESULT_H_
