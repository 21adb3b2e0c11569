// evitaDB's price-for-sale selection over one index's price structures.
// Internal; the rules are in docs/engine.md ("Prices").
#ifndef WARMUP_SRC_ENGINE_PRICE_FOR_SALE_H_
#define WARMUP_SRC_ENGINE_PRICE_FOR_SALE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/entity_index.h"
#include "warmup/engine.h"

namespace warmup::engine {

// The price index of each queried price list for one inner-record handling,
// in priority order (nullptr where the index holds none), and beside each the
// one holding its records: itself in a global index, the global index's of
// the same key for a reduced one.
struct PriceListIndexes {
  PriceInnerRecordHandling handling = PriceInnerRecordHandling::kNone;
  std::vector<const EntityIndex::PriceIndex*> by_priority;
  std::vector<const EntityIndex::PriceIndex*> records;
};

// Entities (ascending) with a price for sale under `query`, amounts scaled at
// `places`. `from`/`to` of the query must already be scaled (`from_scaled`).
std::vector<PriceForSale> SelectPricesForSale(const std::vector<PriceListIndexes>& lists,
                                              const PriceQuery& query, std::optional<int64_t> from_scaled,
                                              std::optional<int64_t> to_scaled, int places);

// `value` / 10^places as a decimal ("12345", 2 -> "123.45").
BigDecimal FromScaled(int64_t value, int places);

}  // namespace warmup::engine

#endif  // WARMUP_SRC_ENGINE_PRICE_FOR_SALE_H_
