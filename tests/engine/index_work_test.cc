// One upserted product's index work, counted from the indexes' contents, set
// against docs/index-work.md: the count derived from evitaDB's source
// (720796cc), written as formulas in the entity's own content. The oracle
// below is those formulas, computed from the generated product and its
// schema, not from the engine's code.
//
// Unit: one posting, a (record id, key) pair inserted into one index
// structure (docs/index-work.md §0); the engine's index statistics count the
// same. Case: the first product in a catalog holding every other collection,
// so every entity it references is new to the type indexes ("fresh").
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "common/status_matchers.h"
#include "common/temp_dir.h"
#include "engine/engine_fixtures.h"
#include "warmup/generator.h"

namespace warmup::engine_test {
namespace {

bool UniqueInLive(const AttributeSchema& a, bool* across_locales) {
  for (const auto& s : a.unique_in_scopes) {
    if (s.scope == Scope::kLive && s.value != AttributeUniqueness::kNotUnique) {
      *across_locales = s.value == AttributeUniqueness::kUniqueWithinCollection;
      return true;
    }
  }
  return false;
}

bool IsRange(ValueType t) { return t >= ValueType::kDateTimeRange && t <= ValueType::kByteNumberRange; }

bool IsPredecessor(ValueType t) {
  return t == ValueType::kPredecessor || t == ValueType::kReferencedEntityPredecessor;
}

int64_t DistinctItems(const Value& v) {
  std::vector<Scalar> seen;
  for (const Scalar& item : v.items()) {
    if (std::find(seen.begin(), seen.end(), item) == seen.end()) seen.push_back(item);
  }
  return static_cast<int64_t>(seen.size());
}

// docs/index-work.md §1's symbols for one set of attribute values (an
// entity's or a reference's), in the LIVE scope.
struct Symbols {
  int64_t filter = 0;       // F: filterable or unique values, per locale, array items once
  int64_t ranges = 0;       // Rg: range-typed filterable values, array items once (2 postings each)
  int64_t sort = 0;         // S: sortable single values, per locale
  int64_t compounds = 0;    // C: sortable compounds with an element present, per locale if localized
  int64_t chain = 0;        // Ch: predecessors
  int64_t unique_maps = 0;  // localized values unique across locales: evitaDB's OwnerUniqueIndex
  int64_t Block() const { return filter + 2 * ranges + sort + compounds + chain + unique_maps; }
};

Symbols Count(const std::map<std::string, AttributeSchema>& schemas,
              const std::map<std::string, SortableAttributeCompoundSchema>& compounds,
              const Attributes& attributes, const std::vector<Locale>& locales) {
  Symbols out;
  auto one = [&](const std::string& name, const Value& value, bool localized) {
    auto schema = schemas.find(name);
    REQUIRE_MESSAGE(schema != schemas.end(), name);
    const AttributeSchema& a = schema->second;
    bool across_locales = false;
    const bool unique = UniqueInLive(a, &across_locales);
    const bool filterable = In(a.filterable_in_scopes, Scope::kLive);
    // evitaDB writes a unique value into the filter index too, and keeps no
    // other entry for it unless it is localized and unique across locales
    // (AttributeIndex.isUniqueFoldable).
    if (filterable || unique) out.filter += DistinctItems(value);
    if (filterable && IsRange(ElementType(value.type()))) out.ranges += DistinctItems(value);
    if (unique && localized && across_locales) out.unique_maps += DistinctItems(value);
    if (In(a.sortable_in_scopes, Scope::kLive) && !value.is_array()) {
      ++(IsPredecessor(value.type()) ? out.chain : out.sort);
    }
  };
  for (const auto& [name, value] : attributes.global) one(name, value, false);
  for (const auto& [tag, values] : attributes.localized) {
    for (const auto& [name, value] : values) one(name, value, true);
  }
  for (const auto& [name, compound] : compounds) {
    if (!In(compound.indexed_in_scopes, Scope::kLive)) continue;
    bool localized = false;
    for (const auto& e : compound.elements) localized |= schemas.at(e.attribute_name).localized;
    std::vector<std::string> tags;
    if (localized) {
      for (const Locale& l : locales) tags.push_back(l.tag());
    } else {
      tags.emplace_back();
    }
    for (const std::string& tag : tags) {
      bool any = false;
      for (const auto& e : compound.elements) {
        const auto& values = schemas.at(e.attribute_name).localized
                                 ? (attributes.localized.contains(tag) ? attributes.localized.at(tag)
                                                                       : std::map<std::string, Value>{})
                                 : attributes.global;
        auto v = values.find(e.attribute_name);
        any |= v != values.end() && !v->second.is_array();
      }
      out.compounds += any ? 1 : 0;
    }
  }
  return out;
}

int64_t IndexedPrices(const Entity& e, const EntitySchema& schema) {
  if (!In(schema.price_indexed_in_scopes, Scope::kLive)) return 0;
  std::set<std::pair<std::string, std::string>> lists;
  int64_t n = 0;
  for (const Price& p : e.prices) {
    if (!p.indexed) continue;
    ++n;
    // evitaDB keeps one EntityPrices per entity and price index where the
    // engine counts a record and an id per price: equal with one price per
    // list and currency, as here (docs/index-work.md, row G10).
    REQUIRE_MESSAGE(lists.emplace(p.price_list, p.currency.code()).second, p.price_list);
  }
  return n;
}

bool Indexed(const ReferenceSchema& r) { return r.IndexTypeIn(Scope::kLive) != ReferenceIndexType::kNone; }

int64_t FacetedReferences(const Entity& e, const EntitySchema& schema) {
  int64_t n = 0;
  for (const Reference& r : e.references) {
    const ReferenceSchema& rs = schema.references.at(r.name);
    n += Indexed(rs) && In(rs.faceted_in_scopes, Scope::kLive) ? 1 : 0;
  }
  return n;
}

bool HasComponent(const ReferenceSchema& rs, ReferenceIndexedComponent c) {
  for (const auto& s : rs.indexed_components) {
    if (s.scope == Scope::kLive) return std::find(s.value.begin(), s.value.end(), c) != s.value.end();
  }
  return c == ReferenceIndexedComponent::kReferencedEntity;  // evitaDB's default
}

// What one entity's data puts into an index holding it: membership, locales
// and attributes; with its prices (5 each, a reduced index's) and its facets
// where the index partitions (rows R1, R1p, R1f), else nothing more (R2).
int64_t DataIn(const Entity& e, const EntitySchema& schema, bool partitioning) {
  const auto l = static_cast<int64_t>(e.locales.size());
  if (!partitioning) return 1 + l;
  const Symbols own = Count(schema.attributes, schema.sortable_attribute_compounds, e.attributes, e.locales);
  return 1 + l + own.Block() + 5 * IndexedPrices(e, schema) + FacetedReferences(e, schema);
}

// docs/index-work.md's count for `product` upserted first into `catalog`
// (`targets` are the entities it may reference, as stored).
int64_t DerivedCount(const Entity& product, const CatalogSchema& catalog,
                     const std::map<EntityRef, Entity>& targets) {
  const EntitySchema& schema = catalog.entities.at(product.type);
  const Symbols own =
      Count(schema.attributes, schema.sortable_attribute_compounds, product.attributes, product.locales);
  const int64_t prices = IndexedPrices(product, schema);
  const int64_t facets = FacetedReferences(product, schema);
  const auto l = static_cast<int64_t>(product.locales.size());
  // G1-G12: the global index.
  int64_t total = 1 + l + own.Block() + 6 * prices + facets;
  std::set<std::pair<std::string, int32_t>> groups;  // (reference, group) indexes made
  std::set<std::string> reflected_types;             // reflected references' type indexes
  for (const Reference& r : product.references) {
    const ReferenceSchema& rs = schema.references.at(r.name);
    if (!Indexed(rs)) continue;
    const bool partitioning =
        rs.IndexTypeIn(Scope::kLive) == ReferenceIndexType::kForFilteringAndPartitioning;
    const Symbols attributes =
        Count(rs.attributes, rs.sortable_attribute_compounds, r.attributes, product.locales);
    if (HasComponent(rs, ReferenceIndexedComponent::kReferencedEntity)) {
      // R1/R2 + R3: the referenced entity's reduced index.
      total += DataIn(product, schema, partitioning) + attributes.Block();
      // T1 + T2: its type index, keyed by the reduced index; every entry new.
      total += 1 + attributes.filter + 2 * attributes.ranges + attributes.unique_maps;
    }
    if (HasComponent(rs, ReferenceIndexedComponent::kReferencedGroupEntity) && r.group) {
      // GR: the group's reduced index, the entity's data once per group; and
      // the group type index's member.
      REQUIRE_MESSAGE(r.attributes.empty(), "the derivation leaves grouped references' attributes out");
      if (groups.emplace(r.name, r.group->primary_key).second) {
        total += DataIn(product, schema, partitioning) + 1;
      }
    }
    // X: the reflected reference on the referenced entity, which then enters
    // the reduced index its collection keeps for this product, and that
    // index's type index.
    auto target = targets.find(r.referenced);
    if (target == targets.end()) continue;
    const EntitySchema& target_schema = catalog.entities.at(r.referenced.entity_type);
    for (const auto& [name, reflected] : target_schema.references) {
      const bool mirrors_r =
          reflected.reflected_reference_name == r.name && reflected.referenced_entity_type == product.type;
      if (!mirrors_r || !Indexed(reflected)) continue;
      REQUIRE_MESSAGE(!In(reflected.faceted_in_scopes, Scope::kLive),
                      "a faceted reflected reference changes the target's facets everywhere; not derived");
      Attributes inherited;
      for (const auto& [attribute, value] : r.attributes.global) {
        if (reflected.attributes.contains(attribute)) inherited.global.emplace(attribute, value);
      }
      const Symbols a = Count(reflected.attributes, reflected.sortable_attribute_compounds, inherited,
                              target->second.locales);
      const bool target_partitioning =
          reflected.IndexTypeIn(Scope::kLive) == ReferenceIndexType::kForFilteringAndPartitioning;
      total += DataIn(target->second, target_schema, target_partitioning) + a.Block();
      REQUIRE_MESSAGE(a.filter + a.ranges == 0,
                      "reflected filter attributes' type-index gate is not derived");
      if (reflected_types.insert(name).second) ++total;  // the type index's member: this product's index
    }
  }
  return total;
}

int64_t Postings(const Catalog& catalog) {
  int64_t n = 0;
  for (const CollectionIndexStatistics& c : catalog.index_statistics()) {
    for (const IndexKindStatistics& k : c.kinds) n += k.entries;
  }
  return n;
}

TEST_CASE("issue 52: a senesi product's index work equals the count derived from evitaDB's source") {
  testing::TempDir dir;
  auto engine = OpenEngine(dir.path());
  auto source = OpenGeneratorSource({"senesi", 0.01, 7, "senesi"});
  REQUIRE_OK(source);
  const CatalogSchema schema = (*source)->schema();
  std::map<EntityRef, Entity> targets;
  std::vector<Entity> products;
  Entity e;
  for (const auto& c : (*source)->collections()) {
    auto stream = (*source)->OpenCollection(c.entity_type);
    REQUIRE_OK(stream);
    while (*(*stream)->Next(&e)) {
      if (e.type == "Product") {
        products.push_back(e);
      } else {
        targets.emplace(EntityRef{e.type, e.primary_key}, e);
      }
    }
  }
  auto has = [](const Entity& p, const std::string& reference) {
    return std::any_of(p.references.begin(), p.references.end(),
                       [&](const Reference& r) { return r.name == reference; });
  };
  // Products of each shape the formulas distinguish: with and without a
  // validity (a range), with every kind of reference (the reflected side,
  // groups, filtering and partitioning indexes).
  std::vector<const Entity*> picked;
  for (bool validity : {true, false}) {
    for (const Entity& p : products) {
      if (p.attributes.global.contains("validity") == validity && has(p, "groups") && has(p, "tags") &&
          has(p, "stocks") && has(p, "brand") && has(p, "parameterValues")) {
        picked.push_back(&p);
        break;
      }
    }
  }
  REQUIRE(picked.size() == 2);
  auto load = [&](const std::string& name, const Entity* product) {
    CatalogSchema named = schema;
    named.name = name;
    Catalog* catalog = *engine->CreateCatalog(named);
    for (const auto& [ref, target] : targets) REQUIRE_OK(catalog->Upsert(target));
    if (product != nullptr) REQUIRE_OK(catalog->Upsert(*product));
    REQUIRE_OK(catalog->GoLive());
    return Postings(*catalog);
  };
  const int64_t without = load("without", nullptr);
  int n = 0;
  for (const Entity* p : picked) {
    CAPTURE(p->primary_key);
    const int64_t measured = load("with" + std::to_string(++n), p) - without;
    const int64_t derived = DerivedCount(*p, schema, targets);
    CHECK(measured == derived);
    // Well beyond the smallest product: the hundreds of price postings alone.
    CHECK(derived > 500);
  }
}

}  // namespace
}  // namespace warmup::engine_test
