// RunLoad in-process: a run from its spec, as a library user makes one.
#include "warmup/run.h"

#include <doctest/doctest.h>

#include <algorithm>

#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <string>

#include "common/temp_dir.h"
#include "warmup/catalog_target.h"
#include "warmup/generator.h"
#include "warmup/report.h"
#include "warmup/run_result.h"
#include "warmup/snapshot.h"

namespace warmup {
namespace {

namespace fs = std::filesystem;
using testing::TempDir;

// The tiny generated catalog (300 entities) as a snapshot under DIR/pristine.
std::string TinySnapshot(const TempDir& dir) {
  GeneratorOptions options;
  options.profile = "tiny";
  auto source = OpenGeneratorSource(options);
  REQUIRE(source.ok());
  auto written = WriteSnapshot(**source, dir / "pristine", {});
  REQUIRE_MESSAGE(written.ok(), written.status().ToString());
  return dir / "pristine";
}

SnapshotSourceSpec Snapshot(const fs::path& dir) {
  SnapshotSourceSpec spec;
  spec.dir = dir;
  return spec;
}

EmbeddedTargetSpec Embedded(const fs::path& work_dir) {
  EmbeddedTargetSpec spec;
  spec.work_dir = work_dir;
  return spec;
}

// A run of the tiny snapshot into `kind`, its work directory DIR/work; a
// started server is this build's serve.
RunSpec TinyRun(const TempDir& dir, TargetKind kind) {
  RunSpec spec;
  spec.source = Snapshot(TinySnapshot(dir));
  spec.target = DefaultTargetSpec(kind);
  if (auto* embedded = std::get_if<EmbeddedTargetSpec>(&spec.target)) embedded->work_dir = dir / "work";
  if (auto* started = std::get_if<StartedServerTargetSpec>(&spec.target)) {
    started->work_dir = dir / "work";
    started->server.binary = WARMUP_CLI_PATH;
  }
  return spec;
}

TEST_CASE(
    "target specs: each kind's spec says its kind, and only the targets warmup prepares have a work "
    "directory") {
  for (TargetKind kind : {TargetKind::kEmbedded, TargetKind::kRemote, TargetKind::kNull,
                          TargetKind::kStartedServer, TargetKind::kOpen}) {
    CAPTURE(TargetKindName(kind));
    CHECK(KindOf(DefaultTargetSpec(kind)) == kind);
  }
  CHECK(KindOf(RemoteTargetSpec{}) == TargetKind::kRemote);
  CHECK(KindOf(StartedServerTargetSpec{}) == TargetKind::kStartedServer);
  const TargetSpec embedded = Embedded("/e");
  StartedServerTargetSpec started;
  started.work_dir = "/s";
  REQUIRE(WorkDirOf(embedded) != nullptr);
  CHECK(*WorkDirOf(embedded) == "/e");
  REQUIRE(WorkDirOf(started) != nullptr);
  CHECK(*WorkDirOf(started) == "/s");
  CHECK(WorkDirOf(RemoteTargetSpec{}) == nullptr);
  CHECK(WorkDirOf(NullTargetSpec{}) == nullptr);
  CHECK(WorkDirOf(OpenTargetSpec{}) == nullptr);
}

TEST_CASE("target kinds: each name parses back to its kind, and an unknown one names the kinds there are") {
  for (TargetKind kind : {TargetKind::kEmbedded, TargetKind::kRemote, TargetKind::kNull,
                          TargetKind::kStartedServer, TargetKind::kOpen}) {
    auto parsed = ParseTargetKind(TargetKindName(kind));
    REQUIRE(parsed.ok());
    CHECK(*parsed == kind);
  }
  CHECK(std::string(TargetKindName(TargetKind::kStartedServer)) == "started-server");
  auto unknown = ParseTargetKind("cloud");
  REQUIRE_FALSE(unknown.ok());
  CHECK(unknown.status().code() == StatusCode::kInvalidArgument);
  CHECK(unknown.status().message() ==
        "no target kind 'cloud' (there are embedded, remote, null, started-server, open)");
}

TEST_CASE(
    "RunLoad: an embedded run from a snapshot is verified, with its configuration, page cache and series") {
  TempDir dir;
  RunSpec spec = TinyRun(dir, TargetKind::kEmbedded);
  auto result = RunLoad(spec);
  REQUIRE_MESSAGE(result.ok(), result.status().ToString());
  CHECK(result->ExitCode() == 0);
  CHECK(result->copied() == 300);
  CHECK(result->config.target_kind == "embedded");
  CHECK(result->config.records ==
        TargetRecords(
            RecordStorage{RecordCompression::kNone, RecordWrites::kBackground}));  // EngineOptions' default
  REQUIRE(result->source_cache.has_value());
  CHECK(result->source_cache->action == "none");
  CHECK(result->time_series.has_value());
  CHECK_FALSE(result->server_process.has_value());  // no server of its own
  CHECK(fs::is_regular_file(dir / "work/.warmup-workdir"));
}

TEST_CASE("RunLoad: a source the caller opened is read as it is, with no page cache to measure") {
  TempDir dir;
  GeneratorOptions options;
  options.profile = "tiny";
  auto generator = OpenGeneratorSource(options);
  REQUIRE(generator.ok());
  RunSpec spec;
  spec.source = OpenSourceSpec{generator->get()};
  spec.target = NullTargetSpec{};
  auto result = RunLoad(spec);
  REQUIRE_MESSAGE(result.ok(), result.status().ToString());
  CHECK(result->copied() == 300);
  CHECK(result->config.target_kind == "null");
  CHECK(std::holds_alternative<RecordsNotStored>(result->config.records));
  CHECK_FALSE(result->source_cache.has_value());
  CHECK_FALSE(result->target_data.has_value());  // no data directory of warmup's to look into
}

// A target of a caller's own: it keeps the primary keys it was given, per
// collection, and names its kind.
class KeysTarget : public CatalogTarget {
 public:
  std::string Describe() const override { return "keys in memory"; }
  std::string Kind() const override { return "keys"; }
  Status CreateCatalog(const CatalogSchema&) override { return OkStatus(); }
  Status Upsert(const Entity& entity, UpsertReceipt*) override {
    keys_[entity.type].insert(entity.primary_key);
    return OkStatus();
  }
  Status GoLive() override { return OkStatus(); }
  StatusOr<int64_t> Count(const std::string& type) override {
    return static_cast<int64_t>(keys_[type].size());
  }
  Status DropCatalog() override {
    keys_.clear();
    return OkStatus();
  }

 private:
  std::map<std::string, std::set<int32_t>> keys_;
};

TEST_CASE(
    "RunLoad: a target the caller opens is opened by the run, verified by its counts, named by its Kind") {
  TempDir dir;
  RunSpec spec = TinyRun(dir, TargetKind::kEmbedded);
  int opened = 0;
  spec.target = OpenTargetSpec{[&]() -> StatusOr<std::unique_ptr<CatalogTarget>> {
    ++opened;
    return std::unique_ptr<CatalogTarget>(std::make_unique<KeysTarget>());
  }};
  auto result = RunLoad(spec);
  REQUIRE_MESSAGE(result.ok(), result.status().ToString());
  CHECK(opened == 1);
  CHECK(result->ExitCode() == 0);
  CHECK(result->verification == Verification::kVerified);  // the tiny catalog's 300 keys, counted back
  CHECK(result->copied() == 300);
  CHECK(result->target == "keys in memory");
  CHECK(result->config.target_kind == "keys");
  // How it stores is its own: the report does not guess.
  CHECK(std::holds_alternative<RecordsUnknown>(result->config.records));
  CHECK_FALSE(result->config.storage.has_value());
  CHECK_FALSE(result->target_data.has_value());
  // Regression: the text report gave a remote server's reason for not knowing.
  const std::string text = RenderTextReport(*result);
  CHECK_MESSAGE(text.find("target kind keys, records compressed: unknown (the target does not say)") !=
                    std::string::npos,
                text);
}

TEST_CASE("text report: unknown record storage is said with its reason, for each reason") {
  RunResult r;
  r.config.target_kind = "remote";
  CHECK(RenderTextReport(r).find("records compressed: unknown (a server warmup did not start)") !=
        std::string::npos);
  // Regression: a server warmup started from a command was said not to be started by warmup.
  r.config.server_command = "java -jar evita-server.jar";
  CHECK(RenderTextReport(r).find("records compressed: unknown (the server command sets its own storage)") !=
        std::string::npos);
  r.config = {};
  r.config.target_kind = "keys";
  CHECK(RenderTextReport(r).find("records compressed: unknown (the target does not say)") !=
        std::string::npos);
  r.config.records = RecordsNotStored{};
  CHECK(RenderTextReport(r).find("records compressed: n/a") != std::string::npos);
}

TEST_CASE("RunLoad: an open target is opened only after the run's checks pass, and must be openable") {
  TempDir dir;
  RunSpec spec = TinyRun(dir, TargetKind::kEmbedded);
  bool opened = false;
  spec.target = OpenTargetSpec{[&]() -> StatusOr<std::unique_ptr<CatalogTarget>> {
    opened = true;
    return std::unique_ptr<CatalogTarget>(std::make_unique<KeysTarget>());
  }};
  spec.outputs = {{"the report", dir / "no-such-dir/run.json"}};
  CHECK_FALSE(RunLoad(spec).ok());
  CHECK_FALSE(opened);

  spec.outputs.clear();
  spec.target = OpenTargetSpec{};
  auto empty = RunLoad(spec);
  CHECK(empty.status().code() == StatusCode::kInvalidArgument);
  CHECK(empty.status().message() == "OpenTargetSpec::open is empty");

  spec.target = OpenTargetSpec{
      []() -> StatusOr<std::unique_ptr<CatalogTarget>> { return std::unique_ptr<CatalogTarget>(); }};
  auto null = RunLoad(spec);
  CHECK(null.status().code() == StatusCode::kInvalidArgument);
  CHECK(null.status().message() == "OpenTargetSpec::open returned no target");

  spec.target = OpenTargetSpec{
      []() -> StatusOr<std::unique_ptr<CatalogTarget>> { return UnavailableError("the bucket is gone"); }};
  auto failed = RunLoad(spec);
  CHECK(failed.status().code() == StatusCode::kUnavailable);
  CHECK(failed.status().message().find("the bucket is gone") != std::string::npos);
}

TEST_CASE("RunLoad: an embedded run measures its work directory when goLive starts and ends") {
  TempDir dir;
  auto result = RunLoad(TinyRun(dir, TargetKind::kEmbedded));
  REQUIRE_MESSAGE(result.ok(), result.status().ToString());
  CHECK(result->ExitCode() == 0);
  REQUIRE(result->target_data.has_value());
  CHECK(result->target_data->dir == dir / "work");
  CHECK(result->target_data->bytes_at_golive_start > 0);  // the records written during the load
  CHECK(result->target_data->bytes_at_golive_end >
        result->target_data->bytes_at_golive_start);  // and the indexes
}

TEST_CASE(
    "RunLoad: an output inside the work directory is refused before the source is read or the directory "
    "made") {
  TempDir dir;
  RunSpec spec;
  spec.source = Snapshot(dir / "no-snapshot-here");  // never opened: the check comes first
  spec.target = Embedded(dir / "work");
  spec.outputs = {{"--report-json", dir / "work/run.json"}};
  auto result = RunLoad(spec);
  REQUIRE_FALSE(result.ok());
  CHECK(result.status().code() == StatusCode::kFailedPrecondition);
  CHECK_MESSAGE(result.status().message().find("--report-json") != std::string::npos,
                result.status().ToString());
  CHECK_FALSE(fs::exists(dir / "work"));
}

TEST_CASE("RunLoad: an output that cannot be written fails the run before anything runs") {
  TempDir dir;
  RunSpec spec = TinyRun(dir, TargetKind::kEmbedded);
  spec.outputs = {{"--html", dir / "no-such-dir/run.html"}};
  auto result = RunLoad(spec);
  REQUIRE_FALSE(result.ok());
  CHECK(result.status().message() == "--html " + dir / "no-such-dir/run.html" + ": the directory " +
                                         dir / "no-such-dir" + " does not exist; nothing was run");
  CHECK_FALSE(fs::exists(dir / "work"));
}

TEST_CASE(
    "RunLoad: a stop requested before the run ends it as interrupted after the first upsert, the target "
    "dropped") {
  TempDir dir;
  RunSpec spec = TinyRun(dir, TargetKind::kEmbedded);
  StopRequest stop;
  stop.Request(0);
  RunHooks hooks;
  hooks.stop = &stop;
  auto result = RunLoad(spec, hooks);
  REQUIRE_MESSAGE(result.ok(), result.status().ToString());
  CHECK(result->abort_reason == AbortReason::kInterrupted);
  CHECK(result->ExitCode() == 1);
  CHECK(result->copied() < 300);
  CHECK(result->target_drop == TargetDrop::kDropped);
}

TEST_CASE("RunLoad: a started server is run, measured and stopped, its figures and build in the result") {
  TempDir dir;
  RunSpec spec = TinyRun(dir, TargetKind::kStartedServer);
  std::vector<std::string> notices;
  RunHooks hooks;
  hooks.notice = [&](const std::string& line) { notices.push_back(line); };
  auto result = RunLoad(spec, hooks);
  REQUIRE_MESSAGE(result.ok(), result.status().ToString());
  CHECK(result->ExitCode() == 0);
  CHECK(result->copied() == 300);
  CHECK(result->config.target_kind == "remote");  // the protocol it spoke
  CHECK(result->config.server_binary == WARMUP_CLI_PATH);
  REQUIRE(result->server_process.has_value());
  CHECK(result->server_process->ended == "exited 0");
  CHECK(result->server_process->data_dir == dir / "work/data");
  CHECK(result->server_process->data_bytes > 0);
  // It ended by itself after SIGTERM, so within the grace period.
  CHECK(result->server_process->stop_seconds > 0);
  CHECK(result->server_process->stop_seconds <
        std::get<StartedServerTargetSpec>(spec.target).server.stop_grace_seconds);
  // goLive made the catalog durable in the server's data directory.
  REQUIRE(result->target_data.has_value());
  CHECK(result->target_data->dir == dir / "work/data");
  CHECK(result->target_data->bytes_at_golive_end > result->target_data->bytes_at_golive_start);
  CHECK(result->target_data->bytes_at_golive_end <= result->server_process->data_bytes);
  CHECK(notices.empty());  // nothing went wrong, so nothing to say
  // The work directory lists what warmup made there, so the next run clears it.
  std::ifstream marker(dir / "work/.warmup-workdir");
  std::set<std::string> lines;
  for (std::string line; std::getline(marker, line);) lines.insert(line);
  CHECK(lines.count("created: data") == 1);
}

TEST_CASE(
    "RunLoad: --records-inline reaches the embedded engine and a started serve, and the report says so") {
  TempDir dir;
  RunSpec embedded = TinyRun(dir, TargetKind::kEmbedded);
  std::get<EmbeddedTargetSpec>(embedded.target).records_inline = true;
  auto inline_run = RunLoad(embedded);
  REQUIRE_MESSAGE(inline_run.ok(), inline_run.status().ToString());
  CHECK(inline_run->ExitCode() == 0);
  CHECK(RecordWritesWord(inline_run->config.records) == "inline");
  // Only a run whose upserts left the record writes out carries the caveat.
  auto background_caveat = [](const RunResult& r) {
    const auto caveats = RunCaveats(r);
    return std::count_if(caveats.begin(), caveats.end(), [](const std::string& c) {
      return c.rfind("records written in the background:", 0) == 0;
    });
  };
  CHECK(background_caveat(*inline_run) == 0);
  embedded.target = Embedded(dir / "background");
  auto background_run = RunLoad(embedded);
  REQUIRE_MESSAGE(background_run.ok(), background_run.status().ToString());
  CHECK(RecordWritesWord(background_run->config.records) == "background");
  CHECK(background_caveat(*background_run) == 1);
  RunSpec served = embedded;  // the same snapshot
  StartedServerTargetSpec started;
  started.server.binary = WARMUP_CLI_PATH;
  started.work_dir = dir / "served";
  started.records_inline = true;
  served.target = started;
  auto served_run = RunLoad(served);
  REQUIRE_MESSAGE(served_run.ok(), served_run.status().ToString());
  CHECK(RecordWritesWord(served_run->config.records) == "inline");
  // The serve it started was told: its start-up line says how it writes.
  REQUIRE(served_run->server_process.has_value());
  CHECK_MESSAGE(served_run->server_process->header.find(", records inline") != std::string::npos,
                served_run->server_process->header);
}

TEST_CASE("RunLoad: a started server needs a binary or a command, and OpenTarget cannot open one") {
  TempDir dir;
  RunSpec spec = TinyRun(dir, TargetKind::kStartedServer);
  std::get<StartedServerTargetSpec>(spec.target).server.binary.clear();
  auto result = RunLoad(spec);
  REQUIRE_FALSE(result.ok());
  CHECK(result.status().code() == StatusCode::kInvalidArgument);
  CHECK(result.status().message().find("ServerSpec::binary") != std::string::npos);
  CHECK(OpenTarget(StartedServerTargetSpec{}).status().code() == StatusCode::kInvalidArgument);
}

TEST_CASE(
    "RunLoad: a catalog folder inside the target's work directory is refused before its server is started") {
  TempDir dir;
  fs::create_directories(dir / "work/storage/senesi");
  ServerFolderSourceSpec folder;
  folder.folder = dir / "work/storage";
  folder.server.command = "exit 1";  // never run: the check comes first
  folder.work_dir = dir / "source";
  RunSpec spec;
  spec.source = folder;
  spec.target = Embedded(dir / "work");
  auto result = RunLoad(spec);
  REQUIRE_FALSE(result.ok());
  CHECK(result.status().code() == StatusCode::kFailedPrecondition);
  CHECK_MESSAGE(result.status().message().find("the source directory " + (dir / "work/storage") +
                                               " lies inside the work directory") != std::string::npos,
                result.status().ToString());
  CHECK_FALSE(fs::exists(dir / "source"));
  // Without a command there is no server to read the folder through.
  std::get<ServerFolderSourceSpec>(spec.source).server.command.clear();
  auto no_command = RunLoad(spec);
  REQUIRE_FALSE(no_command.ok());
  CHECK(no_command.status().code() == StatusCode::kInvalidArgument);
}

TEST_CASE(
    "regression: a catalog folder's server was started before the target's spec was checked, now a target "
    "that cannot be made is refused first") {
  TempDir dir;
  fs::create_directories(dir / "storage/senesi");
  ServerFolderSourceSpec folder;
  folder.folder = dir / "storage";
  folder.server.command = "exit 1";  // never run: the spec is refused first
  folder.work_dir = dir / "source";
  RunSpec spec;
  spec.source = folder;
  StartedServerTargetSpec no_binary;
  no_binary.work_dir = dir / "work";
  spec.target = no_binary;
  auto started = RunLoad(spec);
  CHECK(started.status().code() == StatusCode::kInvalidArgument);
  CHECK(started.status().message() ==
        "a started server needs ServerSpec::binary (a warmup binary) or ::command");
  spec.target = OpenTargetSpec{};
  auto open = RunLoad(spec);
  CHECK(open.status().code() == StatusCode::kInvalidArgument);
  CHECK(open.status().message() == "OpenTargetSpec::open is empty");
  CHECK_FALSE(fs::exists(dir / "source"));  // no copy of the folder was made
  CHECK_FALSE(fs::exists(dir / "work"));
}

TEST_CASE(
    "regression: an unknown --collections name was found only after the work directory was wiped and the "
    "server "
    "started, and exited 1: now kInvalidArgument before anything is prepared") {
  TempDir dir;
  RunSpec spec = TinyRun(dir, TargetKind::kStartedServer);
  spec.copy.collections = {"Brnad"};
  auto result = RunLoad(spec);
  REQUIRE_FALSE(result.ok());
  CHECK(result.status().code() == StatusCode::kInvalidArgument);
  CHECK_MESSAGE(result.status().message().rfind("unknown collection 'Brnad' (the source has: ", 0) == 0,
                result.status().ToString());
  CHECK_FALSE(fs::exists(dir / "work"));
}

TEST_CASE("RunLoad: a stop requested before a started server starts starts nothing") {
  TempDir dir;
  RunSpec spec = TinyRun(dir, TargetKind::kStartedServer);
  StopRequest stop;
  stop.Request(2);
  RunHooks hooks;
  hooks.stop = &stop;
  auto result = RunLoad(spec, hooks);
  REQUIRE_FALSE(result.ok());
  CHECK(result.status().code() == StatusCode::kFailedPrecondition);
  CHECK_FALSE(fs::exists(dir / "work"));
}

}  // namespace
}  // namespace warmup
