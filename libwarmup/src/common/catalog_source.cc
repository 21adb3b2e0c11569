#include "warmup/catalog_source.h"

namespace warmup {

const CollectionInfo* FindCollection(const CatalogSource& source, const std::string& entity_type) {
  for (const auto& c : source.collections()) {
    if (c.entity_type == entity_type) return &c;
  }
  return nullptr;
}

}  // namespace warmup
