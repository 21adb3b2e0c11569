// One run, described: where it reads, where it writes, the server it may
// start and the copy between them. Option parsers and anything else that only
// describes a run include this; running one needs warmup/run.h.
#ifndef WARMUP_RUN_SPEC_H_
#define WARMUP_RUN_SPEC_H_

#include <string>
#include <vector>

#include "warmup/catalog_source.h"
#include "warmup/copy_options.h"
#include "warmup/engine.h"
#include "warmup/status.h"
#include "warmup/tls.h"
#include "warmup/work_dir.h"

namespace warmup {

// A server warmup starts, supervises and stops: a kStartedServer target's,
// or a source server's (SourceSpec::server).
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
  // A server's own catalog folder instead of a snapshot: pristine_dir/catalog
  // (catalog: its only subdirectory when empty) is evitaDB's <CATALOG>/ of
  // its storage directory, read through `server` (its command set: {data}
  // is a fresh directory holding a copy of the folder and nothing else,
  // since evitaDB takes every subdirectory of its storage for a catalog).
  // The copy, the server's log and GC log go in `server_work_dir` (a work
  // directory of its own; empty: the target's work_dir + "-source"); the
  // pristine folder is never opened by the server. RunLoad waits for the
  // catalog to be ALIVE, reads it over gRPC, and stops the server after
  // the run.
  ServerSpec server;
  std::string server_work_dir;
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
  // kRemote: the server's pid on this machine (0 = not known) and its GC log
  // ("" = none): the report then has its RSS, CPU and this run's garbage
  // collections, as a started server's (ServerProcess::Attach).
  int server_pid = 0;
  std::string server_gc_log;
  // kEmbedded: the engine's data directory; kStartedServer: the directory the
  // server's data (WORK/data), log and GC log go in. A work directory
  // (work_dir.h): prepared fresh, refusing a directory warmup did not make.
  std::string work_dir = "warmup-work";
  // How the engine's records are compressed (kEmbedded; a started warmup serve's --compress).
  RecordCompression compression = RecordCompression::kNone;
  // kEmbedded, and a started warmup serve (its --records-inline): each upsert
  // writes its entity's records itself, as evitaDB's does, instead of a second
  // thread writing them (EngineOptions::background_records).
  bool records_inline = false;
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

}  // namespace warmup

#endif  // WARMUP_RUN_SPEC_H_
