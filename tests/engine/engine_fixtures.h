// What the engine tests share: a tiny catalog loaded into an engine, small
// hand-made schemas and entities, and brute-force oracles written from
// docs/engine.md, independent of the engine's own code. The engine test files
// live in this namespace too, so they call these unqualified.
#ifndef WARMUP_TESTS_ENGINE_ENGINE_FIXTURES_H_
#define WARMUP_TESTS_ENGINE_ENGINE_FIXTURES_H_

#include <doctest/doctest.h>

#include <algorithm>
#include <numeric>
#include <regex>
#include <string>
#include <vector>

#include "common/status_matchers.h"
#include "warmup/engine.h"
#include "warmup/generator.h"

namespace warmup::engine_test {

inline std::unique_ptr<Engine> OpenEngine(const std::string& dir) {
  auto engine = Engine::Open(dir);
  REQUIRE_MESSAGE(engine.ok(), engine.status().ToString());
  return std::move(engine).value();
}

// Loads the tiny catalog of `seed` into `engine`; returns every entity loaded.
inline std::vector<Entity> LoadTiny(Engine& engine, uint64_t seed, const std::string& name = "tiny") {
  auto source = OpenGeneratorSource({"tiny", 1.0, seed, name});
  REQUIRE_OK(source);
  auto catalog = engine.CreateCatalog((*source)->schema());
  REQUIRE_MESSAGE(catalog.ok(), catalog.status().ToString());
  std::vector<Entity> all;
  Entity e;
  for (const auto& c : (*source)->collections()) {
    auto stream = (*source)->OpenCollection(c.entity_type);
    while (*(*stream)->Next(&e)) {
      Status s = (*catalog)->Upsert(e);
      REQUIRE_MESSAGE(s.ok(), s.ToString());
      all.push_back(e);
    }
  }
  return all;
}

inline std::vector<Entity> OfType(const std::vector<Entity>& all, const std::string& type) {
  std::vector<Entity> out;
  for (const auto& e : all) {
    if (e.type == type) out.push_back(e);
  }
  return out;
}

inline bool References(const Entity& e, const std::string& reference, int32_t pk) {
  return std::any_of(e.references.begin(), e.references.end(), [&](const Reference& r) {
    return r.name == reference && r.referenced.primary_key == pk;
  });
}

inline bool In(const std::vector<Scope>& scopes, Scope scope) {
  return std::find(scopes.begin(), scopes.end(), scope) != scopes.end();
}

// round(value * 10^places), half away from zero, computed from the decimal's
// text by moving its point: an oracle written apart from the engine's scaling.
inline int64_t Scaled(const BigDecimal& value, int places) {
  std::smatch m;
  const std::string text = value.text();
  REQUIRE_MESSAGE(std::regex_match(text, m, std::regex(R"(([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?)")),
                  text);
  std::string digits = m[2].str() + m[3].str();
  int point = static_cast<int>(m[2].length()) + (m[4].matched ? std::stoi(m[4].str()) : 0) + places;
  while (point > static_cast<int>(digits.size())) digits += '0';
  for (; point < 0; ++point) digits.insert(0, "0");
  const std::string whole = digits.substr(0, static_cast<size_t>(point));
  int64_t n = whole.empty() ? 0 : std::stoll(whole);
  if (point < static_cast<int>(digits.size()) && digits[static_cast<size_t>(point)] >= '5') ++n;
  return m[1] == "-" ? -n : n;
}

// The entities of `all` in `scope` (and, for a reduced scope, referencing its
// entity) whose price for sale in `price_list`/`currency` lies in [from, to]:
// the minimum of the indexed prices, their sum under SUM handling.
inline std::vector<int32_t> PricedBetween(const std::vector<Entity>& all, const EntitySchema& schema,
                                          const IndexScope& scope, const std::string& price_list,
                                          const std::string& currency, const BigDecimal& from,
                                          const BigDecimal& to) {
  std::vector<int32_t> out;
  if (!In(schema.price_indexed_in_scopes, scope.scope)) return out;
  const int places = schema.indexed_price_places;
  for (const auto& e : all) {
    if (e.scope != scope.scope) continue;
    if (!scope.reference.empty() && !References(e, scope.reference, scope.referenced_pk)) continue;
    std::vector<int64_t> amounts;
    for (const auto& p : e.prices) {
      if (p.indexed && p.price_list == price_list && p.currency.code() == currency) {
        amounts.push_back(Scaled(p.price_with_tax, places));
      }
    }
    if (amounts.empty()) continue;
    int64_t sale = *std::min_element(amounts.begin(), amounts.end());
    if (e.price_inner_record_handling == PriceInnerRecordHandling::kSum) {
      sale = std::accumulate(amounts.begin(), amounts.end(), int64_t{0});
    }
    if (sale >= Scaled(from, places) && sale <= Scaled(to, places)) out.push_back(e.primary_key);
  }
  return out;
}

// Primary keys of `entities` ordered by their `code` attribute's bytes (codes are unique).
inline std::vector<int32_t> ByCode(const std::vector<Entity>& entities, OrderDirection direction) {
  std::vector<std::pair<std::string, int32_t>> keyed;
  for (const auto& e : entities) {
    keyed.emplace_back(std::get<std::string>(e.attributes.global.at("code").scalar()), e.primary_key);
  }
  std::sort(keyed.begin(), keyed.end());
  if (direction == OrderDirection::kDesc) std::reverse(keyed.begin(), keyed.end());
  std::vector<int32_t> out;
  for (const auto& [code, pk] : keyed) out.push_back(pk);
  return out;
}

inline Entity Named(const std::string& type, int32_t pk, const std::string& name) {
  Entity e;
  e.type = type;
  e.primary_key = pk;
  e.attributes.global.emplace("code", Value::String(type + std::to_string(pk)));
  e.attributes.localized["cs"].emplace("name", Value::String(name));
  e.locales = DeriveLocales(e);
  return e;
}

inline CatalogSchema WordsSchema() {
  CatalogSchema schema;
  schema.name = "words";
  EntitySchema word;
  word.name = "Word";
  word.locales = {*Locale::Parse("cs")};
  AttributeSchema code;
  code.name = "code";
  code.unique_in_scopes = {{Scope::kLive, AttributeUniqueness::kUniqueWithinCollection}};
  AttributeSchema name;
  name.name = "name";
  name.localized = true;
  name.nullable = true;
  name.sortable_in_scopes = {Scope::kLive};
  word.attributes = {{"code", code}, {"name", name}};
  ReferenceSchema tag;
  tag.name = "tag";
  tag.referenced_entity_type = "Tag";
  word.references.emplace("tag", tag);
  schema.entities.emplace("Word", word);
  return schema;
}

// Every kind of read call over a few probes, as one comparable value.
inline std::vector<std::vector<int32_t>> ReadResults(const Catalog& catalog) {
  std::vector<std::vector<int32_t>> out;
  const Currency czk = *Currency::Parse("CZK");
  for (int32_t probe = 1; probe <= 12; ++probe) {
    out.push_back(*catalog.FacetMembers("Product", "parameterValues", probe));
    out.push_back(*catalog.Children("Category", probe));
    out.push_back(*catalog.SortBy("Product", "code", "", OrderDirection::kDesc, {"categories", probe}));
    out.push_back(
        *catalog.FilterEquals("Product", "code", "", Value::String("Product/" + std::to_string(probe))));
  }
  out.push_back(
      *catalog.PriceBetween("Product", "basic", czk, *BigDecimal::Parse("0"), *BigDecimal::Parse("1e6")));
  out.push_back(*catalog.SortBy("Category", "name", "cs", OrderDirection::kAsc));
  out.push_back(*catalog.SortBy("Product", "code", "", OrderDirection::kAsc, {"", 0, Scope::kArchived}));
  return out;
}

}  // namespace warmup::engine_test

#endif  // WARMUP_TESTS_ENGINE_ENGINE_FIXTURES_H_
