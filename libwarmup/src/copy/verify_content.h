// Content verification: a published catalog read back and compared with its
// source, entity by entity, by canonical digest. Internal to the copy engine.
#ifndef WARMUP_SRC_COPY_VERIFY_CONTENT_H_
#define WARMUP_SRC_COPY_VERIFY_CONTENT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "warmup/catalog_source.h"
#include "warmup/status.h"

namespace warmup::copy {

// How many differences are described; the rest are only counted.
inline constexpr size_t kDescribedDifferences = 10;

struct ContentComparison {
  int64_t compared = 0;     // entities present on both sides
  int64_t differences = 0;  // missing, extra, or with other content
  std::vector<std::string> first_differences;
};

// Compares collection `entity_type` of `expected` (its first `limit`
// entities by primary key; all when `limit` is negative) with the same
// collection of `actual`, both read in primary-key order, reflected
// references left out on both sides (a target rebuilds them). Adds to `*out`.
// Errors: either stream's, as reading it failed.
Status CompareCollection(CatalogSource& expected, CatalogSource& actual, const std::string& entity_type,
                         int64_t limit, ContentComparison* out);

}  // namespace warmup::copy

#endif  // WARMUP_SRC_COPY_VERIFY_CONTENT_H_
