// What a collection keeps of the entities that reflected links reach, between
// those links. Internal to engine/.
#ifndef WARMUP_SRC_ENGINE_REFLECTION_CACHE_H_
#define WARMUP_SRC_ENGINE_REFLECTION_CACHE_H_

#include <absl/container/flat_hash_map.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "engine/index_entries.h"
#include "warmup/entity.h"

namespace warmup::engine {

// A referenced entity's scope and entries, kept so that the next link that
// reaches it (a category gains a link per product) does not read and derive
// it again. Bounded by the bytes its entries hold, not by their count: a
// count of 4,096, cleared whole when reached, made every link at senesi 1.0
// (4,120 categories) re-read its target about one time in five, and almost
// none at 0.99: a cliff in the cost-growth figures made by a constant (issue
// 52). When an entry would pass the bound, entries chosen by a fixed
// pseudo-random sequence are dropped one at a time until it fits, so the
// share of links that read again grows with what does not fit. Thread-safety:
// one thread (the collection's).
class ReflectionCache {
 public:
  struct Target {
    Scope scope = Scope::kLive;
    EntityEntries entries;
  };
  explicit ReflectionCache(size_t max_bytes) : max_bytes_(max_bytes) {}

  // The entry of `pk`, or null.
  const Target* Find(int32_t pk) const;
  // Keeps `target` as `pk`'s entry (replacing one there), dropping others
  // while the whole would pass the bound. One larger than the bound alone is
  // not kept.
  void Put(int32_t pk, Target target);
  void Erase(int32_t pk);
  // Drops every entry and gives back the memory they held.
  void Clear();
  // What the entries hold: their structures, the bytes on the heap of their
  // entries and their place in the eviction order.
  size_t bytes() const { return bytes_; }
  size_t size() const { return slots_.size(); }

 private:
  struct Slot {
    Target target;
    size_t bytes = 0;
    size_t position = 0;  // in keys_
  };
  // Removes the slot of `it`, moving the last key into its position.
  void Drop(absl::flat_hash_map<int32_t, Slot>::iterator it);

  size_t max_bytes_;
  size_t bytes_ = 0;
  absl::flat_hash_map<int32_t, Slot> slots_;
  std::vector<int32_t> keys_;              // every kept pk, for a drop by position
  uint64_t draw_ = 0x9E3779B97F4A7C15ull;  // the eviction sequence's state
};

}  // namespace warmup::engine

#endif  // WARMUP_SRC_ENGINE_REFLECTION_CACHE_H_
