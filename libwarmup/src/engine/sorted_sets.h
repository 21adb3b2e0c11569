// Keys, in order, each with its posting set: an index's values of one
// attribute (value key -> entities) or facets of one reference ((group,
// facet) -> entities). Up to 64 keys are one sorted array; a B-tree holds
// more. Most such maps are small (a reduced index holds one category's or
// one brand's products), and a small B-tree costs a node per few keys, each
// partly empty: the maps of reduced indexes were the largest part of the
// engine's heap (docs/performance.md). The map is 16 bytes. Internal.
#ifndef WARMUP_SRC_ENGINE_SORTED_SETS_H_
#define WARMUP_SRC_ENGINE_SORTED_SETS_H_

#include <absl/container/btree_map.h>

#include <algorithm>
#include <cstdint>
#include <utility>

#include "engine/pk_set.h"

namespace warmup::engine {

// `Less` orders keys and may compare them with other lookup types (it is
// transparent then).
template <typename Key, typename Less>
class SortedSets {
 public:
  using key_type = Key;
  using Entry = std::pair<Key, PkSet>;
  using Tree = absl::btree_map<Key, PkSet, Less>;

  SortedSets() = default;
  SortedSets(SortedSets&& other) noexcept { TakeFrom(other); }
  SortedSets& operator=(SortedSets&& other) noexcept {
    if (this != &other) {
      Free();
      TakeFrom(other);
    }
    return *this;
  }
  SortedSets(const SortedSets&) = delete;
  SortedSets& operator=(const SortedSets&) = delete;
  ~SortedSets() { Free(); }

  // The set under `key`, added empty when absent, with the key `make_key()`
  // returns (a value key is stored only when it is new).
  template <typename Lookup, typename MakeKey>
  PkSet& Get(const Lookup& key, MakeKey make_key) {
    if (Tree* tree = AsTree()) {
      auto it = tree->find(key);
      if (it == tree->end()) it = tree->emplace(make_key(), PkSet()).first;
      return it->second;
    }
    Entry* at = LowerBound(key);
    if (at != Flat() + size_ && !Less()(key, at->first)) return at->second;
    return Insert(at, make_key());
  }
  // Adds `key` with `pks` unless it is there (then `pks` is dropped). Keys
  // given in ascending order, as a snapshot holds them, are appended.
  void Emplace(Key key, PkSet pks) {
    if (Tree* tree = AsTree()) {
      tree->emplace(std::move(key), std::move(pks));
      return;
    }
    Entry* at = LowerBound(key);
    if (at != Flat() + size_ && !Less()(key, at->first)) return;
    Insert(at, std::move(key)) = std::move(pks);
  }
  // Removes `pk` from the set under `key`, and the key with its last key.
  template <typename Lookup>
  void Remove(const Lookup& key, uint32_t pk) {
    if (Tree* tree = AsTree()) {
      auto it = tree->find(key);
      if (it == tree->end()) return;
      it->second.Remove(pk);
      if (it->second.empty()) tree->erase(it);
      return;
    }
    Entry* at = LowerBound(key);
    Entry* end = Flat() + size_;
    if (at == end || Less()(key, at->first)) return;
    at->second.Remove(pk);
    if (!at->second.empty()) return;
    std::move(at + 1, end, at);  // the last entry is left moved from: an empty set
    --size_;
  }
  size_t size() const {
    const Tree* tree = AsTree();
    return tree != nullptr ? tree->size() : size_;
  }
  bool empty() const { return size() == 0; }

  // Calls `f(first, last)` with the entries in ascending key order, as a
  // range of bidirectional iterators to `Entry` (of the array or the tree).
  template <typename F>
  void Visit(F f) const {
    if (const Tree* tree = AsTree()) {
      f(tree->begin(), tree->end());
    } else {
      f(static_cast<const Entry*>(Flat()), static_cast<const Entry*>(Flat() + size_));
    }
  }
  // As Visit, from the first key not below `key` (`inclusive`) or above it.
  template <typename Lookup, typename F>
  void VisitFrom(const Lookup& key, bool inclusive, F f) const {
    if (const Tree* tree = AsTree()) {
      f(inclusive ? tree->lower_bound(key) : tree->upper_bound(key), tree->end());
      return;
    }
    const Entry* begin = Flat();
    const Entry* end = begin + size_;
    const Entry* from = inclusive ? std::lower_bound(begin, end, key, EntryBelow())
                                  : std::upper_bound(begin, end, key, KeyBelow());
    f(from, end);
  }

 private:
  static constexpr uint32_t kFlatMax = 64;
  static constexpr uint32_t kTree = ~0U;  // capacity_ when the entries are in a tree

  struct EntryBelow {
    template <typename Lookup>
    bool operator()(const Entry& entry, const Lookup& key) const {
      return Less()(entry.first, key);
    }
  };
  struct KeyBelow {
    template <typename Lookup>
    bool operator()(const Lookup& key, const Entry& entry) const {
      return Less()(key, entry.first);
    }
  };

  Tree* AsTree() const { return capacity_ == kTree ? static_cast<Tree*>(data_) : nullptr; }
  Entry* Flat() const { return static_cast<Entry*>(data_); }
  template <typename Lookup>
  Entry* LowerBound(const Lookup& key) {
    return std::lower_bound(Flat(), Flat() + size_, key, EntryBelow());
  }
  // Inserts `key` with an empty set before `at`; returns its set.
  PkSet& Insert(Entry* at, Key key) {
    Entry* flat = Flat();
    if (size_ == kFlatMax) {
      // A sorted run into a new tree: each insert at the end.
      auto* tree = new Tree();
      for (Entry* e = flat; e != flat + size_; ++e) tree->emplace_hint(tree->end(), std::move(*e));
      delete[] flat;
      data_ = tree;
      capacity_ = kTree;
      return tree->emplace(std::move(key), PkSet()).first->second;
    }
    if (size_ == capacity_) {
      // By half again (1, 2, 4, 6, 9, ...): tens of thousands of small maps
      // keep their slack for the whole load.
      const uint32_t grown =
          std::min(kFlatMax, capacity_ < 4 ? std::max(1U, capacity_ * 2) : capacity_ + capacity_ / 2);
      auto* entries = new Entry[grown];
      Entry* hole = std::move(flat, at, entries);
      std::move(at, flat + size_, hole + 1);
      delete[] flat;
      data_ = entries;
      capacity_ = grown;
      at = hole;
    } else {
      std::move_backward(at, flat + size_, flat + size_ + 1);
    }
    ++size_;
    at->first = std::move(key);
    at->second = PkSet();
    return at->second;
  }
  void Free() {
    if (Tree* tree = AsTree()) {
      delete tree;
    } else {
      delete[] Flat();
    }
    data_ = nullptr;
    size_ = capacity_ = 0;
  }
  void TakeFrom(SortedSets& other) {
    data_ = other.data_;
    size_ = other.size_;
    capacity_ = other.capacity_;
    other.data_ = nullptr;
    other.size_ = other.capacity_ = 0;
  }

  // An array of capacity_ entries, the first size_ in key order; or, when
  // capacity_ is kTree, the tree.
  void* data_ = nullptr;
  uint32_t size_ = 0;
  uint32_t capacity_ = 0;
};

}  // namespace warmup::engine

#endif  // WARMUP_SRC_ENGINE_SORTED_SETS_H_
