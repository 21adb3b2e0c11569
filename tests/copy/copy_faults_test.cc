// RunCopy when things go wrong on the read side, and the measurement contract
// checked from the outside: a source that fails mid-stream, a snapshot that
// ends early, a live catalog that changes while read, and timings whose parts
// are known lower bounds.
#include <grpcpp/grpcpp.h>

#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <thread>

#include "GrpcEvitaAPI.grpc.pb.h"
#include "GrpcEvitaSessionAPI.grpc.pb.h"
#include "codec/entity_mutations.h"
#include "codec/pb.h"
#include "common/snapshot_paths.h"
#include "common/status_matchers.h"
#include "common/temp_dir.h"
#include "server/test_server.h"
#include "warmup/copy_engine.h"
#include "warmup/generator.h"
#include "warmup/grpc_source.h"
#include "warmup/remote_target.h"
#include "warmup/report.h"
#include "warmup/run_result.h"
#include "warmup/snapshot.h"

namespace warmup {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

std::unique_ptr<CatalogSource> Tiny() { return std::move(OpenGeneratorSource({"tiny", 1.0, 1, ""})).value(); }

// Wraps a source: fails opening `fail_open`, or the `fail_at`-th Next of
// `fail_type`, and sleeps `read_delay` in every Next.
class FaultySource : public CatalogSource {
 public:
  explicit FaultySource(std::unique_ptr<CatalogSource> inner) : inner_(std::move(inner)) {}
  std::string fail_open;
  std::string fail_type;
  int fail_at = 0;
  std::chrono::microseconds read_delay{0};
  // Reads made on a thread other than the one that made the source (the
  // load's): a read-ahead thread's.
  std::atomic<int> reads_elsewhere{0};

  const CatalogSchema& schema() const override { return inner_->schema(); }
  const std::vector<CollectionInfo>& collections() const override { return inner_->collections(); }
  std::string Describe() const override { return "faulty " + inner_->Describe(); }
  std::string Fingerprint() const override { return inner_->Fingerprint(); }
  StatusOr<std::unique_ptr<EntityStream>> OpenCollection(const std::string& type) override {
    if (type == fail_open) return UnavailableError("cannot open " + type + ": disk gone");
    auto stream = inner_->OpenCollection(type);
    if (!stream.ok()) return stream.status();
    return std::unique_ptr<EntityStream>(new Stream(
        std::move(stream).value(), type == fail_type ? fail_at : 0, read_delay, owner_, &reads_elsewhere));
  }

 private:
  class Stream : public EntityStream {
   public:
    Stream(std::unique_ptr<EntityStream> inner, int fail_at, std::chrono::microseconds delay,
           std::thread::id owner, std::atomic<int>* reads_elsewhere)
        : inner_(std::move(inner)),
          fail_at_(fail_at),
          delay_(delay),
          owner_(owner),
          reads_elsewhere_(reads_elsewhere) {}
    StatusOr<bool> Next(Entity* entity) override {
      if (std::this_thread::get_id() != owner_) ++*reads_elsewhere_;
      if (delay_.count() > 0) std::this_thread::sleep_for(delay_);
      if (fail_at_ > 0 && ++reads_ == fail_at_) {
        return DataLossError("read " + std::to_string(reads_) + " failed");
      }
      return inner_->Next(entity);
    }

   private:
    std::unique_ptr<EntityStream> inner_;
    int fail_at_;
    std::chrono::microseconds delay_;
    std::thread::id owner_;
    std::atomic<int>* reads_elsewhere_;
    int reads_ = 0;
  };
  std::unique_ptr<CatalogSource> inner_;
  std::thread::id owner_ = std::this_thread::get_id();
};

// The null target with a fixed upsert time, a reported server time and
// request size, a rejection at the n-th upsert, and a count of drops.
class SlowTarget : public CatalogTarget {
 public:
  std::chrono::microseconds upsert_delay{0};
  int reject_at = 0;
  int drops = 0;
  std::string Describe() const override { return "slow test target"; }
  Status CreateCatalog(const CatalogSchema& schema) override { return inner_->CreateCatalog(schema); }
  Status Upsert(const Entity& entity, UpsertReceipt* receipt) override {
    if (upsert_delay.count() > 0) std::this_thread::sleep_for(upsert_delay);
    ++upserts_;
    Status s = upserts_ == reject_at ? InvalidArgumentError("no") : inner_->Upsert(entity, receipt);
    receipt->server_nanos = 1000 + upserts_;
    receipt->request_bytes = 100 + upserts_;
    return s;
  }
  Status GoLive() override { return inner_->GoLive(); }
  StatusOr<int64_t> Count(const std::string& type) override { return inner_->Count(type); }
  Status DropCatalog() override {
    ++drops;
    return inner_->DropCatalog();
  }

 private:
  std::unique_ptr<CatalogTarget> inner_ = MakeNullTarget();
  int upserts_ = 0;
};

int64_t CopiedOf(const RunResult& r, const std::string& type) {
  for (const auto& c : r.collections) {
    if (c.entity_type == type) return c.copied;
  }
  return -1;
}

TEST_CASE("a source failing mid-stream aborts the load through RunCopy: exit 1, what was copied, no goLive") {
  FaultySource source(Tiny());
  source.fail_type = "Category";
  source.fail_at = 7;
  SlowTarget target;
  auto result = RunCopy(source, target, {});
  REQUIRE_OK(result);
  CHECK(result->ExitCode() == 1);
  CHECK(result->abort_error == "DATA_LOSS: read 7 failed");
  CHECK(result->golive == GoLiveOutcome::kNotAttempted);
  CHECK(result->verification == Verification::kNotReached);
  CHECK(CopiedOf(*result, "Brand") == 20);
  CHECK(CopiedOf(*result, "Category") == 6);
  // Nothing was copied after the failing collection, and what was not reached is listed as expected.
  REQUIRE(result->collections.size() == 5);
  for (size_t i = 2; i < result->collections.size(); ++i) {
    CHECK_FALSE(result->collections[i].reached);
    CHECK(result->collections[i].copied == 0);
    CHECK(result->collections[i].expected_count > 0);
  }
  CHECK(result->expected() == 300);  // regression: it counted only the collections reached
  CHECK(target.drops == 1);
  CHECK(result->target_drop == TargetDrop::kDropped);
  const std::string report = RenderTextReport(*result);
  CHECK(report.find("ABORTED (the source failed): DATA_LOSS: read 7 failed") != std::string::npos);
  CHECK(result->abort_reason == AbortReason::kSourceFailed);
  CHECK(report.find("FAILED") != std::string::npos);
}

TEST_CASE("a collection that cannot be opened aborts the load, naming it") {
  FaultySource source(Tiny());
  source.fail_open = "Parameter";
  SlowTarget target;
  auto result = RunCopy(source, target, {});
  REQUIRE_OK(result);
  CHECK(result->ExitCode() == 1);
  CHECK(result->abort_error == "UNAVAILABLE: cannot open Parameter: disk gone");
  CHECK(CopiedOf(*result, "Category") > 0);
  CHECK(CopiedOf(*result, "Parameter") == 0);
  CHECK(CopiedOf(*result, "Product") == 0);
  CHECK_FALSE(result->collections.back().reached);
}

TEST_CASE("a snapshot that ends early or lies about its count aborts the load through RunCopy") {
  testing::TempDir dir;
  auto path = GenerateSnapshot({"tiny", 1.0, 2, ""}, dir / "pristine", {});
  REQUIRE_OK(path);
  const std::string product = testing::ProductFile(*path);
  REQUIRE_FALSE(product.empty());
  SUBCASE("truncated: refused before anything is written") {
    fs::resize_file(product, fs::file_size(product) * 2 / 3);
    auto source = OpenSnapshotSource(*path);
    CHECK(source.status().code() == StatusCode::kDataLoss);
    CHECK(source.status().message().find(product + ": ") == 0);
  }
  SUBCASE("truncated behind the manifest's back: the load aborts at the damaged record") {
    testing::TruncateBehindTheManifest(*path, product, fs::file_size(product) * 2 / 3);
    auto source = OpenSnapshotSource(*path);
    REQUIRE_OK(source);
    SlowTarget target;
    auto result = RunCopy(**source, target, {});
    REQUIRE_OK(result);
    CHECK(result->ExitCode() == 1);
    CHECK(result->abort_error.find("DATA_LOSS: " + product + ": offset ") == 0);
    CHECK(result->abort_error.find("truncated") != std::string::npos);
    CHECK(CopiedOf(*result, "Product") > 0);
    CHECK(CopiedOf(*result, "Product") < 200);
  }
  SUBCASE("the manifest promises one more entity than the file holds") {
    std::ifstream in(*path + "/manifest.json");
    std::stringstream text;
    text << in.rdbuf();
    std::string manifest = text.str();
    const size_t at = manifest.find("\"count\": 200");
    REQUIRE(at != std::string::npos);
    manifest.replace(at, 12, "\"count\": 201");
    std::ofstream(*path + "/manifest.json", std::ios::trunc) << manifest;
    auto source = OpenSnapshotSource(*path);
    REQUIRE_OK(source);
    SlowTarget target;
    auto result = RunCopy(**source, target, {});
    REQUIRE_OK(result);
    CHECK(result->ExitCode() == 1);
    CHECK(result->abort_error.find("holds 200 entities, the manifest says 201") != std::string::npos);
    CHECK(result->golive == GoLiveOutcome::kNotAttempted);
  }
}

TEST_CASE("a live catalog that gains an entity while read: DATA_LOSS through RunCopy, exit 1") {
  testing::TempDir dir;
  auto server = testing::StartServer(dir / "served");
  const std::string address = testing::Address(*server);
  auto tiny = Tiny();
  {
    auto target = MakeRemoteTarget(address);
    CopyOptions options;
    options.target_catalog = "moving";
    REQUIRE(RunCopy(*tiny, **target, options)->ExitCode() == 0);
  }
  // The source has read schema and counts; now a writer adds a Brand.
  GrpcSourceOptions small_pages;
  small_pages.page_size = 7;
  auto live = OpenGrpcSource(address, "moving", small_pages);
  REQUIRE_OK(live);
  {
    const std::string writer = testing::OpenSession(address, "moving", /*read_write=*/true);
    auto session = pb::EvitaSessionService::NewStub(
        ::grpc::CreateChannel(address, ::grpc::InsecureChannelCredentials()));
    Entity brand;
    auto stream = tiny->OpenCollection("Brand");
    REQUIRE(*(*stream)->Next(&brand));
    brand.primary_key = 999;
    brand.attributes.global["code"] = Value::String("late-brand");
    auto mutation = codec::EntityToUpsertMutation(brand, *tiny->schema().FindEntity("Brand"),
                                                  codec::Existence::kMustNotExist);
    REQUIRE_OK(mutation);
    pb::GrpcUpsertEntityRequest request;
    *request.mutable_entitymutation() = *mutation;
    pb::GrpcUpsertEntityResponse response;
    ::grpc::ClientContext upsert_context;
    upsert_context.AddMetadata("sessionid", writer);
    const ::grpc::Status upserted = session->UpsertEntity(&upsert_context, request, &response);
    REQUIRE_MESSAGE(upserted.ok(), upserted.error_message());
  }
  SlowTarget target;
  auto result = RunCopy(**live, target, {});
  REQUIRE_OK(result);
  CHECK(result->ExitCode() == 1);
  CHECK(result->abort_error ==
        "DATA_LOSS: collection Brand: the server returned 21 entities, it counted 20 (changed while read?)");
  CHECK(result->golive == GoLiveOutcome::kNotAttempted);
}

// One row of a per-entity CSV: when its read started, and how long the read
// and the upsert took (ns).
struct TimedRow {
  int64_t start_ns = 0;
  int64_t read_ns = 0;
  int64_t upsert_ns = 0;
};

std::vector<TimedRow> ReadTimedRows(const fs::path& csv) {
  std::ifstream in(csv);
  std::string line;
  std::getline(in, line);  // the header
  std::vector<TimedRow> rows;
  while (std::getline(in, line)) {
    std::vector<std::string> f;
    std::stringstream fields(line);
    for (std::string cell; std::getline(fields, cell, ',');) f.push_back(cell);
    REQUIRE(f.size() == 9);
    rows.push_back({std::stoll(f[3]), std::stoll(f[4]), std::stoll(f[5])});
  }
  return rows;
}

// A copy of 10 Brands and 10 Categories from a source that sleeps 3 ms per
// read into a target that sleeps 2 ms per upsert: each figure has a known
// floor, and reads and upserts cannot be confused. `adjust` sets the options.
struct TimedCopy {
  RunResult result;
  std::vector<TimedRow> rows;  // the per-entity CSV's
  int reads_elsewhere = 0;     // reads made off the load's thread
};

TimedCopy RunTimedCopy(const std::function<void(CopyOptions&)>& adjust) {
  FaultySource source(Tiny());
  source.read_delay = 3ms;
  SlowTarget target;
  target.upsert_delay = 2ms;
  CopyOptions options;
  options.collections = {"Brand", "Category"};
  options.max_per_collection = 10;
  adjust(options);
  testing::TempDir dir;
  auto csv = MakePerEntityCsvWriter(dir / "rows.csv");
  REQUIRE_OK(csv);
  options.observers = {csv->get()};
  auto result = RunCopy(source, target, options);
  REQUIRE_OK(result);
  REQUIRE(result->ExitCode() == 0);
  return {std::move(result).value(), ReadTimedRows(dir / "rows.csv"), source.reads_elsewhere.load()};
}

TEST_CASE("timings: each part is measured, lies inside the wall-clock, and is attributed to its side") {
  // Read inline, each read is on the load's thread and counts whole.
  const TimedCopy copy = RunTimedCopy([](CopyOptions& options) { options.read_ahead = false; });
  const RunResult& r = copy.result;
  REQUIRE(r.upsert.count == 20);
  CHECK(r.upsert.total_seconds >= 20 * 0.002);
  CHECK(r.source_read_seconds >= 20 * 0.003);
  CHECK(r.upsert.median_us >= 2000);
  CHECK(r.loop_overhead_seconds >= 0);
  CHECK(r.load_wall_seconds >= r.source_read_seconds + r.upsert.total_seconds);
  for (const auto& c : r.collections) {
    CAPTURE(c.entity_type);
    CHECK(c.read_seconds >= 10 * 0.003);
    CHECK(c.upsert.total_seconds >= 10 * 0.002);
    CHECK(c.wall_seconds >= c.read_seconds + c.upsert.total_seconds);
  }
  // Row by row: read_ns and upsert_ns each have their own floor, and each
  // read starts after the previous upsert ended.
  const std::vector<TimedRow>& rows = copy.rows;
  CHECK(rows.size() == 20);
  int64_t previous_end = 0;
  for (const TimedRow& row : rows) {
    CHECK(row.read_ns >= 3'000'000);
    CHECK(row.upsert_ns >= 2'000'000);
    CHECK(row.start_ns >= previous_end);
    previous_end = row.start_ns + row.read_ns + row.upsert_ns;
  }
  CHECK(previous_end <= static_cast<int64_t>(r.load_wall_seconds * 1e9) + 1);
  CHECK(copy.reads_elsewhere == 0);  // inline: every read on the load's thread
}

TEST_CASE("timings read ahead: decoding overlaps the upserts, and source read is the load's wait") {
  // 3 ms per read on the reader's thread, 2 ms per upsert: the load waits
  // about 1 ms per entity, so only floors that hold in any schedule are
  // checked: the load cannot end before the reader read everything, and the
  // parts still add up to the wall-clock.
  const TimedCopy copy =
      RunTimedCopy([](CopyOptions& options) { REQUIRE(options.read_ahead); });  // the default
  const RunResult& r = copy.result;
  CHECK(r.config.source_read_ahead);
  CHECK(copy.reads_elsewhere >= 20);  // every read on the reader's thread
  REQUIRE(r.upsert.count == 20);
  CHECK(r.upsert.total_seconds >= 20 * 0.002);
  CHECK(r.load_wall_seconds >= 20 * 0.003);
  CHECK(r.loop_overhead_seconds >= 0);
  CHECK(r.load_wall_seconds >= r.source_read_seconds + r.upsert.total_seconds);
  for (const auto& c : r.collections) {
    CAPTURE(c.entity_type);
    CHECK(c.copied == 10);
    CHECK(c.wall_seconds >= 10 * 0.003);
  }
  const std::vector<TimedRow>& rows = copy.rows;
  CHECK(rows.size() == 20);
  int64_t previous_end = 0;
  for (const TimedRow& row : rows) {
    CHECK(row.read_ns >= 0);
    CHECK(row.upsert_ns >= 2'000'000);
    CHECK(row.start_ns >= previous_end);
    previous_end = row.start_ns + row.read_ns + row.upsert_ns;
  }
}

TEST_CASE("the per-entity CSV: server time and request size per row, and a rejected upsert marked rejected") {
  testing::TempDir dir;
  SlowTarget target;
  target.reject_at = 5;
  CopyOptions options;
  auto csv = MakePerEntityCsvWriter(dir / "rows.csv");
  REQUIRE_OK(csv);
  options.observers = {csv->get()};
  auto source = Tiny();
  auto result = RunCopy(*source, target, options);
  REQUIRE_OK(result);
  CHECK(result->ExitCode() == 1);
  std::ifstream in(dir / "rows.csv");
  std::string line;
  std::getline(in, line);
  std::vector<std::vector<std::string>> rows;
  while (std::getline(in, line)) {
    std::vector<std::string> f;
    std::stringstream fields(line + ",");  // a trailing empty cell survives getline
    for (std::string cell; std::getline(fields, cell, ',');) f.push_back(cell);
    rows.push_back(f);
  }
  REQUIRE(rows.size() == 5);
  for (int i = 0; i < 4; ++i) {
    CAPTURE(i);
    CHECK(rows[i][0] == "Brand");
    CHECK(rows[i][1] == std::to_string(i + 1));
    CHECK(rows[i][2] == std::to_string(i));
    CHECK(rows[i][6] == std::to_string(1000 + i + 1));  // server_ns as the target reported it
    CHECK(rows[i][7] == std::to_string(100 + i + 1));   // request_bytes
    CHECK(rows[i][8] == "ok");
  }
  CHECK(rows[4][6].empty());  // a rejected upsert has no server time
  CHECK(rows[4][7] == "105");
  CHECK(rows[4][8] == "rejected");
  REQUIRE(result->server.has_value());
  CHECK(result->server->count == 4);
  CHECK(result->server->max_us == doctest::Approx(1.004));
}

}  // namespace
}  // namespace warmup
