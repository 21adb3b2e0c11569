#include "engine/price_for_sale.h"

#include <absl/container/btree_map.h>

#include <algorithm>
#include <map>

namespace warmup::engine {

BigDecimal FromScaled(int64_t value, int places) {
  const bool negative = value < 0;
  const uint64_t magnitude = negative ? 0 - static_cast<uint64_t>(value) : static_cast<uint64_t>(value);
  std::string digits = std::to_string(magnitude);
  if (places > 0) {
    if (static_cast<int>(digits.size()) <= places) digits.insert(0, places + 1 - digits.size(), '0');
    digits.insert(digits.size() - places, ".");
  }
  return *BigDecimal::Parse((negative ? "-" : "") + digits);
}

std::vector<PriceForSale> SelectPricesForSale(const std::vector<PriceListIndexes>& lists,
                                              const PriceQuery& query, std::optional<int64_t> from,
                                              std::optional<int64_t> to, int places) {
  auto in_range = [&](int64_t amount) { return (!from || amount >= *from) && (!to || amount <= *to); };
  auto amount_of = [&](const EntityIndex::PriceRecord& p) {
    return query.with_tax ? p.with_tax : p.without_tax;
  };
  std::map<int32_t, int64_t> selected;
  for (const PriceListIndexes& handling : lists) {
    // Valid prices of each list, then every entity any list prices.
    std::vector<Roaring> valid;
    Roaring entities;
    for (const auto* index : handling.by_priority) {
      if (index == nullptr) {
        valid.emplace_back();
        continue;
      }
      if (query.valid_at) {
        valid.push_back(EntityIndex::ValidAt(*index, EpochMicros(*query.valid_at)));
      } else {
        index->price_ids.AddTo(&valid.emplace_back());
      }
      index->entities.AddTo(&entities);
    }
    for (uint32_t entity : entities) {
      const auto pk = static_cast<int32_t>(entity);
      // Per inner record (NONE: all as one), the first valid price by list priority.
      absl::btree_map<std::optional<int32_t>, int64_t> chosen;
      for (size_t i = 0; i < handling.by_priority.size(); ++i) {
        const auto* index = handling.records[i];
        if (handling.by_priority[i] == nullptr || index == nullptr || index->own == nullptr) continue;
        // Ascending: the entity's price order.
        for (int32_t id : index->own->PricesOf(pk)) {
          if (!valid[i].contains(static_cast<uint32_t>(id))) continue;
          const EntityIndex::PriceRecord& p = index->own->records.at(id);
          const std::optional<int32_t> group =
              handling.handling == PriceInnerRecordHandling::kNone ? std::nullopt : p.inner_record();
          chosen.try_emplace(group, amount_of(p));
        }
      }
      if (chosen.empty()) continue;
      switch (handling.handling) {
        case PriceInnerRecordHandling::kLowestPrice: {
          // Matches when some inner record's price is in the range; the lowest of those.
          std::optional<int64_t> lowest;
          for (const auto& [group, amount] : chosen) {
            if (in_range(amount) && (!lowest || amount < *lowest)) lowest = amount;
          }
          if (lowest) selected[pk] = *lowest;
          break;
        }
        case PriceInnerRecordHandling::kSum: {
          int64_t sum = 0;
          for (const auto& [group, amount] : chosen) sum += amount;
          if (in_range(sum)) selected[pk] = sum;
          break;
        }
        default: {
          const int64_t amount = chosen.begin()->second;
          if (in_range(amount)) selected[pk] = amount;
          break;
        }
      }
    }
  }
  std::vector<PriceForSale> out;
  out.reserve(selected.size());
  for (const auto& [pk, amount] : selected) out.push_back({pk, FromScaled(amount, places)});
  return out;
}

}  // namespace warmup::engine
