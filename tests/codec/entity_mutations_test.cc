#include "codec/entity_mutations.h"

#include <doctest/doctest.h>

#include "codec/entity_interpreter.h"
#include "common/status_matchers.h"

#include "generator/tiny_profile.h"

namespace warmup::codec {
namespace {

TEST_CASE("upsert mutations follow evitaDB's rules") {
  const CatalogSchema schema = generator::RandomCatalogSchema(9);
  const EntitySchema& product = schema.entities.at("Product");
  Entity entity;
  entity.type = "Product";
  entity.primary_key = 5;
  entity.scope = Scope::kArchived;
  entity.price_inner_record_handling = PriceInnerRecordHandling::kUnknown;
  entity.attributes.global.emplace("code", Value::String("P5"));
  entity.references.push_back({"relatedProducts", {"Product", 7}, std::nullopt, {}});
  entity.references.push_back({"relatedProducts", {"Product", 7}, std::nullopt, {}});
  auto mutation = EntityToUpsertMutation(entity, product, Existence::kMayExist);
  REQUIRE_OK(mutation);
  const auto& m = mutation->entityupsertmutation().mutations();
  // Scope first; no price handling when it is unknown; each reference its own negative id.
  CHECK(m.Get(0).has_setentityscopemutation());
  int inserts = 0;
  for (const auto& local : m) {
    CHECK_FALSE(local.has_setpriceinnerrecordhandlingmutation());
    if (local.has_insertreferencemutation()) {
      CHECK(local.insertreferencemutation().internalprimarykey() == -(++inserts));
      CHECK_FALSE(local.insertreferencemutation().has_referencedentitytype());
      CHECK(local.insertreferencemutation().referencecardinality() == pb::NOT_SPECIFIED);
    }
  }
  CHECK(inserts == 2);
  auto applied = EntityFromUpsertMutation(mutation->entityupsertmutation(), product);
  REQUIRE_OK(applied);
  CHECK(applied->references.size() == 2);
}

TEST_CASE("an entity whose reference its schema lacks is refused, naming both") {
  const CatalogSchema schema = generator::RandomCatalogSchema(9);
  const EntitySchema& product = schema.entities.at("Product");
  Entity entity;
  entity.type = "Product";
  entity.primary_key = 3;
  entity.references.push_back({"nope", {"X", 1}, std::nullopt, {}});
  auto mutation = EntityToUpsertMutation(entity, product, Existence::kMustNotExist);
  REQUIRE_FALSE(mutation.ok());
  CHECK(mutation.status().message().find("entity Product/3: reference 'nope' -> 1") == 0);
}

}  // namespace
}  // namespace warmup::codec
