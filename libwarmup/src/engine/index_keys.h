// Order-preserving byte keys for indexed values, and ICU collation keys for
// localized strings. Internal.
#ifndef WARMUP_SRC_ENGINE_INDEX_KEYS_H_
#define WARMUP_SRC_ENGINE_INDEX_KEYS_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include "warmup/status.h"
#include "warmup/value.h"

namespace warmup::engine {

// Scales a decimal to an integer with `places` decimals, rounding half away
// from zero, as evitaDB indexes BigDecimals; saturates beyond int64.
int64_t ScaleDecimal(const BigDecimal& value, int places);

// A key whose memcmp order is the value order (instants by time, numbers by
// magnitude, BigDecimals scaled by `decimal_places`, strings by UTF-8 bytes).
// Equal values have equal keys, so the same key serves equality filters.
std::string ScalarKey(const Scalar& item, ValueType element_type, int decimal_places);

// Whether values of `element_type` are ranges (DateTimeRange, the number ranges).
bool IsRangeType(ValueType element_type);
// The order keys of a range's bounds, open ends as the extremes; the same
// encoding ScalarKey gives a point of the range's element type, so a point
// compares with the bounds byte by byte.
std::pair<std::string, std::string> RangeBoundKeys(const Scalar& range, int decimal_places);

// Locale-aware sort keys (ICU collation), one collator per language tag.
// Thread-safety: one thread.
class CollationKeys {
 public:
  CollationKeys();
  ~CollationKeys();
  // The collation key of `text` in `tag`'s collation; memcmp order is that
  // language's order (Czech: "ch" after "h").
  std::string Key(const std::string& tag, std::string_view text);

 private:
  struct Collators;  // ICU stays out of this header
  std::unique_ptr<Collators> collators_;
};

}  // namespace warmup::engine

#endif  // WARMUP_SRC_ENGINE_INDEX_KEYS_H_
