// SortedSets: the same answers as an ordered map of sets whether its keys are
// in the array (up to 64) or in the tree beyond; moves hand either over (ASan
// would see a double free or a leak).
#include "engine/sorted_sets.h"

#include <doctest/doctest.h>

#include <functional>
#include <map>
#include <random>
#include <set>
#include <tuple>
#include <utility>
#include <vector>

namespace warmup::engine_test {
namespace {

using engine::PkSet;
using Sets = engine::SortedSets<int, std::less<>>;
using Oracle = std::map<int, std::set<uint32_t>>;

// (key, its keys) of `sets` from `first` to `last`, in order.
template <typename It>
std::vector<std::pair<int, std::vector<int32_t>>> Listed(It first, It last) {
  std::vector<std::pair<int, std::vector<int32_t>>> out;
  for (; first != last; ++first) out.emplace_back(first->first, first->second.ToVector());
  return out;
}
std::vector<std::pair<int, std::vector<int32_t>>> Listed(const Sets& sets) {
  std::vector<std::pair<int, std::vector<int32_t>>> out;
  sets.Visit([&](auto first, auto last) { out = Listed(first, last); });
  return out;
}
std::vector<std::pair<int, std::vector<int32_t>>> Listed(const Oracle& oracle) {
  std::vector<std::pair<int, std::vector<int32_t>>> out;
  for (const auto& [key, pks] : oracle) out.emplace_back(key, std::vector<int32_t>(pks.begin(), pks.end()));
  return out;
}

void Add(Sets& sets, Oracle& oracle, int key, uint32_t pk) {
  sets.Get(key, [&] { return key; }).Add(pk);
  oracle[key].insert(pk);
}
void Remove(Sets& sets, Oracle& oracle, int key, uint32_t pk) {
  sets.Remove(key, pk);
  auto it = oracle.find(key);
  if (it == oracle.end()) return;
  it->second.erase(pk);
  if (it->second.empty()) oracle.erase(it);
}

TEST_CASE("sorted sets keep keys in order from the array into the tree at 65 keys, and answer alike") {
  Sets sets;
  Oracle oracle;
  CHECK(sets.empty());
  // Keys from both ends toward the middle, so inserts land inside the array.
  for (int i = 0; i < 40; ++i) {
    Add(sets, oracle, i * 2, 1);
    Add(sets, oracle, 200 - i * 2, 2);
    REQUIRE(Listed(sets) == Listed(oracle));
  }
  CHECK(sets.size() == 80);  // beyond 64: a tree now
  Add(sets, oracle, 6, 7);
  Remove(sets, oracle, 0, 1);
  Remove(sets, oracle, 1000, 1);  // absent key: nothing happens
  CHECK(Listed(sets) == Listed(oracle));
}

TEST_CASE("sorted sets drop a key with its last primary key, in the array") {
  Sets sets;
  Oracle oracle;
  for (int key : {5, 1, 3}) {
    Add(sets, oracle, key, 10);
    Add(sets, oracle, key, 11);
  }
  Remove(sets, oracle, 3, 10);
  CHECK(sets.size() == 3);
  Remove(sets, oracle, 3, 11);
  CHECK(sets.size() == 2);
  CHECK(Listed(sets) == Listed(oracle));
  // The key comes back as a new, empty set, not with what the removed one held.
  Add(sets, oracle, 3, 12);
  CHECK(Listed(sets) == Listed(oracle));
}

TEST_CASE("sorted sets start a range at a key, inclusive or not, in the array and in the tree") {
  for (int keys : {10, 100}) {
    CAPTURE(keys);
    Sets sets;
    Oracle oracle;
    for (int k = 0; k < keys; ++k) Add(sets, oracle, k * 10, static_cast<uint32_t>(k));
    // At a key: inclusive starts there, exclusive after it; between keys both start at the next.
    for (const auto& [from, inclusive, first] : std::vector<std::tuple<int, bool, int>>{
             {30, true, 30}, {30, false, 40}, {35, true, 40}, {35, false, 40}, {-5, false, 0}}) {
      CAPTURE(from);
      CAPTURE(inclusive);
      int seen = -1;
      sets.VisitFrom(from, inclusive, [&](auto it, auto end) {
        if (it != end) seen = it->first;
      });
      CHECK(seen == first);
    }
    bool past_end = false;
    sets.VisitFrom((keys - 1) * 10, false, [&](auto it, auto end) { past_end = it == end; });
    CHECK(past_end);
  }
}

TEST_CASE("sorted sets answer as an ordered map of sets under random adds and removes") {
  std::mt19937 random(29);
  for (int range : {8, 60, 70, 300}) {
    CAPTURE(range);
    Sets sets;
    Oracle oracle;
    for (int step = 0; step < 5000; ++step) {
      const int key = static_cast<int>(random() % static_cast<uint32_t>(range));
      const uint32_t pk = random() % 6;
      if (random() % 3 != 0) {
        Add(sets, oracle, key, pk);
      } else {
        Remove(sets, oracle, key, pk);
      }
      REQUIRE(sets.size() == oracle.size());
    }
    CHECK(Listed(sets) == Listed(oracle));
  }
}

TEST_CASE("sorted sets emplace a snapshot's keys in order and keep the first of a repeated key") {
  Sets sets;
  for (int key = 0; key < 100; ++key) {
    PkSet pks;
    pks.Add(static_cast<uint32_t>(key));
    sets.Emplace(key, std::move(pks));
  }
  PkSet again;
  again.Add(999);
  sets.Emplace(5, std::move(again));
  CHECK(sets.size() == 100);
  CHECK(Listed(sets)[5] == std::pair<int, std::vector<int32_t>>(5, {5}));
}

TEST_CASE("moving sorted sets hands the array or the tree over") {
  for (int keys : {3, 90}) {
    CAPTURE(keys);
    Sets sets;
    Oracle oracle;
    for (int k = 0; k < keys; ++k) Add(sets, oracle, k, 1);
    Sets taken(std::move(sets));
    CHECK(sets.empty());  // NOLINT(bugprone-use-after-move): moved-from state is specified here
    Sets other;
    Oracle unused;
    Add(other, unused, 1, 1);
    other = std::move(taken);  // its own array freed, the other one taken
    CHECK(Listed(other) == Listed(oracle));
  }
  CHECK(sizeof(Sets) == 16);
}

}  // namespace
}  // namespace warmup::engine_test
