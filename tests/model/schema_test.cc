#include "warmup/schema.h"

#include <doctest/doctest.h>

#include "common/status_matchers.h"

#include <functional>

namespace warmup {
namespace {

TEST_CASE("attribute uniqueness per scope: the scope's own setting, and not unique where none is given") {
  AttributeSchema code;
  code.name = "code";
  code.unique_in_scopes = {{Scope::kArchived, AttributeUniqueness::kUniqueWithinCollectionLocale}};
  code.globally_unique_in_scopes = {{Scope::kLive, GlobalAttributeUniqueness::kUniqueWithinCatalog}};
  CHECK(code.UniquenessIn(Scope::kArchived) == AttributeUniqueness::kUniqueWithinCollectionLocale);
  CHECK(code.UniquenessIn(Scope::kLive) == AttributeUniqueness::kNotUnique);
  CHECK(code.GlobalUniquenessIn(Scope::kLive) == GlobalAttributeUniqueness::kUniqueWithinCatalog);
  CHECK(code.GlobalUniquenessIn(Scope::kArchived) == GlobalAttributeUniqueness::kNotGloballyUnique);
}

TEST_CASE("schema look-ups: references, entity types, index types per scope, evolution modes") {
  ReferenceSchema brand;
  brand.name = "brand";
  brand.index_types = {{Scope::kLive, ReferenceIndexType::kForFilteringAndPartitioning},
                       {Scope::kArchived, ReferenceIndexType::kForFiltering}};
  CHECK(brand.IndexTypeIn(Scope::kLive) == ReferenceIndexType::kForFilteringAndPartitioning);
  CHECK(brand.IndexTypeIn(Scope::kArchived) == ReferenceIndexType::kForFiltering);
  brand.index_types.pop_back();
  CHECK(brand.IndexTypeIn(Scope::kArchived) == ReferenceIndexType::kNone);
  EntitySchema product;
  product.name = "Product";
  product.references.emplace("brand", brand);
  CHECK(product.FindReference("brand") == &product.references.at("brand"));
  CHECK(product.FindReference("brands") == nullptr);
  CatalogSchema catalog;
  catalog.entities.emplace("Product", product);
  CHECK(catalog.FindEntity("Product") == &catalog.entities.at("Product"));
  CHECK(catalog.FindEntity("product") == nullptr);
  const auto modes = AllEvolutionModes();
  REQUIRE(!modes.empty());
  for (size_t i = 0; i < modes.size(); ++i) CHECK(static_cast<size_t>(modes[i]) == i);
  CHECK(modes.back() == EvolutionMode::kUpdatingReferenceCardinality);
}

// A valid catalog: a global attribute, a Product with a reference carrying an
// attribute, and a Category reflecting it.
CatalogSchema Valid() {
  CatalogSchema s;
  s.name = "c";
  AttributeSchema code;
  code.name = "code";
  code.kind = AttributeSchemaKind::kGlobal;
  s.attributes.emplace("code", code);
  EntitySchema product;
  product.name = "Product";
  product.attributes.emplace("code", code);
  AttributeSchema priority;
  priority.name = "priority";
  priority.type = ValueType::kLong;
  product.attributes.emplace("priority", priority);
  ReferenceSchema categories;
  categories.name = "categories";
  categories.referenced_entity_type = "Category";
  AttributeSchema order;
  order.name = "order";
  order.kind = AttributeSchemaKind::kReference;
  order.type = ValueType::kInteger;
  categories.attributes.emplace("order", order);
  product.references.emplace("categories", categories);
  EntitySchema category;
  category.name = "Category";
  ReferenceSchema products;
  products.name = "products";
  products.referenced_entity_type = "Product";
  products.reflected_reference_name = "categories";
  category.references.emplace("products", products);
  s.entities.emplace("Product", product);
  s.entities.emplace("Category", category);
  return s;
}

TEST_CASE("ValidateCatalogSchema accepts a consistent schema and names what is wrong in a broken one") {
  REQUIRE_OK(ValidateCatalogSchema(Valid()));
  const std::vector<std::pair<std::function<void(CatalogSchema&)>, std::string>> cases = {
      {[](CatalogSchema& s) { s.attributes.at("code").kind = AttributeSchemaKind::kEntity; },
       "catalog attribute 'code' is not of kind global"},
      {[](CatalogSchema& s) { s.entities.at("Product").indexed_price_places = -1; },
       "entity type Product: negative indexed price places"},
      {[](CatalogSchema& s) { s.attributes.clear(); },
       "entity type Product: attribute 'code' uses a global attribute the catalog lacks"},
      {[](CatalogSchema& s) { s.attributes.at("code").nullable = true; },
       "entity type Product: attribute 'code' differs from the global attribute"},
      {[](CatalogSchema& s) {
         s.entities.at("Product").attributes.at("priority").kind = AttributeSchemaKind::kReference;
       },
       "entity type Product: attribute 'priority' is of kind reference"},
      {[](CatalogSchema& s) {
         s.entities.at("Product").attributes.at("priority").indexed_decimal_places = -2;
       },
       "negative indexed decimal places"},
      {[](CatalogSchema& s) {
         s.entities.at("Product").attributes.at("priority").default_value = Value::String("high");
       },
       "default value is"},
      {[](CatalogSchema& s) {
         s.entities.at("Product").references.at("categories").referenced_entity_type = "";
       },
       "entity type Product: reference 'categories': no referenced entity type"},
      {[](CatalogSchema& s) {
         s.entities.at("Product").references.at("categories").attributes.at("order").kind =
             AttributeSchemaKind::kEntity;
       },
       "entity type Product: reference 'categories': attribute 'order' is not of kind reference"},
      {[](CatalogSchema& s) {
         s.entities.at("Category").references.at("products").reflected_reference_name = "cats";
       },
       "entity type Category: reference 'products': reflects 'cats' of Product, which does not exist"},
      {[](CatalogSchema& s) {
         SortableAttributeCompoundSchema compound;
         compound.name = "by";
         compound.elements = {{"code"}, {"missing"}};
         s.entities.at("Product").sortable_attribute_compounds.emplace("by", compound);
       },
       "sortable compound 'by' names unknown attribute 'missing'"},
      // Seen against evitaDB: a one-attribute compound sent over gRPC is taken,
      // then every upsert fails ("At least two comparators are required...").
      {[](CatalogSchema& s) {
         SortableAttributeCompoundSchema compound;
         compound.name = "single";
         compound.elements = {{"code"}};
         s.entities.at("Product").sortable_attribute_compounds.emplace("single", compound);
       },
       "sortable compound 'single' has 1 attribute(s); evitaDB needs two at least"},
      {[](CatalogSchema& s) {
         SortableAttributeCompoundSchema compound;
         compound.name = "empty";
         s.entities.at("Product").sortable_attribute_compounds.emplace("empty", compound);
       },
       "sortable compound 'empty' has 0 attribute(s); evitaDB needs two at least"},
      // Seen against evitaDB: "Type `class io.evitadb.dataType.Predecessor` is
      // expected to be Comparable, but it is not!" on every upsert.
      {[](CatalogSchema& s) {
         AttributeSchema chain;
         chain.name = "chain";
         chain.type = ValueType::kPredecessor;
         chain.nullable = true;
         s.entities.at("Product").attributes.emplace("chain", chain);
         SortableAttributeCompoundSchema compound;
         compound.name = "chained";
         compound.elements = {{"code"}, {"chain"}};
         s.entities.at("Product").sortable_attribute_compounds.emplace("chained", compound);
       },
       "sortable compound 'chained': attribute 'chain' is PREDECESSOR, which evitaDB cannot compare in a "
       "compound"},
  };
  for (const auto& [spoil, expected_message] : cases) {
    const std::string& message = expected_message;  // doctest captures it; a binding cannot be
    CAPTURE(message);
    CatalogSchema s = Valid();
    spoil(s);
    const Status status = ValidateCatalogSchema(s);
    CHECK(status.code() == StatusCode::kInvalidArgument);
    CHECK_MESSAGE(status.message().find(message) != std::string::npos, status.message());
  }
}

}  // namespace
}  // namespace warmup
