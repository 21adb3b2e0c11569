#include "warmup/copy_engine.h"

#include <unistd.h>

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <vector>

#include "common/status_matchers.h"
#include "common/temp_dir.h"
#include "copy/verify_content.h"
#include "warmup/embedded_target.h"
#include "warmup/generator.h"
#include "warmup/report.h"
#include "warmup/run_observer.h"
#include "warmup/run_result.h"
#include "warmup/snapshot.h"

namespace warmup {
namespace {

// A target that behaves like the null target except where a test says otherwise.
class ScriptedTarget : public CatalogTarget {
 public:
  int drop_every = 0;  // silently lose every n-th upsert
  int reject_at = 0;   // reject the n-th upsert with an error
  int lose_at = 0;     // the n-th upsert and every later one fail with lose_with (a lost server)
  Status lose_with = UnavailableError("connection refused");
  bool fail_drop = false;    // DropCatalog() fails
  bool fail_count = false;   // Count() answers UNAVAILABLE
  bool fail_golive = false;  // GoLive() fails client-side
  int drops = 0;

  std::string Describe() const override { return "scripted test target"; }
  Status CreateCatalog(const CatalogSchema& schema) override {
    created = schema.name;
    return inner_->CreateCatalog(schema);
  }
  Status Upsert(const Entity& entity, UpsertReceipt* receipt) override {
    ++upserts_;
    if (reject_at > 0 && upserts_ == reject_at) return InvalidArgumentError("attribute 'code' is unique");
    if (lose_at > 0 && upserts_ >= lose_at) return lose_with;
    if (drop_every > 0 && upserts_ % drop_every == 0) return OkStatus();
    return inner_->Upsert(entity, receipt);
  }
  Status GoLive() override {
    return fail_golive ? Status(StatusCode::kDeadlineExceeded, "deadline exceeded after 15 s") : OkStatus();
  }
  StatusOr<int64_t> Count(const std::string& type) override {
    if (fail_count) return UnavailableError("session terminated");
    return inner_->Count(type);
  }
  Status DropCatalog() override {
    ++drops;
    if (fail_drop) return UnavailableError("connection refused");
    return inner_->DropCatalog();
  }
  std::string created;

 private:
  std::unique_ptr<CatalogTarget> inner_ = MakeNullTarget();
  int upserts_ = 0;
};

std::unique_ptr<CatalogSource> Tiny() { return std::move(OpenGeneratorSource({"tiny", 1.0, 1, ""})).value(); }

// Options with one setting changed from the defaults.
template <typename Edit>
CopyOptions With(Edit edit) {
  CopyOptions options;
  edit(options);
  return options;
}

RunResult Run(CatalogTarget& target, const CopyOptions& options = {}) {
  auto source = Tiny();
  auto result = RunCopy(*source, target, options);
  REQUIRE_MESSAGE(result.ok(), result.status().ToString());
  return *result;
}

TEST_CASE("a copy of tiny into a counting target is complete, verified, and its figures add up") {
  ScriptedTarget target;
  const RunResult r = Run(target, With([](CopyOptions& o) { o.run_label = "t1"; }));
  CHECK(r.ExitCode() == 0);
  CHECK(r.verification == Verification::kVerified);
  CHECK(r.golive == GoLiveOutcome::kCompleted);
  CHECK(r.copied() == 300);
  CHECK(r.expected() == 300);
  CHECK(r.upsert.count == 300);
  CHECK(r.target_catalog.rfind("tiny_", 0) == 0);
  CHECK(r.target_catalog.size() == 9);
  CHECK_FALSE(r.collection_subset);
  CHECK(r.target_drop == TargetDrop::kNotNeeded);
  CHECK(
      RenderTextReport(r).find("verdict: OK: the figures stand; every collection's count matches the source "
                               "(exit 0)") != std::string::npos);
  double read = 0, upsert = 0, walls = 0;
  int64_t counted = 0;
  for (const auto& c : r.collections) {
    read += c.read_seconds;
    upsert += c.upsert.total_seconds;
    walls += c.wall_seconds;
    counted += c.upsert.count;
    CHECK(c.target_count == c.expected_count);
  }
  // The totals are the collections' sums; each part was measured and none
  // exceeds the wall-clock (the contract: overhead = wall - read - upsert >= 0).
  CHECK(counted == r.upsert.count);
  CHECK(read == doctest::Approx(r.source_read_seconds).epsilon(1e-9));
  CHECK(upsert == doctest::Approx(r.upsert.total_seconds).epsilon(1e-6));
  CHECK(r.source_read_seconds > 0);
  CHECK(r.upsert.total_seconds > 0);
  CHECK(r.loop_overhead_seconds >= 0);
  CHECK(r.source_read_seconds + r.upsert.total_seconds <= r.load_wall_seconds);
  CHECK(walls <= r.load_wall_seconds + 1e-9);
  CHECK(r.golive_seconds >= 0);
  CHECK(r.loader.peak_rss_bytes > 0);
  CHECK(r.total_seconds().has_value());
  const std::string report = RenderTextReport(r);
  CHECK(report.find("verification: VERIFIED") != std::string::npos);
  CHECK(report.substr(report.rfind("RUN_STATUS")) == "RUN_STATUS=MEASUREMENT-DONE-t1\n");
}

TEST_CASE("senesi at scale 0.01, snapshot -> embedded engine: exit 0, complete report, counts verified") {
  testing::TempDir dir;
  auto snapshot = GenerateSnapshot({"senesi", 0.01, 3, ""}, dir / "pristine", {});
  REQUIRE_MESSAGE(snapshot.ok(), snapshot.status().ToString());
  auto source = OpenSnapshotSource(*snapshot);
  REQUIRE_OK(source);
  auto target = MakeEmbeddedTarget(dir / "work");
  REQUIRE_OK(target);
  auto result = RunCopy(**source, **target, With([](CopyOptions& o) { o.run_label = "senesi"; }));
  target->reset();  // one engine per data directory at a time
  REQUIRE_MESSAGE(result.ok(), result.status().ToString());
  CHECK(result->ExitCode() == 0);
  CHECK(result->verification == Verification::kVerified);
  CHECK(result->copied() == 3'869);
  CHECK(result->collections.size() == 18);
  const std::string report = RenderTextReport(*result);
  for (const char* part :
       {"load wall-clock", "source read", "upsert (pure)", "loop overhead", "goLive -> ALIVE", "TOTAL",
        "loader", "verification: VERIFIED", "Product", "RUN_STATUS=MEASUREMENT-DONE-senesi",
        "indexes at goLive", "REF_ENT", "embedded engine: the index work of evitaDB's WARM_UP upsert"}) {
    CHECK_MESSAGE(report.find(part) != std::string::npos, part);
  }
  // senesi's references limit no facets by an expression: no such caveat.
  CHECK(report.find("conditional facets:") == std::string::npos);
  // The embedded target reports its indexes: every collection, Product with reduced indexes.
  REQUIRE(result->index_statistics.size() == 18);
  const auto product =
      std::find_if(result->index_statistics.begin(), result->index_statistics.end(),
                   [](const CollectionIndexStatistics& c) { return c.entity_type == "Product"; });
  REQUIRE(product != result->index_statistics.end());
  CHECK(product->total_indexes() > 1);
  // The same snapshot again, declining verification, into another catalog of the same engine data.
  auto again = MakeEmbeddedTarget(dir / "work");
  REQUIRE_OK(again);
  auto declined = RunCopy(**source, **again, With([](CopyOptions& o) { o.verify = VerifyMode::kNone; }));
  REQUIRE_OK(declined);
  CHECK(declined->ExitCode() == 0);
  CHECK(RenderTextReport(*declined).find("verification: DECLINED") != std::string::npos);
}

// tiny's parameterValues are faceted by an expression (facetedPartially) the
// engine does not evaluate: the report says how many facet postings that
// concerns, in the text and in the JSON's caveats, from the engine's count.
TEST_CASE("the report names the facet postings of references faceted by an unevaluated expression") {
  testing::TempDir dir;
  auto source = OpenGeneratorSource({"tiny", 1.0, 4, "tiny"});
  REQUIRE_OK(source);
  auto target = MakeEmbeddedTarget(dir / "work");
  REQUIRE_OK(target);
  auto result = RunCopy(**source, **target, With([](CopyOptions&) {}));
  target->reset();
  REQUIRE_MESSAGE(result.ok(), result.status().ToString());
  int64_t conditional = 0;
  for (const auto& c : result->index_statistics) conditional += c.conditional_facets;
  REQUIRE(conditional > 0);
  std::string grouped = std::to_string(conditional);  // the report groups thousands with commas
  for (int at = static_cast<int>(grouped.size()) - 3; at > 0; at -= 3)
    grouped.insert(static_cast<size_t>(at), ",");
  const std::string expected = "conditional facets: " + grouped + " facet postings (Product)";
  CHECK_MESSAGE(RenderTextReport(*result).find(expected) != std::string::npos, expected);
  const auto json = nlohmann::json::parse(RenderJsonReport(*result));
  int mentioned = 0;
  for (const auto& caveat : json["caveats"]) mentioned += caveat.get<std::string>().rfind(expected, 0) == 0;
  CHECK(mentioned == 1);
}

TEST_CASE("skip verify: exit 0 and the report says verification was declined") {
  auto target = MakeNullTarget();
  const RunResult r = Run(*target, With([](CopyOptions& o) { o.verify = VerifyMode::kNone; }));
  CHECK(r.ExitCode() == 0);
  CHECK(r.verification == Verification::kSkipped);
  CHECK(RenderTextReport(r).find("DECLINED") != std::string::npos);
  CHECK(
      RenderTextReport(r).find("verdict: OK: the figures stand; the counts were not checked (skip verify)") !=
      std::string::npos);
}

// The embedded engine, with the content of some upserts changed on the way
// in (the counts stay right): what content verification must catch.
class AlteringTarget : public CatalogTarget {
 public:
  explicit AlteringTarget(const std::string& dir) : inner_(std::move(MakeEmbeddedTarget(dir, {})).value()) {}
  std::string Describe() const override { return "altering test target"; }
  Status CreateCatalog(const CatalogSchema& schema) override {
    priced_altered_ = 0;
    return inner_->CreateCatalog(schema);
  }
  Status Upsert(const Entity& entity, UpsertReceipt* receipt) override {
    Entity altered = entity;
    if (entity.type == "Product" && !entity.prices.empty() && priced_altered_ < 12) {
      altered.prices.pop_back();  // 12 products lose a price
      ++priced_altered_;
    }
    if (entity.type == "Brand" && entity.primary_key == first_brand_)
      altered.primary_key += 100000;  // re-keyed
    return inner_->Upsert(altered, receipt);
  }
  Status GoLive() override { return inner_->GoLive(); }
  StatusOr<int64_t> Count(const std::string& type) override { return inner_->Count(type); }
  Status DropCatalog() override { return inner_->DropCatalog(); }
  StatusOr<std::unique_ptr<CatalogSource>> ReadBack() override { return inner_->ReadBack(); }
  int32_t first_brand_ = 0;

 private:
  std::unique_ptr<CatalogTarget> inner_;
  int priced_altered_ = 0;
};

TEST_CASE(
    "--verify content: a faithful copy verifies entity by entity, an altered one fails naming the first") {
  testing::TempDir dir;
  auto source = Tiny();
  {
    auto faithful = MakeEmbeddedTarget(dir / "faithful", {});
    REQUIRE_OK(faithful);
    auto run = RunCopy(*source, **faithful, With([](CopyOptions& o) { o.verify = VerifyMode::kContent; }));
    REQUIRE_OK(run);
    CHECK(run->verification == Verification::kVerified);
    CHECK(run->verify_mode == VerifyMode::kContent);
    CHECK(run->content_compared == run->expected());
    CHECK(run->content_differences == 0);
    CHECK(run->ExitCode() == 0);
    CHECK(RenderTextReport(*run).find("every entity's content (" + std::to_string(run->expected()) +
                                      " entities compared) match the source") != std::string::npos);
  }
  AlteringTarget altering(dir / "altered");
  auto brands = source->OpenCollection("Brand");
  REQUIRE_OK(brands);
  Entity first;
  REQUIRE(*(*brands)->Next(&first));
  altering.first_brand_ = first.primary_key;
  {  // counts alone cannot see it
    auto counted = RunCopy(*source, altering, With([](CopyOptions& o) { o.target_catalog = "counted"; }));
    REQUIRE_OK(counted);
    CHECK(counted->verification == Verification::kVerified);
    CHECK(counted->content_compared == 0);
  }
  auto run = RunCopy(*source, altering, With([](CopyOptions& o) {
    o.verify = VerifyMode::kContent;
    o.target_catalog = "altered";
  }));
  REQUIRE_OK(run);
  CHECK(run->verification == Verification::kContentDiffers);
  CHECK(run->ExitCode() == 1);
  CHECK(run->target_drop == TargetDrop::kDropped);
  CHECK(run->content_differences == 14);  // 12 products, the brand missing, the re-keyed brand extra
  REQUIRE(run->first_differences.size() == copy::kDescribedDifferences);
  const std::string brand = "Brand/" + std::to_string(first.primary_key);
  CHECK(run->first_differences[0] == brand + ": missing from the target");
  CHECK(run->first_differences[1] ==
        "Brand/" + std::to_string(first.primary_key + 100000) + ": in the target, not in the source");
  CHECK(run->first_differences[2].find(": differs in prices") != std::string::npos);
  CHECK(run->first_differences[2].starts_with("Product/"));
  const std::string report = RenderTextReport(*run);
  CHECK(report.find("verification: CONTENT DIFFERS (content, ") != std::string::npos);
  CHECK(report.find("... and 4 more") != std::string::npos);
}

TEST_CASE("a target that silently drops one upsert in 100 fails the run with the per-collection diff") {
  ScriptedTarget target;
  target.drop_every = 100;
  const RunResult r = Run(target);
  CHECK(r.verification == Verification::kMismatch);
  CHECK(r.ExitCode() == 1);
  CHECK(target.drops == 1);  // the partial catalog is dropped
  const std::string report = RenderTextReport(r);
  CHECK(report.find("*** DIFFERS ***") != std::string::npos);
  CHECK(report.find("FAILED") != std::string::npos);
}

TEST_CASE("a target whose count query fails: exit 2, figures printed, counts unknown") {
  ScriptedTarget target;
  target.fail_count = true;
  const RunResult r = Run(target);
  CHECK(r.ExitCode() == 2);
  CHECK(r.verification == Verification::kUnknown);
  CHECK(r.upsert.count == 300);
  CHECK(target.drops == 0);
  const std::string report = RenderTextReport(r);
  CHECK(report.find("unknown") != std::string::npos);
  CHECK(report.find("TOTAL") != std::string::npos);
}

TEST_CASE("a goLive that fails: failure marker with time to failure, no TOTAL") {
  ScriptedTarget target;
  target.fail_golive = true;
  const RunResult r = Run(target);
  CHECK(r.golive == GoLiveOutcome::kFailed);
  CHECK_FALSE(r.total_seconds().has_value());
  CHECK(r.ExitCode() == 1);
  CHECK(r.golive_error == "DEADLINE_EXCEEDED: deadline exceeded after 15 s");
  CHECK(target.drops == 1);  // a failed goLive is a failed run: its catalog is dropped
  CHECK(r.target_drop == TargetDrop::kDropped);
  const std::string report = RenderTextReport(r);
  CHECK(report.find("*** CLIENT-SIDE FAILURE ***") != std::string::npos);
  CHECK(report.find("TOTAL                not stated") != std::string::npos);
  auto json = nlohmann::json::parse(RenderJsonReport(r));
  CHECK(json["total_seconds"].is_null());
  CHECK(json["golive"]["outcome"] == "failed");
}

TEST_CASE("a rejected upsert aborts the load and the partial catalog is dropped unless kept") {
  ScriptedTarget target;
  target.reject_at = 17;
  const RunResult r = Run(target);
  CHECK(r.ExitCode() == 1);
  CHECK(r.abort_error.find("was rejected") != std::string::npos);
  CHECK(r.abort_reason == AbortReason::kEntityRejected);
  CHECK(r.golive == GoLiveOutcome::kNotAttempted);
  CHECK(r.copied() == 16);
  const auto rejected = std::find_if(r.collections.begin(), r.collections.end(),
                                     [](const CollectionResult& c) { return c.failed > 0; });
  REQUIRE(rejected != r.collections.end());
  CHECK(rejected->failed == 1);
  CHECK(rejected->reached);
  for (auto later = rejected + 1; later != r.collections.end(); ++later) CHECK_FALSE(later->reached);
  CHECK(target.drops == 1);
  ScriptedTarget kept;
  kept.reject_at = 17;
  CHECK(Run(kept, With([](CopyOptions& o) { o.keep_target = true; })).target_drop == TargetDrop::kKept);
  CHECK(kept.drops == 0);
}

TEST_CASE(
    "regression: a lost target was reported as a rejected entity, now the report says the target failed and "
    "whether the drop worked") {
  ScriptedTarget target;
  target.lose_at = 30;
  target.fail_drop = true;
  const RunResult r = Run(target);
  CHECK(r.ExitCode() == 1);
  CHECK(r.abort_reason == AbortReason::kTargetFailed);
  CHECK(r.abort_error.find("the target failed while taking entity ") == 0);
  CHECK(r.abort_error.find("UNAVAILABLE: connection refused") != std::string::npos);
  CHECK(r.abort_error.find("rejected") == std::string::npos);
  for (const auto& c : r.collections) CHECK(c.failed == 0);
  CHECK(r.target_drop == TargetDrop::kFailed);
  CHECK(r.target_drop_error == "UNAVAILABLE: connection refused");
  const std::string report = RenderTextReport(r);
  CHECK(report.find("ABORTED (the target failed, not the entity): ") != std::string::npos);
  CHECK(report.find("; the partial target catalog could NOT be dropped (UNAVAILABLE: connection refused)") !=
        std::string::npos);
}

TEST_CASE(
    "regression: a catalog or session refused mid-load (NOT_FOUND, FAILED_PRECONDITION) was counted a "
    "rejected "
    "entity and the load went on, now the target failed") {
  for (const Status& refusal : {NotFoundError("CatalogNotFoundException: catalog x does not exist"),
                                FailedPreconditionError("UpsertEntity: E1: read-only (ReadOnlyException)")}) {
    CAPTURE(refusal.ToString());
    ScriptedTarget target;
    target.lose_at = 30;
    target.lose_with = refusal;
    const RunResult r = Run(target);
    CHECK(r.abort_reason == AbortReason::kTargetFailed);
    for (const auto& c : r.collections) CHECK(c.failed == 0);
  }
}

// Tiny with its schema edited: everything else is the generator's.
class EditedSchemaSource : public CatalogSource {
 public:
  explicit EditedSchemaSource(std::function<void(CatalogSchema&)> edit)
      : inner_(Tiny()), schema_(inner_->schema()) {
    edit(schema_);
  }
  const CatalogSchema& schema() const override { return schema_; }
  const std::vector<CollectionInfo>& collections() const override { return inner_->collections(); }
  StatusOr<std::unique_ptr<EntityStream>> OpenCollection(const std::string& type) override {
    return inner_->OpenCollection(type);
  }
  std::string Describe() const override { return inner_->Describe(); }
  std::string Fingerprint() const override { return inner_->Fingerprint(); }

 private:
  std::unique_ptr<CatalogSource> inner_;
  CatalogSchema schema_;
};

TEST_CASE("a schema with bucketed histograms is noted: evitaDB builds them, warmup's engine does not") {
  EditedSchemaSource source([](CatalogSchema& schema) {
    auto& reference = schema.entities.at("Product").references.begin()->second;
    reference.bucketed = {{Scope::kLive, "a", std::nullopt, std::nullopt},
                          {Scope::kLive, "b", std::nullopt, std::nullopt},
                          {Scope::kArchived, "c", std::nullopt, std::nullopt}};
  });
  const std::string reference = source.schema().entities.at("Product").references.begin()->first;
  ScriptedTarget target;
  auto r = RunCopy(source, target, {});
  REQUIRE_OK(r);
  REQUIRE(r->notes.size() == 1);
  CHECK(r->notes[0].find("Product." + reference + ": 2 in LIVE, Product." + reference + ": 1 in ARCHIVED") !=
        std::string::npos);
  CHECK(r->notes[0].find("warmup's engine (embedded, warmup serve) does not") != std::string::npos);
  ScriptedTarget plain;
  auto without = Run(plain);
  CHECK(without.notes.empty());
}

TEST_CASE("values the source could not deliver are noted in the run's report") {
  class Omitting : public EditedSchemaSource {
   public:
    Omitting() : EditedSchemaSource([](CatalogSchema&) {}) {}
    std::map<std::string, int64_t> OmittedValues() const override { return {{"Category.products.note", 1}}; }
  };
  Omitting source;
  auto target = MakeNullTarget();
  auto r = RunCopy(source, *target, {});
  REQUIRE_OK(r);
  REQUIRE(r->notes.size() == 1);
  CHECK(r->notes[0].find("not copied: the own attributes of reflected references") == 0);
  CHECK(r->notes[0].find("Category.products.note: 1 value.") != std::string::npos);
  CHECK(RenderTextReport(*r).find("note: not copied: the own attributes") != std::string::npos);
}

TEST_CASE("max per collection and a subset of collections") {
  ScriptedTarget target;
  const RunResult r = Run(target, With([](CopyOptions& o) {
                            o.target_catalog = "named";
                            o.max_per_collection = 7;
                            o.collections = {"Product", "Brand"};
                          }));
  CHECK(r.ExitCode() == 0);
  CHECK(r.target_catalog == "named");
  REQUIRE(r.collections.size() == 2);
  for (const auto& c : r.collections) {
    CHECK(c.copied == 7);
    CHECK(c.expected_count == 7);
  }
  // regression: the verdict said "the copy is complete" for a capped subset
  CHECK(r.collection_subset);
  CHECK(RenderTextReport(r).find(
            "verdict: OK: the figures stand; the counts match what was asked (a subset of "
            "the collections, capped per collection), not the whole source") != std::string::npos);
  ScriptedTarget capped_target;
  const RunResult capped = Run(capped_target, With([](CopyOptions& o) { o.max_per_collection = 7; }));
  CHECK_FALSE(capped.collection_subset);
  CHECK(RenderTextReport(capped).find("(capped per collection), not the whole source") != std::string::npos);
}

TEST_CASE("an unknown collection is refused before anything is written, listing the known ones") {
  ScriptedTarget target;
  auto source = Tiny();
  auto result = RunCopy(*source, target, With([](CopyOptions& o) { o.collections = {"Produkt"}; }));
  REQUIRE_FALSE(result.ok());
  CHECK(result.status().message() ==
        "unknown collection 'Produkt' (the source has: Brand, Category, Parameter, ParameterValue, Product)");
  CHECK(target.created.empty());
}

TEST_CASE("the per-entity CSV has one row per upsert") {
  testing::TempDir dir;
  auto target = MakeNullTarget();
  auto csv = MakePerEntityCsvWriter(dir / "rows.csv");
  REQUIRE_OK(csv);
  const RunResult r = Run(*target, With([&](CopyOptions& o) { o.observers = {csv->get()}; }));
  std::ifstream in(dir / "rows.csv");
  std::string header;
  std::getline(in, header);
  CHECK(header ==
        "collection,primary_key,sequence,start_offset_ns,read_ns,upsert_ns,server_ns,request_bytes,status");
  int rows = 0;
  std::string line;
  std::string first;
  while (std::getline(in, line)) {
    if (rows++ == 0) first = line;
  }
  CHECK(rows == r.upsert.count);
  CHECK(first.rfind("Brand,1,0,", 0) == 0);
  CHECK(first.substr(first.size() - 3) == ",ok");
}

TEST_CASE("the JSON report of a real run states its figures (every field: json_report_test.cc)") {
  ScriptedTarget target;
  const RunResult r = Run(target, With([](CopyOptions& o) { o.run_label = "json"; }));
  auto json = nlohmann::json::parse(RenderJsonReport(r));
  CHECK(json["schema"] == "warmup-run/9");
  CHECK(json["server_process"].is_null());
  CHECK(json["exit_code"] == 0);
  CHECK(json["copied"] == 300);
  CHECK(json["collections"].size() == 5);
  CHECK(json["verification"]["outcome"] == "verified");
  CHECK(json["environment"]["cores"].get<int>() > 0);
  CHECK(json["load_wall_seconds"] == r.load_wall_seconds);
  CHECK(json["upsert"]["count"] == 300);
  CHECK(json["dataset_fingerprint"] == r.dataset_fingerprint);
  CHECK_FALSE(r.dataset_fingerprint.empty());
}

// Records every event as one line.
class Recorder : public RunObserver {
 public:
  std::vector<std::string> events;
  std::vector<UpsertSample> samples;
  RunStart start;
  Status load_end_status;
  void OnRunStart(const RunStart& s) override {
    start = s;
    events.push_back("run start " + s.target_catalog);
  }
  void OnCollectionStart(int32_t c) override { events.push_back("start " + start.collections[c]); }
  void OnUpsert(const UpsertSample& sample) override { samples.push_back(sample); }
  void OnCollectionEnd(const CollectionResult& c, double seconds, int64_t copied) override {
    events.push_back("end " + c.entity_type + " " + std::to_string(c.copied) + " of " +
                     std::to_string(copied));
    CHECK(seconds >= c.wall_seconds);
  }
  Status OnLoadEnd(const RunResult& r) override {
    events.push_back("load end " + std::to_string(r.upsert.count));
    return load_end_status;
  }
  void OnGoLiveStart() override { events.push_back("golive start"); }
  void OnGoLiveEnd(GoLiveOutcome outcome, double) override {
    events.push_back(outcome == GoLiveOutcome::kCompleted ? "golive completed" : "golive failed");
  }
  void OnRunEnd(const RunResult& r) override { events.push_back("run end " + std::to_string(r.ExitCode())); }
};

TEST_CASE("observers see the run's events in order, with every upsert's sample") {
  auto target = MakeNullTarget();
  Recorder recorder;
  const RunResult r = Run(*target, With([&](CopyOptions& o) {
    o.target_catalog = "observed";
    o.collections = {"Brand", "Category"};
    o.max_per_collection = 4;
    o.observers = {&recorder};
  }));
  CHECK(recorder.events == std::vector<std::string>{"run start observed", "start Brand", "end Brand 4 of 4",
                                                    "start Category", "end Category 4 of 8", "load end 8",
                                                    "golive start", "golive completed", "run end 0"});
  CHECK(recorder.start.collections == std::vector<std::string>{"Brand", "Category"});
  CHECK(recorder.start.expected_counts == std::vector<int64_t>{4, 4});
  CHECK(recorder.start.source == r.source);
  REQUIRE(recorder.samples.size() == 8);
  for (size_t i = 0; i < recorder.samples.size(); ++i) {
    const UpsertSample& s = recorder.samples[i];
    CAPTURE(i);
    CHECK(s.sequence == static_cast<int64_t>(i));
    CHECK(s.collection == (i < 4 ? 0 : 1));
    CHECK(s.primary_key == static_cast<int32_t>(i % 4 + 1));
    CHECK(s.ok);
    CHECK_FALSE(s.server_ns.has_value());
    if (i > 0) CHECK(s.start_offset_ns >= recorder.samples[i - 1].start_offset_ns);
  }
}

TEST_CASE("an observer that fails at the load's end aborts the run before goLive") {
  ScriptedTarget target;
  Recorder recorder;
  recorder.load_end_status = UnavailableError("disk full");
  const RunResult r = Run(target, With([&](CopyOptions& o) { o.observers = {&recorder}; }));
  CHECK(r.ExitCode() == 1);
  CHECK(r.abort_error == "UNAVAILABLE: disk full");
  CHECK(r.golive == GoLiveOutcome::kNotAttempted);
  CHECK(target.drops == 1);
  CHECK(recorder.events.back() == "run end 1");
  CHECK(std::find(recorder.events.begin(), recorder.events.end(), "golive start") == recorder.events.end());
}

TEST_CASE("the per-entity CSV writer refuses a path it cannot write, naming it") {
  testing::TempDir dir;
  auto writer = MakePerEntityCsvWriter(dir / "missing/rows.csv");
  REQUIRE_FALSE(writer.ok());
  CHECK(writer.status().code() == StatusCode::kInvalidArgument);
  CHECK(writer.status().message() == "cannot write the per-entity CSV at " + dir / "missing/rows.csv");
}

TEST_CASE("every target is created with generated primary keys off: the source's keys are kept") {
  auto source = Tiny();
  bool any_generated = false;
  for (const auto& [type, e] : source->schema().entities) {
    any_generated = any_generated || e.with_generated_primary_key;
  }
  REQUIRE(any_generated);  // else this test would check nothing
  class SchemaCatcher : public ScriptedTarget {
   public:
    Status CreateCatalog(const CatalogSchema& schema) override {
      received = schema;
      return ScriptedTarget::CreateCatalog(schema);
    }
    CatalogSchema received;
  } target;
  auto result = RunCopy(*source, target, With([](CopyOptions& o) { o.target_catalog = "keys"; }));
  REQUIRE_OK(result);
  CHECK(target.received.name == "keys");
  for (const auto& [entity_type, e] : target.received.entities) {
    const std::string& type = entity_type;  // (clang before 16 cannot capture a structured binding)
    CAPTURE(type);
    CHECK_FALSE(e.with_generated_primary_key);
    CatalogSchema original = source->schema();
    EntitySchema expected = original.entities.at(type);
    expected.with_generated_primary_key = false;
    CHECK(e == expected);
  }
}

TEST_CASE("the null target counts per type, holds one catalog at a time, and a drop forgets it") {
  auto target = MakeNullTarget();
  CatalogSchema schema;
  schema.name = "n";
  REQUIRE_OK(target->CreateCatalog(schema));
  CHECK(target->CreateCatalog(schema).code() == StatusCode::kAlreadyExists);
  Entity e;
  e.type = "Brand";
  for (int i = 1; i <= 3; ++i) {
    e.primary_key = i;
    REQUIRE_OK(target->Upsert(e, nullptr));
  }
  e.type = "Product";
  UpsertReceipt receipt;
  receipt.request_bytes = 9;
  REQUIRE_OK(target->Upsert(e, &receipt));
  REQUIRE_OK(target->GoLive());
  CHECK(*target->Count("Brand") == 3);
  CHECK(*target->Count("Product") == 1);
  CHECK(*target->Count("Category") == 0);
  CHECK_FALSE(receipt.server_nanos.has_value());
  CHECK(receipt.request_bytes == 0);  // reset: the null target has no wire
  REQUIRE_OK(target->DropCatalog());
  CHECK(*target->Count("Brand") == 0);
  CHECK_OK(target->CreateCatalog(schema));
  REQUIRE_OK(target->DropCatalog());
  auto source = Tiny();
  auto content = RunCopy(*source, *target, With([](CopyOptions& o) { o.verify = VerifyMode::kContent; }));
  REQUIRE_OK(content);  // it keeps nothing: there is nothing to verify, and the run says so
  CHECK(content->verification == Verification::kNotApplicable);
  CHECK(content->ExitCode() == 0);
}

TEST_CASE("regression: the null target's runs were VERIFIED against counts it kept of what it was given") {
  auto target = MakeNullTarget();
  CHECK_FALSE(target->StoresEntities());
  const RunResult r = Run(*target);
  CHECK(r.verification == Verification::kNotApplicable);
  CHECK(r.ExitCode() == 0);
  for (const auto& c : r.collections) CHECK_FALSE(c.target_count.has_value());  // nothing was asked of it
  const std::string report = RenderTextReport(r);
  CHECK(report.find("VERIFIED") == std::string::npos);
  CHECK(report.find("verification: NOT APPLICABLE") != std::string::npos);
  CHECK(report.find("verdict: OK: the harness's figures stand; the target stored nothing, so nothing was "
                    "verified (exit 0)") != std::string::npos);
  CHECK(nlohmann::json::parse(RenderJsonReport(r))["verification"]["outcome"] == "not_applicable");
}

// A target whose description reads like another kind's.
class MisleadingTarget : public ScriptedTarget {
 public:
  std::string Describe() const override { return "remote-looking test target"; }
};

TEST_CASE("regression: the report read the target kind out of Describe() when the run did not record it") {
  // A target that says no kind gets no kind's caveats, whatever its description reads like.
  MisleadingTarget misleading;
  const RunResult unsaid = Run(misleading);
  CHECK(unsaid.config.target_kind.empty());
  for (const std::string& caveat : RunCaveats(unsaid)) CHECK(caveat.rfind("remote:", 0) == std::string::npos);
  CHECK(RenderTextReport(unsaid).find("target kind not recorded") != std::string::npos);
  // warmup's own targets say their kind, and RunCopy records it when the caller did not.
  auto null_target = MakeNullTarget();
  CHECK(null_target->Kind() == "null");
  const RunResult null_run = Run(*null_target);
  CHECK(null_run.config.target_kind == "null");
  const auto caveats = RunCaveats(null_run);
  CHECK(std::count(caveats.begin(), caveats.end(),
                   "null target: nothing is stored; the figures measure the harness itself.") == 1);
}

TEST_CASE(
    "the run's first upsert is said apart, and the copy's settings and the source's provenance are "
    "recorded") {
  ScriptedTarget target;
  const RunResult r = Run(target, With([](CopyOptions& o) {
                            o.max_per_collection = 3;
                            o.collections = {"Product", "Brand"};
                            o.config.target_kind = "scripted";
                          }));
  REQUIRE(r.first_upsert.has_value());
  CHECK(r.first_upsert->entity_type == r.collections.front().entity_type);
  CHECK(r.first_upsert->primary_key == 1);
  CHECK(r.first_upsert->us > 0);
  CHECK(r.first_upsert->us <= r.collections.front().upsert.max_us);  // one of the collection's samples
  CHECK(r.config.target_kind == "scripted");                         // the caller's, kept
  CHECK(r.config.max_per_collection == 3);
  CHECK(r.config.collections == std::vector<std::string>{"Product", "Brand"});
  CHECK(r.config.dataset_provenance.at("generator.profile") == "tiny");
  CHECK(r.config.dataset_provenance.at("generator.scale") == "1");
  CHECK(r.loader_pid == ::getpid());
}

// A catalog source over entities held in memory: one collection, Product.
class MemorySource : public CatalogSource {
 public:
  explicit MemorySource(std::vector<Entity> entities) : entities_(std::move(entities)) {
    schema_.name = "memory";
    EntitySchema product;
    product.name = "Product";
    schema_.entities.emplace("Product", product);
    collections_.push_back({"Product", static_cast<int64_t>(entities_.size()), 0});
  }
  const CatalogSchema& schema() const override { return schema_; }
  const std::vector<CollectionInfo>& collections() const override { return collections_; }
  StatusOr<std::unique_ptr<EntityStream>> OpenCollection(const std::string& type) override {
    if (type != "Product") return NotFoundError("no collection " + type);
    return std::unique_ptr<EntityStream>(std::make_unique<Stream>(entities_));
  }
  std::string Describe() const override { return "memory test source"; }
  std::string Fingerprint() const override { return "0"; }

 private:
  class Stream : public EntityStream {
   public:
    explicit Stream(const std::vector<Entity>& entities) : entities_(entities) {}
    StatusOr<bool> Next(Entity* entity) override {
      if (next_ == entities_.size()) return false;
      *entity = entities_[next_++];
      return true;
    }

   private:
    const std::vector<Entity>& entities_;
    size_t next_ = 0;
  };
  CatalogSchema schema_;
  std::vector<CollectionInfo> collections_;
  std::vector<Entity> entities_;
};

// A Product with every part present, two prices and two references, so that
// each part can be changed alone and reordered.
Entity RichProduct() {
  Entity e;
  e.type = "Product";
  e.primary_key = 5;
  e.parent = 3;
  e.attributes.global["code"] = Value::String("p5");
  e.attributes.localized["cs"]["name"] = Value::String("hrad");
  e.associated_data.global["spec"] = AssociatedDataValue{Value::String("s")};
  e.price_inner_record_handling = PriceInnerRecordHandling::kNone;
  for (int32_t id : {1, 2}) {
    Price p;
    p.price_id = id;
    p.price_list = id == 1 ? "basic" : "vip";
    p.currency = *Currency::Parse("EUR");
    p.price_without_tax = *BigDecimal::Parse("100.00");
    p.tax_rate = *BigDecimal::Parse("21");
    p.price_with_tax = *BigDecimal::Parse("121.00");
    e.prices.push_back(p);
  }
  for (int32_t brand : {4, 6}) {
    Reference r;
    r.name = "brand";
    r.referenced = {"Brand", brand};
    r.attributes.global["order"] = Value::Integer(brand);
    e.references.push_back(r);
  }
  e.locales = {*Locale::Parse("cs")};
  return e;
}

// What content verification says of `have`, read back for `want` (the same
// primary key): its one described difference, or "" when it finds none.
std::string DescribedDifference(const Entity& want, const Entity& have) {
  MemorySource expected({want});
  MemorySource actual({have});
  copy::ContentComparison out;
  REQUIRE_OK(copy::CompareCollection(expected, actual, "Product", -1, &out));
  CHECK(out.compared == 1);
  if (out.first_differences.empty()) return "";
  CHECK(out.differences == 1);
  REQUIRE(out.first_differences.size() == 1);
  return out.first_differences.front();
}

TEST_CASE("content verification names the one part two entities differ in, and 'content' when it is none") {
  const Entity base = RichProduct();
  CHECK(DescribedDifference(base, base).empty());
  int cases = 0;
  auto names = [&](const std::string& part, auto&& change) {
    CAPTURE(part);
    Entity changed = base;
    change(changed);
    REQUIRE_MESSAGE(!(changed == base), part, ": the change changed nothing");
    CHECK(DescribedDifference(base, changed) == "Product/5: differs in " + part);
    ++cases;
  };
  names("scope", [](Entity& e) { e.scope = Scope::kArchived; });
  names("parent", [](Entity& e) { e.parent = 4; });
  names("parent", [](Entity& e) { e.parent.reset(); });
  names("attributes", [](Entity& e) { e.attributes.global["code"] = Value::String("p6"); });
  names("attributes", [](Entity& e) { e.attributes.localized["cs"]["name"] = Value::String("zamek"); });
  names("associated data",
        [](Entity& e) { e.associated_data.global["spec"] = AssociatedDataValue{Value::String("t")}; });
  names("prices", [](Entity& e) { e.prices[1].price_with_tax = *BigDecimal::Parse("122.00"); });
  names("prices", [](Entity& e) { e.price_inner_record_handling = PriceInnerRecordHandling::kSum; });
  names("references", [](Entity& e) { e.references[1].referenced.primary_key = 7; });
  names("references", [](Entity& e) { e.references[0].attributes.global["order"] = Value::Integer(9); });
  names("locales", [](Entity& e) { e.locales.push_back(*Locale::Parse("de")); });
  // Two parts at once: both named, in the entity's order of parts.
  names("attributes, locales", [](Entity& e) {
    e.attributes.localized["de"]["name"] = Value::String("Burg");
    e.locales.push_back(*Locale::Parse("de"));
  });
  names("scope, prices, references", [](Entity& e) {
    e.scope = Scope::kArchived;
    e.prices.pop_back();
    e.references.pop_back();
  });
  // Only the entity type differs (a collection that returned another type's
  // entity under the same key): no part differs, so the whole content is named.
  names("content", [](Entity& e) { e.type = "Category"; });
  CHECK(cases == 14);
}

TEST_CASE("content verification does not name prices, references or locales that are only in another order") {
  const Entity base = RichProduct();
  Entity reordered = base;
  std::reverse(reordered.prices.begin(), reordered.prices.end());
  std::reverse(reordered.references.begin(), reordered.references.end());
  reordered.locales = {*Locale::Parse("de"), *Locale::Parse("cs")};
  Entity want = base;
  want.locales = {*Locale::Parse("cs"), *Locale::Parse("de")};
  REQUIRE_FALSE(reordered == want);
  CHECK(DescribedDifference(want, reordered).empty());  // the same content
  reordered.parent = 4;
  CHECK(DescribedDifference(want, reordered) == "Product/5: differs in parent");
}

}  // namespace
}  // namespace warmup
