// The validity of the prices in one price index, as evitaDB's RangeIndex
// (io.evitadb.index.range.RangeIndex) keeps it: thresholds, each with the
// ids of the prices whose validity starts there and of those ending there,
// the int64 extremes always present. A price without validity starts at the
// minimum and ends at the maximum, so most prices touch only those two,
// which live in the index itself rather than in a tree. Internal.
#ifndef WARMUP_SRC_ENGINE_VALIDITY_INDEX_H_
#define WARMUP_SRC_ENGINE_VALIDITY_INDEX_H_

#include <absl/container/btree_map.h>
#include <roaring/roaring.hh>

#include <cstdint>
#include <limits>

#include "engine/pk_set.h"

namespace warmup::engine {

class ValidityIndex {
 public:
  struct Point {
    PkSet starts;
    PkSet ends;
    bool empty() const { return starts.empty() && ends.empty(); }
  };

  // Adds (removes) price `id` valid from `from` to `to`, both included.
  void Add(int64_t from, int64_t to, uint32_t id) {
    At(from).starts.Add(id);
    At(to).ends.Add(id);
  }
  void Remove(int64_t from, int64_t to, uint32_t id) {
    RemoveAt(from, &Point::starts, id);
    RemoveAt(to, &Point::ends, id);
  }
  // Calls `f(threshold, point)` for every point holding a start or an end, in
  // ascending threshold order.
  template <typename F>
  void ForEach(F f) const {
    if (!min_.empty()) f(kMin, min_);
    for (const auto& [threshold, point] : inner_) f(threshold, point);
    if (!max_.empty()) f(kMax, max_);
  }
  // The prices valid at `moment`: started at or before it and not ended
  // before it.
  Roaring ValidAt(int64_t moment) const {
    Roaring started;
    Roaring ended;
    ForEach([&](int64_t threshold, const Point& point) {
      if (threshold > moment) return;
      point.starts.AddTo(&started);
      if (threshold < moment) point.ends.AddTo(&ended);
    });
    return started - ended;
  }
  // A start and an end per price.
  uint64_t Postings() const {
    uint64_t n = 0;
    ForEach([&](int64_t, const Point& point) { n += point.starts.size() + point.ends.size(); });
    return n;
  }

 private:
  static constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  static constexpr int64_t kMax = std::numeric_limits<int64_t>::max();

  Point& At(int64_t threshold) {
    if (threshold == kMin) return min_;
    if (threshold == kMax) return max_;
    return inner_[threshold];
  }
  void RemoveAt(int64_t threshold, PkSet Point::*side, uint32_t id) {
    if (threshold == kMin || threshold == kMax) {
      (At(threshold).*side).Remove(id);
      return;
    }
    auto it = inner_.find(threshold);
    if (it == inner_.end()) return;
    (it->second.*side).Remove(id);
    if (it->second.empty()) inner_.erase(it);
  }

  Point min_;
  Point max_;
  absl::btree_map<int64_t, Point> inner_;
};

}  // namespace warmup::engine

#endif  // WARMUP_SRC_ENGINE_VALIDITY_INDEX_H_
