// The bounded cache of reflected links' targets, and the byte count it is bounded by.
#include "engine/reflection_cache.h"

#include <doctest/doctest.h>

#include <string>
#include <utility>

namespace warmup {
namespace {

// A target whose entries hold `locales` locale ids on the heap.
engine::ReflectionCache::Target WithLocales(size_t locales) {
  engine::ReflectionCache::Target target;
  target.entries.full.locales.assign(locales, 7);
  return target;
}

TEST_CASE("IndexEntries::HeapBytes counts vector capacities and the strings past their inline buffer") {
  engine::IndexEntries e;
  CHECK(e.HeapBytes() == 0);
  e.locales.reserve(10);
  e.filter.reserve(2);
  e.filter.emplace_back(1, std::string(40, 'x'));
  e.filter.emplace_back(2, "short");                          // inline: no heap bytes of its own
  const size_t long_key = e.filter[0].second.capacity() + 1;  // its characters and the terminator
  CHECK(long_key >= 41);
  CHECK(e.HeapBytes() ==
        e.locales.capacity() * sizeof(uint32_t) + 2 * sizeof(std::pair<uint32_t, std::string>) + long_key);
  engine::RangeEntry range;
  range.from = std::string(20, 'a');
  e.ranges.push_back(range);
  CHECK(e.HeapBytes() ==
        e.locales.capacity() * sizeof(uint32_t) + 2 * sizeof(std::pair<uint32_t, std::string>) + long_key +
            e.ranges.capacity() * sizeof(engine::RangeEntry) + e.ranges[0].from.capacity() + 1);
}

TEST_CASE("issue 52: the reflection cache is bounded by the bytes it holds, dropping entries one at a time") {
  engine::ReflectionCache probe(size_t{1} << 20);
  probe.Put(1, WithLocales(100));
  const size_t one = probe.bytes();
  CHECK(one >= 100 * sizeof(uint32_t));  // an entry counts at least what its entries hold

  // Room for three such entries and a half: of five put, three are kept,
  // the last one always.
  engine::ReflectionCache cache(3 * one + one / 2);
  for (int32_t pk = 1; pk <= 5; ++pk) cache.Put(pk, WithLocales(100));
  CHECK(cache.size() == 3);
  CHECK(cache.bytes() == 3 * one);
  REQUIRE(cache.Find(5) != nullptr);
  CHECK(cache.Find(5)->entries.full.locales.size() == 100);
  int kept = 0;
  for (int32_t pk = 1; pk <= 5; ++pk) kept += cache.Find(pk) != nullptr ? 1 : 0;
  CHECK(kept == 3);

  // Erased, every entry gives back what it counted.
  for (int32_t pk = 1; pk <= 5; ++pk) cache.Erase(pk);
  CHECK(cache.size() == 0);
  CHECK(cache.bytes() == 0);
}

TEST_CASE("the reflection cache replaces an entry, and keeps none larger than its bound") {
  engine::ReflectionCache probe(size_t{1} << 20);
  probe.Put(1, WithLocales(100));
  const size_t hundred = probe.bytes();
  probe.Put(1, WithLocales(200));  // the same pk: replaced, counted once
  CHECK(probe.size() == 1);
  CHECK(probe.bytes() == hundred + 100 * sizeof(uint32_t));

  engine::ReflectionCache cache(2 * hundred);
  cache.Put(1, WithLocales(100));
  cache.Put(2, WithLocales(100));
  cache.Put(1, WithLocales(1'000));  // larger than the bound: not kept, and the old entry of 1 is stale
  CHECK(cache.Find(1) == nullptr);
  CHECK(cache.Find(2) != nullptr);
  CHECK(cache.bytes() == hundred);

  // Dropping the first of three moves the last into its place: both still found and erasable.
  engine::ReflectionCache three(size_t{1} << 20);
  for (int32_t pk = 1; pk <= 3; ++pk) three.Put(pk, WithLocales(10));
  three.Erase(1);
  REQUIRE(three.Find(3) != nullptr);
  three.Erase(3);
  CHECK(three.Find(3) == nullptr);
  CHECK(three.Find(2) != nullptr);
  CHECK(three.size() == 1);
  three.Clear();
  CHECK(three.bytes() == 0);
}

}  // namespace
}  // namespace warmup
