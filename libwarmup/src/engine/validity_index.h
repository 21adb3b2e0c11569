// The validity of the prices in one price index, as evitaDB's RangeIndex
// (io.evitadb.index.range.RangeIndex) keeps it: thresholds, each with the
// ids of the prices whose validity starts there and of those ending there,
// the int64 extremes always present. A price without validity starts at the
// minimum and ends at the maximum, so most prices touch only those two,
// which live in the index itself rather than in a tree. The other thresholds
// are held as edges, (threshold, price id, start or end) in one ordered set of
// 16-byte values: most thresholds hold one price, and a tree of points (a
// threshold and two posting sets) spent 40 bytes and a node's share on each.
// Internal.
#ifndef WARMUP_SRC_ENGINE_VALIDITY_INDEX_H_
#define WARMUP_SRC_ENGINE_VALIDITY_INDEX_H_

#include <absl/container/btree_set.h>
#include <roaring/roaring.hh>

#include <cstdint>
#include <iterator>
#include <limits>

#include "engine/pk_set.h"

namespace warmup::engine {

class ValidityIndex {
 public:
  // One threshold: the prices starting and ending there.
  struct Point {
    PkSet starts;
    PkSet ends;
    bool empty() const { return starts.empty() && ends.empty(); }
  };

  // Adds (removes) price `id` valid from `from` to `to`, both included.
  void Add(int64_t from, int64_t to, uint32_t id) {
    AddEdge({from, id, Edge::kStart});
    AddEdge({to, id, Edge::kEnd});
  }
  void Remove(int64_t from, int64_t to, uint32_t id) {
    RemoveEdge({from, id, Edge::kStart});
    RemoveEdge({to, id, Edge::kEnd});
  }
  // Calls `f(threshold, point)` for every point holding a start or an end, in
  // ascending threshold order.
  template <typename F>
  void ForEach(F f) const {
    if (!min_.empty()) f(kMin, min_);
    Point point;
    for (auto it = inner_.begin(); it != inner_.end(); ++it) {
      (it->side == Edge::kEnd ? point.ends : point.starts).Add(it->id);
      auto next = std::next(it);
      if (next == inner_.end() || next->threshold != it->threshold) {
        f(it->threshold, point);
        point = Point();
      }
    }
    if (!max_.empty()) f(kMax, max_);
  }
  // The prices valid at `moment`: started at or before it and not ended
  // before it.
  Roaring ValidAt(int64_t moment) const {
    Roaring started;
    Roaring ended;
    min_.starts.AddTo(&started);
    if (kMin < moment) min_.ends.AddTo(&ended);
    for (const Edge& edge : inner_) {
      if (edge.threshold > moment) break;
      if (edge.side == Edge::kStart) {
        started.add(edge.id);
      } else if (edge.threshold < moment) {
        ended.add(edge.id);
      }
    }
    if (moment == kMax) max_.starts.AddTo(&started);
    return started - ended;
  }
  // A start and an end per price.
  uint64_t Postings() const {
    return min_.starts.size() + min_.ends.size() + max_.starts.size() + max_.ends.size() + inner_.size();
  }

 private:
  static constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  static constexpr int64_t kMax = std::numeric_limits<int64_t>::max();

  struct Edge {
    enum Side : uint32_t { kStart, kEnd };
    int64_t threshold;
    uint32_t id;
    Side side;
    friend bool operator<(const Edge& a, const Edge& b) {
      if (a.threshold != b.threshold) return a.threshold < b.threshold;
      if (a.side != b.side) return a.side < b.side;
      return a.id < b.id;
    }
  };
  static_assert(sizeof(Edge) == 16);

  Point* Extreme(int64_t threshold) {
    if (threshold == kMin) return &min_;
    if (threshold == kMax) return &max_;
    return nullptr;
  }
  void AddEdge(const Edge& edge) {
    if (Point* extreme = Extreme(edge.threshold)) {
      (edge.side == Edge::kEnd ? extreme->ends : extreme->starts).Add(edge.id);
      return;
    }
    inner_.insert(edge);
  }
  void RemoveEdge(const Edge& edge) {
    if (Point* extreme = Extreme(edge.threshold)) {
      (edge.side == Edge::kEnd ? extreme->ends : extreme->starts).Remove(edge.id);
      return;
    }
    inner_.erase(edge);
  }

  Point min_;
  Point max_;
  absl::btree_set<Edge> inner_;
};

}  // namespace warmup::engine

#endif  // WARMUP_SRC_ENGINE_VALIDITY_INDEX_H_
