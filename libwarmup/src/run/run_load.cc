// RunLoad: a run put together from its spec (warmup/run.h).
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <thread>
#include <utility>

#include "base/mutex.h"
#include "warmup/catalog_admin.h"
#include "warmup/copy_engine.h"
#include "warmup/embedded_target.h"
#include "warmup/grpc_source.h"
#include "warmup/page_cache.h"
#include "warmup/remote_target.h"
#include "warmup/run.h"
#include "warmup/run_result.h"
#include "warmup/server_process.h"
#include "warmup/server_storage.h"
#include "warmup/snapshot.h"
#include "warmup/source_server.h"
#include "warmup/time_series.h"

namespace warmup {

namespace fs = std::filesystem;

namespace {

constexpr struct {
  TargetKind kind;
  const char* name;
} kTargetKinds[] = {{TargetKind::kEmbedded, "embedded"},
                    {TargetKind::kRemote, "remote"},
                    {TargetKind::kNull, "null"},
                    {TargetKind::kStartedServer, "started-server"},
                    {TargetKind::kOpen, "open"}};

// Prewarms or drops the snapshot as asked, then measures what is resident.
StatusOr<SourceCache> SetSourceCache(const std::string& snapshot, SourceCacheStep step) {
  if (step == SourceCacheStep::kPrewarm) {
    if (auto s = PrewarmPageCache(snapshot); !s.ok()) return s.WithContext("prewarming the snapshot");
  }
  if (step == SourceCacheStep::kDrop) {
    if (auto s = DropFromPageCache(snapshot); !s.ok()) {
      return s.WithContext("dropping the snapshot from the page cache");
    }
  }
  auto cache = MeasurePageCache(snapshot);
  if (!cache.ok()) return cache.status().WithContext("measuring the snapshot's page-cache residency");
  cache->action = step == SourceCacheStep::kPrewarm ? "prewarmed"
                  : step == SourceCacheStep::kDrop  ? "dropped"
                                                    : "none";
  return cache;
}

int64_t DirectoryBytes(const std::string& dir) {
  int64_t total = 0;
  std::error_code ec;
  for (const auto& e : fs::recursive_directory_iterator(dir, ec)) {
    if (e.is_regular_file(ec)) total += static_cast<int64_t>(e.file_size(ec));
  }
  return total;
}

std::string SignalText(int signal) {
  const char* name = signal == 0 ? nullptr : ::sigabbrev_np(signal);
  return name == nullptr ? std::string("a stop request") : "SIG" + std::string(name);
}

// A run a stop request cut short is interrupted, whatever the load saw last:
// when the server had to be stopped under it, its upsert, goLive or check
// failed as a lost server, which is not what happened. A run that had
// finished well before the request could stop anything stands as it is.
void MarkInterrupted(RunResult& result, int signal, const std::string& data_dir) {
  if (result.ExitCode() == 0) return;
  const std::string by = "interrupted by " + SignalText(signal);
  if (result.abort_reason == AbortReason::kInterrupted) {
    // The load saw the stop itself, between two upserts.
  } else if (result.abort_reason != AbortReason::kNone) {
    result.abort_error = by + ", which stopped the server under the load (" + result.abort_error + ")";
  } else if (result.golive == GoLiveOutcome::kFailed) {
    result.abort_error = by + " during goLive, which stopped the server (" + result.golive_error + ")";
  } else {
    result.abort_error = by + " after goLive, which stopped the server before the check was done";
  }
  result.abort_reason = AbortReason::kInterrupted;
  if (result.target_drop == TargetDrop::kFailed || result.target_drop == TargetDrop::kKept) {
    result.notes.push_back("the partial catalog " + result.target_catalog + " is kept in the server's data " +
                           "directory " + data_dir + "; the next run on this work directory clears it");
  }
}

// Stops a started server when a stop request is not honoured by the load
// within the grace, or at once when asked to; ends with the run.
class ServerGuard {
 public:
  ServerGuard(ServerProcess& server, const StopRequest* stop, std::chrono::milliseconds grace,
              std::function<void(const std::string&)> notice)
      : server_(server), stop_(stop), grace_(grace), notice_(std::move(notice)) {
    if (stop_ != nullptr) thread_ = std::thread([this] { Watch(); });
  }
  ~ServerGuard() {
    {
      MutexLock lock(mu_);
      done_ = true;
    }
    wake_.NotifyAll();
    if (thread_.joinable()) thread_.join();
  }

 private:
  void Watch() {
    MutexLock lock(mu_);
    std::optional<std::chrono::steady_clock::time_point> asked;
    while (!done_) {
      const auto now = std::chrono::steady_clock::now();
      if (stop_->now()) {  // who asked has said so
        server_.Stop();
        return;
      }
      if (stop_->requested() && !asked) asked = now;
      if (asked && now - *asked >= grace_) {
        Notice("the load did not stop within the grace period; stopping the server");
        server_.Stop();
        return;
      }
      wake_.WaitFor(mu_, std::chrono::milliseconds(50));
    }
  }
  void Notice(const std::string& line) {
    if (notice_) notice_(line);
  }

  ServerProcess& server_;
  const StopRequest* stop_;
  const std::chrono::milliseconds grace_;
  const std::function<void(const std::string&)> notice_;
  Mutex mu_;
  CondVar wake_;
  bool done_ GUARDED_BY(mu_) = false;
  std::thread thread_;
};

// The paths a run reads and writes besides its work directory, named as
// errors name them: the spec's outputs by the names their caller gave.
std::vector<PathInUse> PathsInUse(const RunSpec& spec) {
  std::vector<PathInUse> in_use = {{spec.names.per_entity_csv, spec.per_entity_csv}};
  if (const auto* snapshot = std::get_if<SnapshotSourceSpec>(&spec.source)) {
    in_use.push_back({spec.names.source_dir, snapshot->dir});
  } else if (const auto* folder = std::get_if<ServerFolderSourceSpec>(&spec.source)) {
    in_use.push_back({spec.names.source_dir, folder->folder});
  }
  in_use.insert(in_use.end(), spec.outputs.begin(), spec.outputs.end());
  return in_use;
}

// Checks what a run writes and reads against its work directory and that
// every output can be written, before anything runs.
Status CheckBeforeRun(const RunSpec& spec, const std::vector<PathInUse>& in_use) {
  if (const std::string* work_dir = WorkDirOf(spec.target)) {
    // The first thing: a user's file would be in the way of the run.
    if (auto s = CheckOutsideWorkDir(*work_dir, in_use); !s.ok()) return s;
  }
  for (const PathInUse& output : spec.outputs) {
    if (auto s = CheckOutputFile(output.flag, output.path, true); !s.ok()) return s;
  }
  return CheckOutputFile(spec.names.per_entity_csv, spec.per_entity_csv, true);
}

// The serve (or command) a started server run starts, its data in WORK/data.
ServerProcessOptions StartedServerOptions(const StartedServerTargetSpec& target, const std::string& run_label,
                                          const std::string& data_dir) {
  const fs::path work = target.work_dir;
  const ServerSpec& server = target.server;
  ServerProcessOptions options;
  if (!server.command.empty()) {
    options.command = server.command;
    options.data_dir = data_dir;
    options.run_label = run_label;
    options.gc_log = (work / "gc.log").string();
    options.xmx = server.xmx;
    options.log = (work / "server.log").string();
  }
  options.binary = server.binary;
  options.serve_args = {"--data-dir", data_dir};
  // zstd as the bare flag, which every serve build has read (another build may be older).
  if (target.compression == RecordCompression::kZstd) options.serve_args.push_back("--compress");
  if (target.compression == RecordCompression::kDeflate) {
    options.serve_args.insert(options.serve_args.end(), {"--compress", "deflate"});
  }
  if (target.records_inline) options.serve_args.push_back("--records-inline");
  options.serve_args.insert(options.serve_args.end(), server.extra_args.begin(), server.extra_args.end());
  options.start_timeout = std::chrono::seconds(server.start_timeout_seconds);
  options.stop_grace = std::chrono::seconds(server.stop_grace_seconds);
  return options;
}

RecordWrites WritesOf(bool records_inline) {
  return records_inline ? RecordWrites::kInline : RecordWrites::kBackground;
}

// What the report says of the target: its kind, how it stores records and
// where, and the server a run started. A started server is spoken to as a
// remote one: the report's target kind is the protocol's, and the server
// it started is in its own fields. A remote server's storage is its own.
void DescribeTarget(const TargetSpec& target, const std::string& data_dir, RunConfig& config) {
  if (const auto* embedded = std::get_if<EmbeddedTargetSpec>(&target)) {
    config.target_kind = TargetKindName(TargetKind::kEmbedded);
    config.records = RecordStorage{embedded->compression, WritesOf(embedded->records_inline)};
    config.storage = DescribeStorage(embedded->work_dir);
  } else if (std::holds_alternative<NullTargetSpec>(target)) {
    config.target_kind = TargetKindName(TargetKind::kNull);
    config.records = RecordsNotStored{};
  } else if (const auto* started = std::get_if<StartedServerTargetSpec>(&target)) {
    config.target_kind = TargetKindName(TargetKind::kRemote);
    config.storage = DescribeStorage(data_dir);
    if (started->server.command.empty()) {
      config.records = RecordStorage{started->compression, WritesOf(started->records_inline)};
      config.server_binary = started->server.binary;
      config.server_args = started->server.extra_args;
    } else {
      config.server_command = started->server.command;  // its storage settings are in the command
      config.server_xmx = started->server.xmx;
    }
  } else if (std::holds_alternative<RemoteTargetSpec>(target)) {
    config.target_kind = TargetKindName(TargetKind::kRemote);
  }
  // An open target is the caller's: its Kind() names it (RunCopy), and how
  // it stores is its own.
}

// The size of a target's data directory when goLive starts and ends. Its
// walk happens before goLive's clock starts and after it stops.
class DataDirectoryWatch : public RunObserver {
 public:
  explicit DataDirectoryWatch(std::string dir) { data_.dir = std::move(dir); }
  void OnGoLiveStart() override {
    data_.bytes_at_golive_start = DirectoryBytes(data_.dir);
    started_ = true;
  }
  void OnGoLiveEnd(GoLiveOutcome, double) override { data_.bytes_at_golive_end = DirectoryBytes(data_.dir); }
  std::optional<TargetData> Figures() const { return started_ ? std::optional(data_) : std::nullopt; }

 private:
  TargetData data_;
  bool started_ = false;
};

// The copy with the time series, the CSV and the caller's hooks, on an open
// source and target; `data_dir`: the target's data directory when warmup
// made it (empty for none).
StatusOr<RunResult> Copy(const RunSpec& spec, const RunHooks& hooks, CatalogSource& source,
                         std::unique_ptr<CatalogTarget> target, std::vector<RunObserver*> more_observers,
                         const std::string& data_dir) {
  CopyOptions copy = spec.copy;
  copy.stop = hooks.stop != nullptr ? hooks.stop->flag() : nullptr;
  DescribeTarget(spec.target, data_dir, copy.config);
  copy.observers.insert(copy.observers.end(), hooks.observers.begin(), hooks.observers.end());
  copy.observers.insert(copy.observers.end(), more_observers.begin(), more_observers.end());
  TimeSeriesRecorder series;
  copy.observers.push_back(&series);
  DataDirectoryWatch data(data_dir);
  if (!data_dir.empty()) copy.observers.push_back(&data);
  std::unique_ptr<RunObserver> csv;
  if (!spec.per_entity_csv.empty()) {
    auto writer = MakePerEntityCsvWriter(spec.per_entity_csv);
    if (!writer.ok()) return FailedPreconditionError(writer.status().message());  // the file, not the spec
    csv = std::move(writer).value();
    copy.observers.push_back(csv.get());
  }
  if (hooks.wrap_target) target = hooks.wrap_target(std::move(target));
  auto result = RunCopy(source, *target, copy);
  if (!result.ok()) {
    // The spec's own mistakes (CheckCopyOptions) were caught before the run;
    // what is left is the target refusing the run itself (a catalog name
    // taken, a schema it will not create), which is not the spec's fault.
    if (result.status().code() == StatusCode::kInvalidArgument) {
      return FailedPreconditionError(result.status().message());
    }
    return result;
  }
  result->time_series = series.Build();
  result->target_data = data.Figures();
  return result;
}

// What the server at `address` says of itself, for the report; a server
// that will not say is no reason to fail the run, and the note says so.
struct Identified {
  std::optional<ServerIdentity> identity;
  std::string note;  // why there is none
};
Identified IdentifyServer(const std::string& address, const ClientTlsOptions& tls) {
  ServerAdminOptions options;
  options.tls = tls;
  options.call_timeout_seconds = 10;
  auto identity = CheckServerReady(address, options);
  if (!identity.ok()) {
    return {std::nullopt, "the server did not say what it is: " + identity.status().message()};
  }
  return {std::move(identity).value(), ""};
}

// Puts what IdentifyServer found into a finished run.
void AddIdentity(const Identified& identified, RunResult& result) {
  result.server_identity = identified.identity;
  if (!identified.note.empty()) result.notes.push_back(identified.note);
}

// A started server: the work directory, the server, the load against it,
// the server's stop and figures.
StatusOr<RunResult> RunAgainstStartedServer(const RunSpec& spec, const StartedServerTargetSpec& started,
                                            const RunHooks& hooks, CatalogSource& source,
                                            const std::vector<PathInUse>& in_use) {
  if (auto s = PrepareWorkDir(started.work_dir, in_use); !s.ok()) return s;
  // The server's data directory is a fresh subdirectory of the work
  // directory, beside a command's log and GC log; each is recorded as
  // warmup's, so that the next run clears it and nothing else.
  const std::string data_dir = (fs::path(started.work_dir) / "data").string();
  for (const char* made : {"data", "server.log", "gc.log"}) {
    if (auto s = RecordInWorkDir(started.work_dir, made); !s.ok()) return s;
  }
  if (!started.server.command.empty()) {
    std::error_code ec;
    fs::create_directories(data_dir, ec);
    if (ec) return InternalError("cannot create " + data_dir + ": " + ec.message());
  }
  const ServerProcessOptions options = StartedServerOptions(started, spec.copy.run_label, data_dir);
  auto server = ServerProcess::Start(options);
  if (!server.ok()) return server.status();
  StatusOr<RunResult> result = InternalError("not run");
  ServerSampler sampler(**server);
  {
    ServerGuard guard(**server, hooks.stop, options.stop_grace, hooks.notice);
    RemoteTargetSpec remote;
    remote.address = (*server)->address();
    remote.deadlines = started.deadlines;
    // A server command's readiness probe asked it already; a started serve is asked now.
    const auto probed = (*server)->identity();
    const Identified identified =
        probed ? Identified{probed, ""} : IdentifyServer(remote.address, remote.tls);
    auto target = OpenTarget(remote, spec.names);
    if (!target.ok()) {
      result = target.status();
    } else {
      result = Copy(spec, hooks, source, std::move(target).value(), {&sampler}, data_dir);
      if (result.ok()) AddIdentity(identified, *result);
    }
  }
  ServerFigures figures = (*server)->Stop();
  const int signal = hooks.stop != nullptr && hooks.stop->requested() ? hooks.stop->reason() : -1;
  if (signal >= 0 && hooks.notice) {
    hooks.notice("interrupted by " + SignalText(signal) + "; the server was stopped (" + figures.ended + ")");
  }
  // What the server's log says went wrong, when the run failed: evitaDB
  // answers an exception it did not expect with no message at all.
  std::string log_errors;
  if (!options.log.empty() && (!result.ok() || result->ExitCode() == 1)) {
    log_errors = LogEndsWith("the server's", options.log);
  }
  if (!result.ok()) {
    if (hooks.notice) {
      hooks.notice("the server " + figures.binary + " (pid " + std::to_string(figures.pid) + ") " +
                   figures.ended);
    }
    if (log_errors.empty()) return result.status();
    return Status(result.status().code(), result.status().message() + "\n" + log_errors);
  }
  if (!log_errors.empty()) result->notes.push_back(log_errors);
  if (signal >= 0) MarkInterrupted(*result, signal, data_dir);
  sampler.AddTo(figures);
  figures.data_dir = data_dir;
  figures.data_bytes = DirectoryBytes(data_dir);
  result->server_process = std::move(figures);
  return result;
}

}  // namespace

TargetKind KindOf(const TargetSpec& spec) { return static_cast<TargetKind>(spec.index()); }

TargetSpec DefaultTargetSpec(TargetKind kind) {
  switch (kind) {
    case TargetKind::kEmbedded:
      return EmbeddedTargetSpec{};
    case TargetKind::kRemote:
      return RemoteTargetSpec{};
    case TargetKind::kNull:
      return NullTargetSpec{};
    case TargetKind::kStartedServer:
      return StartedServerTargetSpec{};
    case TargetKind::kOpen:
      return OpenTargetSpec{};
  }
  return NullTargetSpec{};
}

const std::string* WorkDirOf(const TargetSpec& spec) {
  if (const auto* embedded = std::get_if<EmbeddedTargetSpec>(&spec)) return &embedded->work_dir;
  if (const auto* started = std::get_if<StartedServerTargetSpec>(&spec)) return &started->work_dir;
  return nullptr;
}

const char* TargetKindName(TargetKind kind) {
  for (const auto& k : kTargetKinds) {
    if (k.kind == kind) return k.name;
  }
  return "unknown";
}

StatusOr<TargetKind> ParseTargetKind(const std::string& name) {
  std::string names;
  for (const auto& k : kTargetKinds) {
    if (k.name == name) return k.kind;
    names += (names.empty() ? "" : ", ") + std::string(k.name);
  }
  return InvalidArgumentError("no target kind '" + name + "' (there are " + names + ")");
}

Status CheckOutputFile(const std::string& flag, const std::string& path, bool may_exist) {
  if (path.empty()) return OkStatus();
  auto fail = [&](const std::string& why) {
    return FailedPreconditionError(flag + " " + path + ": " + why + "; nothing was run");
  };
  std::error_code ec;
  if (fs::exists(path, ec)) {
    if (fs::is_directory(path, ec)) return fail("is a directory");
    if (!may_exist) return fail("exists already");
    if (::access(path.c_str(), W_OK) != 0) return fail("cannot be written");
    return OkStatus();
  }
  const fs::path parent = fs::path(path).has_parent_path() ? fs::path(path).parent_path() : fs::path(".");
  if (!fs::is_directory(parent, ec)) return fail("the directory " + parent.string() + " does not exist");
  if (::access(parent.c_str(), W_OK) != 0)
    return fail("the directory " + parent.string() + " cannot be written");
  return OkStatus();
}

namespace {

StatusOr<std::unique_ptr<CatalogSource>> OpenLiveSource(const LiveSourceSpec& spec, const SpecNames& names) {
  GrpcSourceOptions options;
  options.tls = spec.tls;
  options.allow_not_alive = spec.allow_not_alive;
  options.allow_not_alive_named = names.allow_not_alive;
  auto source = OpenGrpcSource(spec.address, spec.catalog, options);
  // The server refusing the read, or sending a schema warmup cannot take,
  // is the catalog's matter, not the spec's (which kInvalidArgument means).
  if (!source.ok() && source.status().code() == StatusCode::kInvalidArgument) {
    return FailedPreconditionError(source.status().message());
  }
  return source;
}

StatusOr<std::unique_ptr<CatalogSource>> OpenSnapshot(const SnapshotSourceSpec& spec, const SpecNames& names,
                                                      std::optional<SourceCache>* cache) {
  // A server's own storage or backup is not a snapshot: say what it is,
  // rather than only what it lacks.
  auto path = FindSnapshot(spec.dir, spec.catalog, names);
  if (!path.ok()) {
    const Status s = path.status().WithContext(names.source_dir);
    const std::string storage = DescribeServerStorage(spec.dir, names);
    return storage.empty() ? s : Status(s.code(), s.message() + "; it is " + storage);
  }
  auto snapshot = OpenSnapshotSource(*path);  // its errors first: they say what is wrong
  if (!snapshot.ok()) {
    if (const std::string storage = DescribeServerStorage(*path, names); !storage.empty()) {
      return FailedPreconditionError(snapshot.status().message() + "; it is " + storage);
    }
    // What is wrong is in the snapshot (a hostile zip entry, a bad
    // manifest), not in how it was named: not the caller's usage error.
    if (snapshot.status().code() == StatusCode::kInvalidArgument) {
      return DataLossError(snapshot.status().message());
    }
    return snapshot.status();
  }
  if (cache != nullptr) {
    auto measured = SetSourceCache(*path, spec.cache);
    if (!measured.ok()) return measured.status();
    *cache = *measured;
  }
  return snapshot;
}

}  // namespace

StatusOr<std::unique_ptr<CatalogSource>> OpenSource(const SourceSpec& spec, std::optional<SourceCache>* cache,
                                                    const SpecNames& names) {
  if (const auto* live = std::get_if<LiveSourceSpec>(&spec)) return OpenLiveSource(*live, names);
  if (const auto* snapshot = std::get_if<SnapshotSourceSpec>(&spec)) {
    return OpenSnapshot(*snapshot, names, cache);
  }
  return InvalidArgumentError(
      "OpenSource opens a snapshot or a live catalog: RunLoad reads a catalog folder through the server it "
      "starts, and an open source as it is");
}

StatusOr<std::unique_ptr<CatalogTarget>> OpenTarget(const TargetSpec& spec, const SpecNames& names) {
  if (const auto* embedded = std::get_if<EmbeddedTargetSpec>(&spec)) {
    EngineOptions options;
    options.compression = embedded->compression;
    options.background_records = !embedded->records_inline;
    return MakeEmbeddedTarget(embedded->work_dir, options);
  }
  if (const auto* remote = std::get_if<RemoteTargetSpec>(&spec)) {
    RemoteTargetOptions options;
    options.golive_timeout_seconds = remote->deadlines.golive_timeout_seconds;
    options.upsert_timeout_seconds = remote->deadlines.upsert_timeout_seconds;
    options.upsert_timeout_named = names.upsert_timeout;
    options.tls = remote->tls;
    return MakeRemoteTarget(remote->address, options);
  }
  if (std::holds_alternative<NullTargetSpec>(spec)) return MakeNullTarget();
  if (const auto* open = std::get_if<OpenTargetSpec>(&spec)) {
    if (!open->open) return InvalidArgumentError("OpenTargetSpec::open is empty");
    auto target = open->open();
    if (target.ok() && *target == nullptr) {
      return InvalidArgumentError("OpenTargetSpec::open returned no target");
    }
    return target;
  }
  return InvalidArgumentError("OpenTarget cannot open a started server's target: RunLoad starts the server");
}

namespace {

// A run against a target already running or in this process (not one it starts).
StatusOr<RunResult> RunAgainstTarget(const RunSpec& spec, const RunHooks& hooks, CatalogSource& source,
                                     const std::vector<PathInUse>& in_use) {
  const std::string* work_dir = WorkDirOf(spec.target);
  if (work_dir != nullptr) {
    if (auto s = PrepareWorkDir(*work_dir, in_use); !s.ok()) return s;
  }
  Identified identified;
  std::unique_ptr<ServerProcess> attached;
  std::unique_ptr<ServerSampler> sampler;
  std::vector<RunObserver*> observers;
  const auto* remote = std::get_if<RemoteTargetSpec>(&spec.target);
  if (remote != nullptr) {
    identified = IdentifyServer(remote->address, remote->tls);
    if (remote->server_pid > 0) {
      auto server = ServerProcess::Attach(remote->server_pid, remote->address, remote->server_gc_log);
      if (!server.ok()) return server.status();
      attached = std::move(server).value();
      sampler = std::make_unique<ServerSampler>(*attached);
      observers.push_back(sampler.get());
    }
  }
  auto target = OpenTarget(spec.target, spec.names);
  if (!target.ok()) return target.status();
  auto result = Copy(spec, hooks, source, std::move(target).value(), observers,
                     work_dir != nullptr ? *work_dir : std::string());
  if (result.ok() && remote != nullptr) AddIdentity(identified, *result);
  if (result.ok() && attached != nullptr) {
    ServerFigures figures = attached->Stop();
    sampler->AddTo(figures);
    result->server_process = std::move(figures);
  }
  return result;
}

// The spec's own mistakes, before anything is read, made or started.
Status CheckSpec(const RunSpec& spec) {
  const auto* folder = std::get_if<ServerFolderSourceSpec>(&spec.source);
  if (folder != nullptr && folder->server.command.empty()) {
    return InvalidArgumentError(
        "a catalog folder is read through a server: its ServerSpec::command is empty");
  }
  const auto* open = std::get_if<OpenSourceSpec>(&spec.source);
  if (open != nullptr && open->source == nullptr) {
    return InvalidArgumentError("OpenSourceSpec::source is null");
  }
  const auto* started = std::get_if<StartedServerTargetSpec>(&spec.target);
  if (started != nullptr && started->server.binary.empty() && started->server.command.empty()) {
    return InvalidArgumentError("a started server needs ServerSpec::binary (a warmup binary) or ::command");
  }
  const auto* open_target = std::get_if<OpenTargetSpec>(&spec.target);
  if (open_target != nullptr && !open_target->open) {
    return InvalidArgumentError("OpenTargetSpec::open is empty");
  }
  return OkStatus();
}

// RunLoad once the spec and its paths are checked, from a source it opens
// (not a catalog folder: RunThroughSourceServer reads that through a server).
StatusOr<RunResult> RunChecked(const RunSpec& spec, const RunHooks& hooks,
                               const std::vector<PathInUse>& in_use) {
  std::optional<SourceCache> source_cache;
  std::unique_ptr<CatalogSource> opened;
  const auto* open = std::get_if<OpenSourceSpec>(&spec.source);
  if (open == nullptr) {
    auto source = OpenSource(spec.source, &source_cache, spec.names);
    if (!source.ok()) return source.status();
    opened = std::move(source).value();
  }
  CatalogSource& source = open != nullptr ? *open->source : *opened;
  // The spec's mistakes before any work directory is touched or server started.
  if (auto s = CheckCopyOptions(source, spec.copy); !s.ok()) return s;
  const auto* started = std::get_if<StartedServerTargetSpec>(&spec.target);
  if (hooks.stop != nullptr && hooks.stop->requested() && started != nullptr) {
    return FailedPreconditionError("stopped before the server was started; nothing was run");
  }
  // The target after the source: a source that cannot be read leaves the
  // work directory untouched and starts no server.
  auto result = started != nullptr ? RunAgainstStartedServer(spec, *started, hooks, source, in_use)
                                   : RunAgainstTarget(spec, hooks, source, in_use);
  if (result.ok()) result->source_cache = source_cache;
  return result;
}

// RunLoad with a source server (SourceServer): the run reads the catalog
// over gRPC, and the server is stopped after it.
StatusOr<RunResult> RunThroughSourceServer(const RunSpec& spec, const ServerFolderSourceSpec& folder,
                                           const RunHooks& hooks, const std::vector<PathInUse>& in_use) {
  const std::string* target_work_dir = WorkDirOf(spec.target);
  const std::string work = !folder.work_dir.empty()     ? folder.work_dir
                           : target_work_dir != nullptr ? *target_work_dir + "-source"
                                                        : std::string(kDefaultSourceWorkDir);
  std::vector<PathInUse> server_in_use = in_use;
  if (target_work_dir != nullptr) server_in_use.push_back({spec.names.work_dir, *target_work_dir});
  auto server = SourceServer::Start(folder, spec.names, work, server_in_use, hooks.stop);
  if (!server.ok()) return server.status();
  RunSpec read = spec;
  LiveSourceSpec live;
  live.address = (*server)->address();
  live.catalog = (*server)->catalog();
  read.source = live;
  // The reader's figures apart from the writer's: its own sampler, its own field.
  ServerSampler sampler((*server)->process());
  RunHooks read_hooks = hooks;
  read_hooks.observers.push_back(&sampler);
  StatusOr<RunResult> result = RunChecked(read, read_hooks, in_use);
  ServerFigures figures = (*server)->Stop(!result.ok() || !result->abort_error.empty());
  // A read that failed because the reader died says so first: its gRPC
  // error alone ("Socket closed") would send the reader looking elsewhere.
  if (!result.ok()) {
    return Status(result.status().code(), (*server)->FailureMessage(result.status().message()));
  }
  if (!(*server)->DiedDuringRun().empty() && !result->abort_error.empty()) {
    result->abort_error = (*server)->FailureMessage(result->abort_error);
  }
  result->notes.push_back("the source: " + (*server)->Describe());
  sampler.AddTo(figures);
  result->source_server_process = std::move(figures);
  for (const auto& [key, value] : (*server)->Provenance()) result->config.dataset_provenance[key] = value;
  return result;
}

}  // namespace

StatusOr<RunResult> RunLoad(const RunSpec& spec, const RunHooks& hooks) {
  if (auto s = CheckSpec(spec); !s.ok()) return s;
  const std::vector<PathInUse> in_use = PathsInUse(spec);
  if (auto s = CheckBeforeRun(spec, in_use); !s.ok()) return s;
  if (const auto* folder = std::get_if<ServerFolderSourceSpec>(&spec.source)) {
    return RunThroughSourceServer(spec, *folder, hooks, in_use);
  }
  return RunChecked(spec, hooks, in_use);
}

}  // namespace warmup
