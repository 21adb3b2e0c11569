// PkSet: one or two keys in its word, a sorted array up to 64, a bitmap
// beyond, the same answers in every form; moves hand the array or the bitmap
// over (ASan would see a double free or a leak).
#include "engine/pk_set.h"

#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <set>
#include <utility>
#include <vector>

namespace warmup::engine_test {
namespace {

using engine::PkSet;

TEST_CASE("a posting set keeps its keys sorted and unique, inline and in a bitmap alike") {
  PkSet set;
  CHECK(set.empty());
  for (uint32_t pk : {30U, 10U, 20U, 10U}) set.Add(pk);
  CHECK(set.size() == 3);
  CHECK(set.ToVector() == std::vector<int32_t>{10, 20, 30});
  // The fourth key grows the set's array; nothing is lost or reordered.
  set.Add(5);
  set.Add(30);
  CHECK(set.size() == 4);
  CHECK(set.ToVector() == std::vector<int32_t>{5, 10, 20, 30});
  set.Remove(20);
  set.Remove(99);
  CHECK(set.ToVector() == std::vector<int32_t>{5, 10, 30});
  Roaring out;
  out.add(1);
  set.AddTo(&out);
  CHECK(out.cardinality() == 4);
  for (uint32_t pk : {5U, 10U, 30U}) set.Remove(pk);
  CHECK(set.empty());
  CHECK(set.size() == 0);
}

TEST_CASE("removing from a posting set closes the gap") {
  PkSet set;
  for (uint32_t pk : {1U, 2U, 3U}) set.Add(pk);
  set.Remove(2);
  CHECK(set.ToVector() == std::vector<int32_t>{1, 3});
  set.Add(2);
  CHECK(set.ToVector() == std::vector<int32_t>{1, 2, 3});
  CHECK(sizeof(PkSet) == 8);
}

TEST_CASE("a moved posting set hands its keys over and is left empty") {
  PkSet big;
  for (uint32_t pk = 1; pk <= 100; ++pk) big.Add(pk);
  PkSet taken(std::move(big));
  CHECK(taken.size() == 100);
  CHECK(big.empty());  // NOLINT(bugprone-use-after-move): moved-from state is specified here
  PkSet small;
  small.Add(7);
  small = std::move(taken);  // the inline one is replaced, the bitmap handed on
  CHECK(small.size() == 100);
  std::vector<PkSet> sets;
  for (int i = 0; i < 64; ++i) {
    sets.emplace_back();
    sets.back().Add(static_cast<uint32_t>(i));
    if (i % 2 == 0) {
      for (uint32_t pk = 100; pk < 110; ++pk) sets.back().Add(pk);
    }
  }
  // Growth moves every set; each keeps what it had.
  for (int i = 0; i < 64; ++i) CHECK(sets[static_cast<size_t>(i)].size() == (i % 2 == 0 ? 11U : 1U));
}

// The keys of `set`, as the oracle holds them.
std::vector<int32_t> Expected(const std::set<uint32_t>& keys) { return {keys.begin(), keys.end()}; }

TEST_CASE("a posting set crosses from its word to an array and to a bitmap at 3 and 65 keys, and back") {
  PkSet set;
  std::set<uint32_t> oracle;
  // Descending, so every key lands at the front and moves the rest.
  for (uint32_t pk = 200; pk >= 136; pk -= 1) {
    set.Add(pk);
    oracle.insert(pk);
    REQUIRE(set.size() == oracle.size());
    REQUIRE(set.ToVector() == Expected(oracle));
  }
  CHECK(set.size() == 65);  // the 65th key made it a bitmap
  for (uint32_t pk = 136; pk <= 200; ++pk) {
    set.Remove(pk);
    oracle.erase(pk);
    REQUIRE(set.ToVector() == Expected(oracle));
  }
  CHECK(set.empty());
  // From an array back into the word at two keys, and out again, the third
  // key landing before, between and after the two.
  for (uint32_t third : {2U, 4U, 8U}) {
    CAPTURE(third);
    PkSet twice;
    for (uint32_t pk : {5U, 1U, 9U, 3U}) twice.Add(pk);
    twice.Remove(1);
    twice.Remove(9);
    CHECK(twice.ToVector() == std::vector<int32_t>{3, 5});
    twice.Add(third);
    twice.Add(third);
    std::set<uint32_t> expected{3, 5, third};
    CHECK(twice.ToVector() == Expected(expected));
  }
  PkSet arrayed;
  for (uint32_t pk : {3U, 5U, 7U, 4U}) arrayed.Add(pk);
  CHECK(arrayed.ToVector() == std::vector<int32_t>{3, 4, 5, 7});
  Roaring out;
  out.add(100);
  arrayed.AddTo(&out);
  CHECK(out.cardinality() == 5);
  CHECK(out.contains(4));
}

TEST_CASE("a posting set answers as an ordered set under random adds and removes in every form") {
  std::mt19937 random(29);
  for (uint32_t range : {6U, 40U, 90U, 400U}) {
    CAPTURE(range);
    PkSet set;
    std::set<uint32_t> oracle;
    for (int step = 0; step < 4000; ++step) {
      const uint32_t pk = random() % range;
      // Adds outnumber removes while small, so the set passes each form.
      if (random() % 3 != 0) {
        set.Add(pk);
        oracle.insert(pk);
      } else {
        set.Remove(pk);
        oracle.erase(pk);
      }
      REQUIRE(set.size() == oracle.size());
      REQUIRE(set.empty() == oracle.empty());
      REQUIRE(set.ToVector() == Expected(oracle));
    }
  }
}

// The keys of `set` as unsigned values, which ToVector cannot show above 2^31.
std::vector<uint32_t> Keys(const PkSet& set) {
  std::vector<uint32_t> keys;
  set.ForEach([&](uint32_t pk) { keys.push_back(pk); });
  return keys;
}

TEST_CASE("a posting set holds keys of 2^31 and above, which two cannot share its word") {
  constexpr uint32_t kHigh = 1U << 31;
  PkSet set;
  set.Add(kHigh + 5);
  CHECK(Keys(set) == std::vector<uint32_t>{kHigh + 5});
  set.Add(7);  // one key too wide for the two-key word: an array
  set.Add(~0U);
  CHECK(Keys(set) == std::vector<uint32_t>{7, kHigh + 5, ~0U});
  set.Remove(~0U);
  CHECK(Keys(set) == std::vector<uint32_t>{7, kHigh + 5});
  set.Remove(7);  // down to one key, back in the word
  CHECK(Keys(set) == std::vector<uint32_t>{kHigh + 5});
  set.Add(kHigh - 1);  // the largest key two can share the word with...
  set.Add(kHigh - 2);
  set.Remove(kHigh + 5);  // ...and the array gives way to the word again
  CHECK(Keys(set) == std::vector<uint32_t>{kHigh - 2, kHigh - 1});
  CHECK(set.size() == 2);
  std::mt19937 random(31);
  std::set<uint32_t> oracle;
  PkSet wide;
  for (int step = 0; step < 2000; ++step) {
    const uint32_t pk = kHigh - 3 + random() % 6;  // straddles 2^31
    if (random() % 3 != 0) {
      wide.Add(pk);
      oracle.insert(pk);
    } else {
      wide.Remove(pk);
      oracle.erase(pk);
    }
    REQUIRE(Keys(wide) == std::vector<uint32_t>(oracle.begin(), oracle.end()));
  }
}

TEST_CASE("moving a posting set in its array form hands the array over") {
  PkSet arrayed;
  for (uint32_t pk = 1; pk <= 10; ++pk) arrayed.Add(pk * 2);
  PkSet taken(std::move(arrayed));
  CHECK(taken.size() == 10);
  CHECK(arrayed.empty());  // NOLINT(bugprone-use-after-move): moved-from state is specified here
  PkSet other;
  for (uint32_t pk = 1; pk <= 5; ++pk) other.Add(pk);
  other = std::move(taken);  // its own array freed, the other one taken
  CHECK(other.ToVector() == std::vector<int32_t>{2, 4, 6, 8, 10, 12, 14, 16, 18, 20});
}

}  // namespace
}  // namespace warmup::engine_test
