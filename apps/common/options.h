// Command-line parsing for the warmup tools: argv in, documented option
// structs out. The only place Boost.Program_options is included.
#ifndef WARMUP_APPS_COMMON_OPTIONS_H_
#define WARMUP_APPS_COMMON_OPTIONS_H_

#include <optional>
#include <string>
#include <vector>

#include "warmup/copy_engine.h"
#include "warmup/generator.h"
#include "warmup/grpc_source.h"
#include "warmup/server.h"
#include "warmup/snapshot.h"
#include "warmup/status.h"

namespace warmup::cli {

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
};

struct LoadCommand {
  std::string help;           // set by --help: print it and exit 0, run nothing
  std::string snapshot_path;  // resolved from --pristine-dir and --catalog
  // Set instead of snapshot_path by --source grpc://HOST:PORT/CATALOG.
  std::string grpc_address;
  std::string grpc_catalog;
  std::string target = "embedded";
  std::string address = "127.0.0.1:5555";  // remote target
  int golive_timeout_seconds = 0;          // remote target; 0 = none
  // reindex only: start this `warmup` binary's `serve` (empty = this one) on
  // a fresh --work-dir, unless --address named a server that is already running.
  bool start_server = false;
  std::string server_binary;
  int server_start_timeout_seconds = 60;  // until the started server must be ready
  int server_stop_grace_seconds = 10;     // after SIGTERM, before SIGKILL
  std::string work_dir = "warmup-work";   // the embedded target's data directory
  bool compress = false;                  // zstd for the embedded target's records
  std::string report_json;
  std::string per_entity_csv;  // one row per upsert; empty = none
  // Seconds to stay alive after the report, so that a profiler can take its dump.
  int hold_open_seconds = 0;
  CopyOptions copy;
};

// `warmup export`: a live catalog written out as a snapshot.
struct ExportCommand {
  std::string help;     // set by --help: print it and exit 0, run nothing
  std::string address;  // host:port
  std::string catalog;
  std::string out_dir;                  // parent of the snapshot directory
  std::optional<std::string> zip_path;  // also write an export here
  SnapshotWriteOptions write;
  GrpcSourceOptions source;
};

struct ServeCommand {
  std::string help;  // set by --help: print it and exit 0, run nothing
  std::string data_dir;
  std::string listen = "127.0.0.1:5555";
  bool compress = false;
  bool reset_data = false;  // wipe the data directory first (only if warmup's marker is there)
  int session_idle_seconds = 0;
  // Testing aids for clients' failure paths (see ServerOptions).
  int golive_delay_ms = 0;
  std::vector<ServerOptions::InjectedFault> faults;  // --inject-fault METHOD[@N]
  // Write {"pid": P, "port": N} and a newline to this descriptor once
  // listening, then close it: how a supervisor learns the server is ready.
  int ready_fd = -1;
};

// Each parser reads the arguments after the command name. With `--help` the
// command's `help` holds its usage and options, and nothing else is checked.
// Errors: kInvalidArgument naming the option that is wrong or missing.
StatusOr<GenerateCommand> ParseGenerate(const std::vector<std::string>& args);
StatusOr<InspectCommand> ParseInspect(const std::vector<std::string>& args);
StatusOr<UnpackCommand> ParseUnpack(const std::vector<std::string>& args);
StatusOr<LoadCommand> ParseLoad(const std::vector<std::string>& args);
// `warmup reindex`: load's flags, with --target-mode remote|embedded instead of
// --target, and --server-binary.
StatusOr<LoadCommand> ParseReindex(const std::vector<std::string>& args);
StatusOr<ServeCommand> ParseServe(const std::vector<std::string>& args);
StatusOr<ExportCommand> ParseExport(const std::vector<std::string>& args);

}  // namespace warmup::cli

#endif  // WARMUP_APPS_COMMON_OPTIONS_H_
