// One collection's upserts: validation, replacement, collation, reflected references.
#include "warmup/engine.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <limits>
#include <numeric>
#include <regex>
#include <set>

#include "common/status_matchers.h"
#include "common/temp_dir.h"
#include "engine/engine_fixtures.h"
#include "engine/env.h"
#include "engine/index_keys.h"
#include "engine/storage_parts.h"
#include "generator/tiny_profile.h"
#include "warmup/digest.h"
#include "warmup/generator.h"

namespace warmup::engine_test {
namespace {

namespace fs = std::filesystem;

TEST_CASE("localized sorting follows Czech collation: ch after h, č after c") {
  testing::TempDir dir;
  auto engine = OpenEngine(dir.path());
  Catalog* catalog = *engine->CreateCatalog(WordsSchema());
  const std::vector<std::string> words = {"hrad", "chata", "cibule", "čaj", "Cesta", "ivan"};
  for (size_t i = 0; i < words.size(); ++i) {
    REQUIRE_OK(catalog->Upsert(Named("Word", int32_t(i + 1), words[i])));
  }
  auto sorted = catalog->SortBy("Word", "name", "cs", OrderDirection::kAsc);
  REQUIRE_OK(sorted);
  std::vector<std::string> order;
  for (int32_t pk : *sorted) order.push_back(words[static_cast<size_t>(pk - 1)]);
  // Byte order would put "chata" before "hrad" and "čaj" last.
  CHECK(order == std::vector<std::string>{"Cesta", "cibule", "čaj", "hrad", "chata", "ivan"});
}

TEST_CASE("bad input gives clear errors and loses nothing") {
  testing::TempDir dir;
  auto engine = OpenEngine(dir / "data");
  Catalog* catalog = *engine->CreateCatalog(WordsSchema());
  REQUIRE_OK(catalog->Upsert(Named("Word", 1, "hrad")));
  auto expect = [&](const Entity& e, const std::string& message) {
    Status s = catalog->Upsert(e);
    CHECK(s.code() == StatusCode::kInvalidArgument);
    CHECK_MESSAGE(s.message().find(message) != std::string::npos, s.message());
  };
  Entity unknown = Named("Word", 2, "x");
  unknown.attributes.global.emplace("colour", Value::String("red"));
  expect(unknown, "entity Word/2: attribute 'colour' is not in the schema of Word");
  Entity wrong_type = Named("Word", 2, "x");
  wrong_type.attributes.global["code"] = Value::Integer(7);
  expect(wrong_type, "entity Word/2: attribute 'code' is STRING, got INTEGER 7");
  Entity missing = Named("Word", 2, "x");
  missing.attributes.global.erase("code");
  expect(missing, "entity Word/2: required attribute 'code' is missing");
  Entity duplicate = Named("Word", 2, "x");
  duplicate.attributes.global["code"] = Value::String("Word1");
  expect(duplicate,
         "entity Word/2: attribute 'code' must be unique, and entity Word/1 already has that value");
  Entity bad_reference = Named("Word", 2, "x");
  bad_reference.references.push_back({"tags", {"Tag", 3}, std::nullopt, {}});
  expect(bad_reference, "entity Word/2: reference 'tags' -> 3 is not in the schema of Word");
  Entity bad_locale = Named("Word", 2, "x");
  bad_locale.attributes.localized["de"].emplace("name", Value::String("Burg"));
  expect(bad_locale, "locale 'de' is not allowed");
  Entity unknown_data = Named("Word", 2, "x");
  unknown_data.associated_data.localized["cs"].emplace("notes", AssociatedDataValue{Value::String("n")});
  expect(unknown_data, "entity Word/2: associated data 'notes' is not in the schema");
  Entity unknown_type = Named("Noun", 2, "x");
  expect(unknown_type, "catalog words has no entity type Noun");
  // Nothing of the rejected upserts stuck, and the catalog still works.
  CHECK(*catalog->Count("Word") == 1);
  CHECK_OK(catalog->Upsert(Named("Word", 2, "chata")));
  CHECK(*catalog->Count("Word") == 2);
  CHECK(catalog->FilterEquals("Word", "code", "", Value::String("Word2"))->size() == 1);

  CHECK(engine->CreateCatalog(WordsSchema()).status().code() == StatusCode::kAlreadyExists);
  for (const std::string bad : {"a/b", "..", "../escape", "", "x y"}) {
    CatalogSchema schema = WordsSchema();
    schema.name = bad;
    auto created = engine->CreateCatalog(schema);
    CHECK(created.status().code() == StatusCode::kInvalidArgument);
  }
  CHECK_FALSE(fs::exists(dir / "escape"));
}

// Products whose references have every cardinality a rule applies to, a
// required reference attribute, a defaulted attribute and a required
// localized one.
CatalogSchema CardinalitySchema() {
  CatalogSchema schema;
  schema.name = "shop";
  EntitySchema product;
  product.name = "Product";
  product.locales = {*Locale::Parse("cs")};
  AttributeSchema code;
  code.name = "code";
  AttributeSchema priority;
  priority.name = "priority";
  priority.type = ValueType::kLong;
  priority.default_value = Value::Long(5);
  priority.filterable_in_scopes = {Scope::kLive};
  AttributeSchema name;
  name.name = "name";
  name.localized = true;
  product.attributes = {{"code", code}, {"priority", priority}, {"name", name}};
  auto reference = [&](const std::string& ref_name, Cardinality cardinality) {
    ReferenceSchema r;
    r.name = ref_name;
    r.referenced_entity_type = "Target";
    r.cardinality = cardinality;
    r.index_types = {{Scope::kLive, ReferenceIndexType::kForFiltering}};
    product.references.emplace(ref_name, r);
  };
  reference("main", Cardinality::kExactlyOne);
  reference("brand", Cardinality::kZeroOrOne);
  reference("tags", Cardinality::kZeroOrMore);
  reference("related", Cardinality::kZeroOrMoreWithDuplicates);
  AttributeSchema weight;
  weight.name = "weight";
  weight.type = ValueType::kInteger;
  weight.kind = AttributeSchemaKind::kReference;
  product.references.at("brand").attributes.emplace("weight", weight);
  AttributeSchema order;
  order.name = "order";
  order.type = ValueType::kInteger;
  order.kind = AttributeSchemaKind::kReference;
  order.nullable = true;
  order.default_value = Value::Integer(0);
  product.references.at("tags").attributes.emplace("order", order);
  schema.entities.emplace("Product", product);
  return schema;
}

Entity ValidProduct(int32_t pk) {
  Entity e = Named("Product", pk, "výrobek");
  e.references.push_back({"main", {"Target", 1}, std::nullopt, {}});
  return e;
}

TEST_CASE(
    "reference cardinality, reference attributes and required locales are checked before anything changes") {
  testing::TempDir dir;
  auto engine = OpenEngine(dir.path());
  auto created = engine->CreateCatalog(CardinalitySchema());
  REQUIRE_OK(created);
  Catalog* catalog = *created;
  REQUIRE_OK(catalog->Upsert(ValidProduct(1)));
  auto expect = [&](const Entity& e, const std::string& message) {
    Status s = catalog->Upsert(e);
    CHECK(s.code() == StatusCode::kInvalidArgument);
    CHECK_MESSAGE(s.message().find(message) != std::string::npos, s.message());
  };
  Entity no_main = ValidProduct(2);
  no_main.references.clear();
  expect(no_main, "entity Product/2: reference 'main' is EXACTLY_ONE, and the entity has none");
  Entity two_mains = ValidProduct(2);
  two_mains.references.push_back({"main", {"Target", 2}, std::nullopt, {}});
  expect(two_mains, "entity Product/2: reference 'main' is EXACTLY_ONE, and the entity has 2");
  Entity two_brands = ValidProduct(2);
  Attributes weighted;
  weighted.global.emplace("weight", Value::Integer(3));
  two_brands.references.push_back({"brand", {"Target", 4}, std::nullopt, weighted});
  two_brands.references.push_back({"brand", {"Target", 5}, std::nullopt, weighted});
  expect(two_brands, "reference 'brand' is ZERO_OR_ONE, and the entity has 2");
  Entity duplicate_tag = ValidProduct(2);
  duplicate_tag.references.push_back({"tags", {"Target", 7}, std::nullopt, {}});
  duplicate_tag.references.push_back({"tags", {"Target", 7}, std::nullopt, {}});
  expect(duplicate_tag,
         "entity Product/2: reference 'tags' -> 7 is there twice, and its cardinality ZERO_OR_MORE allows no "
         "duplicates");
  Entity unweighted = ValidProduct(2);
  unweighted.references.push_back({"brand", {"Target", 4}, std::nullopt, {}});
  expect(unweighted, "entity Product/2: reference 'brand' -> 4: required attribute 'weight' is missing");
  Entity wrong_weight = ValidProduct(2);
  Attributes text_weight;
  text_weight.global.emplace("weight", Value::String("heavy"));
  wrong_weight.references.push_back({"brand", {"Target", 4}, std::nullopt, text_weight});
  expect(wrong_weight, "reference 'brand' -> 4: attribute 'weight' is INTEGER, got STRING");
  Entity unknown_attribute = ValidProduct(2);
  Attributes colour;
  colour.global.emplace("colour", Value::String("red"));
  unknown_attribute.references.push_back({"tags", {"Target", 7}, std::nullopt, colour});
  expect(unknown_attribute,
         "reference 'tags' -> 7: attribute 'colour' is not in the schema of the reference");
  Entity no_locale = ValidProduct(2);
  no_locale.attributes.localized.clear();
  no_locale.locales.clear();
  expect(no_locale, "entity Product/2: has no locale, but its localized attribute 'name' must have a value");
  // Nothing of the rejected upserts stuck.
  CHECK(*catalog->Count("Product") == 1);
  CHECK(*catalog->PrimaryKeys("Product") == std::vector<int32_t>{1});

  // Duplicates where the cardinality allows them, and one of each bounded kind.
  Entity full = ValidProduct(2);
  full.references.push_back({"brand", {"Target", 4}, std::nullopt, weighted});
  full.references.push_back({"related", {"Target", 9}, std::nullopt, {}});
  full.references.push_back({"related", {"Target", 9}, std::nullopt, {}});
  full.references.push_back({"tags", {"Target", 7}, std::nullopt, {}});
  CHECK_OK(catalog->Upsert(full));
  CHECK(*catalog->Count("Product") == 2);
}

TEST_CASE("an upsert lacking a defaulted value stores and indexes the default, a re-upsert too") {
  testing::TempDir dir;
  auto engine = OpenEngine(dir.path());
  auto created = engine->CreateCatalog(CardinalitySchema());
  REQUIRE_OK(created);
  Catalog* catalog = *created;
  Entity product = ValidProduct(1);
  product.references.push_back({"tags", {"Target", 7}, std::nullopt, {}});
  REQUIRE_FALSE(product.attributes.global.contains("priority"));
  REQUIRE_OK(catalog->Upsert(product));
  auto stored = catalog->Get("Product", 1);
  REQUIRE_OK(stored);
  REQUIRE(stored->has_value());
  CHECK((*stored)->attributes.global.at("priority") == Value::Long(5));
  CHECK((*stored)->references.back().attributes.global.at("order") == Value::Integer(0));
  CHECK(*catalog->FilterEquals("Product", "priority", "", Value::Long(5)) == std::vector<int32_t>{1});

  // A value of its own replaces the default in the index.
  product.attributes.global["priority"] = Value::Long(8);
  REQUIRE_OK(catalog->Upsert(product));
  CHECK(catalog->FilterEquals("Product", "priority", "", Value::Long(5))->empty());
  CHECK(*catalog->FilterEquals("Product", "priority", "", Value::Long(8)) == std::vector<int32_t>{1});
  // Without it again, the default is back.
  product.attributes.global.erase("priority");
  REQUIRE_OK(catalog->Upsert(product));
  CHECK(*catalog->FilterEquals("Product", "priority", "", Value::Long(5)) == std::vector<int32_t>{1});
}

// Category.products as the products' categories references say it should be.
void CheckReflectedProducts(const Catalog& catalog, const std::vector<Entity>& all) {
  int checked = 0;
  for (int32_t category = 1; category <= 20; ++category) {
    std::vector<int32_t> expected;
    for (const auto& e : OfType(all, "Product")) {
      if (References(e, "categories", category)) expected.push_back(e.primary_key);
    }
    auto stored = catalog.Get("Category", category);
    REQUIRE_OK(stored);
    if (!stored->has_value()) {
      CHECK_MESSAGE(expected.empty(), "products reference Category/", category, ", which does not exist");
      continue;
    }
    std::vector<int32_t> reflected;
    for (const auto& r : (*stored)->references) {
      if (r.name == "products") reflected.push_back(r.referenced.primary_key);
    }
    CHECK(reflected == expected);
    checked += !expected.empty();
  }
  CHECK(checked >= 5);
}

TEST_CASE("reflected references are maintained by the engine, and survive a reopen before and after goLive") {
  testing::TempDir dir;
  std::vector<Entity> all;
  {
    auto engine = OpenEngine(dir.path());
    all = LoadTiny(*engine, 4);
    CheckReflectedProducts(**engine->GetCatalog("tiny"), all);
  }
  {
    auto replayed = OpenEngine(dir.path());  // WARM_UP: rebuilt from the records
    CheckReflectedProducts(**replayed->GetCatalog("tiny"), all);
    REQUIRE_OK((*replayed->GetCatalog("tiny"))->GoLive());
  }
  auto reopened = OpenEngine(dir.path());  // ALIVE: read back from catalog.index
  CheckReflectedProducts(**reopened->GetCatalog("tiny"), all);
}

// Shelf.items reflects Item.shelves, partitioning and not faceted, as
// senesi's Category.products reflects Product.categories.
CatalogSchema ShelvesSchema() {
  CatalogSchema schema;
  schema.name = "shelves";
  EntitySchema shelf;
  shelf.name = "Shelf";
  AttributeSchema code;
  code.name = "code";
  code.filterable_in_scopes = {Scope::kLive, Scope::kArchived};
  shelf.attributes.emplace("code", code);
  ReferenceSchema items;
  items.name = "items";
  items.referenced_entity_type = "Item";
  items.referenced_entity_type_managed = true;
  items.reflected_reference_name = "shelves";
  items.index_types = {{Scope::kLive, ReferenceIndexType::kForFilteringAndPartitioning},
                       {Scope::kArchived, ReferenceIndexType::kForFilteringAndPartitioning}};
  shelf.references.emplace(items.name, items);
  EntitySchema item;
  item.name = "Item";
  ReferenceSchema shelves;
  shelves.name = "shelves";
  shelves.referenced_entity_type = "Shelf";
  shelves.referenced_entity_type_managed = true;
  shelves.index_types = items.index_types;
  item.references.emplace(shelves.name, shelves);
  schema.entities.emplace("Shelf", shelf);
  schema.entities.emplace("Item", item);
  return schema;
}

// Regression: every reflected link re-read and re-derived the referenced
// entity. What is now kept between links must follow the entity when it
// changes: a later link copies its new values and scope into the reduced
// index it creates, never the ones it had when the first link came.
TEST_CASE("reflected link after its target changed copies the target as it is now") {
  testing::TempDir dir;
  auto engine = OpenEngine(dir.path());
  Catalog* catalog = *engine->CreateCatalog(ShelvesSchema());
  auto shelf = [](const std::string& code, Scope scope) {
    Entity e;
    e.type = "Shelf";
    e.primary_key = 1;
    e.scope = scope;
    e.attributes.global.emplace("code", Value::String(code));
    return e;
  };
  auto item = [](int32_t pk) {
    Entity e;
    e.type = "Item";
    e.primary_key = pk;
    e.references.push_back({"shelves", {"Shelf", 1}, std::nullopt, {}});
    return e;
  };
  auto shelves_with = [&](const std::string& code, int32_t item_pk, Scope scope = Scope::kLive) {
    return *catalog->FilterEquals("Shelf", "code", "", Value::String(code),
                                  IndexScope{"items", item_pk, scope});
  };
  const std::vector<int32_t> shelf_one{1};
  REQUIRE_OK(catalog->Upsert(shelf("a", Scope::kLive)));
  REQUIRE_OK(catalog->Upsert(item(10)));
  REQUIRE_OK(catalog->Upsert(item(11)));  // a second link to the same shelf
  CHECK(shelves_with("a", 10) == shelf_one);
  CHECK(shelves_with("a", 11) == shelf_one);

  REQUIRE_OK(catalog->Upsert(shelf("b", Scope::kLive)));
  REQUIRE_OK(catalog->Upsert(item(12)));
  CHECK(shelves_with("b", 12) == shelf_one);
  CHECK(shelves_with("a", 12).empty());
  // The re-upsert re-indexed the earlier links too.
  CHECK(shelves_with("b", 10) == shelf_one);
  CHECK(shelves_with("a", 10).empty());

  REQUIRE_OK(catalog->Upsert(shelf("c", Scope::kArchived)));
  REQUIRE_OK(catalog->Upsert(item(13)));
  CHECK(shelves_with("c", 13, Scope::kArchived) == shelf_one);
  CHECK(shelves_with("c", 13, Scope::kLive).empty());
  CHECK(shelves_with("b", 13).empty());

  // A link taken away leaves the reduced index as the entity is now too.
  Entity unlinked = item(13);
  unlinked.references.clear();
  REQUIRE_OK(catalog->Upsert(unlinked));
  CHECK(shelves_with("c", 13, Scope::kArchived).empty());
  CHECK(*catalog->Members("Shelf", IndexScope{"items", 13, Scope::kArchived}) == std::vector<int32_t>{});
}

// docs/engine.md's unique row: a partitioning reference's reduced index holds
// the entity's unique values too (evitaDB's reduced EntityIndex keeps a
// UniqueIndex), answering for its members only.
TEST_CASE("a unique value is found in the reduced index of a partitioning reference, and only there") {
  testing::TempDir dir;
  auto engine = OpenEngine(dir.path());
  const std::vector<Entity> all = LoadTiny(*engine, 3);
  Catalog* catalog = *engine->GetCatalog("tiny");
  int checked = 0;
  for (const Entity& p : OfType(all, "Product")) {
    if (p.scope != Scope::kLive) continue;
    auto brand = std::find_if(p.references.begin(), p.references.end(),
                              [](const Reference& r) { return r.name == "brand"; });
    if (brand == p.references.end()) continue;
    const Value& code = p.attributes.global.at("code");
    const int32_t other = brand->referenced.primary_key % 20 + 1;  // another of tiny's 20 brands
    CAPTURE(p.primary_key);
    CHECK(*catalog->UniqueOwner("Product", "code", "", code,
                                IndexScope{"brand", brand->referenced.primary_key}) ==
          std::optional<int32_t>(p.primary_key));
    CHECK(*catalog->UniqueOwner("Product", "code", "", code, IndexScope{"brand", other}) == std::nullopt);
    if (++checked == 10) break;
  }
  CHECK(checked == 10);
}

// docs/engine.md's facet row: a re-upsert that puts a facet in another group
// moves it there, in the global index, and leaves the facet itself in place.
TEST_CASE("a re-upsert that moves a facet to another group takes it out of the old group") {
  testing::TempDir dir;
  auto engine = OpenEngine(dir.path());
  const std::vector<Entity> all = LoadTiny(*engine, 3);
  Catalog* catalog = *engine->GetCatalog("tiny");
  const std::vector<Entity> products = OfType(all, "Product");
  auto grouped = std::find_if(products.begin(), products.end(), [](const Entity& p) {
    return p.scope == Scope::kLive &&
           std::any_of(p.references.begin(), p.references.end(),
                       [](const Reference& r) { return r.name == "parameterValues" && r.group.has_value(); });
  });
  REQUIRE(grouped != products.end());
  Entity moved = *grouped;
  std::set<int32_t> old_groups;
  for (const Reference& r : moved.references) {
    if (r.name == "parameterValues" && r.group) old_groups.insert(r.group->primary_key);
  }
  int32_t target = 1;  // a Parameter none of its facets is in
  while (old_groups.count(target) != 0) ++target;
  std::vector<int32_t> facets;
  for (Reference& r : moved.references) {
    if (r.name != "parameterValues") continue;
    r.group = EntityRef{"Parameter", target};
    facets.push_back(r.referenced.primary_key);
  }
  REQUIRE_OK(catalog->Upsert(moved));
  const int32_t pk = moved.primary_key;
  auto has = [pk](const std::vector<int32_t>& pks) {
    return std::find(pks.begin(), pks.end(), pk) != pks.end();
  };
  for (int32_t group : old_groups) {
    CAPTURE(group);
    CHECK_FALSE(has(*catalog->FacetGroupMembers("Product", "parameterValues", group)));
  }
  CHECK(has(*catalog->FacetGroupMembers("Product", "parameterValues", target)));
  for (int32_t facet : facets) {
    CAPTURE(facet);
    CHECK(has(*catalog->FacetMembers("Product", "parameterValues", facet)));
  }
}

// Counts the reads of every file it opens for reading; writes go to `base`
// untouched (its fault never fires).
class ReadCountingEnv : public engine::FaultInjectingEnv {
 public:
  explicit ReadCountingEnv(engine::Env* base)
      : FaultInjectingEnv(base, "", std::numeric_limits<int64_t>::max()), base_(base) {}
  StatusOr<std::unique_ptr<engine::ReadFile>> OpenRead(const std::string& path) override {
    auto file = base_->OpenRead(path);
    if (!file.ok()) return file.status();
    return std::unique_ptr<engine::ReadFile>(std::make_unique<Counted>(std::move(file).value(), &reads_));
  }
  int64_t reads() const { return reads_; }

 private:
  class Counted : public engine::ReadFile {
   public:
    Counted(std::unique_ptr<engine::ReadFile> file, int64_t* reads) : file_(std::move(file)), reads_(reads) {}
    Status ReadAt(uint64_t offset, size_t size, std::string* out) const override {
      ++*reads_;
      return file_->ReadAt(offset, size, out);
    }
    uint64_t Size() const override { return file_->Size(); }

   private:
    std::unique_ptr<engine::ReadFile> file_;
    int64_t* reads_;
  };
  engine::Env* base_;
  int64_t reads_ = 0;
};

// Regression: the entries kept of reflected links' targets were cleared
// whole when they reached 4,096 entities, so with more targets than that
// (senesi 1.0's 4,120 categories) links kept reading their targets again.
// Bounded by bytes, 5,000 small shelves all stay: a second link to each
// reads nothing, where the count-cleared cache re-read 4,096 of them.
TEST_CASE("issue 52: reflected links to more than 4,096 targets read each target once while they fit") {
  auto mem = engine::NewMemEnv();
  ReadCountingEnv env(mem.get());
  auto engine = engine::OpenEngineWithEnv(&env, "/mem/data", {});
  REQUIRE_OK(engine);
  Catalog* catalog = *(*engine)->CreateCatalog(ShelvesSchema());
  constexpr int32_t kShelves = 5'000;
  for (int32_t pk = 1; pk <= kShelves; ++pk) {
    Entity shelf;
    shelf.type = "Shelf";
    shelf.primary_key = pk;
    shelf.attributes.global.emplace("code", Value::String("s" + std::to_string(pk)));
    REQUIRE_OK(catalog->Upsert(shelf));
  }
  auto link_every_shelf = [&](int32_t first_item) {
    for (int32_t shelf = 1; shelf <= kShelves; ++shelf) {
      Entity item;
      item.type = "Item";
      item.primary_key = first_item + shelf;
      item.references.push_back({"shelves", {"Shelf", shelf}, std::nullopt, {}});
      REQUIRE_OK(catalog->Upsert(item));
    }
  };
  link_every_shelf(0);
  const int64_t first_round = env.reads();
  CHECK(first_round >= kShelves);  // each shelf read at its first link
  link_every_shelf(kShelves);
  CHECK(env.reads() == first_round);
  // The second links are indexed all the same.
  CHECK(*catalog->Members("Shelf", IndexScope{"items", kShelves + 1}) == std::vector<int32_t>{1});
  CHECK(*catalog->Members("Shelf", IndexScope{"items", 2 * kShelves}) == std::vector<int32_t>{kShelves});
  // goLive drops what was kept: the next link reads its target again.
  REQUIRE_OK(catalog->GoLive());
  const int64_t at_golive = env.reads();
  Entity late;
  late.type = "Item";
  late.primary_key = 3 * kShelves;
  late.references.push_back({"shelves", {"Shelf", 1}, std::nullopt, {}});
  REQUIRE_OK(catalog->Upsert(late));
  CHECK(env.reads() > at_golive);
}

TEST_CASE(
    "an upsert of an existing primary key replaces the entity, its index entries and its unique values") {
  testing::TempDir dir;
  auto engine = OpenEngine(dir.path());
  Catalog* catalog = *engine->CreateCatalog(WordsSchema());
  REQUIRE_OK(catalog->Upsert(Named("Word", 1, "hrad")));
  REQUIRE_OK(catalog->Upsert(Named("Word", 2, "chata")));
  Entity replaced = Named("Word", 1, "ivan");
  replaced.attributes.global["code"] = Value::String("renamed");
  REQUIRE_OK(catalog->Upsert(replaced));
  CHECK(*catalog->Count("Word") == 2);
  CHECK(*catalog->PrimaryKeys("Word") == std::vector<int32_t>{1, 2});
  CHECK(EntityDigest(**catalog->Get("Word", 1)) == EntityDigest(replaced));
  CHECK(catalog->FilterEquals("Word", "code", "", Value::String("Word1"))->empty());
  CHECK(*catalog->FilterEquals("Word", "code", "", Value::String("renamed")) == std::vector<int32_t>{1});
  CHECK(*catalog->SortBy("Word", "name", "cs", OrderDirection::kAsc) == std::vector<int32_t>{2, 1});
  // The old unique value is free again; the new one is taken.
  CHECK(catalog->Upsert(Named("Word", 3, "x")).ok());  // code "Word3"
  Entity takes_old = Named("Word", 4, "y");
  takes_old.attributes.global["code"] = Value::String("Word1");
  CHECK_OK(catalog->Upsert(takes_old));
  Entity takes_new = Named("Word", 5, "z");
  takes_new.attributes.global["code"] = Value::String("renamed");
  CHECK(catalog->Upsert(takes_new).code() == StatusCode::kInvalidArgument);
  CHECK(catalog->PrimaryKeys("Noun").status().code() == StatusCode::kNotFound);
}

// The unique values live in one map, the global index's (evitaDB's
// UniqueIndex): upserts are checked against it before and after goLive and a
// reopen, and a freed value is free in both.
TEST_CASE("unique values are checked against the global index, before and after a reopen") {
  testing::TempDir dir;
  auto taken_by = [](const Catalog& catalog, const std::string& code) {
    return *catalog.UniqueOwner("Word", "code", "", Value::String(code));
  };
  {
    auto engine = OpenEngine(dir.path());
    Catalog* catalog = *engine->CreateCatalog(WordsSchema());
    REQUIRE_OK(catalog->Upsert(Named("Word", 1, "hrad")));  // code "Word1"
    REQUIRE_OK(catalog->Upsert(Named("Word", 2, "chata")));
    Entity renamed = Named("Word", 2, "chata");
    renamed.attributes.global["code"] = Value::String("two");
    REQUIRE_OK(catalog->Upsert(renamed));
    CHECK(taken_by(*catalog, "Word1") == std::optional<int32_t>(1));
    CHECK(taken_by(*catalog, "Word2") == std::nullopt);
    REQUIRE_OK(catalog->GoLive());
  }
  auto engine = OpenEngine(dir.path());
  Catalog* catalog = *engine->GetCatalog("words");
  CHECK(taken_by(*catalog, "two") == std::optional<int32_t>(2));
  Entity duplicate = Named("Word", 3, "ivan");
  duplicate.attributes.global["code"] = Value::String("two");
  const Status refused = catalog->Upsert(duplicate);
  CHECK(refused.code() == StatusCode::kInvalidArgument);
  CHECK_MESSAGE(
      refused.message().find("attribute 'code' must be unique, and entity Word/2 already has that value") !=
          std::string::npos,
      refused.message());
  Entity freed = Named("Word", 3, "ivan");
  freed.attributes.global["code"] = Value::String("Word2");  // given up by Word/2 before goLive
  CHECK_OK(catalog->Upsert(freed));
  CHECK(taken_by(*catalog, "Word2") == std::optional<int32_t>(3));
}

// A page with a unique code (not localized, not filterable), a url unique
// per locale and a title unique across locales.
CatalogSchema PagesSchema() {
  CatalogSchema schema;
  schema.name = "pages";
  EntitySchema page;
  page.name = "Page";
  page.locales = {*Locale::Parse("cs"), *Locale::Parse("sk")};
  AttributeSchema code;
  code.name = "code";
  code.unique_in_scopes = {{Scope::kLive, AttributeUniqueness::kUniqueWithinCollection}};
  AttributeSchema url;
  url.name = "url";
  url.localized = true;
  url.unique_in_scopes = {{Scope::kLive, AttributeUniqueness::kUniqueWithinCollectionLocale}};
  AttributeSchema title = url;
  title.name = "title";
  title.unique_in_scopes = {{Scope::kLive, AttributeUniqueness::kUniqueWithinCollection}};
  page.attributes = {{"code", code}, {"url", url}, {"title", title}};
  schema.entities.emplace("Page", page);
  return schema;
}

Entity Page(int32_t pk, const std::string& code, const std::string& url_cs, const std::string& url_sk,
            const std::string& title_cs, const std::string& title_sk) {
  Entity e;
  e.type = "Page";
  e.primary_key = pk;
  e.attributes.global.emplace("code", Value::String(code));
  e.attributes.localized["cs"] = {{"url", Value::String(url_cs)}, {"title", Value::String(title_cs)}};
  e.attributes.localized["sk"] = {{"url", Value::String(url_sk)}, {"title", Value::String(title_sk)}};
  e.locales = DeriveLocales(e);
  return e;
}

// evitaDB folds a unique value into its filter index when the attribute is
// not localized or is unique per locale (AttributeIndex.isUniqueFoldable):
// the filter posting is the unique entry. Until stop 59 warmup kept a second
// map for every unique value, 26 postings per senesi product that evitaDB
// does not write (docs/index-work.md).
TEST_CASE("issue 52: unique values evitaDB folds are held by their filter postings alone, and still unique") {
  testing::TempDir dir;
  auto engine = OpenEngine(dir.path());
  Catalog* catalog = *engine->CreateCatalog(PagesSchema());
  REQUIRE_OK(catalog->Upsert(Page(1, "p1", "/a", "/a", "A", "B")));
  auto refused = [&](const Entity& e, const std::string& attribute) {
    const Status s = catalog->Upsert(e);
    CHECK(s.code() == StatusCode::kInvalidArgument);
    CHECK_MESSAGE(s.message().find("attribute '" + attribute) != std::string::npos, s.message());
  };
  refused(Page(2, "p1", "/b", "/b", "C", "D"), "code");
  refused(Page(2, "p2", "/a", "/b", "C", "D"), "url");    // taken in cs
  refused(Page(2, "p2", "/b", "/a", "C", "D"), "url");    // taken in sk
  refused(Page(2, "p2", "/b", "/c", "C", "A"), "title");  // taken in cs, unique across locales
  REQUIRE_OK(catalog->Upsert(Page(2, "p2", "/b", "/c", "C", "D")));
  // A re-upsert gives its old values up.
  REQUIRE_OK(catalog->Upsert(Page(1, "p9", "/z", "/a", "Z", "B")));
  CHECK_OK(catalog->Upsert(Page(3, "p1", "/a", "/d", "A", "E")));
  CHECK(*catalog->UniqueOwner("Page", "code", "", Value::String("p1")) == std::optional<int32_t>(3));
  CHECK(*catalog->UniqueOwner("Page", "url", "sk", Value::String("/a")) == std::optional<int32_t>(1));
  CHECK(*catalog->UniqueOwner("Page", "url", "cs", Value::String("/a")) == std::optional<int32_t>(3));
  CHECK(*catalog->UniqueOwner("Page", "url", "cs", Value::String("/c")) == std::nullopt);
  REQUIRE_OK(catalog->GoLive());
  // Per page: membership 1, two locales 2, filter postings code 1 + url 2 +
  // title 2, and the title's own unique map 2 (not foldable); a code and url
  // map would add 3 more.
  const auto& statistics = catalog->index_statistics();
  REQUIRE(statistics.size() == 1);
  REQUIRE(!statistics[0].kinds.empty());
  CHECK(statistics[0].kinds[0].kind == IndexKind::kGlobal);
  CHECK(statistics[0].kinds[0].entries == 3 * 10);
}

// Stop 59's fold made any filterable attribute's posting look like an owner:
// UniqueOwner answered for attributes that are not unique.
TEST_CASE("regression: UniqueOwner of an attribute not unique in the scope is refused, not answered") {
  CatalogSchema schema = PagesSchema();
  AttributeSchema kind;
  kind.name = "kind";
  kind.filterable_in_scopes = {Scope::kLive, Scope::kArchived};
  schema.entities.at("Page").attributes.emplace("kind", kind);
  testing::TempDir dir;
  auto engine = OpenEngine(dir.path());
  Catalog* catalog = *engine->CreateCatalog(schema);
  Entity page = Page(1, "p1", "/a", "/a", "A", "B");
  page.attributes.global.emplace("kind", Value::String("only"));
  REQUIRE_OK(catalog->Upsert(page));
  const auto kind_owner = catalog->UniqueOwner("Page", "kind", "", Value::String("only"));
  CHECK(kind_owner.status().code() == StatusCode::kInvalidArgument);
  CHECK_MESSAGE(kind_owner.status().message() == "attribute 'kind' is not unique in scope LIVE",
                kind_owner.status().message());
  // code is unique in LIVE alone.
  IndexScope archived;
  archived.scope = Scope::kArchived;
  CHECK(catalog->UniqueOwner("Page", "code", "", Value::String("p1"), archived).status().code() ==
        StatusCode::kInvalidArgument);
  CHECK(*catalog->UniqueOwner("Page", "code", "", Value::String("p1")) == std::optional<int32_t>(1));
}

// docs/engine.md's chain row: an entity's Predecessor value becomes its chain
// entry, and a re-upsert moves it. No generated schema sorts by one.
TEST_CASE("a predecessor attribute orders entities by their chain, and a re-upsert moves an entity in it") {
  CatalogSchema schema;
  schema.name = "steps";
  EntitySchema step;
  step.name = "Step";
  AttributeSchema after;
  after.name = "after";
  after.type = ValueType::kPredecessor;
  after.sortable_in_scopes = {Scope::kLive};
  step.attributes.emplace("after", after);
  schema.entities.emplace("Step", step);
  auto make = [](int32_t pk, std::optional<int32_t> predecessor) {
    Entity e;
    e.type = "Step";
    e.primary_key = pk;
    e.attributes.global.emplace("after", *Value::Make(ValueType::kPredecessor, {Predecessor{predecessor}}));
    return e;
  };
  auto order = [](const Catalog& catalog) {
    return *catalog.SortBy("Step", "after", "", OrderDirection::kAsc);
  };
  testing::TempDir dir;
  {
    auto engine = OpenEngine(dir.path());
    Catalog* catalog = *engine->CreateCatalog(schema);
    REQUIRE_OK(catalog->Upsert(make(1, std::nullopt)));
    REQUIRE_OK(catalog->Upsert(make(2, 3)));
    REQUIRE_OK(catalog->Upsert(make(3, 1)));
    REQUIRE_OK(catalog->Upsert(make(5, 99)));  // its predecessor is missing
    // The head's chain 1 -> 3 -> 2, then the element whose predecessor is missing.
    CHECK(order(*catalog) == std::vector<int32_t>{1, 3, 2, 5});
    // 3 now follows 2, which follows 3: a cycle, after the head's chain (1
    // alone now) and the broken link, walked from its smallest key.
    REQUIRE_OK(catalog->Upsert(make(3, 2)));
    CHECK(order(*catalog) == std::vector<int32_t>{1, 5, 2, 3});
    REQUIRE_OK(catalog->GoLive());
  }
  auto engine = OpenEngine(dir.path());
  CHECK(order(**engine->GetCatalog("steps")) == std::vector<int32_t>{1, 5, 2, 3});
}

// docs/engine.md's catalog-unique row: `catalog.index` keeps a value per
// scope, so a reopened catalog still tells a live owner from an archived one.
TEST_CASE("catalog-unique values are kept per scope in catalog.index, and checked after a reopen") {
  CatalogSchema schema;
  schema.name = "scoped";
  AttributeSchema code;
  code.name = "code";
  code.kind = AttributeSchemaKind::kGlobal;
  code.unique_in_scopes = {{Scope::kLive, AttributeUniqueness::kUniqueWithinCollection},
                           {Scope::kArchived, AttributeUniqueness::kUniqueWithinCollection}};
  code.globally_unique_in_scopes = {{Scope::kLive, GlobalAttributeUniqueness::kUniqueWithinCatalog},
                                    {Scope::kArchived, GlobalAttributeUniqueness::kUniqueWithinCatalog}};
  schema.attributes.emplace("code", code);
  for (const char* type : {"Shelf", "Item"}) {
    EntitySchema e;
    e.name = type;
    e.attributes.emplace("code", code);
    schema.entities.emplace(type, e);
  }
  auto make = [](const std::string& type, int32_t pk, Scope scope, const std::string& value) {
    Entity e;
    e.type = type;
    e.primary_key = pk;
    e.scope = scope;
    e.attributes.global.emplace("code", Value::String(value));
    return e;
  };
  testing::TempDir dir;
  {
    auto engine = OpenEngine(dir.path());
    Catalog* catalog = *engine->CreateCatalog(schema);
    REQUIRE_OK(catalog->Upsert(make("Shelf", 1, Scope::kLive, "x")));
    REQUIRE_OK(catalog->Upsert(make("Item", 1, Scope::kArchived, "x")));  // another scope
    REQUIRE_OK(catalog->GoLive());
  }
  auto engine = OpenEngine(dir.path());
  Catalog* catalog = *engine->GetCatalog("scoped");
  auto refused_for = [&](const Entity& e, const std::string& owner) {
    const Status s = catalog->Upsert(e);
    CHECK(s.code() == StatusCode::kInvalidArgument);
    CHECK_MESSAGE(s.message().find("must be unique in the catalog, and entity " + owner) != std::string::npos,
                  s.message());
  };
  refused_for(make("Item", 2, Scope::kLive, "x"), "Shelf/1");
  refused_for(make("Shelf", 2, Scope::kArchived, "x"), "Item/1");
  CHECK_OK(catalog->Upsert(make("Shelf", 3, Scope::kArchived, "y")));
}

TEST_CASE("validation: primary key, currency, prices, hierarchy and catalog-wide uniqueness") {
  testing::TempDir dir;
  auto engine = OpenEngine(dir.path());
  auto source = OpenGeneratorSource({"tiny", 1.0, 1, "tiny"});
  REQUIRE_OK(source);
  Catalog* catalog = *engine->CreateCatalog((*source)->schema());
  // The first entity of each collection is stored; the second is the
  // candidate each case spoils in one way (valid as it comes).
  std::map<std::string, Entity> first, next;
  for (const auto& c : (*source)->collections()) {
    auto stream = (*source)->OpenCollection(c.entity_type);
    REQUIRE(*(*stream)->Next(&first[c.entity_type]));
    REQUIRE_OK(catalog->Upsert(first[c.entity_type]));
    REQUIRE(*(*stream)->Next(&next[c.entity_type]));
  }
  auto rejected = [&](const Entity& entity, const std::string& message) {
    CAPTURE(message);
    const Status s = catalog->Upsert(entity);
    CHECK(s.code() == StatusCode::kInvalidArgument);
    CHECK_MESSAGE(s.message().find(message) != std::string::npos, s.message());
  };
  for (const int32_t pk : {0, -5}) {
    Entity bad = next["Brand"];
    bad.primary_key = pk;
    rejected(bad, "primary key must be positive");
  }
  Entity product = next["Product"];
  Price foreign;
  foreign.price_id = 9999;
  foreign.price_list = "basic";
  foreign.currency = *Currency::Parse("USD");
  product.prices.push_back(foreign);
  rejected(product, "price 9999: currency USD");
  Entity brand_with_price = next["Brand"];
  brand_with_price.prices.push_back(foreign);
  rejected(brand_with_price, "Brand has no prices");
  Entity brand_with_parent = next["Brand"];
  brand_with_parent.parent = 1;
  rejected(brand_with_parent, "Brand has no hierarchy");
  // `code` is unique within the whole catalog: a Brand may not take a Category's code.
  Entity clash = next["Brand"];
  clash.attributes.global["code"] = first["Category"].attributes.global.at("code");
  rejected(clash, "must be unique in the catalog, and entity Category/" +
                      std::to_string(first["Category"].primary_key) + " already has that value");
  // Each candidate unspoilt is accepted: the rejections were for what each case changed.
  CHECK_OK(catalog->Upsert(next["Product"]));
  CHECK_OK(catalog->Upsert(next["Brand"]));
  CHECK(*catalog->Count("Product") == 2);
  CHECK(*catalog->Count("Brand") == 2);
  CHECK(*catalog->Count("Category") == 1);
}

// The record file of `type` in `catalog` under `dir` (collections are numbered in type order).
fs::path RecordsFile(const fs::path& dir, const Catalog& catalog, const std::string& type) {
  size_t index = 0;
  for (const auto& [name, schema] : catalog.schema().entities) {
    if (name == type) break;
    ++index;
  }
  char name[16];
  std::snprintf(name, sizeof(name), "%03zu.records", index);
  return dir / catalog.name() / "collections" / name;
}

TEST_CASE("storage parts: a re-upsert writes only the parts that changed, an identical one nothing") {
  testing::TempDir dir;
  Entity product;
  Entity repriced;
  uintmax_t torn_at = 0;
  {
    auto engine = OpenEngine(dir.path());
    const auto all = LoadTiny(*engine, 5);
    Catalog* catalog = *engine->GetCatalog("tiny");
    for (const Entity& e : OfType(all, "Product")) {
      if (!e.prices.empty() && !e.attributes.global.empty() && !e.references.empty()) product = e;
    }
    REQUIRE(product.primary_key != 0);
    const fs::path records = RecordsFile(dir.path(), *catalog, "Product");
    // Records are buffered; a read flushes them, so the file's size is what was written.
    auto written = [&] {
      REQUIRE_OK(catalog->Get("Product", product.primary_key));
      return fs::file_size(records);
    };
    const uintmax_t before = written();
    REQUIRE_OK(catalog->Upsert(product));
    CHECK(written() == before);  // identical: nothing written, nothing re-indexed

    repriced = product;
    repriced.prices.front().price_with_tax = *BigDecimal::Parse("123.45");
    REQUIRE_OK(catalog->Upsert(repriced));
    const uintmax_t grown = written() - before;
    // The prices part and the body (each framed by a 9-byte record header), nothing else.
    size_t prices = 0;
    size_t others = 0;
    std::vector<engine::PartLocation> locations;
    for (const auto& part : engine::SplitIntoParts(repriced)) {
      (part.kind == engine::PartKind::kPrices ? prices : others) += 9 + part.record.size();
      locations.push_back({part.kind, part.key, 0});
    }
    const size_t body = 9 + engine::EncodeBody(repriced, locations).size();
    CHECK(others > 0);
    CHECK(grown >= prices + body);
    CHECK(grown <=
          prices + body + 4 * locations.size());  // the body's offsets are varints, at most 4 bytes more each
    CHECK(EntityDigest(**catalog->Get("Product", product.primary_key)) == EntityDigest(repriced));
    torn_at = fs::file_size(records) - 1;  // the body's last byte lost: the parts are there, the body is not
  }
  {
    // Reopened (WARM_UP: every record replayed), the change stands.
    auto engine = OpenEngine(dir.path());
    Catalog* catalog = *engine->GetCatalog("tiny");
    CHECK(EntityDigest(**catalog->Get("Product", product.primary_key)) == EntityDigest(repriced));
    fs::resize_file(RecordsFile(dir.path(), *catalog, "Product"), torn_at);
  }
  // Parts without their body belong to no entity: the product is as it was before.
  auto engine = OpenEngine(dir.path());
  Catalog* catalog = *engine->GetCatalog("tiny");
  CHECK(EntityDigest(**catalog->Get("Product", product.primary_key)) == EntityDigest(product));
}

}  // namespace
}  // namespace warmup::engine_test
