#include "codec/entity_interpreter.h"

#include <doctest/doctest.h>

#include "codec/entity_mutations.h"
#include "common/status_matchers.h"

#include "generator/tiny_profile.h"
#include "warmup/digest.h"

namespace warmup::codec {
namespace {

// An upsert of Product `pk` with no local mutations yet.
pb::GrpcEntityUpsertMutation ProductUpsert(int pk) {
  pb::GrpcEntityUpsertMutation upsert;
  upsert.set_entitytype("Product");
  upsert.mutable_entityprimarykey()->set_value(pk);
  return upsert;
}

void AddPrice(pb::GrpcEntityUpsertMutation* upsert, int id, const char* list, const char* with_tax) {
  auto* price = upsert->add_mutations()->mutable_upsertpricemutation();
  price->set_priceid(id);
  price->set_pricelist(list);
  price->mutable_currency()->set_code("CZK");
  price->mutable_pricewithouttax()->set_valuestring("100");
  price->mutable_taxrate()->set_valuestring("21");
  price->mutable_pricewithtax()->set_valuestring(with_tax);
  price->set_indexed(true);
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

TEST_CASE("bad upserts give errors naming entity and mutation") {
  const CatalogSchema schema = generator::RandomCatalogSchema(9);
  const EntitySchema& product = schema.entities.at("Product");
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
  SUBCASE("an upsert of another entity type") {
    pb::GrpcEntityUpsertMutation upsert = ProductUpsert(4);
    upsert.set_entitytype("Brand");
    CHECK(EntityFromUpsertMutation(upsert, product).status().message() ==
          "entity Brand/4: entityType: expected Product");
  }
  SUBCASE("an unknown price inner-record handling") {
    pb::GrpcEntityUpsertMutation upsert = ProductUpsert(4);
    upsert.add_mutations()->mutable_setpriceinnerrecordhandlingmutation()->set_priceinnerrecordhandling(
        static_cast<pb::GrpcPriceInnerRecordHandling>(7));
    CHECK(EntityFromUpsertMutation(upsert, product).status().message() ==
          "entity Product/4: mutations[0]: priceInnerRecordHandling: unknown value 7");
  }
  SUBCASE("a reference attribute addressed by another reference's internal id") {
    pb::GrpcEntityUpsertMutation upsert = ProductUpsert(4);
    auto* insert = upsert.add_mutations()->mutable_insertreferencemutation();
    insert->set_referencename("relatedProducts");
    insert->set_referenceprimarykey(7);
    insert->set_internalprimarykey(-1);
    auto* attribute = upsert.add_mutations()->mutable_referenceattributemutation();
    attribute->set_referencename("relatedProducts");
    attribute->set_referenceprimarykey(8);
    attribute->set_internalprimarykey(-1);
    attribute->mutable_attributemutation()->mutable_upsertattributemutation()->set_attributename("order");
    CHECK(EntityFromUpsertMutation(upsert, product).status().message() ==
          "entity Product/4: mutations[1]: reference 'relatedProducts' -> 8 (internal id -1) was not "
          "inserted by "
          "this mutation");
  }
}

TEST_CASE("a price upserted twice under the same id, price list and currency is replaced, not added") {
  const CatalogSchema schema = generator::RandomCatalogSchema(9);
  const EntitySchema& product = schema.entities.at("Product");
  pb::GrpcEntityUpsertMutation upsert = ProductUpsert(4);
  AddPrice(&upsert, 1, "basic", "121");
  AddPrice(&upsert, 1, "vip", "110");
  AddPrice(&upsert, 1, "basic", "99");
  auto entity = EntityFromUpsertMutation(upsert, product);
  REQUIRE_OK(entity);
  REQUIRE(entity->prices.size() == 2);
  CHECK(entity->prices[0].price_list == "basic");
  CHECK(entity->prices[0].price_with_tax.text() == "99");
  CHECK(entity->prices[1].price_list == "vip");
}

TEST_CASE("a reference's group takes its type from the reference schema when the mutation leaves it out") {
  const CatalogSchema schema = generator::RandomCatalogSchema(9);
  const EntitySchema& product = schema.entities.at("Product");
  const ReferenceSchema* grouped = nullptr;
  for (const auto& [name, reference] : product.references) {
    if (reference.group_type && !reference.is_reflected()) grouped = &reference;
  }
  REQUIRE(grouped != nullptr);
  pb::GrpcEntityUpsertMutation upsert = ProductUpsert(4);
  auto* insert = upsert.add_mutations()->mutable_insertreferencemutation();
  insert->set_referencename(grouped->name);
  insert->set_referenceprimarykey(3);
  insert->set_internalprimarykey(-1);
  auto* group = upsert.add_mutations()->mutable_setreferencegroupmutation();
  group->set_referencename(grouped->name);
  group->set_referenceprimarykey(3);
  group->set_internalprimarykey(-1);
  group->set_groupprimarykey(11);
  auto entity = EntityFromUpsertMutation(upsert, product);
  REQUIRE_OK(entity);
  REQUIRE(entity->references.size() == 1);
  CHECK(entity->references[0].referenced == EntityRef{grouped->referenced_entity_type, 3});
  CHECK(entity->references[0].group == EntityRef{*grouped->group_type, 11});
}

}  // namespace
}  // namespace warmup::codec
