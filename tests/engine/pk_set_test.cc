// PkSet: keys inline while there are at most three, a bitmap beyond, the
// same answers either way; moves hand the bitmap over (ASan would see a
// double free or a leak).
#include "engine/pk_set.h"

#include <doctest/doctest.h>

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
  // The fourth key moves the set into a bitmap; nothing is lost or reordered.
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

TEST_CASE("removing from an inline posting set closes the gap") {
  PkSet set;
  for (uint32_t pk : {1U, 2U, 3U}) set.Add(pk);
  set.Remove(2);
  CHECK(set.ToVector() == std::vector<int32_t>{1, 3});
  set.Add(2);
  CHECK(set.ToVector() == std::vector<int32_t>{1, 2, 3});
  CHECK(sizeof(PkSet) == 16);
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

}  // namespace
}  // namespace warmup::engine_test
