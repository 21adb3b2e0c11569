#include "codec/schema_interpreter.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "GrpcEntitySchemaMutation.pb.h"
#include "codec/schema_fixtures.h"
#include "common/status_matchers.h"

namespace warmup::codec {
namespace {

using Mutations = std::vector<pb::GrpcLocalCatalogSchemaMutation>;

// A batch that creates entity type `type` and then modifies it with the
// entity schema mutations `fill` adds.
template <typename Fill>
Mutations CreateAndModify(const std::string& type, Fill fill) {
  Mutations mutations(2);
  mutations[0].mutable_createentityschemamutation()->set_entitytype(type);
  auto* modify = mutations[1].mutable_modifyentityschemamutation();
  modify->set_entitytype(type);
  fill(modify);
  return mutations;
}

TEST_CASE("schema mutations that cannot apply give errors naming where") {
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
  SUBCASE("an attribute created twice") {
    Mutations mutations = CreateAndModify("Brand", [](pb::GrpcModifyEntitySchemaMutation* modify) {
      for (int i = 0; i < 2; ++i) {
        auto* create = modify->add_entityschemamutations()->mutable_createattributeschemamutation();
        create->set_name("code");
        create->set_type(pb::STRING);
      }
    });
    CatalogSchema schema = FreshCatalog("c");
    Status s = ApplyCatalogSchemaMutations(mutations, &schema);
    CHECK(s.code() == StatusCode::kInvalidArgument);
    CHECK(s.message() ==
          "catalog c: schema mutation 1: entity type Brand [1]: attribute 'code' already exists");
    CHECK(schema.entities.at("Brand").attributes.contains("code"));  // the first creation stays
  }
  SUBCASE("a modification of an entity type never created") {
    Mutations mutations(1);
    mutations[0].mutable_modifyentityschemamutation()->set_entitytype("Brand");
    CatalogSchema schema = FreshCatalog("c");
    Status s = ApplyCatalogSchemaMutations(mutations, &schema);
    CHECK(s.message() == "catalog c: schema mutation 0: entity type Brand does not exist");
  }
  SUBCASE("an attribute of a reference the entity type lacks") {
    Mutations mutations = CreateAndModify("Brand", [](pb::GrpcModifyEntitySchemaMutation* modify) {
      auto* mod = modify->add_entityschemamutations()->mutable_modifyreferenceattributeschemamutation();
      mod->set_name("stores");
      mod->mutable_attributeschemamutation()->mutable_createattributeschemamutation()->set_name("order");
    });
    CatalogSchema schema = FreshCatalog("c");
    Status s = ApplyCatalogSchemaMutations(mutations, &schema);
    CHECK(s.message() ==
          "catalog c: schema mutation 1: entity type Brand [0]: reference 'stores' does not exist");
  }
  SUBCASE("a mutation kind a fresh catalog's load never sends") {
    Mutations mutations(1);
    mutations[0].mutable_removeentityschemamutation()->set_name("Brand");
    CatalogSchema schema = FreshCatalog("c");
    Status s = ApplyCatalogSchemaMutations(mutations, &schema);
    CHECK(s.code() == StatusCode::kUnimplemented);
    CHECK(s.message().find("catalog c: schema mutation 0: catalog schema mutation kind") == 0);
  }
  SUBCASE("no mutation set") {
    Mutations mutations(1);
    CatalogSchema schema = FreshCatalog("c");
    CHECK(ApplyCatalogSchemaMutations(mutations, &schema).message() ==
          "catalog c: schema mutation 0: no mutation set");
  }
}

TEST_CASE("evolution modes: a new entity type allows all, disallowing and allowing again keeps them sorted") {
  Mutations mutations = CreateAndModify("Brand", [](pb::GrpcModifyEntitySchemaMutation* modify) {
    auto* disallow =
        modify->add_entityschemamutations()->mutable_disallowevolutionmodeinentityschemamutation();
    disallow->add_evolutionmodes(pb::ADDING_ATTRIBUTES);
    disallow->add_evolutionmodes(pb::ADDING_PRICES);
    auto* allow = modify->add_entityschemamutations()->mutable_allowevolutionmodeinentityschemamutation();
    allow->add_evolutionmodes(pb::ADDING_PRICES);
    allow->add_evolutionmodes(pb::ADDING_PRICES);
  });
  mutations.emplace_back().mutable_disallowevolutionmodeincatalogschemamutation()->add_evolutionmodes(
      pb::ADDING_ENTITY_TYPES);
  CatalogSchema schema = FreshCatalog("c");
  REQUIRE_OK(ApplyCatalogSchemaMutations(mutations, &schema));
  std::vector<EvolutionMode> expected = AllEvolutionModes();
  std::erase(expected, EvolutionMode::kAddingAttributes);
  CHECK(schema.entities.at("Brand").evolution_modes == expected);
  CHECK(schema.evolution_modes.empty());

  Mutations allow_again(1);
  allow_again[0].mutable_allowevolutionmodeincatalogschemamutation()->add_evolutionmodes(
      pb::ADDING_ENTITY_TYPES);
  REQUIRE_OK(ApplyCatalogSchemaMutations(allow_again, &schema));
  REQUIRE_OK(ApplyCatalogSchemaMutations(allow_again, &schema));
  CHECK(schema.evolution_modes ==
        std::vector<CatalogEvolutionMode>{CatalogEvolutionMode::kAddingEntityTypes});
}

TEST_CASE("an entity type uses a global attribute as the catalog defines it") {
  Mutations mutations(1);
  auto* global = mutations[0].mutable_createglobalattributeschemamutation();
  global->set_name("url");
  global->set_type(pb::STRING);
  global->set_localized(true);
  Mutations rest = CreateAndModify("Brand", [](pb::GrpcModifyEntitySchemaMutation* modify) {
    modify->add_entityschemamutations()->mutable_useglobalattributeschemamutation()->set_name("url");
  });
  mutations.insert(mutations.end(), rest.begin(), rest.end());
  CatalogSchema schema = FreshCatalog("c");
  REQUIRE_OK(ApplyCatalogSchemaMutations(mutations, &schema));
  const AttributeSchema& url = schema.entities.at("Brand").attributes.at("url");
  CHECK(url.kind == AttributeSchemaKind::kGlobal);
  CHECK(url.localized);
  CHECK(url.type == ValueType::kString);
  CHECK(url == schema.attributes.at("url"));
}

}  // namespace
}  // namespace warmup::codec
