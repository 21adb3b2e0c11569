// An entity stored as evitaDB stores it: separate storage parts (body, global
// attributes, attributes per locale, associated data per name and locale,
// prices, references), each its own record (serialized, compressed when that
// is smaller, checksummed), the body written last and naming the others.
// Internal; docs/engine.md describes the records.
#ifndef WARMUP_SRC_ENGINE_STORAGE_PARTS_H_
#define WARMUP_SRC_ENGINE_STORAGE_PARTS_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "warmup/entity.h"
#include "warmup/status.h"

namespace warmup::engine {

// The first byte of every record.
enum class PartKind : uint8_t {
  kRemoval = 0,  // a removal: the primary key follows
  kBody = 1,
  kAttributes = 2,
  kLocalizedAttributes = 3,
  kAssociatedData = 4,
  kPrices = 5,
  kReferences = 6,
};

// One part of an entity, not yet written: its kind, what distinguishes it
// from others of its kind ("" or a locale tag, or "name|tag"), and its record.
struct StoragePart {
  PartKind kind = PartKind::kAttributes;
  std::string key;
  std::string record;
};

// Where a written part is.
struct PartLocation {
  PartKind kind = PartKind::kAttributes;
  std::string key;
  uint64_t offset = 0;
};

// The parts of `entity` other than its body, each as a record, in a fixed
// order; only parts with content.
std::vector<StoragePart> SplitIntoParts(const Entity& entity);

// The body record: the entity's own fields (type, key, scope, parent,
// locales, price handling) and where its parts are.
std::string EncodeBody(const Entity& entity, const std::vector<PartLocation>& parts);
// Reads a body record into `entity` (its own fields only) and `parts`.
// Errors: kDataLoss naming `where`.
Status DecodeBody(std::string_view record, const std::string& where, Entity* entity,
                  std::vector<PartLocation>* parts);
// Adds what a part record holds to `entity`. Errors: kDataLoss naming `where`.
Status MergePart(std::string_view record, const std::string& where, Entity* entity);

}  // namespace warmup::engine

#endif  // WARMUP_SRC_ENGINE_STORAGE_PARTS_H_
