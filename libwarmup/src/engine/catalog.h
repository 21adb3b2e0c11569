// One catalog of the engine: its collections, the indexes that span them, its
// state, and the goLive that makes it durable. Internal; the public face is
// warmup::Catalog.
#ifndef WARMUP_SRC_ENGINE_CATALOG_H_
#define WARMUP_SRC_ENGINE_CATALOG_H_

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/catalog_indexes.h"
#include "engine/collection.h"
#include "engine/entity_index.h"
#include "engine/env.h"
#include "warmup/engine.h"

namespace warmup::engine {

class CatalogImpl : public Catalog {
 public:
  // A catalog held in `dir` (which already holds its header and schema).
  CatalogImpl(Env* env, std::string dir, CatalogSchema schema, CatalogState state,
              const EngineOptions& options);

  // Loads every collection from disk (a reopened catalog): for an ALIVE one
  // the offsets and index snapshots goLive wrote, then the records appended
  // after them; for a WARM_UP one (a load that never went live) every record.
  Status Load();
  // Opens every record file for appending (a new catalog).
  Status OpenForAppend();
  // Hands every collection's buffered records to the OS (Engine::Flush).
  Status Flush();

  const std::string& name() const override { return schema_.name; }
  CatalogState state() const override { return state_; }
  const CatalogSchema& schema() const override { return schema_; }

  Status Upsert(const Entity& entity) override;
  Status Remove(const std::string& entity_type, int32_t pk) override;
  StatusOr<int64_t> Count(const std::string& entity_type) const override;
  StatusOr<std::vector<int32_t>> PrimaryKeys(const std::string& entity_type) const override;
  Status GoLive() override;
  const std::vector<CollectionIndexStatistics>& index_statistics() const override { return statistics_; }

  StatusOr<std::optional<Entity>> Get(const std::string& entity_type, int32_t pk) const override;
  StatusOr<std::vector<int32_t>> FilterEquals(const std::string& entity_type, const std::string& attribute,
                                              const std::string& locale, const Value& value,
                                              const IndexScope& scope) const override;
  StatusOr<std::vector<int32_t>> FilterRange(const std::string& entity_type, const std::string& attribute,
                                             const std::string& locale, const std::optional<Bound>& from,
                                             const std::optional<Bound>& to,
                                             const IndexScope& scope) const override;
  StatusOr<std::vector<int32_t>> FilterInRange(const std::string& entity_type, const std::string& attribute,
                                               const Value& point, const IndexScope& scope) const override;
  StatusOr<std::optional<int32_t>> UniqueOwner(const std::string& entity_type, const std::string& attribute,
                                               const std::string& locale, const Value& value,
                                               const IndexScope& scope) const override;
  StatusOr<std::vector<int32_t>> SortBy(const std::string& entity_type, const std::string& attribute,
                                        const std::string& locale, OrderDirection direction,
                                        const IndexScope& scope) const override;
  StatusOr<std::vector<PriceForSale>> PricesForSale(const std::string& entity_type, const PriceQuery& query,
                                                    const IndexScope& scope) const override;
  StatusOr<std::vector<int32_t>> PriceBetween(const std::string& entity_type, const std::string& price_list,
                                              const Currency& currency, const BigDecimal& from,
                                              const BigDecimal& to, const IndexScope& scope) const override;
  StatusOr<std::vector<int32_t>> Members(const std::string& entity_type,
                                         const IndexScope& scope) const override;
  StatusOr<std::vector<int32_t>> FacetMembers(const std::string& entity_type, const std::string& reference,
                                              int32_t referenced_pk, const IndexScope& scope) const override;
  StatusOr<std::vector<int32_t>> WithLocale(const std::string& entity_type, const std::string& locale,
                                            const IndexScope& scope) const override;
  StatusOr<std::vector<int32_t>> FacetGroupMembers(const std::string& entity_type,
                                                   const std::string& reference, int32_t group_pk,
                                                   const IndexScope& scope) const override;
  StatusOr<std::vector<int32_t>> Children(const std::string& entity_type, int32_t parent_pk,
                                          Scope scope) const override;
  StatusOr<std::vector<int32_t>> HierarchyLevel(const std::string& entity_type, int level,
                                                Scope scope) const override;
  StatusOr<std::vector<int32_t>> Orphans(const std::string& entity_type, Scope scope) const override;

 private:
  // Everything goLive makes durable, before the header switch.
  Status WriteGoLiveFiles();
  // Waits for every record the pipeline writes, and then (`stop`) ends it:
  // records are written on the calling thread again. Errors: the pipeline's
  // first write error; the pipeline is kept then, and refuses every write.
  Status SettleRecords(bool stop);
  // The collection of `type`, or kNotFound naming the catalog and the type.
  StatusOr<Collection*> Find(const std::string& type) const;
  // The index a read call uses, or nullptr when that reduced index is empty.
  StatusOr<const EntityIndex*> IndexFor(const std::string& type, const IndexScope& scope) const;
  // IndexFor, and the id of `key` (a reference or locale key) in the collection's
  // dictionary; a null index or no id means nothing matches.
  StatusOr<std::pair<const EntityIndex*, std::optional<uint32_t>>> KeyedIndex(const std::string& type,
                                                                              const IndexScope& scope,
                                                                              const std::string& key) const;
  // The key id and attribute schema an attribute read names in `scope` (an
  // entity attribute, a reference attribute, or a compound); nullopt id when
  // no entity used it. Errors: kInvalidArgument for an unknown name.
  struct AttributeTarget {
    std::optional<uint32_t> id;
    const AttributeSchema* schema = nullptr;  // nullptr for a compound
  };
  StatusOr<AttributeTarget> ResolveAttribute(const Collection& c, const std::string& attribute,
                                             const std::string& locale, const IndexScope& scope) const;
  // Applies the reflected references that change when a holder goes from
  // `before` to `after`, on the entities holding them.
  Status ApplyReflections(const std::optional<Entity>& before, const Entity* after);

  Env* env_;
  std::string dir_;
  CatalogSchema schema_;
  CatalogState state_;
  std::map<std::string, std::string> paths_;  // entity type -> collections/NNN
  std::map<std::string, std::unique_ptr<Collection>> collections_;
  // WARM_UP's record writes (EngineOptions::background_records), from the
  // first upsert to goLive; after the collections, so that it is destroyed,
  // and what it still holds written, while they exist.
  bool background_records_;
  std::unique_ptr<RecordPipeline> pipeline_;
  CatalogIndexes indexes_;
  std::vector<CollectionIndexStatistics> statistics_;
};

}  // namespace warmup::engine

#endif  // WARMUP_SRC_ENGINE_CATALOG_H_
