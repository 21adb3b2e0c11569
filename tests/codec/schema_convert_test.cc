#include "codec/schema_convert.h"

#include <doctest/doctest.h>

#include <algorithm>

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

// A catalog as evitaDB defines it: empty, allowing new entity types.
CatalogSchema FreshCatalog(const std::string& name) {
  CatalogSchema fresh;
  fresh.name = name;
  fresh.evolution_modes = {CatalogEvolutionMode::kAddingEntityTypes};
  return fresh;
}

// Schema versions are the server's counters, not content.
void NormalizeVersions(CatalogSchema* schema) {
  schema->version = 1;
  for (auto& [type, entity] : schema->entities) entity.version = 1;
}

TEST_CASE("the generated schema is valid and uses every feature") {
  const CatalogSchema schema = generator::RandomCatalogSchema(1);
  CHECK_OK(ValidateCatalogSchema(schema));
  const EntitySchema& product = schema.entities.at("Product");
  for (ValueType type : AllValueTypes()) {
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

TEST_CASE(
    "schema -> mutations -> applied to a fresh catalog gives the same schema (regression: moved-from name)") {
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    CatalogSchema schema = generator::RandomCatalogSchema(seed);
    const auto mutations = CatalogSchemaToMutations(schema);
    // Through the wire bytes.
    std::vector<pb::GrpcLocalCatalogSchemaMutation> parsed(mutations.size());
    for (size_t i = 0; i < mutations.size(); ++i) {
      REQUIRE(parsed[i].ParseFromString(mutations[i].SerializeAsString()));
    }
    CatalogSchema rebuilt = FreshCatalog(schema.name);
    Status applied = ApplyCatalogSchemaMutations(parsed, &rebuilt);
    REQUIRE_MESSAGE(applied.ok(), applied.ToString());
    NormalizeVersions(&schema);
    NormalizeVersions(&rebuilt);
    CHECK(rebuilt == schema);
  }
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

  std::vector<pb::GrpcLocalCatalogSchemaMutation> parsed;
  for (const auto& m : CatalogSchemaToMutations(schema)) {
    parsed.emplace_back();
    REQUIRE(parsed.back().ParseFromString(m.SerializeAsString()));
  }
  CatalogSchema rebuilt = FreshCatalog(schema.name);
  REQUIRE_OK(ApplyCatalogSchemaMutations(parsed, &rebuilt));
  NormalizeVersions(&schema);
  NormalizeVersions(&rebuilt);
  CHECK(rebuilt.entities.at("Product").references.at(name).bucketed_partially ==
        reference.bucketed_partially);
  CHECK(rebuilt == schema);
}

TEST_CASE("mutations come in the order evitaDB needs") {
  const CatalogSchema schema = generator::RandomCatalogSchema(2);
  const auto mutations = CatalogSchemaToMutations(schema);
  size_t last_global = 0, first_create = mutations.size(), last_create = 0, first_modify = mutations.size();
  size_t first_reflected = mutations.size(), last_plain_reference = 0;
  for (size_t i = 0; i < mutations.size(); ++i) {
    const auto& m = mutations[i];
    if (m.has_createglobalattributeschemamutation()) last_global = i;
    if (m.has_createentityschemamutation()) {
      first_create = std::min(first_create, i);
      last_create = i;
    }
    if (m.has_modifyentityschemamutation()) {
      first_modify = std::min(first_modify, i);
      for (const auto& em : m.modifyentityschemamutation().entityschemamutations()) {
        if (em.has_createreflectedreferenceschemamutation()) first_reflected = std::min(first_reflected, i);
        if (em.has_createreferenceschemamutation()) last_plain_reference = i;
      }
    }
  }
  CHECK(last_global < first_create);
  CHECK(last_create < first_modify);
  CHECK(last_plain_reference < first_reflected);
  CHECK(first_reflected < mutations.size());
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
  SUBCASE("reflected reference to a missing reference") {
    std::vector<pb::GrpcLocalCatalogSchemaMutation> mutations(2);
    mutations[0].mutable_createentityschemamutation()->set_entitytype("Category");
    auto* modify = mutations[1].mutable_modifyentityschemamutation();
    modify->set_entitytype("Category");
    auto* reflected = modify->add_entityschemamutations()->mutable_createreflectedreferenceschemamutation();
    reflected->set_name("products");
    reflected->set_referencedentitytype("Product");
    reflected->set_reflectedreferencename("categories");
    CatalogSchema schema = FreshCatalog("c");
    Status s = ApplyCatalogSchemaMutations(mutations, &schema);
    REQUIRE_FALSE(s.ok());
    CHECK(s.message().find("schema mutation 1") != std::string::npos);
    CHECK(s.message().find("Product has no reference 'categories'") != std::string::npos);
    CHECK(schema.entities.contains("Category"));  // the mutations before the failing one stay applied
  }
  SUBCASE("using a global attribute the catalog lacks") {
    std::vector<pb::GrpcLocalCatalogSchemaMutation> mutations(2);
    mutations[0].mutable_createentityschemamutation()->set_entitytype("Brand");
    auto* modify = mutations[1].mutable_modifyentityschemamutation();
    modify->set_entitytype("Brand");
    modify->add_entityschemamutations()->mutable_useglobalattributeschemamutation()->set_name("code");
    CatalogSchema schema = FreshCatalog("c");
    Status s = ApplyCatalogSchemaMutations(mutations, &schema);
    REQUIRE_FALSE(s.ok());
    CHECK(s.message().find("global attribute 'code' does not exist") != std::string::npos);
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
