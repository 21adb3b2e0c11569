// How a collection's indexes are saved at goLive and read back when a
// catalog is reopened (the index snapshot, docs/engine.md).
#include <algorithm>

#include "engine/collection.h"
#include "engine/index_io.h"

namespace warmup::engine {

namespace {

// Whether `rs` limits its facets in `scope` by an expression.
bool ConditionallyFaceted(const ReferenceSchema& rs, Scope scope) {
  if (!InScope(rs.faceted_in_scopes, scope)) return false;
  return std::any_of(rs.faceted_partially.begin(), rs.faceted_partially.end(), [&](const auto& partially) {
    return partially.scope == scope && partially.value && !partially.value->empty();
  });
}

}  // namespace

int64_t Collection::ConditionalFacetPostings() const {
  int64_t n = 0;
  for (const auto& [name, rs] : schema_->references) {
    const std::optional<uint32_t> id = keys_.Find(ReferenceKey(name));
    if (!id) continue;
    for (Scope scope : {Scope::kLive, Scope::kArchived}) {
      if (!ConditionallyFaceted(rs, scope)) continue;
      n += static_cast<int64_t>(global_[static_cast<int>(scope)].FacetPostings(*id));
      for (const auto& [key, derived] : derived_) {
        if (key.scope == scope) n += static_cast<int64_t>(derived.index.FacetPostings(*id));
      }
    }
  }
  return n;
}

void Collection::SaveSnapshot(IndexWriter& out, CollectionIndexStatistics* statistics) const {
  IndexKindStatistics kinds[kIndexKinds];
  for (int k = 0; k < kIndexKinds; ++k) kinds[k].kind = static_cast<IndexKind>(k);
  auto count = [&](IndexKind kind, const EntityIndex& index, uint64_t bytes) {
    IndexKindStatistics& s = kinds[static_cast<int>(kind)];
    const IndexCounts c = index.Counts();
    ++s.indexes;
    s.entities += static_cast<int64_t>(c.entities);
    s.entries += static_cast<int64_t>(c.entries);
    s.bytes += static_cast<int64_t>(bytes);
  };
  // The reduced indexes are most of a large collection's snapshot: they are
  // encoded on two threads in parts of kPart, from before the global ones.
  // Small parts keep the encoded ones waiting to be spliced to a few MB (64
  // held ~3 MB more at senesi 0.3 and were no faster).
  constexpr size_t kPart = 16;
  std::vector<const std::pair<const DerivedKey, DerivedIndex>*> derived;
  derived.reserve(derived_.size());
  for (const auto& entry : derived_) derived.push_back(&entry);
  std::vector<uint64_t> derived_bytes(derived.size());
  OrderedEncoder encoder((derived.size() + kPart - 1) / kPart, [&](size_t part, IndexWriter& part_out) {
    const size_t end = std::min(derived.size(), (part + 1) * kPart);
    for (size_t i = part * kPart; i < end; ++i) {
      const auto& [key, entry] = *derived[i];
      const uint64_t start = part_out.written();
      part_out.U64(static_cast<uint64_t>(key.kind));
      part_out.U64(static_cast<uint64_t>(key.scope));
      part_out.U64(key.reference);
      part_out.I64(key.pk);
      part_out.U64(entry.members.size());
      for (const auto& [pk, n] : entry.members) {
        part_out.I64(pk);
        part_out.I64(n);
      }
      part_out.U64(entry.postings.size());
      for (const auto& [posting, n] : entry.postings) {
        part_out.Str(posting);
        part_out.I64(n);
      }
      entry.index.Save(part_out);
      derived_bytes[i] = part_out.written() - start;
    }
  });
  keys_.Save(out);
  for (const auto& index : global_) {
    const uint64_t start = out.written();
    index.Save(out);
    if (!index.all().isEmpty()) count(IndexKind::kGlobal, index, out.written() - start);
  }
  out.U64(derived.size());
  encoder.SpliceInto(out);
  for (size_t i = 0; i < derived.size(); ++i) {
    count(derived[i]->first.kind, derived[i]->second.index, derived_bytes[i]);
  }
  for (const Hierarchy& h : hierarchy_) {
    out.U64(h.parent_of.size());
    for (const auto& [pk, parent] : h.parent_of) {
      out.I64(pk);
      out.I64(parent);
    }
  }
  out.U64(first_price_id_.size());
  for (const auto& [pk, first] : first_price_id_) {
    out.I64(pk);
    out.I64(first);
  }
  out.I64(next_price_id_);
  if (statistics != nullptr) {
    statistics->entity_type = schema_->name;
    statistics->conditional_facets = ConditionalFacetPostings();
    statistics->kinds.clear();
    for (const auto& k : kinds) {
      if (k.indexes > 0) statistics->kinds.push_back(k);
    }
  }
}

void Collection::LoadSnapshot(std::map<int32_t, uint64_t> offsets, IndexReader& in) {
  offsets_ = std::move(offsets);
  reflection_targets_.Clear();
  keys_.Load(in);
  for (auto& index : global_) index.Load(in);
  derived_.clear();
  for (uint64_t n = in.U64(); n > 0 && in.status().ok(); --n) {
    DerivedKey key{};
    key.kind = static_cast<IndexKind>(in.U64());
    key.scope = static_cast<Scope>(in.U64());
    key.reference = static_cast<uint32_t>(in.U64());
    key.pk = static_cast<int32_t>(in.I64());
    DerivedIndex& derived = derived_.try_emplace(key, &values_).first->second;
    for (uint64_t k = in.U64(); k > 0 && in.status().ok(); --k) {
      const auto pk = static_cast<int32_t>(in.I64());
      derived.members[pk] = static_cast<int32_t>(in.I64());
    }
    for (uint64_t k = in.U64(); k > 0 && in.status().ok(); --k) {
      std::string posting = in.Str();
      derived.postings[std::move(posting)] = static_cast<int32_t>(in.I64());
    }
    derived.index.Load(in);
  }
  for (Hierarchy& h : hierarchy_) {
    h = Hierarchy();
    for (uint64_t n = in.U64(); n > 0 && in.status().ok(); --n) {
      const auto pk = static_cast<int32_t>(in.I64());
      const auto parent = static_cast<int32_t>(in.I64());
      h.parent_of[pk] = parent;
      if (parent != -1) h.children[parent].insert(pk);
    }
  }
  first_price_id_.clear();
  for (uint64_t n = in.U64(); n > 0 && in.status().ok(); --n) {
    const auto pk = static_cast<int32_t>(in.I64());
    first_price_id_[pk] = static_cast<int32_t>(in.I64());
  }
  next_price_id_ = static_cast<int32_t>(in.I64());
}

}  // namespace warmup::engine
