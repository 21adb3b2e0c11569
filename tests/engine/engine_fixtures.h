// What the engine tests share: a tiny catalog loaded into an engine, small
// hand-made schemas and entities, and brute-force oracles written from
// docs/engine.md, independent of the engine's own code. The engine test files
// live in this namespace too, so they call these unqualified.
#ifndef WARMUP_TESTS_ENGINE_ENGINE_FIXTURES_H_
#define WARMUP_TESTS_ENGINE_ENGINE_FIXTURES_H_

#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <numeric>
#include <optional>
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
  static const std::regex kDecimal(R"(([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?)");
  std::smatch m;
  const std::string text = value.text();
  REQUIRE_MESSAGE(std::regex_match(text, m, kDecimal), text);
  std::string digits = m[2].str() + m[3].str();
  int point = static_cast<int>(m[2].length()) + (m[4].matched ? std::stoi(m[4].str()) : 0) + places;
  while (point > static_cast<int>(digits.size())) digits += '0';
  for (; point < 0; ++point) digits.insert(0, "0");
  const std::string whole = digits.substr(0, static_cast<size_t>(point));
  int64_t n = whole.empty() ? 0 : std::stoll(whole);
  if (point < static_cast<int>(digits.size()) && digits[static_cast<size_t>(point)] >= '5') ++n;
  return m[1] == "-" ? -n : n;
}

// Whether `e` is in the index `scope` names: its scope, and for a reduced
// scope a reference of that name to the entity.
inline bool InIndex(const Entity& e, const IndexScope& scope) {
  return e.scope == scope.scope &&
         (scope.reference.empty() || References(e, scope.reference, scope.referenced_pk));
}

// Whether `moment` lies in `validity` (inclusive ends; absent = always).
inline bool ValidAt(const std::optional<DateTimeRange>& validity, const DateTime& moment) {
  if (!validity) return true;
  auto key = [](const DateTime& d) { return std::pair(d.epoch_seconds, d.nanos); };
  return (!validity->from || key(*validity->from) <= key(moment)) &&
         (!validity->to || key(moment) <= key(*validity->to));
}

// evitaDB's price for sale, from its documentation ("price for sale
// computation"), applied to plain entities: the indexed prices in the currency,
// from the listed price lists, valid at the moment; the first by list priority
// (then by the entity's price order) for NONE; per inner record that first one,
// then the lowest of those in the range for LOWEST_PRICE and their sum for SUM.
// Prices live in the global index and in reduced indexes of partitioning
// references only (`partitioning`).
inline std::vector<PriceForSale> ExpectedPricesForSale(const std::vector<const Entity*>& all,
                                                       const EntitySchema& schema, const IndexScope& scope,
                                                       const PriceQuery& q, bool partitioning = true) {
  std::vector<PriceForSale> out;
  if (!schema.with_price || !In(schema.price_indexed_in_scopes, scope.scope) || !partitioning) return out;
  const int places = schema.indexed_price_places;
  auto in_range = [&](int64_t v) {
    return (!q.from || v >= Scaled(*q.from, places)) && (!q.to || v <= Scaled(*q.to, places));
  };
  for (const Entity* entity : all) {
    const Entity& e = *entity;
    if (!InIndex(e, scope)) continue;
    // (list priority, position) -> amount, per inner record (one group for NONE).
    std::map<std::optional<int32_t>, std::pair<std::pair<size_t, size_t>, int64_t>> best;
    for (size_t i = 0; i < e.prices.size(); ++i) {
      const Price& p = e.prices[i];
      auto list = std::find(q.price_lists.begin(), q.price_lists.end(), p.price_list);
      if (!p.indexed || p.currency != q.currency || list == q.price_lists.end()) continue;
      if (q.valid_at && !ValidAt(p.validity, *q.valid_at)) continue;
      const auto group =
          e.price_inner_record_handling == PriceInnerRecordHandling::kNone ? std::nullopt : p.inner_record_id;
      const std::pair<size_t, size_t> rank{static_cast<size_t>(list - q.price_lists.begin()), i};
      const int64_t amount = Scaled(q.with_tax ? p.price_with_tax : p.price_without_tax, places);
      auto it = best.find(group);
      if (it == best.end() || rank < it->second.first) best[group] = {rank, amount};
    }
    if (best.empty()) continue;
    std::optional<int64_t> sale;
    if (e.price_inner_record_handling == PriceInnerRecordHandling::kLowestPrice) {
      for (const auto& [group, chosen] : best) {
        if (in_range(chosen.second) && (!sale || chosen.second < *sale)) sale = chosen.second;
      }
    } else if (e.price_inner_record_handling == PriceInnerRecordHandling::kSum) {
      int64_t sum = 0;
      for (const auto& [group, chosen] : best) sum += chosen.second;
      if (in_range(sum)) sale = sum;
    } else if (in_range(best.begin()->second.second)) {
      sale = best.begin()->second.second;
    }
    if (!sale) continue;
    // The amount as a decimal at the indexed places, written apart from the engine's formatting.
    const int64_t magnitude = *sale < 0 ? -*sale : *sale;
    std::string digits = std::to_string(magnitude);
    while (static_cast<int>(digits.size()) <= places) digits.insert(0, "0");
    if (places > 0) digits.insert(digits.size() - static_cast<size_t>(places), ".");
    out.push_back({e.primary_key, *BigDecimal::Parse((*sale < 0 ? "-" : "") + digits)});
  }
  std::sort(out.begin(), out.end(),
            [](const PriceForSale& a, const PriceForSale& b) { return a.primary_key < b.primary_key; });
  return out;
}

// The entities of `all` in `scope` whose price for sale in `price_list`/`currency`
// (with tax, any validity) lies in [from, to].
inline std::vector<int32_t> PricedBetween(const std::vector<Entity>& all, const EntitySchema& schema,
                                          const IndexScope& scope, const std::string& price_list,
                                          const std::string& currency, const BigDecimal& from,
                                          const BigDecimal& to) {
  PriceQuery q;
  q.price_lists = {price_list};
  q.currency = *Currency::Parse(currency);
  q.from = from;
  q.to = to;
  std::vector<const Entity*> entities;
  for (const auto& e : all) entities.push_back(&e);
  std::vector<int32_t> out;
  for (const auto& p : ExpectedPricesForSale(entities, schema, scope, q)) out.push_back(p.primary_key);
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
