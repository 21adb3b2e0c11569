#include "warmup/grpc_source.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <map>
#include <set>

#include "common/status_matchers.h"
#include "common/temp_dir.h"
#include "server/test_server.h"
#include "warmup/copy_engine.h"
#include "warmup/digest.h"
#include "warmup/generator.h"
#include "warmup/remote_target.h"
#include "warmup/run_result.h"
#include "warmup/server.h"
#include "warmup/snapshot.h"

namespace warmup {
namespace {

namespace fs = std::filesystem;

// The names of `type`'s reflected references, read off the schema.
std::set<std::string> ReflectedNames(const CatalogSchema& schema, const std::string& type) {
  std::set<std::string> names;
  for (const auto& [name, reference] : schema.entities.at(type).references) {
    if (reference.reflected_reference_name) names.insert(name);
  }
  return names;
}

// Every entity by "type/pk", as digests. With `strip`, reflected references
// are left out first (the generator writes random ones, which a copy must
// ignore); without, finding one fails the test: a source must not deliver them.
std::map<std::string, Digest> Digests(CatalogSource& source, bool strip) {
  std::map<std::string, Digest> out;
  Entity e;
  for (const auto& c : source.collections()) {
    const std::set<std::string> reflected = ReflectedNames(source.schema(), c.entity_type);
    auto stream = source.OpenCollection(c.entity_type);
    REQUIRE_OK(stream);
    while (true) {
      auto more = (*stream)->Next(&e);
      REQUIRE_MESSAGE(more.ok(), more.status().ToString());
      if (!*more) break;
      const auto before = e.references.size();
      std::erase_if(e.references, [&](const Reference& r) { return reflected.contains(r.name); });
      if (!strip) {
        CHECK_MESSAGE(e.references.size() == before, EntityLabel(e), " carries a reflected reference");
      }
      out[EntityLabel(e)] = EntityDigest(e);
    }
  }
  return out;
}

CatalogSchema Comparable(CatalogSchema schema) {
  schema.name = "x";
  schema.version = 1;
  for (auto& [type, e] : schema.entities) {
    e.version = 1;
    e.with_generated_primary_key = false;  // the remote target loads with generated keys off
  }
  return schema;
}

TEST_CASE("round trip: generate -> publish into warmup serve -> export over gRPC -> the same catalog") {
  GeneratorOptions profile{"tiny", 1.0, 8, ""};
  SUBCASE("tiny: every value type and schema feature") {}
  SUBCASE("senesi at scale 0.002: the production catalog's shape") { profile = {"senesi", 0.002, 8, ""}; }
  testing::TempDir dir;
  auto generated = GenerateSnapshot(profile, dir / "pristine", {});
  REQUIRE_OK(generated);
  auto original = OpenSnapshotSource(*generated);
  REQUIRE_OK(original);
  auto server = testing::StartServer(dir / "served");
  const std::string address = testing::Address(*server);
  {
    auto target = MakeRemoteTarget(address);
    CopyOptions options;
    options.target_catalog = "published";
    auto run = RunCopy(**original, **target, options);
    REQUIRE_OK(run);
    REQUIRE(run->ExitCode() == 0);
  }
  GrpcSourceOptions small_pages;
  small_pages.page_size = 7;  // many pages, a partial last one
  auto live = OpenGrpcSource(address, "published", small_pages);
  REQUIRE_MESSAGE(live.ok(), live.status().ToString());
  auto exported = WriteSnapshot(**live, dir / "export", {});
  REQUIRE_MESSAGE(exported.ok(), exported.status().ToString());
  auto reread = OpenSnapshotSource(*exported);
  REQUIRE_OK(reread);
  CHECK(Comparable((*reread)->schema()) == Comparable((*original)->schema()));
  for (const auto& c : (*original)->collections()) {
    CHECK(FindCollection(**reread, c.entity_type)->expected_count == c.expected_count);
  }
  {  // a load straight from the live catalog: the read is timed apart from the upserts
    auto null_target = MakeNullTarget();
    auto direct = OpenGrpcSource(address, "published");
    REQUIRE_OK(direct);
    auto run = RunCopy(**direct, *null_target, {});
    REQUIRE_OK(run);
    CHECK(run->ExitCode() == 0);
    int64_t entities = 0;
    for (const auto& c : (*original)->collections()) entities += c.expected_count;
    CHECK(run->upsert.count == entities);
    CHECK(run->source_read_seconds > 0);
    CHECK(run->source_read_seconds <= run->load_wall_seconds);
  }
  // The shape fingerprint: stable for the same catalog, other for another shape.
  CHECK((*live)->Fingerprint().rfind("shape-", 0) == 0);
  CHECK((*live)->Fingerprint().size() == 14);
  auto again = OpenGrpcSource(address, "published");
  REQUIRE_OK(again);
  CHECK((*again)->Fingerprint() == (*live)->Fingerprint());
  {
    auto target = MakeRemoteTarget(address);
    CopyOptions fewer;
    fewer.target_catalog = "fewer";
    fewer.max_per_collection = 3;
    REQUIRE_OK(RunCopy(**original, **target, fewer));
  }
  auto fewer_source = OpenGrpcSource(address, "fewer");
  REQUIRE_OK(fewer_source);
  CHECK((*fewer_source)->Fingerprint() != (*live)->Fingerprint());
  const auto want = Digests(**original, /*strip=*/true);
  CHECK(want.size() >= 300);
  CHECK(Digests(**reread, /*strip=*/false) == want);
}

TEST_CASE("reading over gRPC: unknown catalog or collection, and a server gone mid-export") {
  testing::TempDir dir;
  auto server = testing::StartServer(dir / "served");
  const std::string address = testing::Address(*server);
  auto missing = OpenGrpcSource(address, "nope");
  CHECK(missing.status().code() == StatusCode::kNotFound);
  CHECK(missing.status().message() == "catalog nope does not exist on " + address);

  auto tiny = OpenGeneratorSource({"tiny", 1.0, 9, ""});
  {
    auto target = MakeRemoteTarget(address);
    CopyOptions options;
    options.target_catalog = "t";
    REQUIRE(RunCopy(**tiny, **target, options)->ExitCode() == 0);
  }
  GrpcSourceOptions options;
  options.page_size = 10;
  options.call_timeout_seconds = 5;
  auto live = OpenGrpcSource(address, "t", options);
  REQUIRE_OK(live);
  CHECK((*live)->OpenCollection("Nope").status().code() == StatusCode::kNotFound);

  // The server stops after the source has read the schema and counts: the export
  // fails with a clear error and leaves no snapshot behind.
  server->Shutdown();
  auto exported = WriteSnapshot(**live, dir / "export", {});
  REQUIRE_FALSE(exported.ok());
  CHECK(exported.status().code() == StatusCode::kUnavailable);
  CHECK(exported.status().message().find("Query of") != std::string::npos);
  CHECK_FALSE(fs::exists(dir / "export/t"));
  bool leftovers = false;
  if (fs::exists(dir / "export")) {
    for (const auto& e : fs::directory_iterator(dir / "export")) leftovers = leftovers || e.exists();
  }
  CHECK_FALSE(leftovers);
}

}  // namespace
}  // namespace warmup
