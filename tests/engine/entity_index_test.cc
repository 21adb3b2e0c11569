// The indexes against brute-force scans: every read call, both scopes, reduced
// indexes, decimals at their indexed places.
#include "warmup/engine.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <numeric>
#include <regex>
#include <set>

#include "common/status_matchers.h"
#include "common/temp_dir.h"
#include "engine/catalog_files.h"
#include "engine/engine_fixtures.h"
#include "engine/entity_index.h"
#include "engine/env.h"
#include "engine/index_keys.h"
#include "generator/tiny_profile.h"
#include "warmup/digest.h"
#include "warmup/generator.h"

namespace warmup::engine_test {
namespace {

namespace fs = std::filesystem;

// `index` saved as goLive saves it and read back into an index of the same
// kind over `values`.
engine::EntityIndex SavedAndLoaded(const engine::EntityIndex& index, engine::ValueDictionary* values,
                                   engine::EntityIndex::PriceRecords records) {
  testing::TempDir dir;
  const std::string path = dir.path() + "/saved.index";
  REQUIRE_OK(
      engine::WriteIndexFile(engine::DefaultEnv(), path, [&](engine::IndexWriter& out) { index.Save(out); }));
  engine::EntityIndex loaded(values, records);
  REQUIRE_OK(
      engine::ReadIndexFile(engine::DefaultEnv(), path, [&](engine::IndexReader& in) { loaded.Load(in); }));
  return loaded;
}

TEST_CASE("index reads match a brute-force scan, globally and within reduced indexes") {
  for (uint64_t seed : {1u, 2u, 3u}) {
    CAPTURE(seed);
    testing::TempDir dir;
    auto engine = OpenEngine(dir.path());
    const auto all = LoadTiny(*engine, seed);
    Catalog* catalog = *engine->GetCatalog("tiny");
    const auto products = OfType(all, "Product");
    const EntitySchema& schema = catalog->schema().entities.at("Product");

    // Equality filters on every filterable scalar attribute of these types.
    const std::set<ValueType> exact = {ValueType::kString,  ValueType::kInteger, ValueType::kLong,
                                       ValueType::kBoolean, ValueType::kLocale,  ValueType::kCurrency,
                                       ValueType::kUuid};
    int checked = 0;
    for (const auto& [attribute, a] : schema.attributes) {
      const std::string& name = attribute;  // doctest's messages capture it; a binding cannot be
      if (a.localized || !exact.contains(a.type) ||
          std::find(a.filterable_in_scopes.begin(), a.filterable_in_scopes.end(), Scope::kLive) ==
              a.filterable_in_scopes.end()) {
        continue;
      }
      for (const auto& probe : products) {
        auto it = probe.attributes.global.find(name);
        if (it == probe.attributes.global.end()) continue;
        std::vector<int32_t> expected;
        for (const auto& e : products) {
          auto v = e.attributes.global.find(name);
          if (e.scope == Scope::kLive && v != e.attributes.global.end() && v->second == it->second) {
            expected.push_back(e.primary_key);
          }
        }
        auto got = catalog->FilterEquals("Product", name, "", it->second);
        REQUIRE_OK(got);
        CHECK_MESSAGE(*got == expected, name);
        ++checked;
        break;
      }
    }
    CHECK(checked >= 3);

    // Prices: the price for sale (min of indexed prices; sum for SUM handling) in a range.
    const BigDecimal from = *BigDecimal::Parse("0"), to = *BigDecimal::Parse("50000");
    for (const std::string currency : {"CZK", "EUR"}) {
      const auto expected =
          PricedBetween(products, schema, {"", 0, Scope::kLive}, "basic", currency, from, to);
      auto got = catalog->PriceBetween("Product", "basic", *Currency::Parse(currency), from, to);
      REQUIRE_OK(got);
      CHECK(*got == expected);
    }

    // Facets and the reduced index of every referenced category.
    for (int32_t target = 1; target <= 20; ++target) {
      std::vector<int32_t> expected;
      for (const auto& e : products) {
        if (e.scope == Scope::kLive && References(e, "parameterValues", target)) {
          expected.push_back(e.primary_key);
        }
      }
      CHECK(*catalog->FacetMembers("Product", "parameterValues", target) == expected);

      std::vector<int32_t> in_category;
      std::vector<int32_t> code_in_category;
      for (const auto& e : products) {
        if (e.scope == Scope::kLive && References(e, "categories", target)) {
          in_category.push_back(e.primary_key);
        }
      }
      const IndexScope reduced{"categories", target};
      auto sorted = catalog->SortBy("Product", "code", "", OrderDirection::kAsc, reduced);
      REQUIRE_OK(sorted);
      std::vector<Entity> members;
      for (const auto& e : products) {
        if (e.scope == Scope::kLive && References(e, "categories", target)) members.push_back(e);
      }
      // Every member of the partition, no other, in the order of their codes.
      CHECK(*sorted == ByCode(members, OrderDirection::kAsc));
      if (!in_category.empty()) {
        const auto& member = *std::find_if(products.begin(), products.end(),
                                           [&](const Entity& e) { return e.primary_key == in_category[0]; });
        auto filtered =
            catalog->FilterEquals("Product", "code", "", member.attributes.global.at("code"), reduced);
        CHECK(*filtered == std::vector<int32_t>{member.primary_key});
      }
    }

    // Sorting by code: the codes in byte order.
    std::vector<Entity> live;
    for (const auto& e : products) {
      if (e.scope == Scope::kLive) live.push_back(e);
    }
    auto by_code = catalog->SortBy("Product", "code", "", OrderDirection::kAsc);
    REQUIRE_OK(by_code);
    CHECK(*by_code == ByCode(live, OrderDirection::kAsc));

    // Hierarchy.
    const auto categories = OfType(all, "Category");
    for (int32_t parent = 1; parent <= 30; ++parent) {
      std::vector<int32_t> expected;
      for (const auto& e : categories) {
        if (e.parent == parent && e.scope == Scope::kLive) expected.push_back(e.primary_key);
      }
      CHECK(*catalog->Children("Category", parent) == expected);
    }
  }
}

TEST_CASE(
    "index reads match a brute-force scan: both scopes, localized values, both directions, reduced reads") {
  const std::set<ValueType> exact = {ValueType::kString,  ValueType::kInteger, ValueType::kLong,
                                     ValueType::kBoolean, ValueType::kLocale,  ValueType::kCurrency,
                                     ValueType::kUuid};
  for (uint64_t seed : {1u, 2u, 3u}) {
    CAPTURE(seed);
    testing::TempDir dir;
    auto engine = OpenEngine(dir.path());
    const auto all = LoadTiny(*engine, seed);
    Catalog* catalog = *engine->GetCatalog("tiny");
    const auto products = OfType(all, "Product");
    const EntitySchema& schema = catalog->schema().entities.at("Product");
    int global_checks = 0, localized_checks = 0, archived_checks = 0, sort_checks = 0;
    int facet_checks = 0, unfaceted_checks = 0;
    for (const Scope scope : {Scope::kLive, Scope::kArchived}) {
      CAPTURE(static_cast<int>(scope));
      std::vector<Entity> members;
      for (const auto& e : products) {
        if (e.scope == scope) members.push_back(e);
      }
      const IndexScope global{"", 0, scope};
      for (const auto& [attribute, a] : schema.attributes) {
        const std::string& name = attribute;  // doctest's messages capture it; a binding cannot be
        if (!exact.contains(a.type) || !In(a.filterable_in_scopes, scope)) continue;
        CAPTURE(name);
        for (const auto& probe : members) {
          // The probe's value (in its first locale for a localized attribute).
          std::string tag;
          const Value* value = nullptr;
          if (!a.localized) {
            auto it = probe.attributes.global.find(name);
            if (it != probe.attributes.global.end()) value = &it->second;
          } else {
            for (const auto& [locale, values] : probe.attributes.localized) {
              auto it = values.find(name);
              if (it != values.end()) {
                tag = locale;
                value = &it->second;
                break;
              }
            }
          }
          if (value == nullptr) continue;
          std::vector<int32_t> expected;
          for (const auto& e : members) {
            const auto& values = a.localized
                                     ? (e.attributes.localized.contains(tag) ? e.attributes.localized.at(tag)
                                                                             : std::map<std::string, Value>{})
                                     : e.attributes.global;
            auto v = values.find(name);
            if (v != values.end() && v->second == *value) expected.push_back(e.primary_key);
          }
          auto got = catalog->FilterEquals("Product", name, tag, *value, global);
          REQUIRE_MESSAGE(got.ok(), got.status().ToString());
          CHECK(*got == expected);
          (a.localized ? localized_checks : global_checks) += 1;
          archived_checks += scope == Scope::kArchived;
          break;
        }
      }
      // The index holds exactly the scope's entities; each reference is a
      // facet exactly where the schema makes it one.
      std::vector<int32_t> member_pks;
      for (const auto& e : members) member_pks.push_back(e.primary_key);
      CHECK(*catalog->Members("Product", global) == member_pks);
      for (const auto& [reference_name, rs] : schema.references) {
        const std::string& reference = reference_name;  // as above
        for (int32_t target = 1; target <= 5; ++target) {
          std::vector<int32_t> expected;
          if (In(rs.faceted_in_scopes, scope)) {
            for (const auto& e : members) {
              if (References(e, reference, target)) expected.push_back(e.primary_key);
            }
          }
          auto facet = catalog->FacetMembers("Product", reference, target, global);
          REQUIRE_OK(facet);
          CHECK_MESSAGE(*facet == expected, reference, " -> ", target);
          facet_checks += !expected.empty();
          unfaceted_checks += !In(rs.faceted_in_scopes, scope);
        }
      }
      if (In(schema.attributes.at("code").sortable_in_scopes, scope)) {
        for (const auto direction : {OrderDirection::kAsc, OrderDirection::kDesc}) {
          auto sorted = catalog->SortBy("Product", "code", "", direction, global);
          REQUIRE_OK(sorted);
          CHECK(*sorted == ByCode(members, direction));
          ++sort_checks;
        }
      }
      for (const char* range : {"-1000000:1000000", "0:100", "-50.5:99999.99"}) {
        const std::string text = range;
        const BigDecimal from = *BigDecimal::Parse(text.substr(0, text.find(':')));
        const BigDecimal to = *BigDecimal::Parse(text.substr(text.find(':') + 1));
        for (const std::string currency : {"CZK", "EUR"}) {
          auto got = catalog->PriceBetween("Product", "basic", *Currency::Parse(currency), from, to, global);
          if (!In(schema.price_indexed_in_scopes, scope)) continue;
          REQUIRE_OK(got);
          CHECK(*got == PricedBetween(products, schema, global, "basic", currency, from, to));
        }
      }
    }
    CHECK(global_checks >= 4);
    CHECK(localized_checks >= 1);
    CHECK(archived_checks >= 1);
    CHECK(sort_checks >= 2);
    CHECK(facet_checks >= 3);
    CHECK(unfaceted_checks >= 3);

    // Reduced indexes: order, prices and facets within one category's partition.
    int reduced_checks = 0;
    for (int32_t category = 1; category <= 20; ++category) {
      const IndexScope reduced{"categories", category};
      std::vector<Entity> members;
      for (const auto& e : products) {
        if (e.scope == Scope::kLive && References(e, "categories", category)) members.push_back(e);
      }
      if (members.empty()) continue;
      ++reduced_checks;
      std::vector<int32_t> member_pks;
      for (const auto& e : members) member_pks.push_back(e.primary_key);
      CHECK(*catalog->Members("Product", reduced) == member_pks);
      CHECK(*catalog->SortBy("Product", "code", "", OrderDirection::kDesc, reduced) ==
            ByCode(members, OrderDirection::kDesc));
      const BigDecimal from = *BigDecimal::Parse("-99999"), to = *BigDecimal::Parse("99999");
      auto priced = catalog->PriceBetween("Product", "basic", *Currency::Parse("CZK"), from, to, reduced);
      REQUIRE_OK(priced);
      CHECK(*priced == PricedBetween(products, schema, reduced, "basic", "CZK", from, to));
      for (int32_t value = 1; value <= 20; ++value) {
        std::vector<int32_t> expected;
        for (const auto& e : members) {
          if (References(e, "parameterValues", value)) expected.push_back(e.primary_key);
        }
        auto facet = catalog->FacetMembers("Product", "parameterValues", value, reduced);
        REQUIRE_OK(facet);
        CHECK(*facet == expected);
      }
    }
    CHECK(reduced_checks >= 5);
  }
}

TEST_CASE("an entity replaced with other references leaves the reduced indexes it no longer belongs to") {
  testing::TempDir dir;
  auto engine = OpenEngine(dir.path());
  const auto all = LoadTiny(*engine, 5);
  Catalog* catalog = *engine->GetCatalog("tiny");
  const auto products = OfType(all, "Product");
  auto moved = std::find_if(products.begin(), products.end(), [](const Entity& e) {
    return e.scope == Scope::kLive && std::any_of(e.references.begin(), e.references.end(),
                                                  [](const Reference& r) { return r.name == "categories"; });
  });
  REQUIRE(moved != products.end());
  Entity replaced = *moved;
  std::set<int32_t> left;
  for (const auto& r : replaced.references) {
    if (r.name == "categories") left.insert(r.referenced.primary_key);
  }
  std::erase_if(replaced.references, [](const Reference& r) { return r.name == "categories"; });
  REQUIRE_OK(catalog->Upsert(replaced));
  for (const int32_t category : left) {
    CAPTURE(category);
    const IndexScope reduced{"categories", category};
    auto members = catalog->Members("Product", reduced);
    REQUIRE_OK(members);
    CHECK(std::find(members->begin(), members->end(), replaced.primary_key) == members->end());
    auto sorted = catalog->SortBy("Product", "code", "", OrderDirection::kAsc, reduced);
    CHECK(std::find(sorted->begin(), sorted->end(), replaced.primary_key) == sorted->end());
  }
  auto everyone = catalog->Members("Product");
  CHECK(std::find(everyone->begin(), everyone->end(), replaced.primary_key) != everyone->end());
}

TEST_CASE("decimals are compared at their indexed places, rounded half away from zero") {
  CatalogSchema schema = WordsSchema();
  AttributeSchema weight;
  weight.name = "weight";
  weight.type = ValueType::kBigDecimal;
  weight.nullable = true;
  weight.indexed_decimal_places = 1;
  weight.filterable_in_scopes = {Scope::kLive};
  schema.entities.at("Word").attributes.emplace("weight", weight);
  testing::TempDir dir;
  auto engine = OpenEngine(dir.path());
  Catalog* catalog = *engine->CreateCatalog(schema);
  auto decimal = [](const std::string& text) {
    return *Value::Make(ValueType::kBigDecimal, {*BigDecimal::Parse(text)});
  };
  const std::vector<std::string> weights = {"2.25", "2.3", "2.24", "-2.25", "-2.3", "2.35e0", "0.05"};
  for (size_t i = 0; i < weights.size(); ++i) {
    Entity e = Named("Word", static_cast<int32_t>(i + 1), "w");
    e.attributes.global.emplace("weight", decimal(weights[i]));
    REQUIRE_OK(catalog->Upsert(e));
  }
  auto equal = [&](const std::string& v) { return *catalog->FilterEquals("Word", "weight", "", decimal(v)); };
  CHECK(equal("2.3") == std::vector<int32_t>{1, 2});   // 2.25 -> 2.3
  CHECK(equal("2.2") == std::vector<int32_t>{3});      // 2.24 -> 2.2
  CHECK(equal("-2.3") == std::vector<int32_t>{4, 5});  // -2.25 -> -2.3
  CHECK(equal("2.4") == std::vector<int32_t>{6});      // 2.35 -> 2.4
  CHECK(equal("0.1") == std::vector<int32_t>{7});      // 0.05 -> 0.1
  CHECK(equal("0.0").empty());
  CHECK(engine::ScaleDecimal(*BigDecimal::Parse("7.125"), 2) == 713);
  CHECK(engine::ScaleDecimal(*BigDecimal::Parse("-0.5"), 0) == -1);
  CHECK(engine::ScaleDecimal(*BigDecimal::Parse("0.49"), 0) == 0);
  CHECK(engine::ScaleDecimal(*BigDecimal::Parse("2.5e8"), 2) == 25'000'000'000);
  CHECK(engine::ScaleDecimal(*BigDecimal::Parse("1e-7"), 4) == 0);
}

// Regression: every faceted reference's facets were copied into the reduced
// indexes of filtering-only references and into group indexes; evitaDB gates
// facets to the global index and to reduced indexes of partitioning
// references (docs/engine.md). tiny: brand and categories partition,
// parameterValues (faceted, by value and by group) only filters.
TEST_CASE("facets stay out of filtering-only reduced and group indexes (evitaDB's facet gate)") {
  testing::TempDir dir;
  auto engine = OpenEngine(dir.path());
  const auto products = OfType(LoadTiny(*engine, 4), "Product");
  Catalog* catalog = *engine->GetCatalog("tiny");
  auto faceted = [](const Entity& e, const std::string& reference, int32_t* target, int32_t* group) {
    for (const Reference& r : e.references) {
      if (r.name != reference || !r.group) continue;
      *target = r.referenced.primary_key;
      *group = r.group->primary_key;
      return true;
    }
    return false;
  };
  int gated = 0;
  for (const Entity& e : products) {
    int32_t value = 0, parameter = 0;
    if (e.scope != Scope::kLive || !faceted(e, "parameterValues", &value, &parameter)) continue;
    const IndexScope by_value{"parameterValues", value};
    const IndexScope by_parameter{"parameterValues", parameter, Scope::kLive,
                                  IndexKind::kReferencedGroupEntity};
    // The entity is in both filtering-only indexes, with none of its facets.
    const auto in_value = *catalog->Members("Product", by_value);
    const auto in_parameter = *catalog->Members("Product", by_parameter);
    REQUIRE(std::count(in_value.begin(), in_value.end(), e.primary_key) == 1);
    REQUIRE(std::count(in_parameter.begin(), in_parameter.end(), e.primary_key) == 1);
    for (const IndexScope& filtering : {by_value, by_parameter}) {
      CHECK(catalog->FacetMembers("Product", "parameterValues", value, filtering)->empty());
      CHECK(catalog->FacetGroupMembers("Product", "parameterValues", parameter, filtering)->empty());
      for (const Reference& r : e.references) {
        if (r.name == "brand" || r.name == "categories") {
          CHECK(catalog->FacetMembers("Product", r.name, r.referenced.primary_key, filtering)->empty());
        }
      }
    }
    // The global index and a partitioning reduced index holding it have the facet.
    auto global = *catalog->FacetMembers("Product", "parameterValues", value);
    CHECK(std::count(global.begin(), global.end(), e.primary_key) == 1);
    for (const Reference& r : e.references) {
      if (r.name != "brand") continue;
      auto reduced = *catalog->FacetMembers("Product", "parameterValues", value,
                                            IndexScope{"brand", r.referenced.primary_key});
      CHECK(std::count(reduced.begin(), reduced.end(), e.primary_key) == 1);
    }
    ++gated;
  }
  CHECK(gated >= 5);
}

// The facet postings the engine makes for a reference whose facets evitaDB
// limits by an expression it does not evaluate (tiny's parameterValues,
// facetedPartially in the live scope), counted for the report's caveat.
// Oracle from the entities and docs/engine.md: a live product's distinct
// (group, value) facets go into the global index and into every partitioning
// reduced index holding it (one per distinct brand and category it references).
TEST_CASE("goLive counts the facet postings of references faceted by an unevaluated expression") {
  testing::TempDir dir;
  auto engine = OpenEngine(dir.path());
  const auto products = OfType(LoadTiny(*engine, 4), "Product");
  Catalog* catalog = *engine->GetCatalog("tiny");
  REQUIRE_OK(catalog->GoLive());
  int64_t expected = 0;
  for (const Entity& e : products) {
    if (e.scope != Scope::kLive) continue;
    std::set<std::pair<int32_t, int32_t>> facets;
    std::set<std::pair<std::string, int32_t>> partitions;
    for (const Reference& r : e.references) {
      if (r.name == "parameterValues")
        facets.emplace(r.group ? r.group->primary_key : 0, r.referenced.primary_key);
      if (r.name == "brand" || r.name == "categories") partitions.emplace(r.name, r.referenced.primary_key);
    }
    expected += static_cast<int64_t>(facets.size() * (1 + partitions.size()));
  }
  REQUIRE(expected > 0);
  int64_t counted = 0;
  for (const CollectionIndexStatistics& c : catalog->index_statistics()) {
    CAPTURE(c.entity_type);
    if (c.entity_type != "Product") CHECK(c.conditional_facets == 0);
    counted += c.conditional_facets;
  }
  CHECK(counted == expected);
}

// Regression: type indexes kept the chain entries of a reference's
// ReferencedEntityPredecessor attribute; evitaDB reaches its chain index
// through insertSortAttribute, which ReferencedTypeEntityIndex makes a no-op.
TEST_CASE("regression: type indexes keep no chain entries, reduced indexes do") {
  CatalogSchema schema;
  schema.name = "chained";
  EntitySchema shelf;
  shelf.name = "Shelf";
  ReferenceSchema items;
  items.name = "items";
  items.referenced_entity_type = "Item";
  items.index_types = {{Scope::kLive, ReferenceIndexType::kForFilteringAndPartitioning}};
  AttributeSchema position;
  position.name = "position";
  position.kind = AttributeSchemaKind::kReference;
  position.type = ValueType::kReferencedEntityPredecessor;
  position.sortable_in_scopes = {Scope::kLive};
  items.attributes.emplace("position", position);
  shelf.references.emplace("items", items);
  schema.entities.emplace("Shelf", shelf);
  auto item = [](int32_t pk, std::optional<int32_t> after) {
    Reference r{"items", {"Item", pk}, std::nullopt, {}};
    r.attributes.global.emplace("position",
                                *Value::Make(ValueType::kReferencedEntityPredecessor, {Predecessor{after}}));
    return r;
  };
  testing::TempDir dir;
  auto engine = OpenEngine(dir.path());
  Catalog* catalog = *engine->CreateCatalog(schema);
  Entity e;
  e.type = "Shelf";
  e.primary_key = 1;
  e.references = {item(10, std::nullopt), item(11, 10)};
  REQUIRE_OK(catalog->Upsert(e));
  IndexScope type_index{"items", 0, Scope::kLive, IndexKind::kReferencedEntityType};
  type_index.reference_attributes = true;
  CHECK(catalog->SortBy("Shelf", "position", "", OrderDirection::kAsc, type_index)->empty());
  IndexScope reduced{"items", 10};
  reduced.reference_attributes = true;
  CHECK(*catalog->SortBy("Shelf", "position", "", OrderDirection::kAsc, reduced) == std::vector<int32_t>{1});
}

// Regression: type indexes counted sort postings (attribute and compound) of
// every reference; evitaDB's ReferencedTypeEntityIndex keeps none, while a
// reduced index sorts its members by the reference's attributes.
TEST_CASE("type indexes keep no sort postings, reduced indexes do (evitaDB's ReferencedTypeEntityIndex)") {
  testing::TempDir dir;
  auto engine = OpenEngine(dir.path());
  const auto products = OfType(LoadTiny(*engine, 4), "Product");
  Catalog* catalog = *engine->GetCatalog("tiny");
  IndexScope type_index{"categories", 0, Scope::kLive, IndexKind::kReferencedEntityType};
  type_index.reference_attributes = true;
  int sorted = 0;
  for (const Entity& e : products) {
    if (e.scope != Scope::kLive) continue;
    for (const Reference& r : e.references) {
      if (r.name != "categories") continue;
      IndexScope reduced{"categories", r.referenced.primary_key};
      reduced.reference_attributes = true;
      for (const auto& localized : r.attributes.localized) {
        // Named, not bound: clang before 16 cannot capture a structured binding.
        const std::string& locale = localized.first;
        if (!localized.second.contains("label")) continue;
        CAPTURE(locale);
        for (const char* attribute : {"label", "byLabel"}) {
          CAPTURE(attribute);
          const auto in_reduced =
              *catalog->SortBy("Product", attribute, locale, OrderDirection::kAsc, reduced);
          CHECK(std::count(in_reduced.begin(), in_reduced.end(), e.primary_key) == 1);
          CHECK(catalog->SortBy("Product", attribute, locale, OrderDirection::kAsc, type_index)->empty());
        }
        ++sorted;
      }
    }
  }
  CHECK(sorted >= 3);
}

// A reduced index refers to the global index's price records, as evitaDB's
// PriceListAndCurrencyPriceRefIndex does: it keeps price ids, entities,
// validity (every price, docs/engine.md) and a tree of references to the
// records by internal id (its addPrice inserts the shared record there), and
// no records or entity -> prices map of its own; its snapshot brings back the
// same, the references rebuilt from the price ids as evitaDB's
// restorePriceRecordsFrom does. Postings: its entity, its two price ids, its
// two references, and a start and an end per price in the validity index
// (the unbounded one's at evitaDB's border points).
TEST_CASE(
    "issue 52: a reduced index keeps price ids, entities, validity and a reference to each price's record "
    "in the global index") {
  engine::IndexEntries entries;
  engine::PriceEntry unbounded;
  unbounded.key = 0;
  unbounded.internal_id = 11;
  unbounded.with_tax = 100;
  engine::PriceEntry bounded = unbounded;
  bounded.internal_id = 12;
  bounded.has_validity = true;
  bounded.valid_from = 1'000;
  bounded.valid_to = 2'000;
  entries.prices = {unbounded, bounded};

  auto check = [](const engine::EntityIndex& index, const std::vector<int32_t>& ids) {
    const engine::EntityIndex::PriceIndex* prices = index.Prices(0);
    REQUIRE(prices != nullptr);
    CHECK(prices->own == nullptr);
    CHECK(prices->price_ids.ToVector() == ids);
    CHECK(std::vector<int32_t>(prices->referenced_records.begin(), prices->referenced_records.end()) == ids);
    CHECK(prices->entities.ToVector() == std::vector<int32_t>{7});
    CHECK(engine::ToVector(engine::EntityIndex::ValidAt(*prices, 1'500)) == ids);
    CHECK(engine::ToVector(engine::EntityIndex::ValidAt(*prices, 2'500)) == std::vector<int32_t>{11});
  };
  engine::ValueDictionary values;
  engine::EntityIndex reduced(&values, engine::EntityIndex::PriceRecords::kInGlobalIndex);
  reduced.Add(7, entries);
  check(reduced, {11, 12});
  CHECK(reduced.Counts().entries == 1 + 2 + 2 + 2 * 2);

  engine::EntityIndex loaded =
      SavedAndLoaded(reduced, &values, engine::EntityIndex::PriceRecords::kInGlobalIndex);
  check(loaded, {11, 12});

  // One price leaving takes its reference with it (and its entity, since an
  // entity's prices leave a reduced index together); the last one, the rest.
  engine::IndexEntries bounded_only;
  bounded_only.prices = {bounded};
  loaded.Remove(7, bounded_only);
  const engine::EntityIndex::PriceIndex* left = loaded.Prices(0);
  REQUIRE(left != nullptr);
  CHECK(std::vector<int32_t>(left->referenced_records.begin(), left->referenced_records.end()) ==
        std::vector<int32_t>{11});
  CHECK(loaded.Counts().entries == 1 + 1 + 2);  // the price id 11, its reference, its start and end
  engine::IndexEntries unbounded_only;
  unbounded_only.prices = {unbounded};
  loaded.Remove(7, unbounded_only);
  CHECK(loaded.Prices(0) == nullptr);
  CHECK(loaded.Counts().entries == 0);
}

// A global index's entity -> prices map (evitaDB's entityPrices of
// PriceListAndCurrencyPriceSuperIndex) holds one id in place and several
// apart; either way an entity leaves the price index with its last price, and
// a snapshot brings back the same.
TEST_CASE(
    "a global index lists an entity's one or several prices in ascending id, and drops it with its last") {
  auto price = [](int32_t internal_id) {
    engine::PriceEntry p;
    p.key = 0;
    p.internal_id = internal_id;
    p.with_tax = 100 + internal_id;
    return p;
  };
  engine::ValueDictionary values;
  engine::EntityIndex global(&values);
  engine::IndexEntries one;
  one.prices = {price(4)};
  engine::IndexEntries three;
  three.prices = {price(9), price(3), price(5)};
  global.Add(1, one);
  global.Add(2, three);
  auto prices_of = [](const engine::EntityIndex& index, int32_t pk) {
    const engine::EntityIndex::PriceIndex* prices = index.Prices(0);
    REQUIRE(prices != nullptr);
    REQUIRE(prices->own != nullptr);
    const auto ids = prices->own->PricesOf(pk);
    return std::vector<int32_t>(ids.begin(), ids.end());
  };
  CHECK(prices_of(global, 1) == std::vector<int32_t>{4});
  CHECK(prices_of(global, 2) == std::vector<int32_t>{3, 5, 9});
  CHECK(prices_of(global, 3).empty());
  engine::EntityIndex loaded = SavedAndLoaded(global, &values, engine::EntityIndex::PriceRecords::kOwn);
  CHECK(prices_of(loaded, 2) == std::vector<int32_t>{3, 5, 9});

  // Down to one price, then none: the entity stays while it has one.
  engine::IndexEntries two_gone;
  two_gone.prices = {price(3), price(9)};
  loaded.Remove(2, two_gone);
  CHECK(prices_of(loaded, 2) == std::vector<int32_t>{5});
  CHECK(loaded.Prices(0)->entities.ToVector() == std::vector<int32_t>{1, 2});
  engine::IndexEntries last;
  last.prices = {price(5)};
  loaded.Remove(2, last);
  CHECK(prices_of(loaded, 2).empty());
  CHECK(loaded.Prices(0)->entities.ToVector() == std::vector<int32_t>{1});
  // A price added back after the entity had several is one again.
  loaded.Add(2, last);
  CHECK(prices_of(loaded, 2) == std::vector<int32_t>{5});

  // The same id twice is one price, in either form; an id the entity does not
  // have removes nothing, and with two ids both are listed.
  loaded.Add(2, last);
  CHECK(prices_of(loaded, 2) == std::vector<int32_t>{5});
  engine::IndexEntries absent;
  absent.prices = {price(6)};
  loaded.Remove(2, absent);
  CHECK(prices_of(loaded, 2) == std::vector<int32_t>{5});
  CHECK(loaded.Prices(0)->entities.ToVector() == std::vector<int32_t>{1, 2});
  engine::IndexEntries second;
  second.prices = {price(2)};
  loaded.Add(2, second);
  loaded.Add(2, second);
  CHECK(prices_of(loaded, 2) == std::vector<int32_t>{2, 5});
  loaded.Remove(2, absent);
  CHECK(prices_of(loaded, 2) == std::vector<int32_t>{2, 5});
}

// Internal price ids are not negative, and the entity -> prices map marks an
// entity with several prices by -1: a snapshot that holds a negative id is
// refused as corrupt, naming it, instead of loading an entity that reads as
// having several prices none of which exist.
TEST_CASE("a snapshot with a negative internal price id is refused as data loss, not loaded") {
  engine::PriceEntry p;
  p.key = 0;
  p.internal_id = -1;
  engine::IndexEntries entries;
  entries.prices = {p};
  engine::ValueDictionary values;
  engine::EntityIndex global(&values);
  global.Add(3, entries);
  testing::TempDir dir;
  const std::string path = dir.path() + "/negative.index";
  REQUIRE_OK(engine::WriteIndexFile(engine::DefaultEnv(), path,
                                    [&](engine::IndexWriter& out) { global.Save(out); }));
  engine::EntityIndex loaded(&values);
  const Status status =
      engine::ReadIndexFile(engine::DefaultEnv(), path, [&](engine::IndexReader& in) { loaded.Load(in); });
  CHECK(status.code() == StatusCode::kDataLoss);
  CHECK(status.message().find("negative internal price id -1") != std::string::npos);
}

// Regression: a global index's internal price id was read as an int64 and
// cast to int32 before the check for a negative one, so a stored 2^32 + 5
// loaded as price 5. Both index kinds now read it through
// NonNegativeI32, which refuses what is outside 0 .. 2^31 - 1.
TEST_CASE("a stored price id above 2^31 - 1 was truncated to int32 and loaded as another id, now refused") {
  testing::TempDir dir;
  const std::string path = dir.path() + "/ids.index";
  auto read_back = [&](int64_t stored, int32_t* id) {
    REQUIRE_OK(engine::WriteIndexFile(engine::DefaultEnv(), path, [&](engine::IndexWriter& out) {
      out.I64(stored);
      out.U64(7);  // a value after it, read only while the snapshot stands
    }));
    return engine::ReadIndexFile(engine::DefaultEnv(), path, [&](engine::IndexReader& in) {
      *id = in.NonNegativeI32("internal price id");
      CHECK(in.U64() == (in.status().ok() ? 7U : 0U));
    });
  };
  int32_t id = -1;
  REQUIRE_OK(read_back(5, &id));
  CHECK(id == 5);
  REQUIRE_OK(read_back(std::numeric_limits<int32_t>::max(), &id));
  CHECK(id == std::numeric_limits<int32_t>::max());
  const Status wide = read_back((int64_t{1} << 32) + 5, &id);
  CHECK(wide.code() == StatusCode::kDataLoss);
  CHECK_MESSAGE(
      wide.message().find("internal price id 4294967301 outside 0 .. 2^31 - 1") != std::string::npos,
      wide.message());
  CHECK(id == 0);
  const Status negative = read_back(-1, &id);
  CHECK(negative.code() == StatusCode::kDataLoss);
  CHECK_MESSAGE(negative.message().find("negative internal price id -1") != std::string::npos,
                negative.message());
}

// A reduced index's price ids are read back as uint32; one of 2^31 or more
// would put its top bit where a validity edge keeps its side, and read as an
// end. A price id that is not a non-negative int32 is refused, not loaded.
TEST_CASE("a reduced index snapshot with a price id of 2^31 or more is refused as data loss, not loaded") {
  engine::PriceEntry p;
  p.key = 0;
  p.internal_id = -5;  // held as the posting 2^32 - 5
  engine::IndexEntries entries;
  entries.prices = {p};
  engine::ValueDictionary values;
  engine::EntityIndex reduced(&values, engine::EntityIndex::PriceRecords::kInGlobalIndex);
  reduced.Add(3, entries);
  testing::TempDir dir;
  const std::string path = dir.path() + "/wide.index";
  REQUIRE_OK(engine::WriteIndexFile(engine::DefaultEnv(), path,
                                    [&](engine::IndexWriter& out) { reduced.Save(out); }));
  engine::EntityIndex loaded(&values, engine::EntityIndex::PriceRecords::kInGlobalIndex);
  const Status status =
      engine::ReadIndexFile(engine::DefaultEnv(), path, [&](engine::IndexReader& in) { loaded.Load(in); });
  CHECK(status.code() == StatusCode::kDataLoss);
  CHECK_MESSAGE(status.message().find("outside 0 .. 2^31 - 1") != std::string::npos, status.message());
}

// Validity as evitaDB's RangeIndex holds it: a point per threshold with the
// prices starting and ending there. Hand-worked: three prices without
// validity share the int64 extremes, [1000, 2000] and [2000, 3000] add
// points 1000, 2000 and 3000, so five points; a price is valid at a moment
// between its bounds, both included.
TEST_CASE("price validity is kept as threshold points, shared by prices with the same bounds") {
  engine::IndexEntries entries;
  for (int32_t id : {1, 2, 3}) {
    engine::PriceEntry unbounded;
    unbounded.internal_id = id;
    entries.prices.push_back(unbounded);
  }
  engine::PriceEntry early;
  early.internal_id = 4;
  early.has_validity = true;
  early.valid_from = 1'000;
  early.valid_to = 2'000;
  engine::PriceEntry late = early;
  late.internal_id = 5;
  late.valid_from = 2'000;
  late.valid_to = 3'000;
  entries.prices.push_back(early);
  entries.prices.push_back(late);

  engine::ValueDictionary values;
  engine::EntityIndex index(&values);
  index.Add(9, entries);
  const engine::EntityIndex::PriceIndex* prices = index.Prices(0);
  REQUIRE(prices != nullptr);
  std::vector<int64_t> thresholds;
  std::map<int64_t, std::pair<std::vector<int32_t>, std::vector<int32_t>>> points;
  auto read_points = [&] {
    thresholds.clear();
    points.clear();
    prices->validity.ForEach([&](int64_t threshold, const engine::ValidityIndex::Point& point) {
      thresholds.push_back(threshold);
      points[threshold] = {point.starts.ToVector(), point.ends.ToVector()};
    });
  };
  read_points();
  CHECK(thresholds == std::vector<int64_t>{std::numeric_limits<int64_t>::min(), 1'000, 2'000, 3'000,
                                           std::numeric_limits<int64_t>::max()});
  CHECK(points[std::numeric_limits<int64_t>::min()].first == std::vector<int32_t>{1, 2, 3});
  CHECK(points[std::numeric_limits<int64_t>::max()].second == std::vector<int32_t>{1, 2, 3});
  CHECK(points[2'000].first == std::vector<int32_t>{5});
  CHECK(points[2'000].second == std::vector<int32_t>{4});

  auto valid_at = [&](int64_t moment) {
    return engine::ToVector(engine::EntityIndex::ValidAt(*prices, moment));
  };
  CHECK(valid_at(999) == std::vector<int32_t>{1, 2, 3});
  CHECK(valid_at(1'000) == std::vector<int32_t>{1, 2, 3, 4});
  CHECK(valid_at(2'000) == std::vector<int32_t>{1, 2, 3, 4, 5});
  CHECK(valid_at(2'001) == std::vector<int32_t>{1, 2, 3, 5});
  CHECK(valid_at(3'000) == std::vector<int32_t>{1, 2, 3, 5});
  CHECK(valid_at(3'001) == std::vector<int32_t>{1, 2, 3});
  CHECK(valid_at(std::numeric_limits<int64_t>::min()) == std::vector<int32_t>{1, 2, 3});
  CHECK(valid_at(std::numeric_limits<int64_t>::max()) == std::vector<int32_t>{1, 2, 3});
  // Postings: the entity; per price its id, its record, its id under the
  // entity, and a start and an end (membership is AddMember's, not made here).
  CHECK(index.Counts().entries == 1 + 5 * 5);

  // Removing the price that alone starts at 1000 drops that point; 2000 stays
  // while the other price still starts there.
  engine::IndexEntries gone;
  gone.prices = {early};
  index.Remove(9, gone);
  read_points();
  CHECK(thresholds == std::vector<int64_t>{std::numeric_limits<int64_t>::min(), 2'000, 3'000,
                                           std::numeric_limits<int64_t>::max()});
  CHECK(valid_at(1'500) == std::vector<int32_t>{1, 2, 3});
}

// A price without validity is recorded only among the index's price ids and
// read as starting at the minimum and ending at the maximum; a price open at
// one end keeps an edge at that extreme. Hand-worked: prices 1 and 2 are
// unbounded, 3 runs from the minimum to 1500, 4 from 2500 to the maximum.
TEST_CASE("prices open at one or both ends read as evitaDB's extremes, before and after a removal") {
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  engine::IndexEntries entries;
  auto price = [&](int32_t id, int64_t from, int64_t to) {
    engine::PriceEntry p;
    p.internal_id = id;
    p.has_validity = from != kMin || to != kMax;
    p.valid_from = from;
    p.valid_to = to;
    entries.prices.push_back(p);
  };
  price(1, kMin, kMax);
  price(2, kMin, kMax);
  price(3, kMin, 1'500);
  price(4, 2'500, kMax);
  engine::ValueDictionary values;
  engine::EntityIndex index(&values);
  index.Add(9, entries);
  const engine::EntityIndex::PriceIndex* prices = index.Prices(0);
  REQUIRE(prices != nullptr);
  std::map<int64_t, std::pair<std::vector<int32_t>, std::vector<int32_t>>> points;
  prices->validity.ForEach([&](int64_t threshold, const engine::ValidityIndex::Point& point) {
    points[threshold] = {point.starts.ToVector(), point.ends.ToVector()};
  });
  using Sides = std::pair<std::vector<int32_t>, std::vector<int32_t>>;
  CHECK(points ==
        std::map<int64_t, Sides>{
            {kMin, {{1, 2, 3}, {}}}, {1'500, {{}, {3}}}, {2'500, {{4}, {}}}, {kMax, {{}, {1, 2, 4}}}});
  auto valid_at = [&](int64_t moment) {
    return engine::ToVector(engine::EntityIndex::ValidAt(*prices, moment));
  };
  CHECK(valid_at(kMin) == std::vector<int32_t>{1, 2, 3});
  CHECK(valid_at(1'500) == std::vector<int32_t>{1, 2, 3});
  CHECK(valid_at(1'501) == std::vector<int32_t>{1, 2});
  CHECK(valid_at(2'500) == std::vector<int32_t>{1, 2, 4});
  CHECK(valid_at(kMax) == std::vector<int32_t>{1, 2, 4});
  CHECK(index.Counts().entries == 1 + 4 * 5);

  // The unbounded price 2 and the half-open 3 leave.
  engine::IndexEntries gone;
  gone.prices = {entries.prices[1], entries.prices[2]};
  index.Remove(9, gone);
  CHECK(valid_at(0) == std::vector<int32_t>{1});
  CHECK(valid_at(kMax) == std::vector<int32_t>{1, 4});
}

// evitaDB's price indexes record every price's validity
// (AbstractPriceListAndCurrencyPriceIndex.addValidity): one without validity
// as RangeIndex.addRecord(Long.MIN_VALUE, Long.MAX_VALUE, id), a start in the
// minimum's border point and an end in the maximum's. Hand-worked: three
// prices without validity, one from a moment on, one until a moment, one
// bounded: six prices, twelve starts and ends; each removal takes its two.
TEST_CASE("issue 52: the validity index records every price, one without validity at both border points") {
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  const std::vector<std::pair<int64_t, int64_t>> bounds = {{kMin, kMax}, {kMin, kMax}, {kMin, kMax},
                                                           {500, kMax},  {kMin, 700},  {100, 200}};
  engine::ValidityIndex validity;
  for (size_t i = 0; i < bounds.size(); ++i) {
    validity.Add(bounds[i].first, bounds[i].second, static_cast<uint32_t>(i + 1));
  }
  CHECK(validity.entries() == 12);
  std::map<int64_t, std::pair<std::vector<int32_t>, std::vector<int32_t>>> points;
  validity.ForEach([&](int64_t threshold, const engine::ValidityIndex::Point& point) {
    points[threshold] = {point.starts.ToVector(), point.ends.ToVector()};
  });
  using Sides = std::pair<std::vector<int32_t>, std::vector<int32_t>>;
  CHECK(points == std::map<int64_t, Sides>{{kMin, {{1, 2, 3, 5}, {}}},
                                           {100, {{6}, {}}},
                                           {200, {{}, {6}}},
                                           {500, {{4}, {}}},
                                           {700, {{}, {5}}},
                                           {kMax, {{}, {1, 2, 3, 4}}}});
  for (size_t i = 0; i < bounds.size(); ++i) {
    validity.Remove(bounds[i].first, bounds[i].second, static_cast<uint32_t>(i + 1));
    CHECK(validity.entries() == 12 - 2 * (i + 1));
  }
  CHECK(validity.ValidAt(0).isEmpty());
}

// The validity index packs a threshold into two 32-bit words with its sign
// bit flipped; thresholds either side of zero and of every 32-bit boundary
// must still come back in int64 order, each with its own price's bounds.
TEST_CASE("validity thresholds either side of zero and of 32-bit boundaries keep their int64 order") {
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  const std::vector<std::pair<int64_t, int64_t>> bounds = {
      {-1, 0},
      {-(int64_t{1} << 32), -(int64_t{1} << 32) + 1},
      {(int64_t{1} << 32) - 1, int64_t{1} << 32},
      {kMin + 1, -(int64_t{1} << 31)},
      {int64_t{1} << 31, kMax - 1},
      {-5, int64_t{1} << 40},
  };
  engine::ValidityIndex validity;
  engine::PkSet ids;
  for (size_t i = 0; i < bounds.size(); ++i) {
    const auto id = static_cast<uint32_t>(i + 1);
    validity.Add(bounds[i].first, bounds[i].second, id);
    ids.Add(id);
  }
  const auto top_id = (1U << 31) - 1;  // the largest id an edge holds
  validity.Add(7, 8, top_id);
  ids.Add(top_id);

  std::vector<int64_t> expected = {7, 8};
  for (const auto& [from, to] : bounds) {
    expected.push_back(from);
    expected.push_back(to);
  }
  std::sort(expected.begin(), expected.end());
  std::vector<int64_t> thresholds;
  validity.ForEach(
      [&](int64_t threshold, const engine::ValidityIndex::Point&) { thresholds.push_back(threshold); });
  CHECK(thresholds == expected);

  std::vector<engine::ValidityIndex::Span> spans;
  validity.ForEachByPrice(ids, [&](const engine::ValidityIndex::Span& span) { spans.push_back(span); });
  REQUIRE(spans.size() == bounds.size() + 1);
  for (size_t i = 0; i < bounds.size(); ++i) {
    CAPTURE(i);
    CHECK(spans[i].id == i + 1);
    CHECK(spans[i].from == bounds[i].first);
    CHECK(spans[i].to == bounds[i].second);
  }
  CHECK(spans.back().id == top_id);
  CHECK(spans.back().from == 7);
  CHECK(spans.back().to == 8);
  // Valid at -1: the price of [-1, 0], the one from kMin + 1 is over, the
  // one from -5 to 2^40 has begun.
  std::vector<int32_t> valid;
  for (uint32_t id : validity.ValidAt(-1)) valid.push_back(static_cast<int32_t>(id));
  CHECK(valid == std::vector<int32_t>{1, 6});
}

// The slots of an index are the ids it uses, not a vector as long as the
// largest: a structure under id 500 alone is one slot, and the snapshot still
// lays the ids out as 0 .. 500 for the reader.
TEST_CASE("an index keyed by a large key id alone holds one slot and saves as before") {
  engine::IdSlots<std::vector<int>> slots;
  CHECK(slots.Extent() == 0);
  slots[500].push_back(1);
  slots[3].push_back(2);
  CHECK(slots.Extent() == 501);
  CHECK(std::distance(slots.begin(), slots.end()) == 2);
  CHECK(slots.Find(4) == nullptr);
  REQUIRE(slots.Find(3) != nullptr);
  CHECK(*slots.Find(3) == std::vector<int>{2});
  CHECK(slots.begin()->first == 3);

  engine::IndexEntries entries;
  entries.filter = {{500, "key"}};
  entries.locales = {40};
  engine::ValueDictionary values;
  engine::EntityIndex index(&values);
  index.Add(5, entries);
  engine::ValueDictionary other_values;
  const engine::EntityIndex loaded =
      SavedAndLoaded(index, &other_values, engine::EntityIndex::PriceRecords::kOwn);
  CHECK(loaded.FilterEquals(500, "key") == std::vector<int32_t>{5});
  CHECK(loaded.FilterEquals(499, "key").empty());
  CHECK(loaded.WithLocale(40) == std::vector<int32_t>{5});
  CHECK(loaded.Counts().entries == index.Counts().entries);
}

// Long value keys are stored once per collection: two indexes holding the
// same long value share one string, short ones are held inline, and the maps
// order by the keys' bytes either way (keys go in descending, come out
// ascending).
TEST_CASE("indexes of one collection store each long value key once and order by the key") {
  engine::ValueDictionary values;
  engine::EntityIndex global(&values);
  engine::EntityIndex reduced(&values, engine::EntityIndex::PriceRecords::kInGlobalIndex);
  std::vector<int32_t> expected;
  for (int32_t pk = 1; pk <= 40; ++pk) {
    engine::IndexEntries entries;
    const std::string key = "a-long-value-key-" + std::to_string(100 - pk);  // ...99, ...98, ... ...60
    entries.filter = {{0, key}, {2, std::to_string(100 - pk)}};
    entries.sort = {{1, key}};
    global.Add(pk, entries);
    reduced.Add(pk, entries);
    expected.insert(expected.begin(), pk);
  }
  CHECK(values.size() == 40);
  CHECK(global.SortedBy(1, false) == expected);
  CHECK(reduced.SortedBy(1, false) == expected);
  CHECK(reduced.FilterRange(0, std::string("a-long-value-key-61"), true, std::string("a-long-value-key-63"),
                            false) == std::vector<int32_t>{38, 39});
  CHECK(reduced.FilterRange(2, std::string("61"), true, std::string("63"), false) ==
        std::vector<int32_t>{38, 39});
  CHECK(global.FilterEquals(0, "a-long-value-key-70") == std::vector<int32_t>{30});
  CHECK(global.FilterEquals(0, "a-long-value-key-7").empty());
}

// A value key orders, equals and hashes as the string it holds: checked
// against std::string's own order on keys around the inline limit (15
// bytes) and the 7-byte prefix a longer key keeps, with zero and 0xFF bytes.
TEST_CASE("value keys order and compare as their strings, inline or stored") {
  std::vector<std::string> keys = {"", std::string(1, '\0'), "a", std::string("a\0", 2), "ab"};
  const std::string alphabet = std::string("a\0\xff", 3);
  for (size_t length : {6U, 7U, 8U, 14U, 15U, 16U, 17U, 30U}) {
    for (char last : alphabet) {
      keys.push_back(std::string(length - 1, 'a') + last);
      keys.push_back(std::string(length - 1, '\xff') + last);
    }
  }
  engine::ValueDictionary values;
  std::vector<engine::HeldKey> held;
  for (const std::string& key : keys) held.push_back(values.Intern(key));
  auto sign = [](int v) { return (v > 0) - (v < 0); };
  int checked = 0;
  for (size_t i = 0; i < keys.size(); ++i) {
    CHECK(held[i].view() == keys[i]);
    for (size_t j = 0; j < keys.size(); ++j) {
      const int expected = sign(keys[i].compare(keys[j]));
      CHECK(sign(Compare(held[i], held[j])) == expected);
      CHECK(sign(Compare(held[i], keys[j])) == expected);
      CHECK((held[i] == held[j]) == (keys[i] == keys[j]));
      if (keys[i] == keys[j])
        CHECK(absl::Hash<engine::HeldKey>()(held[i]) == absl::Hash<engine::HeldKey>()(held[j]));
      ++checked;
    }
  }
  CHECK(checked == static_cast<int>(keys.size() * keys.size()));
  engine::HeldKey found;
  CHECK(values.Find(std::string(40, 'b'), &found) == false);  // never stored
  REQUIRE(values.Find(std::string(16, 'a') + '\0', &found));
  CHECK(found.view() == std::string(16, 'a') + '\0');
  REQUIRE(values.Find("short", &found));  // short keys need no storing
  CHECK(found.view() == "short");
}

// A global index's prices: the record keeps the price's own fields, its
// validity lives in the validity index, and the snapshot writes both back as
// the price was upserted. Saved, loaded and saved again, the bytes are the
// same, a validity given with both ends open and an inner record included.
TEST_CASE("a global index's prices survive a snapshot as upserted, validity and inner record included") {
  engine::IndexEntries entries;
  engine::PriceEntry plain;
  plain.internal_id = 21;
  plain.price_id = 1;
  plain.with_tax = 121;
  plain.without_tax = 100;
  engine::PriceEntry bounded = plain;
  bounded.internal_id = 22;
  bounded.price_id = 2;
  bounded.inner_record_id = 5;
  bounded.has_validity = true;
  bounded.valid_from = -3'000;
  bounded.valid_to = 4'000;
  engine::PriceEntry open_both = plain;
  open_both.internal_id = 23;
  open_both.price_id = 3;
  open_both.has_validity = true;  // a range given, both ends open
  entries.prices = {plain, bounded, open_both};

  engine::ValueDictionary values;
  engine::EntityIndex index(&values);
  index.Add(8, entries);
  const engine::EntityIndex::PriceIndex* prices = index.Prices(0);
  REQUIRE(prices != nullptr);
  REQUIRE(prices->own != nullptr);
  CHECK(prices->own->records.at(22).inner_record() == std::optional<int32_t>(5));
  CHECK(prices->own->records.at(21).inner_record() == std::nullopt);
  CHECK(prices->own->PricesOf(8).size() == 3);
  CHECK(engine::ToVector(engine::EntityIndex::ValidAt(*prices, 5'000)) == std::vector<int32_t>{21, 23});

  testing::TempDir dir;
  auto bytes_of = [&](const engine::EntityIndex& saved, const std::string& name) {
    const std::string path = dir.path() + "/" + name;
    REQUIRE_OK(engine::WriteIndexFile(engine::DefaultEnv(), path,
                                      [&](engine::IndexWriter& out) { saved.Save(out); }));
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  };
  const std::string first = bytes_of(index, "first.index");
  engine::EntityIndex loaded(&values);
  REQUIRE_OK(engine::ReadIndexFile(engine::DefaultEnv(), dir.path() + "/first.index",
                                   [&](engine::IndexReader& in) { loaded.Load(in); }));
  CHECK(bytes_of(loaded, "second.index") == first);
  const engine::EntityIndex::PriceIndex* reloaded = loaded.Prices(0);
  REQUIRE(reloaded != nullptr);
  REQUIRE(reloaded->own != nullptr);
  CHECK(reloaded->own->records.at(23).has_validity);
  CHECK(reloaded->own->records.at(22).price_id == 2);
  CHECK(engine::ToVector(engine::EntityIndex::ValidAt(*reloaded, -3'000)) ==
        std::vector<int32_t>{21, 22, 23});
}

// A predecessor attribute's chain index (evitaDB's ChainIndex for
// Predecessor): element -> predecessor and predecessor -> elements, read as
// each head's chain in ascending head order (successors of one element
// ascending), then the elements whose predecessor is missing, then what is
// left (cycles). Worked by hand: heads 1 and 10; 2 and 4 follow 1, 3 follows
// 2; 11 follows 10; 20 follows 99, which is absent, and 21 follows 20; 30
// and 31 follow each other.
TEST_CASE("a chain index orders heads' chains, then elements whose predecessor is missing, then cycles") {
  engine::ValueDictionary values;
  engine::EntityIndex index(&values);
  const std::vector<std::pair<int32_t, int32_t>> elements = {
      {3, 2}, {1, -1}, {4, 1}, {2, 1}, {11, 10}, {10, -1}, {21, 20}, {20, 99}, {31, 30}, {30, 31}};
  auto entries_of = [](int32_t predecessor) {
    engine::IndexEntries e;
    e.chains = {{0, predecessor}};
    return e;
  };
  for (const auto& [pk, predecessor] : elements) {
    index.AddMember(pk);
    index.Add(pk, entries_of(predecessor));
  }
  CHECK(index.ChainOrder(0) == std::vector<int32_t>{1, 2, 3, 4, 10, 11, 20, 21, 30, 31});
  CHECK(index.Counts().entries == 10 + 10);  // each member, and each element's predecessor
  CHECK(index.ChainOrder(1).empty());        // another attribute holds nothing

  engine::EntityIndex loaded = SavedAndLoaded(index, &values, engine::EntityIndex::PriceRecords::kOwn);
  CHECK(loaded.ChainOrder(0) == index.ChainOrder(0));

  // 2 leaves: 3 has lost its predecessor, 4 still follows 1.
  loaded.Remove(2, entries_of(1));
  loaded.RemoveMember(2);
  CHECK(loaded.ChainOrder(0) == std::vector<int32_t>{1, 4, 10, 11, 3, 20, 21, 30, 31});
}

// Facets of one reference are one map ordered by (group, facet): a facet's
// members are gathered over every group, a group's over its facets, and the
// snapshot still writes them group by group. Hand-worked: pk 1 has facet 5
// ungrouped, pk 2 facet 5 and 7 in group 2, pk 3 facet 1 in group 3.
TEST_CASE("facets are read by facet across groups and by group, and survive a snapshot") {
  engine::ValueDictionary values;
  engine::EntityIndex index(&values);
  auto add = [&](int32_t pk, std::vector<engine::FacetEntry> facets) {
    engine::IndexEntries entries;
    entries.facets = std::move(facets);
    index.Add(pk, entries);
  };
  add(1, {{.reference = 4, .group = 0, .facet = 5}});
  add(2, {{.reference = 4, .group = 2, .facet = 5}, {.reference = 4, .group = 2, .facet = 7}});
  add(3, {{.reference = 4, .group = 3, .facet = 1}});
  auto check = [](const engine::EntityIndex& read) {
    CHECK(read.FacetMembers(4, 5) == std::vector<int32_t>{1, 2});
    CHECK(read.FacetMembers(4, 7) == std::vector<int32_t>{2});
    CHECK(read.FacetMembers(4, 9).empty());
    CHECK(read.FacetMembers(3, 5).empty());
    CHECK(read.FacetGroupMembers(4, 2) == std::vector<int32_t>{2});
    CHECK(read.FacetGroupMembers(4, 0) == std::vector<int32_t>{1});
    CHECK(read.FacetGroupMembers(4, 3) == std::vector<int32_t>{3});
    CHECK(read.FacetGroupMembers(4, 1).empty());
    CHECK(read.Counts().entries == 4);
  };
  check(index);
  engine::EntityIndex loaded = SavedAndLoaded(index, &values, engine::EntityIndex::PriceRecords::kOwn);
  check(loaded);
  engine::IndexEntries gone;
  gone.facets = {{.reference = 4, .group = 2, .facet = 5}};
  loaded.Remove(2, gone);
  CHECK(loaded.FacetMembers(4, 5) == std::vector<int32_t>{1});
  CHECK(loaded.FacetGroupMembers(4, 2) == std::vector<int32_t>{2});
}

}  // namespace
}  // namespace warmup::engine_test
