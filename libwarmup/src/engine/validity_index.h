// The validity of the prices in one price index, as evitaDB's RangeIndex
// (io.evitadb.index.range.RangeIndex) keeps it: thresholds, each with the
// ids of the prices whose validity starts there and of those ending there.
// Every price is recorded, as AbstractPriceListAndCurrencyPriceIndex
// .addValidity records it: one without validity from the int64 minimum to
// the maximum. evitaDB's two border points, which never go, are two posting
// sets here (PkSet: one word for one or two prices, as most of the reduced
// indexes' price indexes hold): the prices starting at the minimum and those
// ending at the maximum (a price without validity is in both, one valid
// from a moment on only in the second). Every other start or end is an edge, (threshold, price id,
// start or end), in one ordered set of 12-byte values. Internal.
#ifndef WARMUP_SRC_ENGINE_VALIDITY_INDEX_H_
#define WARMUP_SRC_ENGINE_VALIDITY_INDEX_H_

#include <absl/container/btree_set.h>
#include <roaring/roaring.hh>

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <iterator>
#include <limits>
#include <vector>

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

  // Adds (removes) price `id` (below 2^31) valid from `from` to `to`, both
  // included.
  void Add(int64_t from, int64_t to, uint32_t id) {
    if (from == kMin) {
      starts_at_min_.Add(id);
    } else {
      edges_.insert(Edge(from, id, Edge::kStart));
    }
    if (to == kMax) {
      ends_at_max_.Add(id);
    } else {
      edges_.insert(Edge(to, id, Edge::kEnd));
    }
  }
  void Remove(int64_t from, int64_t to, uint32_t id) {
    if (from == kMin) {
      starts_at_min_.Remove(id);
    } else {
      edges_.erase(Edge(from, id, Edge::kStart));
    }
    if (to == kMax) {
      ends_at_max_.Remove(id);
    } else {
      edges_.erase(Edge(to, id, Edge::kEnd));
    }
  }
  // Starts and ends recorded: two per price, whatever its validity (the
  // work evitaDB's RangeIndex.addRecord does, for the index statistics).
  uint64_t entries() const { return starts_at_min_.size() + ends_at_max_.size() + edges_.size(); }
  // Calls `f(threshold, point)` for every point holding a start or an end, in
  // ascending threshold order.
  template <typename F>
  void ForEach(F f) const {
    Point point;
    auto flush = [&](int64_t threshold) {
      if (!point.empty()) f(threshold, point);
      point = Point();
    };
    auto add = [&](const Edge& edge) {
      (edge.side() == Edge::kEnd ? point.ends : point.starts).Add(edge.id());
    };
    starts_at_min_.ForEach([&](uint32_t id) { point.starts.Add(id); });
    auto it = edges_.begin();
    for (; it != edges_.end() && it->threshold() == kMin; ++it) add(*it);
    flush(kMin);
    for (; it != edges_.end() && it->threshold() != kMax; ++it) {
      add(*it);
      auto next = std::next(it);
      if (next == edges_.end() || next->threshold() != it->threshold()) flush(it->threshold());
    }
    for (; it != edges_.end(); ++it) add(*it);
    ends_at_max_.ForEach([&](uint32_t id) { point.ends.Add(id); });
    flush(kMax);
  }
  // One price's validity, both ends included.
  struct Span {
    uint32_t id = 0;
    int64_t from = 0;
    int64_t to = 0;
  };
  // Calls fn(const Span&) for every price of `all` (the index's price ids)
  // with its validity, in ascending id. Only the prices with an edge are
  // gathered first (the rest are valid throughout), so a snapshot of millions
  // of prices holds no copy of them all.
  template <class Fn>
  void ForEachByPrice(const PkSet& all, Fn fn) const {
    std::vector<Span> bounded;
    bounded.reserve(edges_.size());
    for (const Edge& edge : edges_) bounded.push_back({edge.id(), kMin, kMax});
    auto by_id = [](const Span& a, const Span& b) { return a.id < b.id; };
    std::sort(bounded.begin(), bounded.end(), by_id);
    bounded.erase(std::unique(bounded.begin(), bounded.end(),
                              [](const Span& a, const Span& b) { return a.id == b.id; }),
                  bounded.end());
    for (const Edge& edge : edges_) {
      auto it = std::lower_bound(bounded.begin(), bounded.end(), Span{edge.id()}, by_id);
      (edge.side() == Edge::kStart ? it->from : it->to) = edge.threshold();
    }
    auto next_bounded = bounded.begin();
    all.ForEach([&](uint32_t id) {
      if (next_bounded != bounded.end() && next_bounded->id == id) {
        fn(*next_bounded++);
      } else {
        fn(Span{id, kMin, kMax});
      }
    });
  }
  // The prices valid at `moment` (started at or before it and not ended
  // before it).
  Roaring ValidAt(int64_t moment) const {
    Roaring started;
    starts_at_min_.AddTo(&started);
    Roaring ended;
    for (const Edge& edge : edges_) {
      if (edge.threshold() > moment) break;
      if (edge.side() == Edge::kStart) {
        started.add(edge.id());
      } else if (edge.threshold() < moment) {
        ended.add(edge.id());
      }
    }
    return started - ended;
  }

 private:
  static constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  static constexpr int64_t kMax = std::numeric_limits<int64_t>::max();

  // 12 bytes in three 4-byte words (16 with an int64 field, for its
  // alignment; the edges are 13 % of the heap at senesi 0.1): the threshold
  // with its sign bit flipped, so that the words compare as the numbers do,
  // then the side in the top bit above the price id, which is below 2^31
  // (internal price ids are non-negative int32).
  class Edge {
   public:
    enum Side : uint32_t { kStart, kEnd };
    Edge(int64_t threshold, uint32_t id, Side side)
        : high_(static_cast<uint32_t>(Biased(threshold) >> 32)),
          low_(static_cast<uint32_t>(Biased(threshold))),
          side_id_((static_cast<uint32_t>(side) << 31) | id) {
      assert(id < kSideBit);
    }
    int64_t threshold() const { return static_cast<int64_t>(((uint64_t{high_} << 32) | low_) ^ kSignBit); }
    uint32_t id() const { return side_id_ & ~kSideBit; }
    Side side() const { return (side_id_ & kSideBit) != 0 ? kEnd : kStart; }
    friend bool operator<(const Edge& a, const Edge& b) {
      if (a.high_ != b.high_) return a.high_ < b.high_;
      if (a.low_ != b.low_) return a.low_ < b.low_;
      return a.side_id_ < b.side_id_;
    }

   private:
    static constexpr uint64_t kSignBit = uint64_t{1} << 63;
    static constexpr uint32_t kSideBit = 1U << 31;
    static uint64_t Biased(int64_t threshold) { return static_cast<uint64_t>(threshold) ^ kSignBit; }

    uint32_t high_;
    uint32_t low_;
    uint32_t side_id_;
  };
  static_assert(sizeof(Edge) == 12);

  // evitaDB's border points: the prices starting at the minimum, those ending at the maximum.
  PkSet starts_at_min_;
  PkSet ends_at_max_;
  absl::btree_set<Edge> edges_;  // every other start and end
};

}  // namespace warmup::engine

#endif  // WARMUP_SRC_ENGINE_VALIDITY_INDEX_H_
