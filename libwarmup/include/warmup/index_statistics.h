// What an engine's indexes hold after goLive, per collection and per kind of
// index, so a run can be set beside evitaDB's own footprint figures (its
// memory-footprint measurement counts indexes per collection by the same
// kinds). See docs/engine.md for what each kind holds.
#ifndef WARMUP_INDEX_STATISTICS_H_
#define WARMUP_INDEX_STATISTICS_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace warmup {

// evitaDB's EntityIndexType, in its order.
enum class IndexKind : int {
  kGlobal = 0,                     // one per scope
  kReferencedEntity = 1,           // a reduced index per (reference, referenced entity)
  kReferencedGroupEntity = 2,      // a reduced index per (reference, group entity)
  kReferencedEntityType = 3,       // one per reference: the referenced entities and reference attributes
  kReferencedGroupEntityType = 4,  // one per grouped reference: the groups
};
inline constexpr int kIndexKinds = 5;

// "GLOBAL", "REFERENCED_ENTITY", ... as evitaDB names them.
std::string_view IndexKindName(IndexKind kind);

struct IndexKindStatistics {
  IndexKind kind = IndexKind::kGlobal;
  int64_t indexes = 0;
  // Entities over all indexes of the kind (for type indexes: referenced entities or groups).
  int64_t entities = 0;
  // Postings over every structure: (key, primary key) pairs, price records, chain elements.
  int64_t entries = 0;
  // What goLive wrote for them (the serialized index snapshots).
  int64_t bytes = 0;
};

struct CollectionIndexStatistics {
  std::string entity_type;
  // One entry per kind that has at least one index, in IndexKind order.
  std::vector<IndexKindStatistics> kinds;
  // Facet postings, over every index of the collection, of references whose
  // schema limits their facets by an expression (facetedPartially) in the
  // posting's scope. The engine does not evaluate these expressions and
  // indexes every such reference as a facet; evitaDB indexes only those its
  // expression admits, so this many postings may be more than evitaDB's.
  int64_t conditional_facets = 0;
  int64_t total_indexes() const;
};

}  // namespace warmup

#endif  // WARMUP_INDEX_STATISTICS_H_
