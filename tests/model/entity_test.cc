#include "warmup/entity.h"

#include <doctest/doctest.h>

#include <map>

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

// evitaDB keeps no prices container for an entity without prices whose
// handling is NONE (PricesStoragePart.isEmpty) and reads such an entity back
// as UNKNOWN (EntityFactory); a container with LOWEST_PRICE or SUM is kept.
TEST_CASE("StoredPriceInnerRecordHandling: UNKNOWN without prices and NONE, else as given") {
  using H = PriceInnerRecordHandling;
  Entity e;
  for (H given : {H::kNone, H::kUnknown}) {
    e.price_inner_record_handling = given;
    CHECK(StoredPriceInnerRecordHandling(e) == H::kUnknown);
  }
  for (H given : {H::kLowestPrice, H::kSum}) {
    e.price_inner_record_handling = given;
    CHECK(StoredPriceInnerRecordHandling(e) == given);
  }
  e.prices.push_back(Price{});
  for (H given : {H::kNone, H::kLowestPrice, H::kSum}) {
    e.price_inner_record_handling = given;
    CHECK(StoredPriceInnerRecordHandling(e) == given);
  }
}

// Category.products, reflecting Product.categories.
ReferenceSchema ReflectedProducts() {
  ReferenceSchema products;
  products.name = "products";
  products.referenced_entity_type = "Product";
  products.reflected_reference_name = "categories";
  return products;
}

TEST_CASE("RemoveReflectedReferences drops exactly the references the schema marks reflected") {
  EntitySchema schema;
  schema.name = "Category";
  const ReferenceSchema products = ReflectedProducts();
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

TEST_CASE(
    "regression: a reflected reference's own attributes were dropped unseen, now each value dropped is "
    "counted, "
    "inherited ones are not") {
  EntitySchema schema;
  schema.name = "Category";
  ReferenceSchema products = ReflectedProducts();
  AttributeSchema inherited;
  inherited.name = "order";
  inherited.inherited = true;  // comes from Product.categories: rebuilt with the reference
  AttributeSchema own;
  own.name = "note";  // declared on the reflected side only
  products.attributes = {{"order", inherited}, {"note", own}};
  schema.references = {{"products", products}};
  Entity e;
  e.type = "Category";
  e.primary_key = 1;
  Reference first{"products", {"Product", 1}, std::nullopt, {}};
  first.attributes.global["order"] = Value::Integer(1);
  first.attributes.global["note"] = Value::String("a");
  first.attributes.localized["cs"]["note"] = Value::String("b");
  Reference second{"products", {"Product", 2}, std::nullopt, {}};
  second.attributes.global["order"] = Value::Integer(2);
  second.attributes.global["undeclared"] = Value::Integer(3);  // not declared inherited: counted as own
  e.references = {first, second};
  std::map<std::string, int64_t> dropped;
  RemoveReflectedReferences(schema, e, &dropped);
  CHECK(e.references.empty());
  const std::map<std::string, int64_t> expected = {{"Category.products.note", 2},
                                                   {"Category.products.undeclared", 1}};
  CHECK(dropped == expected);
}

// A Product schema with defaults of each kind: global, localized, on a
// reference, on a reflected reference (which is never filled).
EntitySchema DefaultsSchema() {
  auto attribute = [](const std::string& name, ValueType type, std::optional<Value> default_value) {
    AttributeSchema a;
    a.name = name;
    a.type = type;
    a.default_value = std::move(default_value);
    return a;
  };
  EntitySchema schema;
  schema.name = "Product";
  schema.attributes.emplace("priority", attribute("priority", ValueType::kLong, Value::Long(5)));
  schema.attributes.emplace("code", attribute("code", ValueType::kString, std::nullopt));
  AttributeSchema label = attribute("label", ValueType::kString, Value::String("none"));
  label.localized = true;
  schema.attributes.emplace("label", label);
  ReferenceSchema brand;
  brand.name = "brand";
  brand.referenced_entity_type = "Brand";
  brand.attributes.emplace("weight", attribute("weight", ValueType::kInteger, Value::Integer(1)));
  schema.references.emplace("brand", brand);
  ReferenceSchema reflected;
  reflected.name = "bundles";
  reflected.referenced_entity_type = "Bundle";
  reflected.reflected_reference_name = "products";
  reflected.attributes.emplace("weight", attribute("weight", ValueType::kInteger, Value::Integer(1)));
  schema.references.emplace("bundles", reflected);
  return schema;
}

TEST_CASE("ApplyDefaultValues fills exactly the missing defaulted values, in the entity's locales") {
  const EntitySchema schema = DefaultsSchema();
  Entity e;
  e.type = "Product";
  e.primary_key = 1;
  e.attributes.global.emplace("code", Value::String("P1"));
  e.attributes.localized["cs"].emplace("label", Value::String("cena"));
  e.associated_data.localized["sk"]["notes"] = AssociatedDataValue{Value::String("n")};
  e.locales = DeriveLocales(e);  // cs and sk
  Reference given;
  given.name = "brand";
  given.referenced = {"Brand", 2};
  given.attributes.global.emplace("weight", Value::Integer(9));
  Reference bare = given;
  bare.referenced = {"Brand", 3};
  bare.attributes = {};
  Reference reflected;
  reflected.name = "bundles";
  reflected.referenced = {"Bundle", 4};
  e.references = {given, bare, reflected};

  REQUIRE(LacksDefaultValues(schema, e));
  // priority, label in sk (cs has its own), weight on the bare reference.
  CHECK(ApplyDefaultValues(schema, e) == 3);
  CHECK(e.attributes.global.at("priority") == Value::Long(5));
  CHECK(e.attributes.global.at("code") == Value::String("P1"));  // no default: left alone
  CHECK(e.attributes.localized.at("cs").at("label") == Value::String("cena"));
  CHECK(e.attributes.localized.at("sk").at("label") == Value::String("none"));
  CHECK(e.references[0].attributes.global.at("weight") == Value::Integer(9));
  CHECK(e.references[1].attributes.global.at("weight") == Value::Integer(1));
  CHECK(e.references[2].attributes.empty());  // reflected: the catalog's to fill
  CHECK_FALSE(LacksDefaultValues(schema, e));
  CHECK(ApplyDefaultValues(schema, e) == 0);

  Entity no_locales;
  no_locales.type = "Product";
  no_locales.primary_key = 2;
  CHECK(ApplyDefaultValues(schema, no_locales) == 1);  // priority; no locale to put a label in
  CHECK(no_locales.attributes.localized.empty());
}

}  // namespace
}  // namespace warmup
