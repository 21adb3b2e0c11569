// One run, described: where it reads, where it writes, the server it may
// start and the copy between them. Option parsers and anything else that only
// describes a run include this; running one needs warmup/run.h.
#ifndef WARMUP_RUN_SPEC_H_
#define WARMUP_RUN_SPEC_H_

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include "warmup/catalog_source.h"
#include "warmup/catalog_target.h"
#include "warmup/copy_options.h"
#include "warmup/record_storage.h"
#include "warmup/spec_names.h"
#include "warmup/status.h"
#include "warmup/tls.h"
#include "warmup/work_dir.h"

namespace warmup {

// A server warmup starts, supervises and stops: a started server target's,
// or a source server's (ServerFolderSourceSpec).
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

// How a snapshot source's pages stand in the page cache before the run;
// the result says how much was resident either way (RunResult::source_cache).
enum class SourceCacheStep {
  kAsFound,  // left alone
  kPrewarm,  // read whole first (a warm source)
  kDrop,     // dropped first (a cold source)
};

// A snapshot warmup or evitaDB's export wrote: its directory, or an export zip.
struct SnapshotSourceSpec {
  std::string dir;      // the snapshot's parent directory, or an export zip
  std::string catalog;  // the snapshot in `dir`; empty = its only one
  SourceCacheStep cache = SourceCacheStep::kAsFound;
};

// A live catalog, read over evitaDB's protocol from a server already running.
struct LiveSourceSpec {
  std::string address;  // HOST:PORT
  std::string catalog;
  ClientTlsOptions tls;  // enabled by tls.enabled
  // The catalog may be other than ALIVE (GrpcSourceOptions).
  bool allow_not_alive = false;
};

// A server's own catalog folder (evitaDB's <CATALOG>/ of its storage
// directory) or its backup zip, read through a server warmup starts on a
// copy of it (SourceServer): {data} of the server's command is a fresh
// directory holding that copy and nothing else, since evitaDB takes every
// subdirectory of its storage for a catalog. The folder itself is never
// opened by the server. RunLoad waits for the catalog to be ALIVE, reads it
// over gRPC, and stops the server after the run.
struct ServerFolderSourceSpec {
  std::string folder;   // the catalog folders' parent, or a backup zip
  std::string catalog;  // the folder in `folder`; empty = its only one
  ServerSpec server;    // its `command` is required
  // The copy, the server's log and GC log; a work directory of its own
  // (empty: the target's work directory + "-source", or
  // kDefaultSourceWorkDir for a target that has none).
  std::string work_dir;
};
// A source server's work directory when neither its spec nor the target names one.
inline constexpr const char* kDefaultSourceWorkDir = "warmup-work-source";

// A source the caller opened (a generator, a CatalogSource of its own),
// read as it is. Not owned; it must outlive the run.
struct OpenSourceSpec {
  CatalogSource* source = nullptr;
};

// Where the copy reads: one of the kinds above, never a mix.
using SourceSpec = std::variant<SnapshotSourceSpec, LiveSourceSpec, ServerFolderSourceSpec, OpenSourceSpec>;

// warmup's engine in this process.
struct EmbeddedTargetSpec {
  // The engine's data directory. A work directory (work_dir.h): prepared
  // fresh, refusing a directory warmup did not make.
  std::string work_dir = "warmup-work";
  RecordCompression compression = RecordCompression::kNone;
  // Each upsert writes its entity's records itself, as evitaDB's does,
  // instead of a second thread writing them (EngineOptions::background_records).
  bool records_inline = false;
};

// The deadlines of a target spoken to over evitaDB's protocol.
struct ClientDeadlines {
  int golive_timeout_seconds = 0;     // 0 = none
  int upsert_timeout_seconds = 3600;  // each upsert's
};

// A server already running.
struct RemoteTargetSpec {
  std::string address = "127.0.0.1:5555";  // HOST:PORT
  ClientDeadlines deadlines;
  ClientTlsOptions tls;
  // The server's pid on this machine (0 = not known) and its GC log ("" =
  // none): the report then has its RSS, CPU and this run's garbage
  // collections, as a started server's (ServerProcess::Attach).
  int server_pid = 0;
  std::string server_gc_log;
};

// Nothing: the read side alone.
struct NullTargetSpec {};

// A server warmup starts on a fresh work directory, loads over loopback
// without TLS, and stops.
struct StartedServerTargetSpec {
  ServerSpec server;  // its `binary` or `command` is required
  // The directory the server's data (WORK/data), log and GC log go in; a
  // work directory, as EmbeddedTargetSpec's.
  std::string work_dir = "warmup-work";
  ClientDeadlines deadlines;
  // A started warmup serve's --compress and --records-inline; a command's
  // storage settings are in its command line.
  RecordCompression compression = RecordCompression::kNone;
  bool records_inline = false;
};

// A target of the caller's own (a CatalogTarget it wrote), opened by `open`
// when the run is about to copy, after its checks pass. The report's target
// kind is the target's Kind(); warmup prepares no directory for it and knows
// nothing of how it stores (examples/jsonl_target.cc).
struct OpenTargetSpec {
  std::function<StatusOr<std::unique_ptr<CatalogTarget>>()> open;
};

// Where the copy writes: one of the kinds above, never a mix.
using TargetSpec = std::variant<EmbeddedTargetSpec, RemoteTargetSpec, NullTargetSpec, StartedServerTargetSpec,
                                OpenTargetSpec>;

// The kinds of target a run writes to, in TargetSpec's order: a closed set.
enum class TargetKind {
  kEmbedded,
  kRemote,
  kNull,
  kStartedServer,
  kOpen,
};
static_assert(
    std::is_same_v<std::variant_alternative_t<static_cast<size_t>(TargetKind::kEmbedded), TargetSpec>,
                   EmbeddedTargetSpec> &&
        std::is_same_v<std::variant_alternative_t<static_cast<size_t>(TargetKind::kRemote), TargetSpec>,
                       RemoteTargetSpec> &&
        std::is_same_v<std::variant_alternative_t<static_cast<size_t>(TargetKind::kNull), TargetSpec>,
                       NullTargetSpec> &&
        std::is_same_v<
            std::variant_alternative_t<static_cast<size_t>(TargetKind::kStartedServer), TargetSpec>,
            StartedServerTargetSpec> &&
        std::is_same_v<std::variant_alternative_t<static_cast<size_t>(TargetKind::kOpen), TargetSpec>,
                       OpenTargetSpec>,
    "TargetKind names TargetSpec's alternatives in their order (KindOf relies on it)");
// The kind `spec` holds.
TargetKind KindOf(const TargetSpec& spec);
// "embedded", "remote", "null", "started-server", "open": the names messages
// and reports use.
const char* TargetKindName(TargetKind kind);
// The kind `name` names (TargetKindName's inverse). Errors: kInvalidArgument
// naming `name` and the kinds there are.
StatusOr<TargetKind> ParseTargetKind(const std::string& name);
// A spec of `kind` with its defaults.
TargetSpec DefaultTargetSpec(TargetKind kind);
// The work directory warmup prepares for `spec` (an embedded target's, a
// started server's), or nullptr for a target that has none.
const std::string* WorkDirOf(const TargetSpec& spec);

// One run, described.
struct RunSpec {
  SourceSpec source;
  TargetSpec target;
  // The copy's settings; its `stop` is RunHooks', its observers run beside
  // RunHooks', and config.target_kind, compression and storage are filled in
  // by RunLoad.
  CopyOptions copy;
  std::string per_entity_csv;  // one row per upsert here; empty = none
  // The files the caller writes after the run (report JSON, HTML, a
  // profile), named by their flags: checked writable before anything runs,
  // and refused inside the work directory.
  std::vector<PathInUse> outputs;
  SpecNames names;  // what its errors call its values
};

}  // namespace warmup

#endif  // WARMUP_RUN_SPEC_H_
