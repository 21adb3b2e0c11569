// How an entity index and its key dictionary are saved at goLive and read
// back when a catalog is reopened (the index snapshot, docs/engine.md).
#include "engine/entity_index.h"

#include <cassert>
#include <vector>

#include "engine/index_io.h"

namespace warmup::engine {

void KeyDictionary::Save(IndexWriter& out) const {
  std::vector<const std::string*> by_id(ids_.size());
  for (const auto& [key, id] : ids_) by_id[id] = &key;
  out.U64(by_id.size());
  for (const std::string* key : by_id) out.Str(*key);
}

void KeyDictionary::Load(IndexReader& in) {
  ids_.clear();
  const uint64_t n = in.U64();
  for (uint64_t i = 0; i < n && in.status().ok(); ++i) ids_.emplace(in.Str(), static_cast<uint32_t>(i));
}

namespace {

// Maps of primary-key sets, keyed by strings or integers, in both directions.
template <typename Map>
void SaveSets(IndexWriter& out, const Map& map) {
  out.U64(map.size());
  for (const auto& [key, pks] : map) {
    if constexpr (std::is_same_v<std::decay_t<decltype(key)>, HeldKey>) {
      out.Str(key.view());
    } else {
      out.I64(key);
    }
    out.Pks(pks);
  }
}

// Reads what SaveSets wrote; string keys are stored in `values`.
template <typename Map>
void LoadSets(IndexReader& in, Map* map, ValueDictionary* values = nullptr) {
  map->clear();
  const uint64_t n = in.U64();
  for (uint64_t i = 0; i < n && in.status().ok(); ++i) {
    using Key = typename Map::key_type;
    Key key;
    if constexpr (std::is_same_v<Key, HeldKey>) {
      key = values->Intern(in.Str());
    } else {
      key = static_cast<Key>(in.I64());
    }
    map->emplace(key, in.Pks());
  }
}

// Slots are saved as a run of ids 0 .. Extent() - 1, an absent one as an
// empty structure (the snapshot's layout since version 1), by `save(T)`.
template <typename T, typename Save>
void SaveEach(IndexWriter& out, const IdSlots<T>& slots, Save save) {
  static const T kEmpty;
  out.U64(slots.Extent());
  uint32_t next = 0;
  for (const auto& [id, slot] : slots) {
    for (; next < id; ++next) save(kEmpty);
    save(slot);
    ++next;
  }
}

// Reads the run SaveEach wrote with `load(T*)`, which says whether the slot
// holds anything; empty ones are not kept.
template <typename T, typename Load>
void LoadEach(IndexReader& in, IdSlots<T>* slots, Load load) {
  *slots = IdSlots<T>();
  const uint64_t n = in.U64();
  for (uint64_t id = 0; id < n && in.status().ok(); ++id) {
    T slot;
    if (load(&slot)) (*slots)[static_cast<uint32_t>(id)] = std::move(slot);
  }
}

template <typename Map>
void SaveSlots(IndexWriter& out, const IdSlots<Map>& slots) {
  SaveEach(out, slots, [&](const Map& map) { SaveSets(out, map); });
}

template <typename Map>
void LoadSlots(IndexReader& in, IdSlots<Map>* slots, ValueDictionary* values) {
  LoadEach(in, slots, [&](Map* map) {
    LoadSets(in, map, values);
    return !map->empty();
  });
}

void SavePrice(IndexWriter& out, int32_t internal_id, const EntityIndex::PriceRecord& p,
               const ValidityIndex::Span& validity) {
  out.I64(p.pk);
  out.I64(internal_id);
  out.I64(p.price_id);
  out.I64(p.inner_record_id);
  out.U64(p.has_inner_record ? 1 : 0);
  out.I64(p.with_tax);
  out.I64(p.without_tax);
  out.U64(p.has_validity ? 1 : 0);
  if (p.has_validity) {
    out.I64(validity.from);
    out.I64(validity.to);
  }
}

// A posting set as the snapshot's bitmap, and back.
Roaring ToBitmap(const PkSet& set) {
  Roaring bitmap;
  set.AddTo(&bitmap);
  return bitmap;
}
PkSet ToPkSet(const Roaring& bitmap) {
  PkSet set;
  for (uint32_t v : bitmap) set.Add(v);
  return set;
}

PriceEntry LoadPrice(IndexReader& in, uint32_t key, int32_t* pk) {
  PriceEntry p;
  p.key = key;
  *pk = static_cast<int32_t>(in.I64());
  // The entity -> prices map reserves negative ids; a validity edge keeps
  // its side in the bit above them.
  p.internal_id = in.NonNegativeI32("internal price id");
  p.price_id = static_cast<int32_t>(in.I64());
  const auto inner = static_cast<int32_t>(in.I64());
  if (in.U64() != 0) p.inner_record_id = inner;
  p.with_tax = in.I64();
  p.without_tax = in.I64();
  p.has_validity = in.U64() != 0;
  if (p.has_validity) {
    p.valid_from = in.I64();
    p.valid_to = in.I64();
  }
  return p;
}

}  // namespace

void EntityIndex::Save(IndexWriter& out) const {
  out.Bitmap(all_);
  SaveSlots(out, filter_);
  SaveEach(out, ranges_, [&](const RangeIndex& r) {
    out.U64(r.by_start.size());
    for (const auto& [from, to, pk] : r.by_start) {
      out.Str(from);
      out.Str(to);
      out.U64(pk);
    }
  });
  SaveSlots(out, sort_);
  SaveEach(out, chains_, [&](const ChainIndex& chain) {
    out.U64(chain.predecessor.size());
    for (const auto& [pk, predecessor] : chain.predecessor) {
      out.I64(pk);
      out.I64(predecessor);
    }
  });
  SaveEach(out, unique_, [&](const UniqueOwners& owners) {
    out.U64(owners.size());
    for (const auto& [key, pk] : owners) {
      out.Str(key.view());
      out.I64(pk);
    }
  });
  SaveEach(out, locales_, [&](const PkSet& entities) { out.Bitmap(ToBitmap(entities)); });
  SaveEach(out, prices_, [&](const PriceIndex& index) {
    if (price_records_ == PriceRecords::kOwn) {
      // Records and validities are both in ascending internal id, and every
      // record has a validity.
      static const EntityIndex::PriceIndex::OwnRecords kNone;
      const auto& records = index.own != nullptr ? index.own->records : kNone.records;
      out.U64(records.size());
      auto record = records.begin();
      index.validity.ForEachByPrice(index.price_ids, [&](const ValidityIndex::Span& v) {
        if (record == records.end() || static_cast<uint32_t>(record->first) != v.id) return;
        SavePrice(out, record->first, record->second, v);
        ++record;
      });
      assert(record == records.end());  // records and price ids are added and removed together
      return;
    }
    // References: the entities, and per price its id and validity, in the
    // order of ids.
    out.Bitmap(ToBitmap(index.entities));
    out.U64(index.price_ids.size());
    index.validity.ForEachByPrice(index.price_ids, [&](const ValidityIndex::Span& v) {
      out.I64(v.id);
      out.I64(v.from);
      out.I64(v.to);
    });
  });
  // Per reference: its groups, each with its facets and their entities.
  SaveEach(out, facets_, [&](const FacetSets& facets) {
    uint64_t groups = 0;
    for (auto it = facets.begin(); it != facets.end(); ++it) {
      if (it == facets.begin() || std::prev(it)->first.first != it->first.first) ++groups;
    }
    out.U64(groups);
    for (auto it = facets.begin(); it != facets.end();) {
      const int32_t group = it->first.first;
      auto end = it;
      uint64_t n = 0;
      for (; end != facets.end() && end->first.first == group; ++end) ++n;
      out.I64(group);
      out.U64(n);
      for (; it != end; ++it) {
        out.I64(it->first.second);
        out.Pks(it->second);
      }
    }
  });
}

void EntityIndex::Load(IndexReader& in) {
  *this = EntityIndex(values_, price_records_);
  all_ = in.Bitmap();
  LoadSlots(in, &filter_, values_);
  LoadEach(in, &ranges_, [&](RangeIndex* r) {
    for (uint64_t n = in.U64(); n > 0 && in.status().ok(); --n) {
      std::string from = in.Str();
      std::string to = in.Str();
      const auto pk = static_cast<uint32_t>(in.U64());
      r->by_end.emplace(to, from, pk);
      r->by_start.emplace(std::move(from), std::move(to), pk);
    }
    return !r->by_start.empty();
  });
  LoadSlots(in, &sort_, values_);
  LoadEach(in, &chains_, [&](ChainIndex* chain) {
    for (uint64_t n = in.U64(); n > 0 && in.status().ok(); --n) {
      const auto pk = static_cast<int32_t>(in.I64());
      const auto predecessor = static_cast<int32_t>(in.I64());
      chain->predecessor[pk] = predecessor;
      chain->successors[predecessor].Add(static_cast<uint32_t>(pk));
    }
    return !chain->predecessor.empty();
  });
  LoadEach(in, &unique_, [&](UniqueOwners* owners) {
    for (uint64_t n = in.U64(); n > 0 && in.status().ok(); --n) {
      const HeldKey key = values_->Intern(in.Str());
      (*owners)[key] = static_cast<int32_t>(in.I64());
    }
    return !owners->empty();
  });
  LoadEach(in, &locales_, [&](PkSet* entities) {
    *entities = ToPkSet(in.Bitmap());
    return !entities->empty();
  });
  // Prices are read into this index's own slots: a global index's records
  // through Add, which rebuilds every structure from them.
  const uint64_t price_keys = in.U64();
  for (uint64_t key = 0; key < price_keys && in.status().ok(); ++key) {
    if (price_records_ == PriceRecords::kInGlobalIndex) {
      PriceIndex index;
      index.entities = ToPkSet(in.Bitmap());
      for (uint64_t n = in.U64(); n > 0 && in.status().ok(); --n) {
        const auto id = static_cast<uint32_t>(in.NonNegativeI32("internal price id"));
        const int64_t from = in.I64();
        const int64_t to = in.I64();
        if (!in.status().ok()) break;
        index.price_ids.Add(id);
        index.referenced_records.insert(static_cast<int32_t>(id));
        index.validity.Add(from, to, id);
      }
      if (!index.price_ids.empty()) prices_[static_cast<uint32_t>(key)] = std::move(index);
      continue;
    }
    for (uint64_t n = in.U64(); n > 0 && in.status().ok(); --n) {
      int32_t pk = 0;
      const PriceEntry p = LoadPrice(in, static_cast<uint32_t>(key), &pk);
      if (!in.status().ok()) break;
      IndexEntries one;
      one.prices.push_back(p);
      Add(pk, one);
    }
  }
  LoadEach(in, &facets_, [&](FacetSets* facets) {
    for (uint64_t groups = in.U64(); groups > 0 && in.status().ok(); --groups) {
      const auto group = static_cast<int32_t>(in.I64());
      for (uint64_t n = in.U64(); n > 0 && in.status().ok(); --n) {
        const auto facet = static_cast<int32_t>(in.I64());
        (*facets)[{group, facet}] = in.Pks();
      }
    }
    return !facets->empty();
  });
}

}  // namespace warmup::engine
