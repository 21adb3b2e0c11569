// Every index the engine derives from references, read back and compared with
// a brute-force oracle written from docs/engine.md (evitaDB's semantics), not
// from the engine's code: membership of every global, reduced, group and type
// index; filters (equality, comparison, range), sorts (attributes, compounds,
// chains), locales, facets and groups, prices for sale and reference
// attributes in each; on the tiny and senesi profiles, several seeds, after
// re-upserts, removals and scope moves, and again after goLive and a reopen.
#include <doctest/doctest.h>

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <tuple>

#include "common/status_matchers.h"
#include "common/temp_dir.h"
#include "engine/engine_fixtures.h"
#include "warmup/generator.h"

namespace warmup::engine_test {
namespace {

// The catalog as the test holds it: every stored entity, by type and key.
using State = std::map<std::string, std::map<int32_t, Entity>>;

// Orders two items of one attribute type as the docs say evitaDB compares
// them: numbers by value, decimals at `places`, instants by time, strings by
// bytes. nullopt for types the oracle does not order.
std::optional<int> Compare(const Scalar& a, const Scalar& b, int places) {
  auto sign = [](auto x, auto y) { return x < y ? -1 : (y < x ? 1 : 0); };
  if (a.index() != b.index()) return std::nullopt;
  if (auto* x = std::get_if<int64_t>(&a)) return sign(*x, std::get<int64_t>(b));
  if (auto* x = std::get_if<std::string>(&a)) return sign(*x, std::get<std::string>(b));
  if (auto* x = std::get_if<bool>(&a)) return sign(*x, std::get<bool>(b));
  if (auto* x = std::get_if<BigDecimal>(&a))
    return sign(Scaled(*x, places), Scaled(std::get<BigDecimal>(b), places));
  if (auto* x = std::get_if<DateTime>(&a)) {
    const auto& y = std::get<DateTime>(b);
    return sign(std::pair(x->epoch_seconds, x->nanos), std::pair(y.epoch_seconds, y.nanos));
  }
  return std::nullopt;
}

bool IsRange(ValueType t) {
  const ValueType e = ElementType(t);
  return e == ValueType::kDateTimeRange || e == ValueType::kBigDecimalNumberRange ||
         e == ValueType::kLongNumberRange || e == ValueType::kIntegerNumberRange ||
         e == ValueType::kShortNumberRange || e == ValueType::kByteNumberRange;
}

// Whether a range item contains `point` (both ends inclusive, absent = open;
// decimals compared at `places`).
bool Contains(const Scalar& range, const Scalar& point, int places) {
  if (auto* r = std::get_if<BigDecimalRange>(&range)) {
    const int64_t p = Scaled(std::get<BigDecimal>(point), places);
    return (!r->from || Scaled(*r->from, places) <= p) && (!r->to || p <= Scaled(*r->to, places));
  }
  if (auto* r = std::get_if<DateTimeRange>(&range)) {
    const auto& p = std::get<DateTime>(point);
    auto key = [](const DateTime& d) { return std::pair(d.epoch_seconds, d.nanos); };
    return (!r->from || key(*r->from) <= key(p)) && (!r->to || key(p) <= key(*r->to));
  }
  const auto& r = std::get<NumberRange>(range);
  const int64_t p = std::get<int64_t>(point);
  return (!r.from || *r.from <= p) && (!r.to || p <= *r.to);
}

// A point inside (or at the start of) a range item, as a Value of the element's point type.
std::optional<Value> PointIn(const Scalar& range) {
  if (auto* r = std::get_if<DateTimeRange>(&range)) {
    if (!r->from) return std::nullopt;
    return *Value::Make(ValueType::kOffsetDateTime, {*r->from});
  }
  if (auto* r = std::get_if<BigDecimalRange>(&range)) {
    if (!r->from) return std::nullopt;
    return *Value::Make(ValueType::kBigDecimal, {*r->from});
  }
  const auto& r = std::get<NumberRange>(range);
  if (!r.from) return std::nullopt;
  return Value::Long(*r.from);
}

bool Inherits(const ReferenceSchema& reflected, const std::string& name) {
  const auto& f = reflected.attribute_inheritance_filter;
  const bool listed = std::find(f.begin(), f.end(), name) != f.end();
  return reflected.attribute_inheritance_behavior == AttributeInheritanceBehavior::kInheritAllExcept ? !listed
                                                                                                     : listed;
}

// Each entity's references as evitaDB sees them: its own, and the reflected
// ones its holders' references create (with the attributes they inherit).
std::map<std::pair<std::string, int32_t>, std::vector<Reference>> EffectiveReferences(
    const State& state, const CatalogSchema& schema) {
  std::map<std::pair<std::string, int32_t>, std::vector<Reference>> out;
  for (const auto& [type, entities] : state) {
    const EntitySchema& es = schema.entities.at(type);
    for (const auto& [pk, e] : entities) {
      auto& refs = out[{type, pk}];
      for (const auto& r : e.references) {
        if (!es.FindReference(r.name)->is_reflected()) refs.push_back(r);
      }
    }
  }
  for (const auto& [type, es] : schema.entities) {
    for (const auto& [name, rs] : es.references) {
      if (!rs.is_reflected() || !state.contains(rs.referenced_entity_type)) continue;
      for (const auto& [holder_pk, holder] : state.at(rs.referenced_entity_type)) {
        for (const auto& r : holder.references) {
          if (r.name != *rs.reflected_reference_name || r.referenced.entity_type != type) continue;
          if (!state.contains(type) || !state.at(type).contains(r.referenced.primary_key)) continue;
          Reference reflected{name, {holder.type, holder_pk}, std::nullopt, {}};
          for (const auto& [a, v] : r.attributes.global) {
            if (Inherits(rs, a)) reflected.attributes.global.emplace(a, v);
          }
          for (const auto& [tag, values] : r.attributes.localized) {
            for (const auto& [a, v] : values) {
              if (Inherits(rs, a)) reflected.attributes.localized[tag].emplace(a, v);
            }
          }
          out[{type, r.referenced.primary_key}].push_back(std::move(reflected));
        }
      }
    }
  }
  return out;
}

// One index as the docs define it.
struct Expected {
  IndexScope scope;
  std::set<int32_t> members;  // entities; referenced entities or groups for type indexes
  bool full = false;          // the entity's whole indexed data (global, partitioning reduced)
};

std::map<std::tuple<int, int, std::string, int32_t>, Expected> ExpectedIndexes(
    const std::string& type, const State& state, const CatalogSchema& schema,
    const std::map<std::pair<std::string, int32_t>, std::vector<Reference>>& refs) {
  std::map<std::tuple<int, int, std::string, int32_t>, Expected> out;
  const EntitySchema& es = schema.entities.at(type);
  auto at = [&](IndexKind kind, Scope scope, const std::string& reference, int32_t pk) -> Expected& {
    Expected& x = out[{static_cast<int>(kind), static_cast<int>(scope), reference, pk}];
    x.scope = {reference, pk, scope, kind, false};
    return x;
  };
  if (!state.contains(type)) return out;
  for (const auto& [pk, e] : state.at(type)) {
    Expected& global = at(IndexKind::kGlobal, e.scope, "", 0);
    global.members.insert(pk);
    global.full = true;
    for (const auto& r : refs.at({type, pk})) {
      const ReferenceSchema* rs = es.FindReference(r.name);
      const ReferenceIndexType t = rs->IndexTypeIn(e.scope);
      if (t == ReferenceIndexType::kNone) continue;
      std::vector<ReferenceIndexedComponent> components = {ReferenceIndexedComponent::kReferencedEntity};
      for (const auto& c : rs->indexed_components) {
        if (c.scope == e.scope && !c.value.empty()) components = c.value;
      }
      const bool full = t == ReferenceIndexType::kForFilteringAndPartitioning;
      auto has = [&](ReferenceIndexedComponent c) {
        return std::find(components.begin(), components.end(), c) != components.end();
      };
      if (has(ReferenceIndexedComponent::kReferencedEntity)) {
        at(IndexKind::kReferencedEntityType, e.scope, r.name, 0).members.insert(r.referenced.primary_key);
        Expected& reduced = at(IndexKind::kReferencedEntity, e.scope, r.name, r.referenced.primary_key);
        reduced.members.insert(pk);
        reduced.full = full;
      }
      if (has(ReferenceIndexedComponent::kReferencedGroupEntity) && r.group) {
        at(IndexKind::kReferencedGroupEntityType, e.scope, r.name, 0).members.insert(r.group->primary_key);
        Expected& reduced = at(IndexKind::kReferencedGroupEntity, e.scope, r.name, r.group->primary_key);
        reduced.members.insert(pk);
        reduced.full = full;
      }
    }
  }
  return out;
}

std::vector<int32_t> Sorted(std::vector<int32_t> v) {
  std::sort(v.begin(), v.end());
  return v;
}

// Entities of `members` having attribute `name` (a scalar), ordered by value
// (then primary key), descending values with ascending keys inside a value.
std::vector<int32_t> OrderedBy(const std::vector<std::pair<Scalar, int32_t>>& keyed, int places,
                               bool descending) {
  auto sorted = keyed;
  std::stable_sort(sorted.begin(), sorted.end(), [&](const auto& a, const auto& b) {
    const int c = *Compare(a.first, b.first, places);
    if (c != 0) return descending ? c > 0 : c < 0;
    return a.second < b.second;
  });
  std::vector<int32_t> out;
  for (const auto& [v, pk] : sorted) out.push_back(pk);
  return out;
}

// The chain order docs/engine.md defines for predecessor attributes.
std::vector<int32_t> ChainOrder(const std::map<int32_t, int32_t>& predecessor) {
  std::map<int32_t, std::vector<int32_t>> successors;
  for (const auto& [pk, p] : predecessor) successors[p].push_back(pk);
  std::vector<int32_t> out;
  std::set<int32_t> seen;
  std::function<void(int32_t)> walk = [&](int32_t pk) {
    if (!seen.insert(pk).second) return;
    out.push_back(pk);
    for (int32_t next : successors[pk]) walk(next);
  };
  for (const auto& [pk, p] : predecessor) {
    if (p == -1) walk(pk);
  }
  for (const auto& [pk, p] : predecessor) {
    if (!predecessor.contains(p)) walk(pk);
  }
  for (const auto& [pk, p] : predecessor) walk(pk);
  return out;
}

const Value* Attribute(const Attributes& a, const std::string& name) {
  auto it = a.global.find(name);
  return it == a.global.end() ? nullptr : &it->second;
}

// Per (scope, reference name): the references of a collection's entities, with their owners.
using ReferencesByName =
    std::map<std::pair<Scope, std::string>, std::vector<std::pair<int32_t, const Reference*>>>;

ReferencesByName ByName(const std::string& type, const State& state,
                        const std::map<std::pair<std::string, int32_t>, std::vector<Reference>>& refs) {
  ReferencesByName out;
  if (!state.contains(type)) return out;
  for (const auto& [pk, e] : state.at(type)) {
    for (const auto& r : refs.at({type, pk})) out[{e.scope, r.name}].emplace_back(pk, &r);
  }
  return out;
}

// Compares every read of every index of every collection with the oracle:
// membership of each; the other reads on up to kDeepChecks indexes of each
// kind and reference (a senesi catalog has thousands of one-entity indexes).
void CheckAllIndexes(const Catalog& catalog, const State& state) {
  constexpr int kDeepChecks = 12;
  const CatalogSchema& schema = catalog.schema();
  const auto refs = EffectiveReferences(state, schema);
  for (const auto& type_entry : schema.entities) {
    // Named, not bound: clang before 16 cannot capture a structured binding.
    const auto& type = type_entry.first;
    const auto& es = type_entry.second;
    CAPTURE(type);
    const auto expected = ExpectedIndexes(type, state, schema, refs);
    const ReferencesByName by_name = ByName(type, state, refs);
    std::map<std::tuple<int, int, std::string>, int> deep;
    for (const auto& index_entry : expected) {
      const Expected& x = index_entry.second;
      const IndexScope& scope = x.scope;
      CAPTURE(scope.reference);
      CAPTURE(static_cast<int>(scope.kind));
      CAPTURE(scope.referenced_pk);
      CAPTURE(static_cast<int>(scope.scope));
      const std::vector<int32_t> members(x.members.begin(), x.members.end());
      REQUIRE(*catalog.Members(type, scope) == members);
      if (++deep[{static_cast<int>(scope.kind), static_cast<int>(scope.scope), scope.reference}] >
          kDeepChecks) {
        continue;
      }
      const bool type_index = scope.kind == IndexKind::kReferencedEntityType ||
                              scope.kind == IndexKind::kReferencedGroupEntityType;
      std::vector<const Entity*> entities;
      if (!type_index) {
        for (int32_t pk : members) entities.push_back(&state.at(type).at(pk));
      }
      // Reference attributes: per member its reference behind this index.
      if (!scope.reference.empty()) {
        const ReferenceSchema* rs = es.FindReference(scope.reference);
        IndexScope by_reference = scope;
        by_reference.reference_attributes = true;
        for (const auto& attribute_entry : rs->attributes) {
          // Named, not bound: clang before 16 cannot capture a structured binding.
          const auto& name = attribute_entry.first;
          const auto& a = attribute_entry.second;
          if (a.localized || a.type == ValueType::kPredecessor) continue;
          const bool filterable = In(a.filterable_in_scopes, scope.scope);
          // (record, value) pairs: records are members, or referenced pks in type indexes.
          std::vector<std::pair<int32_t, const Value*>> values;
          auto named = by_name.find({scope.scope, scope.reference});
          if (named != by_name.end()) {
            for (const auto& [owner, r] : named->second) {
              const int32_t target = scope.kind == IndexKind::kReferencedGroupEntity ||
                                             scope.kind == IndexKind::kReferencedGroupEntityType
                                         ? (r->group ? r->group->primary_key : 0)
                                         : r->referenced.primary_key;
              if (!type_index && target != scope.referenced_pk) continue;
              if (const Value* v = Attribute(r->attributes, name))
                values.emplace_back(type_index ? target : owner, v);
            }
          }
          CAPTURE(name);
          // Sorted by a reference attribute: within one referenced entity's
          // index; a type index keeps no sort (docs/engine.md).
          if (In(a.sortable_in_scopes, scope.scope) && !values.empty() &&
              Compare(values.front().second->scalar(), values.front().second->scalar(),
                      a.indexed_decimal_places)) {
            std::vector<std::pair<Scalar, int32_t>> keyed;
            if (!type_index) {
              for (const auto& [record, v] : values) keyed.emplace_back(v->scalar(), record);
            }
            CHECK(*catalog.SortBy(type, name, "", OrderDirection::kAsc, by_reference) ==
                  OrderedBy(keyed, a.indexed_decimal_places, false));
          }
          if (!filterable || values.empty()) continue;
          const Value& probe = *values.front().second;
          if (probe.is_array()) continue;
          std::set<int32_t> want;
          for (const auto& [record, v] : values) {
            for (const Scalar& item : v->items()) {
              if (item == probe.scalar()) want.insert(record);
            }
          }
          CHECK(*catalog.FilterEquals(type, name, "", probe, by_reference) ==
                std::vector<int32_t>(want.begin(), want.end()));
        }
      }
      if (type_index) continue;
      // Locales.
      for (const Locale& locale : es.locales) {
        std::vector<int32_t> want;
        for (const Entity* e : entities) {
          if (std::find(e->locales.begin(), e->locales.end(), locale) != e->locales.end()) {
            want.push_back(e->primary_key);
          }
        }
        CHECK(*catalog.WithLocale(type, locale.tag(), scope) == want);
      }
      // Facets, by facet and by group: in the global index and the reduced
      // indexes of partitioning references only, every faceted reference's
      // there; none in the others (docs/engine.md, evitaDB's facet gate).
      for (const auto& reference_entry : es.references) {
        // Named, not bound: clang before 16 cannot capture a structured binding.
        const auto& name = reference_entry.first;
        const auto& rs = reference_entry.second;
        if (!In(rs.faceted_in_scopes, scope.scope)) continue;
        std::map<int32_t, std::set<int32_t>> by_facet;
        std::map<int32_t, std::set<int32_t>> by_group;
        for (const Entity* e : entities) {
          for (const auto& r : refs.at({type, e->primary_key})) {
            if (r.name != name) continue;
            by_facet[r.referenced.primary_key].insert(e->primary_key);
            by_group[r.group ? r.group->primary_key : 0].insert(e->primary_key);
          }
        }
        auto held = [&](const std::set<int32_t>& pks) {
          return x.full ? std::vector<int32_t>(pks.begin(), pks.end()) : std::vector<int32_t>{};
        };
        int probes = 0;
        for (const auto& [facet, pks] : by_facet) {
          if (++probes > 6) break;
          CHECK(*catalog.FacetMembers(type, name, facet, scope) == held(pks));
        }
        for (const auto& [group, pks] : by_group) {
          CHECK(*catalog.FacetGroupMembers(type, name, group, scope) == held(pks));
        }
      }
      // Entity attributes: only where the index holds the entity's data.
      for (const auto& attribute_entry : es.attributes) {
        // Named, not bound: clang before 16 cannot capture a structured binding.
        const auto& name = attribute_entry.first;
        const auto& a = attribute_entry.second;
        CAPTURE(name);
        if (a.localized) continue;
        std::vector<std::pair<const Value*, int32_t>> having;
        for (const Entity* e : entities) {
          if (const Value* v = Attribute(e->attributes, name)) having.emplace_back(v, e->primary_key);
        }
        if (having.empty()) continue;
        const Value& probe = *having[having.size() / 2].first;
        if (In(a.filterable_in_scopes, scope.scope) && !probe.is_array() && !IsRange(a.type)) {
          std::vector<int32_t> want;
          if (x.full) {
            for (const auto& [v, pk] : having) {
              if (std::any_of(v->items().begin(), v->items().end(), [&](const Scalar& s) {
                    auto c = Compare(s, probe.scalar(), a.indexed_decimal_places);
                    return c ? *c == 0 : s == probe.scalar();
                  })) {
                want.push_back(pk);
              }
            }
          }
          CHECK(*catalog.FilterEquals(type, name, "", probe, scope) == Sorted(want));
          // A comparison: values at or above the probe, and strictly below it.
          if (Compare(probe.scalar(), probe.scalar(), a.indexed_decimal_places)) {
            std::vector<int32_t> at_least;
            std::vector<int32_t> below;
            if (x.full) {
              for (const auto& [v, pk] : having) {
                const int c = *Compare(v->scalar(), probe.scalar(), a.indexed_decimal_places);
                (c >= 0 ? at_least : below).push_back(pk);
              }
            }
            CHECK(*catalog.FilterRange(type, name, "", Bound{probe, true}, std::nullopt, scope) ==
                  Sorted(at_least));
            CHECK(*catalog.FilterRange(type, name, "", std::nullopt, Bound{probe, false}, scope) ==
                  Sorted(below));
          }
        }
        if (In(a.filterable_in_scopes, scope.scope) && IsRange(a.type)) {
          if (auto point = PointIn(probe.items()[0])) {
            std::vector<int32_t> want;
            if (x.full) {
              for (const auto& [v, pk] : having) {
                if (std::any_of(v->items().begin(), v->items().end(), [&](const Scalar& s) {
                      return Contains(s, point->scalar(), a.indexed_decimal_places);
                    })) {
                  want.push_back(pk);
                }
              }
            }
            CHECK(*catalog.FilterInRange(type, name, *point, scope) == Sorted(want));
          }
        }
        if (In(a.sortable_in_scopes, scope.scope) && !probe.is_array()) {
          if (a.type == ValueType::kPredecessor) {
            std::map<int32_t, int32_t> chain;
            if (x.full) {
              for (const auto& [v, pk] : having) {
                chain[pk] = std::get<Predecessor>(v->scalar()).predecessor_pk.value_or(-1);
              }
            }
            CHECK(*catalog.SortBy(type, name, "", OrderDirection::kAsc, scope) == ChainOrder(chain));
          } else if (Compare(probe.scalar(), probe.scalar(), a.indexed_decimal_places)) {
            std::vector<std::pair<Scalar, int32_t>> keyed;
            if (x.full) {
              for (const auto& [v, pk] : having) keyed.emplace_back(v->scalar(), pk);
            }
            for (bool descending : {false, true}) {
              CHECK(*catalog.SortBy(type, name, "", descending ? OrderDirection::kDesc : OrderDirection::kAsc,
                                    scope) == OrderedBy(keyed, a.indexed_decimal_places, descending));
            }
          }
        }
      }
      // Compounds over global attributes: element by element, nulls where the schema says.
      for (const auto& compound_entry : es.sortable_attribute_compounds) {
        // Named, not bound: clang before 16 cannot capture a structured binding.
        const auto& name = compound_entry.first;
        const auto& compound = compound_entry.second;
        if (!In(compound.indexed_in_scopes, scope.scope)) continue;
        bool plain = true;
        for (const auto& el : compound.elements) plain &= !es.attributes.at(el.attribute_name).localized;
        if (!plain) continue;
        std::vector<const Entity*> sorted;
        if (x.full) {
          for (const Entity* e : entities) {
            bool any = false;
            for (const auto& el : compound.elements)
              any |= Attribute(e->attributes, el.attribute_name) != nullptr;
            if (any) sorted.push_back(e);
          }
        }
        std::stable_sort(sorted.begin(), sorted.end(), [&](const Entity* l, const Entity* r) {
          for (const auto& el : compound.elements) {
            const Value* a = Attribute(l->attributes, el.attribute_name);
            const Value* b = Attribute(r->attributes, el.attribute_name);
            if (!a || !b) {
              if (!a && !b) continue;
              const bool nulls_first = el.behaviour == OrderBehaviour::kNullsFirst;
              return (a == nullptr) == nulls_first;
            }
            const int c = *Compare(a->scalar(), b->scalar(),
                                   es.attributes.at(el.attribute_name).indexed_decimal_places);
            if (c != 0) return el.direction == OrderDirection::kAsc ? c < 0 : c > 0;
          }
          return l->primary_key < r->primary_key;
        });
        std::vector<int32_t> want;
        for (const Entity* e : sorted) want.push_back(e->primary_key);
        CAPTURE(name);
        CHECK(*catalog.SortBy(type, name, "", OrderDirection::kAsc, scope) == want);
      }
      // Prices for sale: every list in two priority orders, at a moment, with and without tax.
      if (es.with_price) {
        std::set<std::string> lists;
        for (const Entity* e : entities) {
          for (const Price& p : e->prices) lists.insert(p.price_list);
        }
        std::vector<std::string> ordered(lists.begin(), lists.end());
        for (int round = 0; round < 2; ++round) {
          for (const Currency& currency : es.currencies) {
            PriceQuery q;
            q.price_lists = ordered;
            q.currency = currency;
            if (round == 1) {
              q.valid_at = DateTime{1'700'000'000, 0, 0};
              q.from = *BigDecimal::Parse("100");
              q.to = *BigDecimal::Parse("5000");
              q.with_tax = false;
            }
            CHECK(*catalog.PricesForSale(type, q, scope) ==
                  ExpectedPricesForSale(entities, es, scope, q, x.full));
          }
          std::reverse(ordered.begin(), ordered.end());
        }
      }
    }
    // Hierarchy per scope.
    if (es.with_hierarchy && state.contains(type)) {
      for (Scope s : {Scope::kLive, Scope::kArchived}) {
        std::map<int32_t, int32_t> parent_of;
        if (In(es.hierarchy_indexed_in_scopes, s)) {
          for (const auto& [pk, e] : state.at(type)) {
            if (e.scope == s) parent_of[pk] = e.parent.value_or(-1);
          }
        }
        std::vector<int32_t> level;
        std::vector<int32_t> orphans;
        for (const auto& [pk, parent] : parent_of) {
          if (parent == -1) level.push_back(pk);
          if (parent != -1 && !parent_of.contains(parent)) orphans.push_back(pk);
        }
        CHECK(*catalog.Orphans(type, s) == orphans);
        for (int depth = 1; depth <= 4; ++depth) {
          CHECK(*catalog.HierarchyLevel(type, depth, s) == level);
          std::vector<int32_t> next;
          for (const auto& [pk, parent] : parent_of) {
            if (std::find(level.begin(), level.end(), parent) != level.end()) next.push_back(pk);
          }
          level = next;
        }
      }
    }
  }
}

// goLive's statistics: per collection and kind, as many indexes as the
// references call for, holding as many entities (or referenced entities).
void CheckStatistics(const Catalog& catalog, const State& state) {
  const CatalogSchema& schema = catalog.schema();
  const auto refs = EffectiveReferences(state, schema);
  const auto& statistics = catalog.index_statistics();
  REQUIRE(statistics.size() == schema.entities.size());
  for (const auto& c : statistics) {
    CAPTURE(c.entity_type);
    std::map<int, std::pair<int64_t, int64_t>> want;  // kind -> (indexes, entities)
    for (const auto& [key, x] : ExpectedIndexes(c.entity_type, state, schema, refs)) {
      auto& [indexes, entities] = want[std::get<0>(key)];
      ++indexes;
      entities += static_cast<int64_t>(x.members.size());
    }
    std::map<int, std::pair<int64_t, int64_t>> got;
    for (const auto& k : c.kinds) {
      got[static_cast<int>(k.kind)] = {k.indexes, k.entities};
      CHECK(k.bytes > 0);
      CHECK(k.entries >= k.entities);
    }
    CHECK(got == want);
  }
}

// Loads `profile` and returns what was stored.
State Load(Catalog& catalog, CatalogSource& source) {
  State state;
  Entity e;
  for (const auto& c : source.collections()) {
    auto stream = source.OpenCollection(c.entity_type);
    REQUIRE_OK(stream);
    while (*(*stream)->Next(&e)) {
      Status s = catalog.Upsert(e);
      REQUIRE_MESSAGE(s.ok(), s.ToString());
      state[e.type][e.primary_key] = e;
    }
  }
  return state;
}

// Re-upserts every 5th entity with its last reference and last price gone
// (every 11th also moved to the other scope where its schema allows), and
// removes every 7th: what a later load of a changed catalog does.
void Mutate(Catalog& catalog, State& state) {
  for (auto& [type, entities] : state) {
    const EntitySchema& es = catalog.schema().entities.at(type);
    std::vector<int32_t> removed;
    int i = 0;
    for (auto& [pk, e] : entities) {
      ++i;
      if (i % 7 == 0) {
        REQUIRE_OK(catalog.Remove(type, pk));
        removed.push_back(pk);
        continue;
      }
      if (i % 5 != 0) continue;
      Entity changed = e;
      std::erase_if(changed.references,
                    [&](const Reference& r) { return es.FindReference(r.name)->is_reflected(); });
      if (!changed.references.empty()) changed.references.pop_back();
      if (!changed.prices.empty()) changed.prices.pop_back();
      if (i % 11 == 0) changed.scope = changed.scope == Scope::kLive ? Scope::kArchived : Scope::kLive;
      Status s = catalog.Upsert(changed);
      if (!s.ok()) continue;  // a unique value taken in the other scope: the entity stays as it was
      e = changed;
    }
    for (int32_t pk : removed) entities.erase(pk);
  }
}

void CheckProfile(const std::string& profile, double scale, uint64_t seed) {
  CAPTURE(profile);
  CAPTURE(seed);
  testing::TempDir dir;
  State state;
  State warm_state;
  {
    auto engine = OpenEngine(dir.path());
    auto source = OpenGeneratorSource({profile, scale, seed, "c"});
    REQUIRE_OK(source);
    Catalog* catalog = *engine->CreateCatalog((*source)->schema());
    state = Load(*catalog, **source);
    CheckAllIndexes(*catalog, state);
    Mutate(*catalog, state);
    CheckAllIndexes(*catalog, state);
    // A second catalog that never goes live: a reopen replays its records, removals included.
    auto again = OpenGeneratorSource({profile, scale, seed, "warm"});
    REQUIRE_OK(again);
    Catalog* warm = *engine->CreateCatalog((*again)->schema());
    warm_state = Load(*warm, **again);
    Mutate(*warm, warm_state);
    REQUIRE_OK(catalog->GoLive());
    CheckStatistics(*catalog, state);
  }
  auto engine = OpenEngine(dir.path());
  CheckAllIndexes(**engine->GetCatalog("c"), state);
  CheckAllIndexes(**engine->GetCatalog("warm"), warm_state);
}

TEST_CASE("derived indexes match the oracle: tiny, three seeds, after re-upserts, removals and a reopen") {
  for (uint64_t seed : {1u, 2u, 3u}) CheckProfile("tiny", 1.0, seed);
}

TEST_CASE("derived indexes match the oracle: senesi at scale 0.005, two seeds") {
  for (uint64_t seed : {1u, 2u}) CheckProfile("senesi", 0.005, seed);
}

// Production's shape: a product referencing other products (the collection's
// own reduced indexes), media, and one category holding half the products.
TEST_CASE("derived indexes match the oracle: senesi-production at scale 0.005") {
  CheckProfile("senesi-production", 0.005, 1);
}

}  // namespace
}  // namespace warmup::engine_test
