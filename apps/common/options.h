// Command-line parsing for the warmup tools: argv in, documented option
// structs out. The only place Boost.Program_options is included.
#ifndef WARMUP_APPS_COMMON_OPTIONS_H_
#define WARMUP_APPS_COMMON_OPTIONS_H_

#include <optional>
#include <string>
#include <vector>

#include "common/profiler_window.h"
#include "warmup/catalog_admin.h"
#include "warmup/change_points.h"
#include "warmup/compare.h"
#include "warmup/copy_options.h"
#include "warmup/generator.h"
#include "warmup/grpc_source.h"
#include "warmup/history.h"
#include "warmup/host_port.h"
#include "warmup/names.h"
#include "warmup/run_spec.h"
#include "warmup/server.h"
#include "warmup/snapshot.h"
#include "warmup/status.h"
#include "warmup/tls.h"

namespace warmup::cli {

// What the library's errors call the values of a command line (SpecNames):
// the flags that give them.
SpecNames CliSpecNames();

struct GenerateCommand {
  std::string help;  // set by --help: print it and exit 0, run nothing
  GeneratorOptions generator;
  std::string out_dir;                  // parent of the snapshot directory
  std::optional<std::string> zip_path;  // also write an export here
  SnapshotWriteOptions write;
};

struct InspectCommand {
  std::string help;  // set by --help: print it and exit 0, run nothing
  std::string path;  // snapshot directory or export zip
  bool json = false;
};

struct UnpackCommand {
  std::string help;  // set by --help: print it and exit 0, run nothing
  std::string zip_path;
  std::string out_dir;
  std::string catalog;  // of a server's backup zip; an export holds one
};

// The option groups of `warmup load` and `warmup reindex`; each is a section
// of their --help. The source and target are the library's specs
// (warmup/run_spec.h): --target embedded|remote|null; reindex's remote
// target without --address is a StartedServerTargetSpec.

// What the run leaves besides the text report.
struct ReportOptions {
  std::string report_json;     // empty = none
  std::string per_entity_csv;  // one row per upsert; empty = none
  std::string html;            // the run as a self-contained page; empty = none
  // Seconds to stay alive after the report, so that a profiler can take its dump.
  int hold_open_seconds = 0;
  // Progress on stderr (progress.h): off where a command runs many loads and
  // reports each itself, as `warmup ab` does.
  bool progress_lines = true;
  double progress_interval_seconds = 10;  // --progress-interval: plain lines when stderr is not a terminal
  bool quiet = false;                     // --quiet: the report only
  // --history[=LOCATION]: record the run (each measured run of --runs) in
  // this store (warmup/history.h; alone, DefaultHistoryLocation()); empty =
  // not recorded.
  std::string history;
};

// warmup-profile, and warmup serve --profiler: which profiler records the
// window and where it writes (see profiler_window.h).
struct ProfilerOptions {
  ProfilerKind kind = ProfilerKind::kNone;  // --profiler none | cpu | heap | perf
  std::string out;                          // --profile-out: the file (heap: the prefix)
  // serve only: a second window over goLive, into OUT.golive (--profile-golive).
  bool golive = false;
};

// load and reindex --runs: one configuration run again and again, each run
// on a fresh target (the work directory cleared, a new catalog, a new
// server), every run's reports kept, and the runs summarized
// (warmup/run_summary.h).
struct RepeatOptions {
  bool repeated = false;  // --runs or --warmup-runs was given
  int runs = 1;           // measured runs
  int warmup_runs = 0;    // runs made first, reported and not summarized
  // --warmup-until-stable K: warm-up runs go on until `warmup_metric` shows
  // no trend over the last K of them (Mann-Kendall at 5 %), at most
  // warmup_runs (kMostRunsUntilStable when not given); 0: exactly warmup_runs.
  int warmup_until_stable = 0;
  static constexpr int kMostRunsUntilStable = 20;
  std::string warmup_metric = run_metric::kTotalSeconds;
  std::string out_dir = "warmup-runs";  // --out: every run's reports and the summary; absent or empty
};

struct LoadCommand {
  std::string help;  // set by --help: print it and exit 0, run nothing
  // The tool, its command and the arguments as given, for the report
  // (RunConfig::command_line).
  std::vector<std::string> command_line;
  SourceSpec source;
  // reindex's started server: its binary empty = this one.
  TargetSpec target;
  CopyOptions copy;
  ReportOptions report;
  RepeatOptions repeat;
};

// warmup-profile: an embedded load (load's source, copy and report flags)
// with a profiler window around the load alone.
struct ProfileCommand : LoadCommand {
  ProfilerOptions profiler;
};

// `warmup export`: a live catalog written out as a snapshot.
struct ExportCommand {
  std::string help;     // set by --help: print it and exit 0, run nothing
  std::string address;  // host:port
  std::string catalog;
  // Plus source.tls: enabled by --tls with --address, or by grpcs:// in --source.
  std::string out_dir;                  // parent of the snapshot directory
  std::optional<std::string> zip_path;  // also write an export here
  SnapshotWriteOptions write;
  GrpcSourceOptions source;
  // --pristine-dir with --source-server-command (and --catalog, --source-work-dir): a
  // server's own catalog folder, exported through a server started on a copy of it
  // (SourceServer) instead of one at --address.
  ServerFolderSourceSpec folder;
};

struct ServeCommand {
  std::string help;  // set by --help: print it and exit 0, run nothing
  // What the server is started with, as the flags set it: --data-dir,
  // --listen, --compress and --records-inline (engine), the session limits,
  // the testing aids, the TLS files and --system-listen. The observer is
  // left for the command to set.
  ServerOptions server;
  // --listen beyond loopback (e.g. 0.0.0.0:5555) needs this: the server has
  // no authentication, and anyone who reaches it can drop catalogs.
  bool allow_remote_clients = false;
  bool reset_data = false;   // wipe the data directory first (only if warmup's marker is there)
  ProfilerOptions profiler;  // a window from a catalog's first upsert to its goLive
  // Write the readiness line (warmup/readiness_line.h) to this descriptor once
  // listening, then close it: how a supervisor learns the server is ready.
  int ready_fd = -1;
};

// `warmup catalogs`: list the catalogs of a server, or delete some.
struct CatalogsCommand {
  std::string help;  // set by --help: print it and exit 0, run nothing
  std::string address = "127.0.0.1:5555";
  std::vector<std::string> delete_names;  // --delete NAME, repeatable; empty = list
  std::string backup_name;                // --backup NAME: fetch its full backup into backup_out
  std::string backup_out;                 // --out FILE
  int backup_timeout_seconds = 3600;      // --backup-timeout
  ServerAdminOptions admin;               // --call-timeout, --tls ...
};

// `warmup compare`: run reports of build A against build B.
struct CompareCommand {
  std::string help;                      // set by --help: print it and exit 0, run nothing
  std::vector<std::string> a_files;      // positional
  std::vector<std::string> b_files;      // --vs
  std::vector<std::string> noise_files;  // --noise-from: A/A runs
  std::string json_out;                  // --json: the comparison as JSON here
  std::string html_out;                  // --html: the comparison as a page here
  CompareOptions options;                // --resamples, --seed, --force
};

// `warmup ab`: interleaved reindex runs of two server builds, then compare.
struct AbCommand {
  std::string help;  // set by --help: print it and exit 0, run nothing
  // The reindex every run makes (reindex's flags after ab's own); its
  // server.binary, server.extra_args, work_dir, run label and report files
  // are set per run.
  LoadCommand reindex;
  std::string a_binary, b_binary;    // --a, --b: warmup binaries whose serve is started
  std::string a_command, b_command;  // --a-command, --b-command: any servers instead (--server-command)
  std::vector<std::string> a_args, b_args;  // --a-args, --b-args: more serve flags per arm
  int runs = 9;                             // measured runs per arm, after one discarded warm-up each
  bool random_order = false;                // --order random (with --seed), else ABAB...
  // --sequential: runs pair by pair, a look after each from the third,
  // stopping once decided; `runs` is then the most per arm.
  bool sequential = false;
  uint64_t order_seed = 1;
  std::string out_dir = "warmup-ab";     // every run's reports, the comparison, the work directory
  bool keep_work = false;                // keep every run's work directory, OUT/work/LABEL
  std::vector<std::string> noise_files;  // --noise-from: A/A run reports
  std::string html_out;                  // --html: the comparison as a page
  CompareOptions compare;                // --resamples, --force (the bootstrap seed is --seed too)
};

// `warmup bench`: the write path's table in one sitting (warmup/bench.h).
struct BenchCommand {
  std::string help;  // set by --help: print it and exit 0, run nothing
  // Generated sittings, one per --scales entry, in order (the user's
  // spelling kept as the label); empty when --pristine-dir names the snapshot.
  std::vector<std::string> scales;
  GeneratorOptions generator;  // --profile, --seed (scale set per sitting)
  std::string pristine_dir;    // --pristine-dir: one sitting on this snapshot instead
  std::string catalog;         // --catalog: the snapshot in pristine_dir
  // --source-server-command (with --source-server-xmx, --source-server-start-timeout):
  // pristine_dir is a server's catalog folder or backup zip, exported once
  // through this server into OUT/datasets before the sitting's runs.
  ServerSpec source_server;
  std::string out_dir = "warmup-bench";  // absent or empty: reports, table, generated datasets, work
  // The embedded engine's and the started serve's records: by default as
  // evitaDB writes them (deflate, by each upsert), since the table sets their
  // figures against evitaDB's; --compress and --records-background change it.
  std::string compression = "deflate";
  bool records_inline = true;
  std::string verify = "counts";  // --verify of every run but the null one: counts | content
  int rtt_calls = 2000;           // unary round trips timed per sitting
  int disk_mib = 1024;            // the disk probe's size; 0 = no probe
  int disk_probes = 3;            // probes in a row; the goLive row holds the median
  bool remote = true;             // --no-remote: no started-server run
  std::string evitadb_command;    // --evitadb-command: evitaDB's server as reindex --server-command
  std::string evitadb_xmx;        // its {xmx}
  bool keep_datasets = false;     // keep the generated snapshots (OUT/datasets)
  bool require_targets = false;   // exit 3 when a measured target is not met
};

// `warmup history record|show|changes`: the run history (warmup/history.h,
// warmup/change_points.h).
struct HistoryCommand {
  std::string help;  // set by --help: print it and exit 0, run nothing
  enum class Action { kRecord, kShow, kChanges, kTrend } action = Action::kShow;
  std::string location;                  // --history, else DefaultHistoryLocation()
  std::vector<std::string> reports;      // record: run reports, or directories of them
  HistoryQuery query;                    // show, changes: --host, --dataset, --all-runs
  std::string metric = "total_seconds";  // show: the metric listed
  HistoryChangesOptions changes;         // changes: --metric (repeatable), --threshold, --alpha, ...
  std::string json_out;                  // changes, trend: every figure as JSON here
  std::string html_out;                  // trend: the page (required)
};

// Each parser reads the arguments after the command name and touches nothing
// outside them (no file is looked at). With `--help` the command's `help`
// holds its usage and options, and nothing else is checked.
// `--compress` means the same everywhere: `--compress none|zstd`
// (`--compress=zstd` too); a bare `--compress`, the older spelling of some
// commands, is zstd.
// Errors: kInvalidArgument naming the option that is wrong or missing.
StatusOr<GenerateCommand> ParseGenerate(const std::vector<std::string>& args);
StatusOr<BenchCommand> ParseBench(const std::vector<std::string>& args);
StatusOr<InspectCommand> ParseInspect(const std::vector<std::string>& args);
StatusOr<UnpackCommand> ParseUnpack(const std::vector<std::string>& args);
StatusOr<LoadCommand> ParseLoad(const std::vector<std::string>& args);
// `warmup reindex`: load's flags, --target remote|embedded (--target-mode is
// its older spelling), and the server-start group.
StatusOr<LoadCommand> ParseReindex(const std::vector<std::string>& args);
// warmup-profile: load's flags for an embedded target (--target is refused),
// and --profiler, --profile-out.
StatusOr<ProfileCommand> ParseProfile(const std::vector<std::string>& args);
StatusOr<ServeCommand> ParseServe(const std::vector<std::string>& args);
StatusOr<CompareCommand> ParseCompare(const std::vector<std::string>& args);
// `warmup ab`: its own flags, then reindex's (a started server, remote);
// reindex flags that ab sets per run (--address, --server-binary,
// --server-args, --server-command, --work-dir, --run, --report-json,
// --per-entity-csv) are refused. Each arm is --a or --a-command (--b, --b-command).
StatusOr<AbCommand> ParseAb(const std::vector<std::string>& args);
StatusOr<CatalogsCommand> ParseCatalogs(const std::vector<std::string>& args);
// `warmup history ACTION ...`: the action is the first argument.
StatusOr<HistoryCommand> ParseHistory(const std::vector<std::string>& args);
StatusOr<ExportCommand> ParseExport(const std::vector<std::string>& args);

}  // namespace warmup::cli

#endif  // WARMUP_APPS_COMMON_OPTIONS_H_
