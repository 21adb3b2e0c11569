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

TEST_CASE("the digest changes with any content") {
  const CatalogSchema schema = generator::RandomCatalogSchema(1);
  generator::Rng rng(4);
  const Entity base = generator::RandomEntity(rng, schema, "Product", 1);
  const Digest d = EntityDigest(base);
  CHECK(d.ToHex().size() == 64);
  auto differs = [&](auto&& change) {
    Entity e = base;
    change(e);
    return EntityDigest(e) != d;
  };
  CHECK(differs([](Entity& e) { e.primary_key = 2; }));
  CHECK(differs([](Entity& e) { e.type = "Products"; }));
  CHECK(differs([](Entity& e) { e.scope = e.scope == Scope::kLive ? Scope::kArchived : Scope::kLive; }));
  CHECK(differs([](Entity& e) { e.parent = 77; }));
  CHECK(differs([](Entity& e) { e.attributes.global["code"] = Value::String("other"); }));
  CHECK(differs([](Entity& e) { e.attributes.localized["cs"]["url"] = Value::String("/x"); }));
  CHECK(differs(
      [](Entity& e) { e.associated_data.global["dstring"] = AssociatedDataValue{Value::Integer(1)}; }));
  CHECK(differs([](Entity& e) {
    Price p;
    p.price_list = "extra";
    p.currency = *Currency::Parse("EUR");
    e.prices.push_back(p);
  }));
  CHECK(differs([](Entity& e) { e.references.push_back({"tags", {"ExternalTag", 1}, std::nullopt, {}}); }));
  CHECK(differs([](Entity& e) { e.locales.push_back(*Locale::Parse("de")); }));
  CHECK(differs([](Entity& e) {
    e.price_inner_record_handling = e.price_inner_record_handling == PriceInnerRecordHandling::kSum
                                        ? PriceInnerRecordHandling::kNone
                                        : PriceInnerRecordHandling::kSum;
  }));
  // Scale matters, as in Java: 2.0 and 2.00 are different prices.
  CHECK(differs([](Entity& e) {
    Price p;
    p.price_list = "scale";
    p.currency = *Currency::Parse("EUR");
    p.price_with_tax = *BigDecimal::Parse("2.0");
    e.prices.push_back(p);
    e.prices.back().price_with_tax = *BigDecimal::Parse("2.00");
  }));
}

TEST_CASE("distinct random entities have distinct digests") {
  const CatalogSchema schema = generator::RandomCatalogSchema(2);
  generator::Rng rng(5);
  std::set<Digest> seen;
  for (int pk = 1; pk <= 300; ++pk)
    seen.insert(EntityDigest(generator::RandomEntity(rng, schema, "Product", pk)));
  CHECK(seen.size() == 300);
}

}  // namespace
}  // namespace warmup
