// One entity collection of a catalog: its record file, primary-key offsets,
// global indexes, the indexes derived from references (reduced and type
// indexes), unique values and hierarchy. The indexes that span collections
// belong to the catalog (engine/catalog_indexes.h). Internal.
#ifndef WARMUP_SRC_ENGINE_COLLECTION_H_
#define WARMUP_SRC_ENGINE_COLLECTION_H_

#include <absl/container/btree_set.h>
#include <absl/container/node_hash_map.h>

#include <map>
#include <memory>
#include <optional>
#include <string>

#include "engine/catalog_indexes.h"
#include "engine/entity_index.h"
#include "engine/env.h"
#include "engine/index_io.h"
#include "engine/record_file.h"
#include "engine/record_pipeline.h"
#include "engine/reflection_cache.h"
#include "engine/storage_parts.h"
#include "engine/upsert_validation.h"
#include "engine/value_dictionary.h"
#include "warmup/engine.h"

namespace warmup::engine {

class Collection : private EntityRecordSink {
 public:
  Collection(Env* env, std::string records_path, const EntitySchema* schema, RecordCompression compression);
  ~Collection() override;
  // Its indexes point into its value dictionary: a collection stays where it
  // was made.
  Collection(const Collection&) = delete;
  Collection& operator=(const Collection&) = delete;

  // Restores the state goLive saved: offsets and every index of the collection.
  void LoadSnapshot(std::map<int32_t, uint64_t> offsets, IndexReader& in);
  // Writes every index of the collection (the offsets go to their own file),
  // and says what they held.
  void SaveSnapshot(IndexWriter& out, CollectionIndexStatistics* statistics) const;
  // Facet postings of references faceted by an expression the engine does
  // not evaluate (CollectionIndexStatistics::conditional_facets).
  int64_t ConditionalFacetPostings() const;
  // Calls `visit(entity, offset)` (or `removed(pk)` for a removal) for the
  // records from byte `from` of the record file, in order, then opens the file
  // for appending. The caller restores each (Restore) with what spans
  // collections.
  Status Replay(uint64_t from, const std::function<Status(Entity&&, uint64_t)>& visit,
                const std::function<Status(int32_t)>& removed);
  Status OpenForAppend();
  // Drops what is kept of reflected links' targets (up to
  // kReflectionCacheBytes): goLive does, since an ALIVE catalog's upserts are
  // few and the memory would otherwise stay for the catalog's life.
  void DropReflectionTargets() { reflection_targets_.Clear(); }

  // Everything an upsert checks before changing anything (ValidateUpsert).
  Status Validate(const Entity& entity, const CatalogIndexes& catalog) const {
    auto owner = [&](const std::string& attribute_key, const std::string& value_key) {
      return UniqueOwner(entity.scope, attribute_key, value_key);
    };
    return ValidateUpsert(entity, *schema_, owner, catalog.global_unique[static_cast<int>(entity.scope)]);
  }
  // Stores and indexes a validated entity, replacing the one with its primary
  // key; `durable` syncs the record file. Returns the replaced entity, so the
  // catalog can work out the reflected references that change. With a
  // pipeline (WriteInBackground), a new entity that need not be durable has
  // its records written there while this indexes it; the error of an
  // earlier such write, if any, is returned instead (and nothing changes).
  StatusOr<std::optional<Entity>> Store(const Entity& entity, bool durable, CatalogIndexes* catalog);
  // Where Store writes new entities' records from now on; null: on the
  // calling thread. REQUIRES: settled (Settle) before it changes, and the
  // pipeline outlives the collection or the next change.
  void WriteInBackground(RecordPipeline* pipeline) { pipeline_ = pipeline; }
  // Waits for the records the pipeline writes for this collection, and puts
  // their offsets in place; every read of a record, and every write on this
  // thread, does it first. Logically const: it changes only when offsets
  // become known. Errors: the pipeline's first write error (sticky).
  Status Settle() const;
  // Store for a record already in the file at `offset` (a replay).
  StatusOr<std::optional<Entity>> Restore(const Entity& entity, uint64_t offset, CatalogIndexes* catalog);
  // Removes the entity (a removal record, then its index entries); returns it.
  // Errors: kNotFound.
  StatusOr<Entity> Erase(int32_t pk, bool durable, CatalogIndexes* catalog);
  // The removal for a removal record already in the file (a replay).
  StatusOr<std::optional<Entity>> Unstore(int32_t pk, CatalogIndexes* catalog);
  // Indexes (or unindexes) one reflected reference of a stored entity, as
  // evitaDB's implicit mutation does; nothing when `pk` is not stored (the
  // entity indexes its reflected references when it arrives). REQUIRES: the
  // catalog's links include the reference while this runs.
  Status ApplyReflected(int32_t pk, const Reference& reference, bool add, CatalogIndexes* catalog);

  // The stored entity as it was upserted (without the reflected references,
  // which the catalog attaches).
  StatusOr<std::optional<Entity>> Get(int32_t pk) const;
  int64_t count() const { return static_cast<int64_t>(offsets_.size()); }
  // Every stored primary key, with its body's offset once settled (Settle);
  // kPendingOffset for one the pipeline has not written yet.
  static constexpr uint64_t kPendingOffset = UINT64_MAX;
  const std::map<int32_t, uint64_t>& offsets() const { return offsets_; }
  const EntitySchema& schema() const { return *schema_; }
  RecordWriter* writer() { return writer_.get(); }
  const std::string& records_path() const { return records_path_; }

  // The index a read names, or nullptr when nothing is indexed there.
  const EntityIndex* Index(const IndexScope& scope) const;
  std::vector<int32_t> Children(int32_t parent, Scope scope) const;
  std::vector<int32_t> HierarchyLevel(int level, Scope scope) const;
  std::vector<int32_t> Orphans(Scope scope) const;
  // The entity holding a unique attribute's value in `scope` (the global
  // index's unique values, as evitaDB's UniqueIndex), or nullopt.
  std::optional<int32_t> UniqueOwner(Scope scope, const std::string& attribute_key,
                                     const std::string& value_key) const {
    const std::optional<uint32_t> attribute = keys_.Find(attribute_key);
    if (!attribute) return std::nullopt;
    return global_[static_cast<int>(scope)].UniqueOwner(*attribute, value_key);
  }
  CollationKeys& collation() { return collation_; }
  // The id of an index key, when any entity used it (see KeyDictionary).
  std::optional<uint32_t> KeyId(const std::string& key) const { return keys_.Find(key); }

 private:
  // The key of an index derived from a reference.
  struct DerivedKey {
    IndexKind kind;
    Scope scope;
    uint32_t reference;  // reference key id
    int32_t pk;          // referenced entity or group; 0 for type indexes
    friend bool operator==(const DerivedKey&, const DerivedKey&) = default;
    template <typename H>
    friend H AbslHashValue(H h, const DerivedKey& k) {
      return H::combine(std::move(h), static_cast<int>(k.kind), static_cast<int>(k.scope), k.reference, k.pk);
    }
  };
  // A derived index and the counts that decide when a record enters or leaves
  // it: several references can put one entity in one group index, and many
  // entities one referenced entity in a type index.
  struct DerivedIndex {
    explicit DerivedIndex(ValueDictionary* values)
        : index(values, EntityIndex::PriceRecords::kInGlobalIndex) {}
    EntityIndex index;
    absl::flat_hash_map<int32_t, int32_t> members;       // record pk -> references
    absl::flat_hash_map<std::string, int32_t> postings;  // one entry of one record -> references
  };
  EntityEntries ComputeEntries(const Entity& e, const std::vector<Reference>& references,
                               int32_t first_price);
  // The entity's own references and the reflected ones the catalog holds for
  // it; only those faceted in the entity's scope when `faceted_only`.
  std::vector<Reference> EffectiveReferences(const Entity& e, const CatalogIndexes& catalog,
                                             bool faceted_only = false) const;
  // Indexes `entity` (or removes it when `add` is false) everywhere.
  void UpdateIndexes(const Entity& entity, bool add, CatalogIndexes* catalog);
  // The indexes derived from one reference of entity `pk`.
  void IndexReference(int32_t pk, Scope scope, const Reference& reference, const EntityEntries& entries,
                      bool add);
  void UpdateMember(const DerivedKey& key, int32_t pk, const IndexEntries& data,
                    const IndexEntries& per_reference, bool add);
  // Adds (removes) the entries of `record` one reference's worth: an entry
  // enters the index with its first reference and leaves with its last;
  // sort postings only when `sorted`.
  static void UpdateCounted(DerivedIndex& index, int32_t record, const IndexEntries& entries, bool sorted,
                            bool add);
  StatusOr<std::optional<Entity>> Replace(const Entity& entity, uint64_t offset, CatalogIndexes* catalog);
  // Reads the entity whose body is at `offset` (and, when asked, where its
  // parts are and their records, to tell which a re-upsert changes).
  Status ReadEntity(uint64_t offset, Entity* entity, std::vector<PartLocation>* parts = nullptr,
                    std::vector<std::string>* records = nullptr) const;
  Status ReadStored(const ReadFile& file, uint64_t offset, Entity* entity, std::vector<PartLocation>* parts,
                    std::vector<std::string>* records) const;
  Status AppendRecord(std::string_view payload, bool durable, uint64_t* offset);
  // Appends `entity`'s parts that differ from `old_parts` (whose records are
  // `old_records`; none for a new entity), then its body; returns the body's
  // offset. Nothing is synced.
  StatusOr<uint64_t> AppendEntity(const Entity& entity, const std::vector<PartLocation>& old_parts,
                                  const std::vector<std::string>& old_records);
  // EntityRecordSink: a new entity's records, on the pipeline's thread; an
  // error names the entity, since a later call reports it.
  StatusOr<uint64_t> WriteRecords(const Entity& entity) override;
  // Appends the record that tells a replay `pk` was removed.
  Status AppendRemoval(int32_t pk, bool durable);

  Env* env_;
  std::string records_path_;
  const EntitySchema* schema_;
  RecordCompression compression_;
  std::unique_ptr<RecordWriter> writer_;
  mutable std::unique_ptr<ReadFile> reader_;
  mutable uint64_t reader_size_ = 0;
  // Mutable for Settle, which only fills in offsets that became known.
  mutable std::map<int32_t, uint64_t> offsets_;
  RecordPipeline* pipeline_ = nullptr;  // null: records are written on the calling thread
  mutable int64_t unsettled_ = 0;       // entities given to the pipeline since the last Settle
  ValueDictionary values_;              // before the indexes that hold its keys
  EntityIndex global_[2] = {EntityIndex(&values_), EntityIndex(&values_)};  // by Scope
  // Nodes, not slots: a reduced index is ~350 bytes, and a flat table of them
  // left up to half its slots empty (Category's 118,772 at senesi 1.0 sat in
  // 262,143 slots, ~50 MB of them empty).
  absl::node_hash_map<DerivedKey, DerivedIndex> derived_;
  // Hierarchy per scope: every placed entity's parent (-1 = root), and children by parent.
  struct Hierarchy {
    absl::flat_hash_map<int32_t, int32_t> parent_of;
    absl::flat_hash_map<int32_t, absl::btree_set<int32_t>> children;
  };
  Hierarchy hierarchy_[2];
  // What ApplyReflected needs of a referenced entity, kept between the links
  // that reach it: its scope and its entries, which depend on nothing a link
  // that is not faceted changes. Dropped when the entity is indexed again or
  // a faceted link changes its facets. 64 MiB per collection: a senesi
  // category's entries count about 1.3 KB, so senesi 1.0's 4,120 fit twelve
  // times over (docs/engine.md).
  static constexpr size_t kReflectionCacheBytes = size_t{64} << 20;
  ReflectionCache reflection_targets_{kReflectionCacheBytes};
  // Internal price ids: the first of each entity's run, and the next free one.
  absl::flat_hash_map<int32_t, int32_t> first_price_id_;
  int32_t next_price_id_ = 1;
  CollationKeys collation_;
  KeyDictionary keys_;
};

}  // namespace warmup::engine

#endif  // WARMUP_SRC_ENGINE_COLLECTION_H_
