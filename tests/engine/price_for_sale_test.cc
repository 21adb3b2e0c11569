// Price for sale against the worked examples of evitaDB's documentation
// ("Price for sale computation algorithm"): price-list priority, validity at a
// moment, and each inner-record handling (NONE for plain products,
// LOWEST_PRICE for products with variants, SUM for product sets), built here
// by hand and read back through the engine's price indexes.
#include <doctest/doctest.h>

#include <map>

#include "common/status_matchers.h"
#include "common/temp_dir.h"
#include "engine/engine_fixtures.h"

namespace warmup::engine_test {
namespace {

constexpr int64_t kJanuary1 = 1577836800;  // 2020-01-01T00:00:00Z
constexpr int64_t kHour = 3600;
constexpr int64_t kDay = 24 * kHour;

// Valid from `start_hour` of January 1st to the end of `end_hour` (an hour
// before midnight of January 31st per hour taken off), as in the examples.
DateTimeRange January(int start_hour, int hours_before_end) {
  return {DateTime{kJanuary1 + start_hour * kHour, 0, 0},
          DateTime{kJanuary1 + 31 * kDay - 1 - hours_before_end * kHour, 0, 0}};
}
const DateTime kNovember1At13{1604235600, 0, 0};  // 2020-11-01T13:00:00Z
const DateTime kJanuary2At13{kJanuary1 + kDay + 13 * kHour, 0, 0};

struct PriceRow {
  PriceRow(std::string l, std::string a, std::optional<DateTimeRange> v = std::nullopt)
      : list(std::move(l)), amount(std::move(a)), validity(v) {}
  std::string list;
  std::string amount;
  std::optional<DateTimeRange> validity;
};

// One entity of `type` with `handling`, its prices per inner record (0 = none).
Entity Priced(const std::string& type, int32_t pk, PriceInnerRecordHandling handling,
              const std::map<int32_t, std::vector<PriceRow>>& rows) {
  Entity e;
  e.type = type;
  e.primary_key = pk;
  e.price_inner_record_handling = handling;
  int32_t id = 1;
  for (const auto& [inner, prices] : rows) {
    for (const auto& row : prices) {
      Price p;
      p.price_id = id++;
      p.price_list = row.list;
      p.currency = *Currency::Parse("EUR");
      if (inner != 0) p.inner_record_id = inner;
      p.price_with_tax = *BigDecimal::Parse(row.amount);
      // Without tax a round 1 EUR less, so a WITHOUT_TAX query has its own answer.
      p.price_without_tax = *BigDecimal::Parse(std::to_string(std::stod(row.amount) - 1));
      p.tax_rate = *BigDecimal::Parse("0");
      p.validity = row.validity;
      e.prices.push_back(p);
    }
  }
  return e;
}

CatalogSchema Schema() {
  CatalogSchema schema;
  schema.name = "prices";
  for (const char* type : {"Phone", "Shirt", "Furniture"}) {
    EntitySchema es;
    es.name = type;
    es.with_price = true;
    es.indexed_price_places = 2;
    es.price_indexed_in_scopes = {Scope::kLive};
    es.currencies = {*Currency::Parse("EUR")};
    es.evolution_modes = AllEvolutionModes();
    schema.entities.emplace(type, es);
  }
  return schema;
}

std::vector<PriceForSale> Sale(std::initializer_list<std::pair<int32_t, const char*>> rows) {
  std::vector<PriceForSale> out;
  for (const auto& [pk, amount] : rows) out.push_back({pk, *BigDecimal::Parse(amount)});
  return out;
}

PriceQuery Query(std::vector<std::string> lists, const DateTime& at, std::optional<std::string> from = {},
                 std::optional<std::string> to = {}) {
  PriceQuery q;
  q.price_lists = std::move(lists);
  q.currency = *Currency::Parse("EUR");
  q.valid_at = at;
  if (from) q.from = *BigDecimal::Parse(*from);
  if (to) q.to = *BigDecimal::Parse(*to);
  return q;
}

// The documentation's examples: plain products (Phone), products with
// variants (Shirt) and product sets (Furniture).
std::vector<Entity> DocumentationEntities() {
  using H = PriceInnerRecordHandling;
  return {
      // Plain products.
      Priced("Phone", 1, H::kNone,
             {{0, {{"Baseline", "10000"}, {"B", "9000", January(0, 0)}, {"C", "7500"}}}}),
      Priced("Phone", 2, H::kNone, {{0, {{"Baseline", "12000"}, {"A", "14000"}, {"C", "8500"}}}}),
      Priced("Phone", 3, H::kNone,
             {{0, {{"Baseline", "21000"}, {"A", "23000"}, {"B", "19000", January(1, 1)}}}}),
      // Products with variants (inner records are the variants).
      Priced("Shirt", 10, H::kLowestPrice,
             {{1, {{"Baseline", "10"}, {"B", "9", January(0, 0)}, {"C", "7.5"}}},
              {2, {{"Baseline", "12"}, {"A", "14"}, {"C", "8.5"}}},
              {3, {{"Baseline", "21"}, {"A", "23"}, {"B", "19", January(1, 1)}}}}),
      Priced("Shirt", 11, H::kLowestPrice,
             {{4, {{"Baseline", "26"}, {"B", "19", January(2, 2)}, {"C", "9"}}},
              {5, {{"Baseline", "26"}, {"A", "22"}, {"C", "9"}}},
              {6, {{"Baseline", "26"}, {"A", "21"}, {"B", "18", January(3, 3)}}}}),
      // Product sets (inner records are the parts).
      Priced("Furniture", 20, H::kSum,
             {{1, {{"Baseline", "100"}, {"B", "90", January(0, 0)}, {"C", "75"}}},
              {2, {{"Baseline", "120"}, {"A", "140"}, {"C", "85"}}},
              {3, {{"Baseline", "210"}, {"A", "230"}, {"B", "190", January(1, 1)}}}}),
      Priced("Furniture", 21, H::kSum,
             {{4, {{"Baseline", "260"}, {"B", "190", January(2, 2)}, {"C", "90"}}},
              {5, {{"Baseline", "260"}, {"A", "220"}, {"C", "90"}}},
              {6, {{"Baseline", "260"}, {"A", "210"}, {"B", "180", January(3, 3)}}}}),
  };
}

// Checks the engine's prices for sale of `type` for `q`, and the oracle's.
void CheckSale(Catalog& catalog, const std::vector<Entity>& entities, const std::string& type,
               const PriceQuery& q, const std::vector<PriceForSale>& want) {
  auto render = [](const std::vector<PriceForSale>& sale) {
    std::string text;
    for (const auto& [pk, price] : sale) text += " " + std::to_string(pk) + ": " + price.text();
    return "{" + text + " }";
  };
  INFO(type, " between ", q.from ? q.from->text() : "-", " and ", q.to ? q.to->text() : "-");
  auto got = catalog.PricesForSale(type, q);
  REQUIRE_OK(got);
  CHECK_MESSAGE(*got == want, "got ", render(*got), ", want ", render(want));
  // The oracle the derived-index tests use agrees on the same examples.
  std::vector<const Entity*> of_type;
  for (const Entity& e : entities) {
    if (e.type == type) of_type.push_back(&e);
  }
  const auto expected = ExpectedPricesForSale(of_type, catalog.schema().entities.at(type), {}, q);
  CHECK_MESSAGE(expected == want, "oracle ", render(expected), ", want ", render(want));
}

TEST_CASE(
    "price for sale follows the documentation's examples: priority, validity, NONE, LOWEST_PRICE, SUM") {
  testing::TempDir dir;
  auto engine = OpenEngine(dir.path());
  Catalog* catalog = *engine->CreateCatalog(Schema());
  const std::vector<Entity> entities = DocumentationEntities();
  for (const Entity& e : entities) REQUIRE_OK(catalog->Upsert(e));
  const std::vector<std::string> all = {"B", "A", "Baseline", "C"};

  auto check = [&](const std::string& type, const PriceQuery& q, const std::vector<PriceForSale>& want) {
    CheckSale(*catalog, entities, type, q, want);
  };

  SUBCASE("plain products: the first price list that prices the product, if valid") {
    check("Phone", Query({"A", "Baseline"}, kNovember1At13),
          Sale({{1, "10000.00"}, {2, "14000.00"}, {3, "23000.00"}}));
    check("Phone", Query(all, kNovember1At13), Sale({{1, "10000.00"}, {2, "14000.00"}, {3, "23000.00"}}));
    check("Phone", Query(all, kJanuary2At13), Sale({{1, "9000.00"}, {2, "14000.00"}, {3, "19000.00"}}));
    // Between bounds: only prices chosen as the price for sale count.
    check("Phone", Query(all, kJanuary2At13, "8000", "10000"), Sale({{1, "9000.00"}}));
    PriceQuery without_tax = Query(all, kJanuary2At13);
    without_tax.with_tax = false;
    check("Phone", without_tax, Sale({{1, "8999.00"}, {2, "13999.00"}, {3, "18999.00"}}));
  }
  SUBCASE("products with variants: the lowest of the variants' prices for sale") {
    check("Shirt", Query({"Baseline"}, kNovember1At13), Sale({{10, "10.00"}, {11, "26.00"}}));
    check("Shirt", Query({"B", "Baseline", "C"}, kNovember1At13), Sale({{10, "10.00"}, {11, "26.00"}}));
    check("Shirt", Query(all, kJanuary2At13), Sale({{10, "9.00"}, {11, "18.00"}}));
    // A variant in the range is enough; the jumper's prices in range were not chosen.
    check("Shirt", Query(all, kJanuary2At13, "8", "11"), Sale({{10, "9.00"}}));
  }
  SUBCASE("product sets: the sum of the parts' prices for sale") {
    check("Furniture", Query({"Baseline"}, kNovember1At13), Sale({{20, "430.00"}, {21, "780.00"}}));
    check("Furniture", Query(all, kNovember1At13), Sale({{20, "470.00"}, {21, "690.00"}}));
    check("Furniture", Query(all, kJanuary2At13), Sale({{20, "420.00"}, {21, "590.00"}}));
    check("Furniture", Query(all, kJanuary2At13, "0", "500"), Sale({{20, "420.00"}}));
  }
  SUBCASE("no moment: validity does not limit the choice") {
    PriceQuery q = Query({"B", "Baseline"}, kJanuary2At13);
    q.valid_at.reset();
    check("Phone", q, Sale({{1, "9000.00"}, {2, "12000.00"}, {3, "19000.00"}}));
  }
}

TEST_CASE("a price for sale equal to a bound of the range is in it, one a hundredth beyond is not") {
  // PriceQuery: "between `from` and `to` inclusive", as evitaDB's priceBetween.
  // The prices for sale on January 2nd with every list are worked out in the
  // case above: Phone 1: 9000, 2: 14000, 3: 19000; Shirt 10's variants 9, 14
  // and 19, Shirt 11's 19, 22 and 18; Furniture 20: 420, 21: 590. Prices are
  // indexed at 2 places, so 0.01 is the nearest step beyond a bound.
  testing::TempDir dir;
  auto engine = OpenEngine(dir.path());
  Catalog* catalog = *engine->CreateCatalog(Schema());
  const std::vector<Entity> entities = DocumentationEntities();
  for (const Entity& e : entities) REQUIRE_OK(catalog->Upsert(e));
  const std::vector<std::string> all = {"B", "A", "Baseline", "C"};
  int checks = 0;
  auto check = [&](const std::string& type, const PriceQuery& q, const std::vector<PriceForSale>& want) {
    CheckSale(*catalog, entities, type, q, want);
    ++checks;
  };
  // NONE: both bounds met exactly, then each moved just past its price.
  check("Phone", Query(all, kJanuary2At13, "9000", "14000"), Sale({{1, "9000.00"}, {2, "14000.00"}}));
  check("Phone", Query(all, kJanuary2At13, "9000.01", "14000"), Sale({{2, "14000.00"}}));
  check("Phone", Query(all, kJanuary2At13, "9000", "13999.99"), Sale({{1, "9000.00"}}));
  check("Phone", Query(all, kJanuary2At13, "19000", "19000"), Sale({{3, "19000.00"}}));
  check("Phone", Query(all, kJanuary2At13, "19000.01", std::nullopt), Sale({}));
  check("Phone", Query(all, kJanuary2At13, std::nullopt, "8999.99"), Sale({}));
  // LOWEST_PRICE: the lowest variant in the range; 9 and 18 are the bounds.
  check("Shirt", Query(all, kJanuary2At13, "9", "18"), Sale({{10, "9.00"}, {11, "18.00"}}));
  // 9.01 leaves out Shirt 10's 9: its next variant in range, 14, is its price.
  check("Shirt", Query(all, kJanuary2At13, "9.01", "18"), Sale({{10, "14.00"}, {11, "18.00"}}));
  // 17.99 leaves out Shirt 11's 18, and it has no other variant below 19.
  check("Shirt", Query(all, kJanuary2At13, "9", "17.99"), Sale({{10, "9.00"}}));
  // SUM: the sums 420 and 590 as the bounds.
  check("Furniture", Query(all, kJanuary2At13, "420", "590"), Sale({{20, "420.00"}, {21, "590.00"}}));
  check("Furniture", Query(all, kJanuary2At13, "420.01", "590"), Sale({{21, "590.00"}}));
  check("Furniture", Query(all, kJanuary2At13, "420", "589.99"), Sale({{20, "420.00"}}));
  CHECK(checks == 12);
}

// Regression: only prices with a validity entered the validity index; evitaDB
// inserts every price (one without validity as the whole timeline). The
// documentation's phones hold nine prices, two of them with a validity, each
// phone one price per price list; the phone schema has no attributes, locales
// or references, so the global index holds the three entities and per price
// six postings: its entity under its price list, its id, its record, its id
// under its entity, and a start and an end in the validity index:
// 3 + 9 * 6 = 57 (docs/engine.md counts postings so).
TEST_CASE("every price enters the validity index, one without validity as the whole timeline") {
  testing::TempDir dir;
  auto engine = OpenEngine(dir.path());
  Catalog* catalog = *engine->CreateCatalog(Schema());
  for (const Entity& e : DocumentationEntities()) {
    if (e.type == "Phone") REQUIRE_OK(catalog->Upsert(e));
  }
  REQUIRE_OK(catalog->GoLive());
  const CollectionIndexStatistics* phones = nullptr;
  for (const auto& c : catalog->index_statistics()) {
    if (c.entity_type == "Phone") phones = &c;
  }
  REQUIRE(phones != nullptr);
  REQUIRE(phones->kinds.size() == 1);
  CHECK(phones->kinds[0].kind == IndexKind::kGlobal);
  CHECK(phones->kinds[0].entities == 3);
  CHECK(phones->kinds[0].entries == 57);
  // And the unbounded prices still count as valid at any moment.
  CheckSale(*catalog, DocumentationEntities(), "Phone", Query({"C", "A"}, kNovember1At13),
            Sale({{1, "7500.00"}, {2, "8500.00"}, {3, "23000.00"}}));
}

}  // namespace
}  // namespace warmup::engine_test
