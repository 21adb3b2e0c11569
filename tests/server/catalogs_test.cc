#include "server/catalogs.h"

#include <doctest/doctest.h>

#include "common/status_matchers.h"
#include "common/temp_dir.h"

namespace warmup::server {
namespace {

std::vector<pb::GrpcLocalCatalogSchemaMutation> CreateEntityType(const std::string& type) {
  std::vector<pb::GrpcLocalCatalogSchemaMutation> mutations(1);
  mutations[0].mutable_createentityschemamutation()->set_entitytype(type);
  return mutations;
}

TEST_CASE("a defined catalog is pending until its first use makes it an engine catalog") {
  testing::TempDir dir;
  auto engine = Engine::Open(dir.path());
  REQUIRE_OK(engine);
  CatalogRegistry catalogs(std::move(engine).value());
  CHECK_FALSE(catalogs.StateOf("c").has_value());
  REQUIRE_OK(catalogs.Define("c"));
  REQUIRE_OK(catalogs.Define("c"));  // an existing catalog is reused
  REQUIRE_OK(catalogs.Define("a"));
  CHECK(catalogs.Names() == std::vector<std::string>{"a", "c"});
  CHECK(catalogs.StateOf("c") == pb::WARMING_UP);

  REQUIRE_OK(catalogs.UpdateSchema("c", CreateEntityType("Brand")));
  // A batch that fails leaves the schema as it was.
  auto twice = CreateEntityType("Tag");
  twice.push_back(twice[0]);
  CHECK(catalogs.UpdateSchema("c", twice).code() == StatusCode::kInvalidArgument);
  auto schema = catalogs.Schema("c");
  REQUIRE_OK(schema);
  CHECK((*schema)->entities.contains("Brand"));
  CHECK_FALSE((*schema)->entities.contains("Tag"));

  auto catalog = catalogs.Materialize("c");
  REQUIRE_OK(catalog);
  CHECK((*catalog)->schema().entities.contains("Brand"));
  CHECK(catalogs.StateOf("c") == pb::WARMING_UP);
  Status late = catalogs.UpdateSchema("c", CreateEntityType("Tag"));
  CHECK(late.code() == StatusCode::kUnimplemented);
  CHECK(late.message() == "catalog c: schema changes after the first upsert are not supported");
  CHECK(catalogs.Names() == std::vector<std::string>{"a", "c"});

  CHECK(catalogs.Delete("c"));
  CHECK(catalogs.Delete("a"));
  CHECK_FALSE(catalogs.Delete("a"));
  CHECK(catalogs.Names().empty());
}

TEST_CASE("a catalog's transition is set and cleared by name") {
  testing::TempDir dir;
  auto engine = Engine::Open(dir.path());
  REQUIRE_OK(engine);
  CatalogRegistry catalogs(std::move(engine).value());
  CHECK_FALSE(catalogs.Transition("c").has_value());
  catalogs.SetTransition("c", pb::GOING_ALIVE);
  CHECK(catalogs.Transition("c") == pb::GOING_ALIVE);
  CHECK_FALSE(catalogs.Transition("d").has_value());
  catalogs.SetTransition("c", std::nullopt);
  CHECK_FALSE(catalogs.Transition("c").has_value());
}

}  // namespace
}  // namespace warmup::server
