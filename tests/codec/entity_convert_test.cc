#include "codec/entity_convert.h"

#include <doctest/doctest.h>

#include "common/status_matchers.h"

#include "generator/tiny_profile.h"
#include "warmup/digest.h"

namespace warmup::codec {
namespace {

TEST_CASE("entities survive model -> sealed entity proto -> model") {
  const CatalogSchema schema = generator::RandomCatalogSchema(1);
  generator::Rng rng(2);
  for (const auto& [type, entity_schema] : schema.entities) {
    for (int pk = 1; pk <= 60; ++pk) {
      const Entity entity = generator::RandomEntity(rng, schema, type, pk);
      pb::GrpcSealedEntity proto;
      EntityToProto(entity, &proto);
      // Through the wire bytes, not just the object.
      pb::GrpcSealedEntity parsed;
      REQUIRE(parsed.ParseFromString(proto.SerializeAsString()));
      auto back = EntityFromProto(parsed);
      REQUIRE_MESSAGE(back.ok(), back.status().ToString());
      CHECK(*back == entity);
      CHECK(EntityDigest(*back) == EntityDigest(entity));
    }
  }
}

TEST_CASE("entity -> upsert mutation -> applied to an empty entity gives the same entity") {
  for (uint64_t seed : {3u, 4u, 5u}) {
    const CatalogSchema schema = generator::RandomCatalogSchema(seed);
    generator::Rng rng(seed * 31);
    for (const auto& [type, entity_schema] : schema.entities) {
      for (int pk = 1; pk <= 60; ++pk) {
        const Entity entity = generator::RandomEntity(rng, schema, type, pk);
        auto mutation = EntityToUpsertMutation(entity, entity_schema, Existence::kMustNotExist);
        REQUIRE_MESSAGE(mutation.ok(), mutation.status().ToString());
        const auto& upsert = mutation->entityupsertmutation();
        CHECK(upsert.entityexistence() == pb::MUST_NOT_EXIST);
        auto applied = EntityFromUpsertMutation(upsert, entity_schema);
        REQUIRE_MESSAGE(applied.ok(), applied.status().ToString());
        const Entity expected = generator::WithoutReflectedReferences(entity, entity_schema);
        CHECK(*applied == expected);
        CHECK(EntityDigest(*applied) == EntityDigest(expected));
      }
    }
  }
}

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

TEST_CASE("bad entities give errors naming entity and field") {
  const CatalogSchema schema = generator::RandomCatalogSchema(9);
  const EntitySchema& product = schema.entities.at("Product");
  SUBCASE("unknown reference name") {
    Entity entity;
    entity.type = "Product";
    entity.primary_key = 3;
    entity.references.push_back({"nope", {"X", 1}, std::nullopt, {}});
    auto mutation = EntityToUpsertMutation(entity, product, Existence::kMustNotExist);
    REQUIRE_FALSE(mutation.ok());
    CHECK(mutation.status().message().find("entity Product/3: reference 'nope' -> 1") == 0);
  }
  SUBCASE("bad price in a sealed entity") {
    pb::GrpcSealedEntity proto;
    proto.set_entitytype("Product");
    proto.set_primarykey(8);
    auto* price = proto.add_prices();
    price->mutable_currency()->set_code("CZK");
    price->mutable_pricewithouttax()->set_valuestring("x");
    price->mutable_taxrate()->set_valuestring("21");
    price->mutable_pricewithtax()->set_valuestring("1");
    auto entity = EntityFromProto(proto);
    REQUIRE_FALSE(entity.ok());
    CHECK(entity.status().message() ==
          "entity Product/8: prices[0]: priceWithoutTax: valueString: BigDecimal 'x' does not parse");
  }
  SUBCASE("bad localized attribute locale") {
    pb::GrpcSealedEntity proto;
    proto.set_entitytype("Product");
    proto.set_primarykey(9);
    (*(*proto.mutable_localizedattributes())["cs_CZ"].mutable_attributes())["name"].set_stringvalue("x");
    auto entity = EntityFromProto(proto);
    REQUIRE_FALSE(entity.ok());
    CHECK(entity.status().message().find("entity Product/9") == 0);
    CHECK(entity.status().message().find("cs_CZ") != std::string::npos);
  }
  SUBCASE("group on a reference the mutation never inserted") {
    pb::GrpcEntityUpsertMutation upsert;
    upsert.set_entitytype("Product");
    upsert.mutable_entityprimarykey()->set_value(4);
    auto* group = upsert.add_mutations()->mutable_setreferencegroupmutation();
    group->set_referencename("parameterValues");
    group->set_referenceprimarykey(2);
    group->set_internalprimarykey(-1);
    auto applied = EntityFromUpsertMutation(upsert, product);
    REQUIRE_FALSE(applied.ok());
    CHECK(applied.status().message().find("entity Product/4: mutations[0]") == 0);
  }
  SUBCASE("a removal has no meaning on a new entity") {
    pb::GrpcEntityUpsertMutation upsert;
    upsert.set_entitytype("Product");
    upsert.mutable_entityprimarykey()->set_value(4);
    upsert.add_mutations()->mutable_removeattributemutation()->set_attributename("code");
    auto applied = EntityFromUpsertMutation(upsert, product);
    REQUIRE_FALSE(applied.ok());
    CHECK(applied.status().code() == StatusCode::kUnimplemented);
  }
}

}  // namespace
}  // namespace warmup::codec
