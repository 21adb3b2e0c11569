#include "warmup/entity.h"

#include <doctest/doctest.h>

namespace warmup {
namespace {

TEST_CASE("DeriveLocales: the sorted tags of non-empty localized attributes and associated data") {
  Entity e;
  e.type = "Product";
  e.primary_key = 3;
  CHECK(DeriveLocales(e).empty());
  e.attributes.localized["sk"]["name"] = Value::String("hrad");
  e.attributes.localized["en"];  // a tag with no values is no locale of the entity
  e.associated_data.localized["cs"]["notes"] = AssociatedDataValue{Value::String("n")};
  e.associated_data.localized["sk"]["notes"] = AssociatedDataValue{Value::String("n")};
  e.attributes.global["code"] = Value::String("global values have no locale");
  const std::vector<Locale> locales = DeriveLocales(e);
  REQUIRE(locales.size() == 2);
  CHECK(locales[0].tag() == "cs");
  CHECK(locales[1].tag() == "sk");
  CHECK(EntityLabel(e) == "Product/3");
}

TEST_CASE("RemoveReflectedReferences drops exactly the references the schema marks reflected") {
  EntitySchema schema;
  schema.name = "Category";
  ReferenceSchema products;
  products.name = "products";
  products.referenced_entity_type = "Product";
  products.reflected_reference_name = "categories";
  ReferenceSchema tags;
  tags.name = "tags";
  tags.referenced_entity_type = "Tag";
  schema.references = {{"products", products}, {"tags", tags}};
  Entity e;
  e.type = "Category";
  e.primary_key = 1;
  e.references = {{"products", {"Product", 1}, std::nullopt, {}},
                  {"tags", {"Tag", 2}, std::nullopt, {}},
                  {"products", {"Product", 5}, std::nullopt, {}},
                  {"unknown", {"Other", 9}, std::nullopt, {}}};
  RemoveReflectedReferences(schema, e);
  REQUIRE(e.references.size() == 2);
  CHECK(e.references[0].name == "tags");
  CHECK(e.references[1].name == "unknown");  // not in the schema: not known to be reflected, kept
}

}  // namespace
}  // namespace warmup
