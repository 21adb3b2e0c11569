#include "warmup/digest.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <set>

#include "generator/tiny_profile.h"

namespace warmup {
namespace {

TEST_CASE("the digest ignores the order of prices and references") {
  const CatalogSchema schema = generator::RandomCatalogSchema(1);
  generator::Rng rng(3);
  int reordered = 0;
  for (int pk = 1; pk <= 100; ++pk) {
    Entity entity = generator::RandomEntity(rng, schema, "Product", pk);
    const Digest before = EntityDigest(entity);
    std::reverse(entity.prices.begin(), entity.prices.end());
    std::reverse(entity.references.begin(), entity.references.end());
    reordered += entity.prices.size() > 1 || entity.references.size() > 1;
    CHECK(EntityDigest(entity) == before);
  }
  CHECK(reordered > 10);
}

// An entity with every optional part present, so that each can be changed.
Entity Full() {
  Entity e;
  e.type = "Product";
  e.primary_key = 7;
  e.parent = 3;
  e.attributes.global["code"] = Value::String("p7");
  e.attributes.localized["cs"]["name"] = Value::String("hrad");
  e.associated_data.global["spec"] = AssociatedDataValue{Value::String("s")};
  e.associated_data.localized["cs"]["notes"] = AssociatedDataValue{Value::String("n")};
  e.price_inner_record_handling = PriceInnerRecordHandling::kLowestPrice;
  Price p;
  p.price_id = 11;
  p.price_list = "basic";
  p.currency = *Currency::Parse("CZK");
  p.inner_record_id = 5;
  p.price_without_tax = *BigDecimal::Parse("100.00");
  p.tax_rate = *BigDecimal::Parse("21");
  p.price_with_tax = *BigDecimal::Parse("121.00");
  p.validity = DateTimeRange{DateTime{1'700'000'000, 0, 3600}, DateTime{1'800'000'000, 0, 3600}};
  p.indexed = true;
  e.prices = {p};
  Reference r;
  r.name = "brand";
  r.referenced = {"Brand", 4};
  r.group = EntityRef{"BrandGroup", 2};
  r.attributes.global["order"] = Value::Integer(1);
  r.attributes.localized["cs"]["label"] = Value::String("l");
  e.references = {r};
  e.locales = {*Locale::Parse("cs")};
  return e;
}

TEST_CASE("the digest changes with every field of an entity, its prices and its references") {
  const Entity base = Full();
  const Digest d = EntityDigest(base);
  CHECK(d.ToHex().size() == 64);
  CHECK(EntityDigest(Full()) == d);  // deterministic
  int changes = 0;
  auto differs = [&](const char* what, auto&& change) {
    CAPTURE(what);
    Entity e = base;
    change(e);
    REQUIRE_MESSAGE(!(e == base), what, ": the change changed nothing");
    CHECK(EntityDigest(e) != d);
    ++changes;
  };
  differs("type", [](Entity& e) { e.type = "Products"; });
  differs("primary key", [](Entity& e) { e.primary_key = 8; });
  differs("scope", [](Entity& e) { e.scope = Scope::kArchived; });
  differs("parent", [](Entity& e) { e.parent = 4; });
  differs("no parent", [](Entity& e) { e.parent.reset(); });
  differs("global attribute", [](Entity& e) { e.attributes.global["code"] = Value::String("p8"); });
  differs("attribute type", [](Entity& e) { e.attributes.global["code"] = Value::Long(7); });
  differs("localized attribute",
          [](Entity& e) { e.attributes.localized["cs"]["name"] = Value::String("x"); });
  differs("attribute locale", [](Entity& e) {
    e.attributes.localized["sk"] = e.attributes.localized["cs"];
    e.attributes.localized.erase("cs");
  });
  differs("global associated data",
          [](Entity& e) { e.associated_data.global["spec"] = AssociatedDataValue{Value::String("t")}; });
  differs("localized associated data", [](Entity& e) {
    e.associated_data.localized["cs"]["notes"] = AssociatedDataValue{Value::Integer(1)};
  });
  differs("inner record handling",
          [](Entity& e) { e.price_inner_record_handling = PriceInnerRecordHandling::kSum; });
  differs("price id", [](Entity& e) { e.prices[0].price_id = 12; });
  differs("price list", [](Entity& e) { e.prices[0].price_list = "vip"; });
  differs("currency", [](Entity& e) { e.prices[0].currency = *Currency::Parse("EUR"); });
  differs("inner record id", [](Entity& e) { e.prices[0].inner_record_id = 6; });
  differs("no inner record id", [](Entity& e) { e.prices[0].inner_record_id.reset(); });
  differs("price without tax",
          [](Entity& e) { e.prices[0].price_without_tax = *BigDecimal::Parse("101.00"); });
  differs("tax rate", [](Entity& e) { e.prices[0].tax_rate = *BigDecimal::Parse("10"); });
  differs("price with tax", [](Entity& e) { e.prices[0].price_with_tax = *BigDecimal::Parse("122.00"); });
  // Scale matters, as in Java: 121.0 and 121.00 are different prices.
  differs("price scale", [](Entity& e) { e.prices[0].price_with_tax = *BigDecimal::Parse("121.0"); });
  differs("validity start", [](Entity& e) { e.prices[0].validity->from->epoch_seconds += 1; });
  differs("validity end", [](Entity& e) { e.prices[0].validity->to->epoch_seconds -= 1; });
  differs("validity offset", [](Entity& e) { e.prices[0].validity->from->offset_seconds = 0; });
  differs("open validity", [](Entity& e) { e.prices[0].validity->to.reset(); });
  differs("no validity", [](Entity& e) { e.prices[0].validity.reset(); });
  differs("indexed", [](Entity& e) { e.prices[0].indexed = false; });
  differs("another price", [](Entity& e) { e.prices.push_back(e.prices[0]); });
  differs("reference name", [](Entity& e) { e.references[0].name = "brands"; });
  differs("referenced type", [](Entity& e) { e.references[0].referenced.entity_type = "Maker"; });
  differs("referenced key", [](Entity& e) { e.references[0].referenced.primary_key = 5; });
  differs("reference group", [](Entity& e) { e.references[0].group->primary_key = 3; });
  differs("reference group type", [](Entity& e) { e.references[0].group->entity_type = "Other"; });
  differs("no reference group", [](Entity& e) { e.references[0].group.reset(); });
  differs("reference attribute",
          [](Entity& e) { e.references[0].attributes.global["order"] = Value::Integer(2); });
  differs("localized reference attribute",
          [](Entity& e) { e.references[0].attributes.localized["cs"]["label"] = Value::String("m"); });
  differs("another reference", [](Entity& e) { e.references.push_back(e.references[0]); });
  differs("locales", [](Entity& e) { e.locales.push_back(*Locale::Parse("de")); });
  CHECK(changes == 38);
}

// Seen against evitaDB: every entity of a collection without prices "differs
// in prices", evitaDB answering UNKNOWN where the snapshot held NONE.
TEST_CASE("regression: an entity without prices has one digest whether its handling reads NONE or UNKNOWN") {
  Entity none;
  none.type = "Brand";
  none.primary_key = 4;
  none.attributes.global["code"] = Value::String("b4");
  none.price_inner_record_handling = PriceInnerRecordHandling::kNone;
  Entity unknown = none;
  unknown.price_inner_record_handling = PriceInnerRecordHandling::kUnknown;
  CHECK(EntityDigest(none) == EntityDigest(unknown));
  Entity sum = none;  // a handling evitaDB keeps without prices still counts
  sum.price_inner_record_handling = PriceInnerRecordHandling::kSum;
  CHECK(EntityDigest(sum) != EntityDigest(none));
}

// Seen against evitaDB: tiny's date-time ranges and price validities read
// back without their fraction of a second (EvitaDataTypesConverter.toDateTimeRange),
// and evitaDB's DateTimeRange compares whole seconds anyway.
TEST_CASE(
    "regression: a date-time range's bounds count at whole seconds, as evitaDB keeps and compares them") {
  Entity e;
  e.type = "Product";
  e.primary_key = 1;
  DateTimeRange range;
  range.from = DateTime{1'338'605'958, 865'242'149, 11'700};
  e.attributes.global["validFor"] = *Value::Make(ValueType::kDateTimeRange, {range});
  Entity whole = e;
  range.from->nanos = 0;
  whole.attributes.global["validFor"] = *Value::Make(ValueType::kDateTimeRange, {range});
  CHECK(EntityDigest(e) == EntityDigest(whole));
  range.from->epoch_seconds += 1;  // another second is other content
  whole.attributes.global["validFor"] = *Value::Make(ValueType::kDateTimeRange, {range});
  CHECK(EntityDigest(e) != EntityDigest(whole));
}

TEST_CASE("the digest of a random entity changes with any content") {
  const CatalogSchema schema = generator::RandomCatalogSchema(1);
  generator::Rng rng(4);
  const Entity base = generator::RandomEntity(rng, schema, "Product", 1);
  const Digest d = EntityDigest(base);
  auto differs = [&](auto&& change) {
    Entity e = base;
    change(e);
    return EntityDigest(e) != d;
  };
  CHECK(differs([](Entity& e) { e.attributes.global["code"] = Value::String("other"); }));
  CHECK(differs([](Entity& e) { e.attributes.localized["cs"]["url"] = Value::String("/x"); }));
  CHECK(differs(
      [](Entity& e) { e.associated_data.global["dstring"] = AssociatedDataValue{Value::Integer(1)}; }));
  CHECK(differs([](Entity& e) { e.references.push_back({"tags", {"ExternalTag", 1}, std::nullopt, {}}); }));
}

TEST_CASE("distinct random entities have distinct digests") {
  const CatalogSchema schema = generator::RandomCatalogSchema(2);
  generator::Rng rng(5);
  std::set<Digest> seen;
  for (int pk = 1; pk <= 300; ++pk) {
    seen.insert(EntityDigest(generator::RandomEntity(rng, schema, "Product", pk)));
  }
  CHECK(seen.size() == 300);
}

// `base` with its global attribute "code" set to `value`.
Entity WithCode(const Entity& base, const Value& value) {
  Entity e = base;
  e.attributes.global["code"] = value;
  return e;
}

TEST_CASE("the digest tells values apart by their type alone: Integer 1 and Long 1, a scalar and its array") {
  const Entity base = Full();
  // Pairs of values with equal items (the same scalars) and different types.
  const std::vector<std::pair<Value, Value>> pairs = {
      {Value::Integer(1), Value::Long(1)},
      {Value::Integer(1), *Value::Make(ValueType::kIntegerArray, {int64_t{1}})},
      {Value::String("a"), *Value::Make(ValueType::kStringArray, {std::string("a")})},
      {Value::String("a"), *Value::Make(ValueType::kCharacter, {std::string("a")})},
      {*Value::Make(ValueType::kByte, {int64_t{1}}), *Value::Make(ValueType::kShort, {int64_t{1}})},
  };
  int pairs_checked = 0;
  for (const auto& pair : pairs) {
    const Value& a = pair.first;
    const Value& b = pair.second;
    const std::string value = DebugString(a);
    CAPTURE(value);
    REQUIRE(a.type() != b.type());
    REQUIRE(std::equal(a.items().begin(), a.items().end(), b.items().begin(), b.items().end()));
    // As an entity attribute, a reference attribute, associated data and a complex object's leaf.
    CHECK(EntityDigest(WithCode(base, a)) != EntityDigest(WithCode(base, b)));
    Entity ra = base, rb = base;
    ra.references[0].attributes.global["order"] = a;
    rb.references[0].attributes.global["order"] = b;
    CHECK(EntityDigest(ra) != EntityDigest(rb));
    Entity da = base, db = base;
    da.associated_data.global["spec"] = AssociatedDataValue{a};
    db.associated_data.global["spec"] = AssociatedDataValue{b};
    CHECK(EntityDigest(da) != EntityDigest(db));
    da.associated_data.global["spec"] = AssociatedDataValue{DataItem{a}};
    db.associated_data.global["spec"] = AssociatedDataValue{DataItem{b}};
    CHECK(EntityDigest(da) != EntityDigest(db));
    ++pairs_checked;
  }
  CHECK(pairs_checked == 5);
}

TEST_CASE("the digest ignores the order locales are listed in, not which locales they are") {
  const Locale cs = *Locale::Parse("cs");
  const Locale de = *Locale::Parse("de");
  const Locale sk = *Locale::Parse("sk");
  const Locale cs_cz = *Locale::Parse("cs-CZ");
  auto with_locales = [](std::vector<Locale> locales) {
    Entity e = Full();
    e.locales = std::move(locales);
    return EntityDigest(e);
  };
  CHECK(with_locales({cs, de}) == with_locales({de, cs}));
  CHECK(with_locales({cs, de, sk}) == with_locales({sk, cs, de}));
  CHECK(with_locales({cs}) != with_locales({sk}));
  CHECK(with_locales({cs}) != with_locales({cs_cz}));
  CHECK(with_locales({cs, de}) != with_locales({cs, sk}));
  CHECK(with_locales({cs, de}) != with_locales({cs}));
}

TEST_CASE("the digest changes with a BigDecimalRange's decimal places to compare and with its bounds") {
  auto range = [](std::optional<std::string> from, std::optional<std::string> to, int32_t places) {
    BigDecimalRange r;
    if (from) r.from = *BigDecimal::Parse(*from);
    if (to) r.to = *BigDecimal::Parse(*to);
    r.decimal_places_to_compare = places;
    return EntityDigest(WithCode(Full(), *Value::Make(ValueType::kBigDecimalNumberRange, {r})));
  };
  const Digest d = range("1.5", "2.5", 1);
  CHECK(range("1.5", "2.5", 1) == d);
  CHECK(range("1.5", "2.5", 2) != d);
  CHECK(range("1.5", "2.5", 0) != d);
  CHECK(range("1.5", "2.6", 1) != d);
  CHECK(range("1.4", "2.5", 1) != d);
  CHECK(range(std::nullopt, "2.5", 1) != d);
  CHECK(range("1.5", std::nullopt, 1) != d);
}

// A complex object: {"name": "x", "sizes": [1, 2], "more": {"k": null}}.
DataItem Complex() {
  DataItem::Map more;
  more["k"] = DataItem{};
  DataItem::Map root;
  root["name"] = DataItem{Value::String("x")};
  root["sizes"] = DataItem{DataItem::Array{DataItem{Value::Integer(1)}, DataItem{Value::Integer(2)}}};
  root["more"] = DataItem{more};
  return DataItem{root};
}

TEST_CASE("the digest changes with a complex associated-data object's map keys and array items") {
  const Entity base = Full();
  auto digest_of = [&](const DataItem& item) {
    Entity e = base;
    e.associated_data.global["spec"] = AssociatedDataValue{item};
    return EntityDigest(e);
  };
  const Digest d = digest_of(Complex());
  CHECK(digest_of(Complex()) == d);
  int changes = 0;
  auto differs = [&](const std::string& what, auto&& change) {
    CAPTURE(what);
    DataItem item = Complex();
    auto& root = std::get<DataItem::Map>(item.content);
    change(root);
    REQUIRE_MESSAGE(!(item == Complex()), what, ": the change changed nothing");
    CHECK(digest_of(item) != d);
    ++changes;
  };
  auto sizes = [](DataItem::Map& root) -> DataItem::Array& {
    return std::get<DataItem::Array>(root["sizes"].content);
  };
  // "nick" sorts where "name" did, so only the key's text changes, not the order of the values.
  differs("a key renamed", [](DataItem::Map& root) {
    root["nick"] = root["name"];
    root.erase("name");
  });
  differs("a nested key renamed", [](DataItem::Map& root) {
    auto& more = std::get<DataItem::Map>(root["more"].content);
    more["l"] = more["k"];
    more.erase("k");
  });
  differs("a key added", [](DataItem::Map& root) { root["extra"] = DataItem{}; });
  differs("an array item changed",
          [&](DataItem::Map& root) { sizes(root)[1] = DataItem{Value::Integer(3)}; });
  differs("an array item's type changed",
          [&](DataItem::Map& root) { sizes(root)[1] = DataItem{Value::Long(2)}; });
  differs("array items swapped", [&](DataItem::Map& root) { std::swap(sizes(root)[0], sizes(root)[1]); });
  differs("an array item added", [&](DataItem::Map& root) { sizes(root).push_back(DataItem{}); });
  differs("an array item removed", [&](DataItem::Map& root) { sizes(root).pop_back(); });
  differs("a null item given a value", [](DataItem::Map& root) {
    std::get<DataItem::Map>(root["more"].content)["k"] = DataItem{Value::String("")};
  });
  CHECK(changes == 9);
}

}  // namespace
}  // namespace warmup
