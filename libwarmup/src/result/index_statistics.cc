#include "warmup/index_statistics.h"

namespace warmup {

std::string_view IndexKindName(IndexKind kind) {
  switch (kind) {
    case IndexKind::kGlobal:
      return "GLOBAL";
    case IndexKind::kReferencedEntity:
      return "REFERENCED_ENTITY";
    case IndexKind::kReferencedGroupEntity:
      return "REFERENCED_GROUP_ENTITY";
    case IndexKind::kReferencedEntityType:
      return "REFERENCED_ENTITY_TYPE";
    case IndexKind::kReferencedGroupEntityType:
      return "REFERENCED_GROUP_ENTITY_TYPE";
  }
  return "UNKNOWN";
}

int64_t CollectionIndexStatistics::total_indexes() const {
  int64_t n = 0;
  for (const auto& k : kinds) n += k.indexes;
  return n;
}

}  // namespace warmup
