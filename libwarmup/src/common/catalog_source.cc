#include "warmup/catalog_source.h"

namespace warmup {

const CollectionInfo* FindCollection(const CatalogSource& source, const std::string& entity_type) {
  for (const auto& c : source.collections()) {
    if (c.entity_type == entity_type) return &c;
  }
  return nullptr;
}

std::string WhatNotAliveHolds(const std::string& state) {
  if (state == "WARMING_UP") {
    return "it holds only what a load had reached (one under way, or a failed one kept), not a whole catalog";
  }
  if (state == "BEING_ACTIVATED") {
    return "the server is still opening it from its storage: whole once ALIVE, partly readable or not at all "
           "before";
  }
  return "the server does not serve it as a whole catalog in that state";
}

}  // namespace warmup
