// How an entity index and its key dictionary are saved at goLive and read
// back when a catalog is reopened (the index snapshot, docs/engine.md).
#include "engine/entity_index.h"
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
    if constexpr (std::is_same_v<std::decay_t<decltype(key)>, std::string>) {
      out.Str(key);
    } else {
      out.I64(key);
    }
    out.Pks(pks);
  }
}

template <typename Map>
void LoadSets(IndexReader& in, Map* map) {
  map->clear();
  const uint64_t n = in.U64();
  for (uint64_t i = 0; i < n && in.status().ok(); ++i) {
    using Key = typename Map::key_type;
    Key key;
    if constexpr (std::is_same_v<Key, std::string>) {
      key = in.Str();
    } else {
      key = static_cast<Key>(in.I64());
    }
    map->emplace(std::move(key), in.Pks());
  }
}

template <typename Map>
void SaveSlots(IndexWriter& out, const std::vector<Map>& slots) {
  out.U64(slots.size());
  for (const auto& map : slots) SaveSets(out, map);
}

template <typename Map>
void LoadSlots(IndexReader& in, std::vector<Map>* slots) {
  slots->clear();
  slots->resize(in.U64());
  for (auto& map : *slots) LoadSets(in, &map);
}

void SavePrice(IndexWriter& out, int32_t pk, const PriceEntry& p) {
  out.I64(pk);
  out.I64(p.internal_id);
  out.I64(p.price_id);
  out.I64(p.inner_record_id ? *p.inner_record_id : 0);
  out.U64(p.inner_record_id ? 1 : 0);
  out.I64(p.with_tax);
  out.I64(p.without_tax);
  out.U64(p.has_validity ? 1 : 0);
  if (p.has_validity) {
    out.I64(p.valid_from);
    out.I64(p.valid_to);
  }
}

PriceEntry LoadPrice(IndexReader& in, uint32_t key, int32_t* pk) {
  PriceEntry p;
  p.key = key;
  *pk = static_cast<int32_t>(in.I64());
  p.internal_id = static_cast<int32_t>(in.I64());
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
  out.U64(ranges_.size());
  for (const auto& r : ranges_) {
    out.U64(r.by_start.size());
    for (const auto& [from, to, pk] : r.by_start) {
      out.Str(from);
      out.Str(to);
      out.U64(pk);
    }
  }
  SaveSlots(out, sort_);
  out.U64(chains_.size());
  for (const auto& chain : chains_) {
    out.U64(chain.predecessor.size());
    for (const auto& [pk, predecessor] : chain.predecessor) {
      out.I64(pk);
      out.I64(predecessor);
    }
  }
  out.U64(unique_.size());
  for (const auto& values : unique_) {
    out.U64(values.size());
    for (const auto& [key, pk] : values) {
      out.Str(key);
      out.I64(pk);
    }
  }
  out.U64(locales_.size());
  for (const auto& bitmap : locales_) out.Bitmap(bitmap);
  out.U64(prices_.size());
  for (const auto& index : prices_) {
    if (price_records_ == PriceRecords::kOwn) {
      out.U64(index.records.size());
      for (const auto& [id, record] : index.records) SavePrice(out, record.first, record.second);
      continue;
    }
    // References: the entities, and per price its id and validity.
    out.Bitmap(index.entities);
    out.U64(index.validity_by_start.size());
    for (const auto& [from, to, id] : index.validity_by_start) {
      out.I64(id);
      out.I64(from);
      out.I64(to);
    }
  }
  out.U64(facets_.size());
  for (const auto& groups : facets_) {
    out.U64(groups.size());
    for (const auto& [group, facets] : groups) {
      out.I64(group);
      SaveSets(out, facets);
    }
  }
}

void EntityIndex::Load(IndexReader& in) {
  *this = EntityIndex(price_records_);
  all_ = in.Bitmap();
  LoadSlots(in, &filter_);
  ranges_.resize(in.U64());
  for (auto& r : ranges_) {
    for (uint64_t n = in.U64(); n > 0 && in.status().ok(); --n) {
      std::string from = in.Str();
      std::string to = in.Str();
      const auto pk = static_cast<uint32_t>(in.U64());
      r.by_end.emplace(to, from, pk);
      r.by_start.emplace(std::move(from), std::move(to), pk);
    }
  }
  LoadSlots(in, &sort_);
  chains_.resize(in.U64());
  for (auto& chain : chains_) {
    for (uint64_t n = in.U64(); n > 0 && in.status().ok(); --n) {
      const auto pk = static_cast<int32_t>(in.I64());
      const auto predecessor = static_cast<int32_t>(in.I64());
      chain.predecessor[pk] = predecessor;
      chain.successors[predecessor].Add(static_cast<uint32_t>(pk));
    }
  }
  unique_.resize(in.U64());
  for (auto& values : unique_) {
    for (uint64_t n = in.U64(); n > 0 && in.status().ok(); --n) {
      std::string key = in.Str();
      values[std::move(key)] = static_cast<int32_t>(in.I64());
    }
  }
  locales_.resize(in.U64());
  for (auto& bitmap : locales_) bitmap = in.Bitmap();
  const uint64_t price_keys = in.U64();
  for (uint64_t key = 0; key < price_keys && in.status().ok(); ++key) {
    if (price_records_ == PriceRecords::kInGlobalIndex) {
      PriceIndex& index = Slot(prices_, static_cast<uint32_t>(key));
      index.entities = in.Bitmap();
      for (uint64_t n = in.U64(); n > 0 && in.status().ok(); --n) {
        const auto id = static_cast<int32_t>(in.I64());
        const int64_t from = in.I64();
        const int64_t to = in.I64();
        index.price_ids.add(static_cast<uint32_t>(id));
        index.validity_by_start.emplace(from, to, id);
        index.validity_by_end.emplace(to, from, id);
      }
      continue;
    }
    for (uint64_t n = in.U64(); n > 0 && in.status().ok(); --n) {
      int32_t pk = 0;
      const PriceEntry p = LoadPrice(in, static_cast<uint32_t>(key), &pk);
      IndexEntries one;
      one.prices.push_back(p);
      Add(pk, one);
    }
  }
  prices_.resize(std::max<size_t>(prices_.size(), price_keys));
  facets_.resize(in.U64());
  for (auto& groups : facets_) {
    for (uint64_t n = in.U64(); n > 0 && in.status().ok(); --n) {
      const auto group = static_cast<int32_t>(in.I64());
      LoadSets(in, &groups[group]);
    }
  }
}

}  // namespace warmup::engine
