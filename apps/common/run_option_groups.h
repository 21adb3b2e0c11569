// The option groups of the commands that run a load (run_options.cc):
// each declares its options into the values it is bound to, and Finish
// checks them once Boost has parsed the command line, naming the flag that
// is wrong. A command is the groups it has; where one group's check needs
// another's result, Finish takes it as an argument (the copy group's verify
// mode for the target, the target's kind for the started server).
#ifndef WARMUP_APPS_COMMON_RUN_OPTION_GROUPS_H_
#define WARMUP_APPS_COMMON_RUN_OPTION_GROUPS_H_

#include <string>

#include "common/option_parsing.h"
#include "common/options.h"

namespace warmup::cli {

// The commands that run a load; they differ in what their target group offers.
enum class RunVerb { kLoad, kReindex, kProfile };

// --pristine-dir [--catalog] or --source, and the page cache's state.
// Finish makes the spec of the kind the flags name.
struct SourceGroup {
  SourceSpec& spec;
  std::string dir = {};      // --pristine-dir
  std::string catalog = {};  // --catalog
  std::string url = {};      // --source
  bool prewarm = false;      // --prewarm-source
  bool drop_cache = false;   // --drop-source-cache
  bool allow_not_alive = false;
  ServerSpec server = {};            // --source-server-*
  std::string server_work_dir = {};  // --source-work-dir

  po::options_description Options();
  // `tls` is the TLS group's: a grpcs:// source turns it on.
  Status Finish(const po::variables_map& vm, const ClientTlsOptions& tls);
};

// --target and what each kind of target takes. warmup-profile's target is
// the embedded engine alone: it lists only the embedded target's flags.
struct TargetGroup {
  TargetSpec& spec;
  RunVerb verb;
  std::string kind = {};  // --target, before it becomes the spec's kind
  std::string mode = {};  // reindex's older spelling of --target
  std::string compression = {};
  // The flags of each kind, before Finish makes the spec of the kind given.
  EmbeddedTargetSpec local = {};  // --work-dir, --records-inline
  RemoteTargetSpec remote = {};   // --address, the deadlines, --server-pid, --server-gc-log

  po::options_description Options();
  // Older spellings, and warmup-profile's --target, refused with a reason.
  po::options_description Hidden();
  // `verify` is the copy group's (a null target cannot be read back).
  // reindex's remote target without --address becomes a started server.
  Status Finish(const po::variables_map& vm, VerifyMode verify);
};

// What is copied, how it is checked, and what the run is called.
struct CopyGroup {
  CopyOptions& copy;
  std::string collections = {};
  std::string verify = {};
  bool skip_verify = false;    // the older spelling of --verify none
  bool no_read_ahead = false;  // --no-read-ahead: CopyOptions::read_ahead off

  po::options_description Options();
  po::options_description Hidden();
  Status Finish(const po::variables_map& vm);
};

// What the run leaves besides the text report, and its progress.
struct ReportGroup {
  ReportOptions& report;
  // --history: not warmup-profile's, whose runs carry a profiler's cost.
  bool with_history = true;

  po::options_description Options();
  Status Finish();
};

// load and reindex: --runs, --warmup-runs and where their reports go.
struct RepeatGroup {
  RepeatOptions& repeat;

  po::options_description Options();
  // `cmd` is the rest of the command: with --runs, each run's reports go to
  // --out, so the single run's report files are refused, as is a remote
  // target's fixed --target-catalog (every run creates its own catalog).
  Status Finish(const po::variables_map& vm, const LoadCommand& cmd);
};

// reindex: the server it starts for a remote target without --address.
struct StartedServerGroup {
  TargetSpec& target;  // the target group's, finished
  ServerSpec server = {};
  std::string args = {};  // --server-args, one string

  po::options_description Options();
  // Its flags are refused unless reindex starts a server, which gets `server`.
  Status Finish(const po::variables_map& vm);
};

}  // namespace warmup::cli

#endif  // WARMUP_APPS_COMMON_RUN_OPTION_GROUPS_H_
