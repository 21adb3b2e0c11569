#include "codec/schema_convert.h"

#include <doctest/doctest.h>

#include <algorithm>

#include "codec/schema_fixtures.h"
#include "codec/schema_interpreter.h"
#include "codec/schema_mutations.h"
#include "common/status_matchers.h"

#include "generator/tiny_profile.h"

namespace warmup::codec {
namespace {

CatalogSchema ThroughProto(const CatalogSchema& schema) {
  pb::GrpcCatalogSchema catalog;
  CatalogSchemaToProto(schema, &catalog);
  std::vector<pb::GrpcEntitySchema> entities;
  for (const auto& [type, entity] : schema.entities) {
    pb::GrpcEntitySchema proto;
    EntitySchemaToProto(entity, &proto);
    pb::GrpcEntitySchema parsed;
    REQUIRE(parsed.ParseFromString(proto.SerializeAsString()));
    entities.push_back(parsed);
  }
  auto back = CatalogSchemaFromProto(catalog, entities);
  REQUIRE_MESSAGE(back.ok(), back.status().ToString());
  return *back;
}

TEST_CASE("the generated schema is valid and uses every feature") {
  const CatalogSchema schema = generator::RandomCatalogSchema(1);
  CHECK_OK(ValidateCatalogSchema(schema));
  const EntitySchema& product = schema.entities.at("Product");
  for (ValueType type : AllValueTypes()) {
    // Left out: a catalog with it could not be published into evitaDB.
    if (!WhyEvitaCannotTakeOverGrpc(type, TypeUse::kAttribute).empty()) continue;
    CHECK(std::any_of(product.attributes.begin(), product.attributes.end(),
                      [&](const auto& a) { return a.second.type == type; }));
  }
  CHECK(std::any_of(schema.entities.at("Category").references.begin(),
                    schema.entities.at("Category").references.end(),
                    [](const auto& r) { return r.second.is_reflected(); }));
}

TEST_CASE("schemas survive model -> read messages -> model") {
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    const CatalogSchema schema = generator::RandomCatalogSchema(seed);
    CHECK(ThroughProto(schema) == schema);
  }
}

// Seen against evitaDB: a catalog published into it could not be exported
// ("entity type AdjustedPricePolicy: attribute 'code' differs from the global
// attribute"): its CatalogSchemaConverter never sends a global attribute's
// `representative`, while each entity's copy of it does.
TEST_CASE(
    "regression: a representative global attribute read without its flag, as evitaDB sends it, is whole") {
  CatalogSchema schema = generator::RandomCatalogSchema(1);
  std::string name;
  for (auto& [type, entity] : schema.entities) {
    for (auto& [attribute, a] : entity.attributes) {
      if (a.kind == AttributeSchemaKind::kGlobal) name = attribute;
    }
  }
  REQUIRE(!name.empty());
  schema.attributes.at(name).representative = true;
  for (auto& [type, entity] : schema.entities) {
    if (auto used = entity.attributes.find(name); used != entity.attributes.end()) {
      used->second.representative = true;
    }
  }
  REQUIRE_OK(ValidateCatalogSchema(schema));
  pb::GrpcCatalogSchema catalog;
  CatalogSchemaToProto(schema, &catalog);
  catalog.mutable_attributes()->at(name).set_representative(false);  // what evitaDB answers
  std::vector<pb::GrpcEntitySchema> entities;
  for (const auto& [type, entity] : schema.entities) EntitySchemaToProto(entity, &entities.emplace_back());
  auto back = CatalogSchemaFromProto(catalog, entities);
  REQUIRE_OK(back);
  CHECK(back->attributes.at(name).representative);
  CHECK_OK(ValidateCatalogSchema(*back));
  CHECK(*back == schema);
}

TEST_CASE(
    "regression: a reference's bucketed histograms (evitaDB 2026.2) were dropped on read and never sent, now "
    "they survive the read messages, the snapshot and the create mutations") {
  CatalogSchema schema = generator::RandomCatalogSchema(3);
  auto& references = schema.entities.at("Product").references;
  auto own = std::find_if(references.begin(), references.end(),
                          [](const auto& r) { return !r.second.is_reflected(); });
  REQUIRE(own != references.end());
  ReferenceSchema& reference = own->second;
  const std::string name = own->first;
  reference.bucketed = {
      {Scope::kLive, "byWidth", "$reference.referencedEntity.attributes['width']", std::nullopt},
      {Scope::kLive, "onlyRed", std::nullopt, "$reference.attributes['red'] == true"},
      {Scope::kArchived, "archived", std::nullopt, std::nullopt}};
  reference.bucketed_partially = {{Scope::kLive, "$reference.attributes['shown'] == true"},
                                  {Scope::kArchived, std::nullopt}};
  const CatalogSchema read = ThroughProto(schema);
  CHECK(read.entities.at("Product").references.at(name).bucketed == reference.bucketed);
  CHECK(read == schema);

  CatalogSchema rebuilt = FreshCatalog(schema.name);
  REQUIRE_OK(ApplyCatalogSchemaMutations(ThroughWire(CatalogSchemaToMutations(schema)), &rebuilt));
  NormalizeVersions(&schema);
  NormalizeVersions(&rebuilt);
  CHECK(rebuilt.entities.at("Product").references.at(name).bucketed_partially ==
        reference.bucketed_partially);
  CHECK(rebuilt == schema);
}

TEST_CASE("bad schema input gives errors naming where") {
  SUBCASE("unknown value type in an attribute schema") {
    pb::GrpcEntitySchema proto;
    proto.set_name("Product");
    auto& attribute = (*proto.mutable_attributes())["weight"];
    attribute.set_name("weight");
    attribute.set_schematype(pb::ENTITY_SCHEMA);
    attribute.set_type(static_cast<pb::GrpcEvitaDataType>(42));
    auto schema = EntitySchemaFromProto(proto);
    REQUIRE_FALSE(schema.ok());
    CHECK(schema.status().message() ==
          "entity type Product: attribute 'weight': type: unknown value type 42");
  }
  SUBCASE("locale in an entity schema") {
    pb::GrpcEntitySchema proto;
    proto.set_name("Product");
    proto.add_locales()->set_languagetag("cs_CZ");
    auto schema = EntitySchemaFromProto(proto);
    REQUIRE_FALSE(schema.ok());
    CHECK(schema.status().message().find("entity type Product: locales: languageTag: locale 'cs_CZ'") == 0);
  }
  SUBCASE("validation names the broken cross-reference") {
    CatalogSchema schema = generator::RandomCatalogSchema(1);
    schema.entities.at("Product").sortable_attribute_compounds.at("codePriority").elements[0].attribute_name =
        "gone";
    Status s = ValidateCatalogSchema(schema);
    REQUIRE_FALSE(s.ok());
    CHECK(s.message() ==
          "entity type Product: sortable compound 'codePriority' names unknown attribute 'gone'");
  }
}

}  // namespace
}  // namespace warmup::codec
