// What an upsert or removal does to the indexes of a collection and to the
// indexes evitaDB derives from its references (reduced indexes of referenced
// entities and groups, reference type indexes), as evitaDB's
// EntityIndexLocalMutationExecutor and ReferenceIndexMutator do.
#include <algorithm>

#include "engine/collection.h"

namespace warmup::engine {
namespace {

// The components a reference indexes in `scope`: the referenced entity unless
// the schema says otherwise.
std::vector<ReferenceIndexedComponent> Components(const ReferenceSchema& rs, Scope scope) {
  for (const auto& c : rs.indexed_components) {
    if (c.scope == scope && !c.value.empty()) return c.value;
  }
  return {ReferenceIndexedComponent::kReferencedEntity};
}

bool Has(const std::vector<ReferenceIndexedComponent>& components, ReferenceIndexedComponent c) {
  return std::find(components.begin(), components.end(), c) != components.end();
}

void AppendU32(std::string* out, uint32_t v) {
  for (int i = 0; i < 4; ++i) out->push_back(static_cast<char>(v >> (8 * i)));
}

}  // namespace

std::vector<Reference> Collection::EffectiveReferences(const Entity& e, const CatalogIndexes& catalog,
                                                       bool faceted_only) const {
  std::vector<Reference> out;
  out.reserve(e.references.size());
  for (const Reference& r : e.references) {
    const ReferenceSchema* rs = schema_->FindReference(r.name);
    if (faceted_only && (rs == nullptr || !InScope(rs->faceted_in_scopes, e.scope))) continue;
    if (rs == nullptr || !rs->is_reflected()) out.push_back(r);
  }
  for (Reference& r : catalog.reflected.For(e.type, e.primary_key,
                                            faceted_only ? std::optional<Scope>(e.scope) : std::nullopt)) {
    out.push_back(std::move(r));
  }
  return out;
}

EntityEntries Collection::ComputeEntries(const Entity& e, const std::vector<Reference>& references,
                                         int32_t first_price) {
  EntityEntries out;
  out.full = ComputeEntityEntries(e, references, *schema_, first_price, collation_, keys_);
  // No facets: evitaDB indexes facets only in the global index and in reduced
  // indexes of partitioning references (ReferenceIndexMutator's
  // shouldIndexFacetToTargetIndex; AbstractReducedEntityIndex.addFacet
  // asserts it).
  out.filtering.locales = out.full.locales;
  return out;
}

void Collection::UpdateCounted(DerivedIndex& index, int32_t record, const IndexEntries& entries, bool sorted,
                               bool add) {
  IndexEntries delta;
  // True when this reference is the first to bring the posting (or the last to take it away).
  auto crosses = [&](char type, uint32_t attribute, std::string_view key) {
    std::string posting(1, type);
    AppendU32(&posting, attribute);
    AppendU32(&posting, static_cast<uint32_t>(record));
    posting.append(key);
    if (add) return ++index.postings[posting] == 1;
    auto it = index.postings.find(posting);
    if (it == index.postings.end()) return false;
    if (--it->second > 0) return false;
    index.postings.erase(it);
    return true;
  };
  for (const auto& f : entries.filter) {
    if (crosses('f', f.first, f.second)) delta.filter.push_back(f);
  }
  for (const auto& r : entries.ranges) {
    if (crosses('r', r.attribute, r.from + '\0' + r.to)) delta.ranges.push_back(r);
  }
  for (const auto& s : entries.sort) {
    if (sorted && crosses('s', s.first, s.second)) delta.sort.push_back(s);
  }
  for (const auto& c : entries.chains) {
    // A chain is a sort index too (evitaDB reaches its ChainIndex through
    // insertSortAttribute), so a type index keeps none.
    if (sorted && crosses('c', c.first, std::to_string(c.second))) delta.chains.push_back(c);
  }
  for (const auto& u : entries.unique) {
    if (crosses('u', u.first, u.second)) delta.unique.push_back(u);
  }
  if (delta.empty()) return;
  if (add) {
    index.index.Add(record, delta);
  } else {
    index.index.Remove(record, delta);
  }
}

void Collection::UpdateMember(const DerivedKey& key, int32_t pk, const IndexEntries& data,
                              const IndexEntries& per_reference, bool add) {
  // Type indexes keep no sort postings, attribute or compound: evitaDB's
  // ReferencedTypeEntityIndex makes those inserts no-ops (one entity may
  // reference many entities, so one sort position would not do).
  const bool sorted =
      key.kind != IndexKind::kReferencedEntityType && key.kind != IndexKind::kReferencedGroupEntityType;
  if (add) {
    DerivedIndex& d = derived_.try_emplace(key, &values_).first->second;
    if (++d.members[pk] == 1) {
      d.index.AddMember(pk);
      d.index.Add(pk, data);
    }
    UpdateCounted(d, pk, per_reference, sorted, true);
    return;
  }
  auto it = derived_.find(key);
  if (it == derived_.end()) return;
  DerivedIndex& d = it->second;
  UpdateCounted(d, pk, per_reference, sorted, false);
  auto member = d.members.find(pk);
  if (member != d.members.end() && --member->second == 0) {
    d.members.erase(member);
    d.index.Remove(pk, data);
    d.index.RemoveMember(pk);
  }
  if (d.members.empty()) derived_.erase(it);  // evitaDB sweeps empty indexes too
}

void Collection::IndexReference(int32_t pk, Scope scope, const Reference& r, const EntityEntries& entries,
                                bool add) {
  const ReferenceSchema* rs = schema_->FindReference(r.name);
  if (rs == nullptr) return;
  const ReferenceIndexType type = rs->IndexTypeIn(scope);
  if (type == ReferenceIndexType::kNone) return;
  const uint32_t reference = keys_.Id(ReferenceKey(r.name));
  const IndexEntries per_reference = ComputeReferenceEntries(r, *rs, scope, collation_, keys_);
  // Partitioning references get a full copy of the entity's indexed data;
  // filtering ones its locales (evitaDB's indexAllExistingData).
  const IndexEntries& data =
      type == ReferenceIndexType::kForFilteringAndPartitioning ? entries.full : entries.filtering;
  const IndexEntries none;
  const auto components = Components(*rs, scope);
  if (Has(components, ReferenceIndexedComponent::kReferencedEntity)) {
    UpdateMember({IndexKind::kReferencedEntityType, scope, reference, 0}, r.referenced.primary_key, none,
                 per_reference, add);
    UpdateMember({IndexKind::kReferencedEntity, scope, reference, r.referenced.primary_key}, pk, data,
                 per_reference, add);
  }
  if (Has(components, ReferenceIndexedComponent::kReferencedGroupEntity) && r.group) {
    UpdateMember({IndexKind::kReferencedGroupEntityType, scope, reference, 0}, r.group->primary_key, none,
                 per_reference, add);
    UpdateMember({IndexKind::kReferencedGroupEntity, scope, reference, r.group->primary_key}, pk, data,
                 per_reference, add);
  }
}

void Collection::UpdateIndexes(const Entity& e, bool add, CatalogIndexes* catalog) {
  const int32_t pk = e.primary_key;
  const Scope scope = e.scope;
  reflection_targets_.Erase(pk);
  const std::vector<Reference> references = EffectiveReferences(e, *catalog);
  int32_t first_price = 0;
  if (add) {
    first_price = next_price_id_;
    next_price_id_ += static_cast<int32_t>(e.prices.size());
    first_price_id_[pk] = first_price;
  } else if (auto it = first_price_id_.find(pk); it != first_price_id_.end()) {
    first_price = it->second;
  }
  const EntityEntries entries = ComputeEntries(e, references, first_price);
  EntityIndex& global = global_[static_cast<int>(scope)];
  if (add) {
    global.AddMember(pk);
    global.Add(pk, entries.full);
  } else {
    global.Remove(pk, entries.full);
    global.RemoveMember(pk);
  }
  auto& global_unique = catalog->global_unique[static_cast<int>(scope)];
  for (const auto& [attribute, key] : UniqueKeys(e, *schema_, true)) {
    if (add) {
      global_unique[attribute][key] = EntityRef{e.type, pk};
    } else {
      global_unique[attribute].erase(key);
    }
  }
  if (schema_->with_hierarchy && (schema_->hierarchy_indexed_in_scopes.empty() ||
                                  InScope(schema_->hierarchy_indexed_in_scopes, scope))) {
    const int32_t parent = e.parent.value_or(-1);
    Hierarchy& h = hierarchy_[static_cast<int>(scope)];
    if (add) {
      h.parent_of[pk] = parent;
      if (parent != -1) h.children[parent].insert(pk);
    } else {
      h.parent_of.erase(pk);
      if (auto it = h.children.find(parent); it != h.children.end()) {
        it->second.erase(pk);
        if (it->second.empty()) h.children.erase(it);
      }
    }
  }
  for (const Reference& r : references) IndexReference(pk, scope, r, entries, add);
  if (!add) first_price_id_.erase(pk);
}

Status Collection::ApplyReflected(int32_t pk, const Reference& r, bool add, CatalogIndexes* catalog) {
  auto stored = offsets_.find(pk);
  if (stored == offsets_.end()) return OkStatus();
  const ReferenceSchema* rs = schema_->FindReference(r.name);
  auto faceted_in = [&](Scope scope) { return rs != nullptr && InScope(rs->faceted_in_scopes, scope); };
  if (const ReflectionCache::Target* cached = reflection_targets_.Find(pk);
      cached != nullptr && !faceted_in(cached->scope)) {
    IndexReference(pk, cached->scope, r, cached->entries, add);
    return OkStatus();
  }
  // evitaDB reads the entity's storage parts to fill the new reduced index;
  // warmup reads them once for all the links that are not faceted.
  if (Status s = Settle(); !s.ok()) return s;
  Entity e;
  if (Status s = ReadEntity(stored->second, &e); !s.ok()) return s;
  const bool faceted = faceted_in(e.scope);
  // The entries take only facets from the references, so unless the link is
  // faceted (and the partitioning indexes holding the entity must be found
  // below) only faceted ones are gathered: a referenced entity holding many
  // links (a category's products) would otherwise have every link copied for
  // each new one.
  const std::vector<Reference> references = EffectiveReferences(e, *catalog, /*faceted_only=*/!faceted);
  auto first = first_price_id_.find(pk);
  EntityEntries entries = ComputeEntries(e, references, first == first_price_id_.end() ? 0 : first->second);
  IndexReference(pk, e.scope, r, entries, add);
  if (!faceted) {
    reflection_targets_.Put(pk, {e.scope, std::move(entries)});
    return OkStatus();
  }
  // This link changes the entity's facets, so what was kept of it is stale.
  reflection_targets_.Erase(pk);
  // A faceted reference's facet is in the global index and in every
  // partitioning reduced index holding the entity (the gate of ComputeEntries).
  IndexEntries facet;
  facet.facets.push_back(
      {keys_.Id(ReferenceKey(r.name)), r.group ? r.group->primary_key : 0, r.referenced.primary_key});
  auto update = [&](EntityIndex& index) {
    if (add) {
      index.Add(pk, facet);
    } else {
      index.Remove(pk, facet);
    }
  };
  update(global_[static_cast<int>(e.scope)]);
  for (const Reference& other : references) {
    const ReferenceSchema* os = schema_->FindReference(other.name);
    if (os == nullptr || os->IndexTypeIn(e.scope) != ReferenceIndexType::kForFilteringAndPartitioning)
      continue;
    const uint32_t id = keys_.Id(ReferenceKey(other.name));
    for (const DerivedKey& key :
         {DerivedKey{IndexKind::kReferencedEntity, e.scope, id, other.referenced.primary_key},
          DerivedKey{IndexKind::kReferencedGroupEntity, e.scope, id,
                     other.group ? other.group->primary_key : 0}}) {
      auto it = derived_.find(key);
      if (it != derived_.end() && it->second.index.Contains(pk)) update(it->second.index);
    }
  }
  return OkStatus();
}

}  // namespace warmup::engine
