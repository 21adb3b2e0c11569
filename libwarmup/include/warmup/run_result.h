// RunResult: every figure one copy run measured, and what became of it.
// Filled by RunCopy (copy_engine.h), rendered by report.h. The meaning of each
// figure is the measurement contract in docs/measurement.md.
#ifndef WARMUP_RUN_RESULT_H_
#define WARMUP_RUN_RESULT_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "warmup/index_statistics.h"
#include "warmup/page_cache.h"

namespace warmup {

// Exact order statistics of a set of durations (nearest-rank percentiles
// over the stored samples; no histogram, no interpolation).
struct LatencyStats {
  int64_t count = 0;
  double total_seconds = 0;
  double mean_us = 0;
  double median_us = 0;
  double p90_us = 0;
  double p95_us = 0;
  double p99_us = 0;
  std::optional<double> p999_us;  // only when count >= 1000
  double max_us = 0;
  // The distribution, for plotting: (quantile, us) at 0 (the minimum), 0.05,
  // 0.10, ..., 0.95, 0.99, 0.999 (only when count >= 1000) and 1 (the
  // maximum), nearest rank like the rest; empty without samples.
  std::vector<std::pair<double, double>> cdf;
};

// Computes LatencyStats from samples in nanoseconds (reordered in place).
LatencyStats ComputeLatencyStats(std::vector<int64_t>& samples_ns);

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

enum class GoLiveOutcome { kNotAttempted, kCompleted, kFailed };
// What is checked after goLive.
enum class VerifyMode {
  kNone,     // nothing (the report says it was declined)
  kCounts,   // every collection's count against the source's
  kContent,  // the counts, then every entity read back and its digest compared with the source's
};
const char* VerifyModeName(VerifyMode mode);  // "none", "counts", "content"
enum class Verification {
  kVerified,        // what VerifyMode asked for holds
  kSkipped,         // VerifyMode::kNone
  kUnknown,         // the check could not get its answer (see verification_error)
  kMismatch,        // a count differs
  kContentDiffers,  // the counts match, but entities differ (see content_differences)
  kNotReached,      // the run failed before the check
  kNotApplicable,   // the target stores nothing (the null target): there is nothing to check
};

// The load over time (TimeSeriesRecorder, time_series.h): what a single
// figure per run hides, a slowdown as an index grows, a stall, a collection
// that starts slow. Times are seconds since the load started.
struct TimeSeriesInterval {
  double start_seconds = 0;
  double end_seconds = 0;
  int64_t upserts = 0;  // that ended in the interval
  double upserts_per_second = 0;
  double p50_us = 0;  // of those upserts (nearest rank); 0 when there were none
  double p99_us = 0;
};
struct CollectionSpan {
  std::string entity_type;
  double start_seconds = 0;  // its first upsert's start
  double end_seconds = 0;    // its last upsert's end
};
struct TimeSeries {
  double interval_seconds = 0;
  std::vector<TimeSeriesInterval> intervals;
  std::vector<CollectionSpan> collections;  // in load order
  std::optional<double> golive_start_seconds, golive_end_seconds;
};

// How a process fared (getrusage, or wait4 for a child).
struct ProcessUsage {
  double user_seconds = 0;
  double system_seconds = 0;
  int64_t peak_rss_bytes = 0;
  int64_t minor_faults = 0;
  int64_t major_faults = 0;
  int64_t voluntary_context_switches = 0;
  int64_t involuntary_context_switches = 0;
};

// The usage of this process so far.
ProcessUsage UsageOfThisProcess();

// One reading of a process taken while the run went on.
struct ProcessSample {
  double seconds = 0;  // since the run started
  int64_t rss_bytes = 0;
  double cpu_seconds = 0;  // user + system so far
  bool golive = false;     // taken while goLive ran
};

// A JVM server's garbage collections, from its unified GC log
// (-Xlog:gc:file=...; gc_log.h), as the upstream harness prints at teardown.
struct GcFigures {
  std::string log;                // the file read
  int64_t young_collections = 0;  // "Pause Young" (G1, Parallel, Serial)
  int64_t full_collections = 0;   // "Pause Full"
  int64_t other_pauses = 0;       // G1's Remark and Cleanup, and other stop-the-world pauses
  double pause_seconds = 0;       // all of them together
};

// The server process a run started (warmup reindex), as data.
struct ServerFigures {
  std::string binary;
  std::string header;  // the first line it printed: its build, pid and port
  std::string build;   // what it said of its build when ready (BuildInfo::Summary()); empty = an older serve
  int pid = 0;
  ProcessUsage usage;  // at its end (wait4)
  // A server command: `usage` is from /proc samples of its process group
  // (CPU up to the stop, peak RSS of the samples); faults and context
  // switches are not known.
  bool usage_sampled = false;
  std::string ended;  // how it ended, e.g. "exited 0", "killed by SIGKILL after the grace period"
  std::string data_dir;
  int64_t data_bytes = 0;             // the data directory after the run
  int64_t peak_rss_load_bytes = 0;    // highest sample during the load
  int64_t peak_rss_golive_bytes = 0;  // highest sample during goLive
  std::vector<ProcessSample> samples;
  // A JVM's collections, when it was started with a GC log ({gclog}); else
  // why there are none (no {gclog} in the command, the file not written).
  std::optional<GcFigures> gc;
  std::string gc_unavailable;
};

// How busy the host was at one moment: what makes two runs of one build
// disagree is often here.
struct HostLoad {
  double load_average_1m = -1;  // /proc/loadavg; -1 unknown
  // Cumulative CPU time of all CPUs in clock ticks (/proc/stat): all of it,
  // and the part a hypervisor gave to other guests (steal).
  int64_t cpu_ticks = 0;
  int64_t steal_ticks = 0;
};

// The host's load now.
HostLoad SampleHostLoad();

// Where the run happened.
struct Environment {
  std::string hostname;
  std::string cpu_model;
  int cores = 0;
  int64_t memory_limit_bytes = 0;  // cgroup memory.max, else physical memory
  std::string cpu_limit;           // cgroup cpu.max ("max 100000" = none; "200000 100000" = 2 CPUs)
  std::string kernel;
  std::string build;          // warmup version and commit (Version())
  std::string build_details;  // BuildInfo::Summary(): commit, compiler, build type, flags
  HostLoad at_start, at_end;  // around the run (load, goLive and the check)
  // The share of CPU time stolen by the hypervisor between start and end;
  // nullopt when unknown.
  std::optional<double> steal_share() const;
};

// The environment of this process: host, CPU, cores, memory limit (cgroup
// memory.max, else physical memory), cgroup cpu.max, kernel, warmup build,
// and the host's load now (at_start; at_end is left for the run to fill).
Environment DescribeEnvironment();

// The file system a run's target writes to (its work or data directory).
struct StorageInfo {
  std::string path;
  std::string filesystem;     // e.g. "ext4", "tmpfs", "overlay" (/proc/self/mountinfo)
  std::string device;         // the mount source, e.g. "/dev/vda1", and its major:minor
  std::string mount_options;  // e.g. "rw,relatime"
  int64_t free_bytes = -1;    // available to this user; -1 unknown
};

// The file system holding `path` (or, when it does not exist yet, its
// nearest existing parent); fields it cannot find are left empty.
StorageInfo DescribeStorage(const std::string& path);

// What a run was asked to do, recorded whole in its report, so that runs
// that measured different things are never compared as if they had not
// (compare.h says which fields must agree).
struct RunConfig {
  // The command line as given (the tool, its command, its arguments); empty
  // for a run made through the library.
  std::vector<std::string> command_line;
  std::string target_kind;  // "embedded", "remote", "null"; empty = not said
  // How the target stores records (storage.compress): "none", "zstd",
  // "deflate", or empty when not known (a remote server warmup did not start).
  std::string compression;
  int64_t max_per_collection = 0;        // 0 = all
  std::vector<std::string> collections;  // the subset asked for; empty = all
  // What the source says of the dataset (a generated snapshot: the profile,
  // scale and seed; an export: where it came from).
  std::map<std::string, std::string> dataset_provenance;
  // A server the run started: its warmup binary or its command, the serve
  // flags it was given, its heap ({xmx}).
  std::string server_binary;
  std::string server_command;
  std::vector<std::string> server_args;
  std::string server_xmx;
  // Where the target wrote (an embedded target's work directory, a started
  // server's data directory); nullopt when the target is not on this host.
  std::optional<StorageInfo> storage;
};

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
  // Snapshot sources: the page cache's share of the snapshot before the run.
  std::optional<SourceCache> source_cache;
  // When a TimeSeriesRecorder watched the run.
  std::optional<TimeSeries> time_series;

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
