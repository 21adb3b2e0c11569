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

TEST_CASE("bad sealed entities give errors naming entity and field") {
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
}

}  // namespace
}  // namespace warmup::codec
