// One entity collection of a catalog: its record file, primary-key offsets,
// global index, reduced indexes, unique values and hierarchy. The indexes that
// span collections belong to the catalog (engine/catalog_indexes.h). Internal.
#ifndef WARMUP_SRC_ENGINE_COLLECTION_H_
#define WARMUP_SRC_ENGINE_COLLECTION_H_

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>

#include "engine/catalog_indexes.h"
#include "engine/entity_index.h"
#include "engine/env.h"
#include "engine/index_io.h"
#include "engine/record_file.h"
#include "engine/upsert_validation.h"
#include "warmup/engine.h"

namespace io::evitadb::externalApi::grpc::generated {
class GrpcSealedEntity;
}  // namespace io::evitadb::externalApi::grpc::generated

namespace warmup::engine {

class Collection {
 public:
  Collection(Env* env, std::string records_path, const EntitySchema* schema, bool compress);
  ~Collection();

  // Restores the state goLive saved: offsets and every index of the collection.
  void LoadSnapshot(std::map<int32_t, uint64_t> offsets, IndexReader& in);
  // Writes every index of the collection (the offsets go to their own file).
  void SaveSnapshot(IndexWriter& out) const;
  // Applies the records from byte `from` of the record file (all of them for a
  // catalog that never went live; those appended after goLive otherwise), each
  // replacing an earlier record of the same primary key, then opens the file
  // for appending. `catalog` must already hold what goLive saved of it.
  Status Replay(uint64_t from, CatalogIndexes* catalog);
  Status OpenForAppend();

  // Everything an upsert checks before changing anything (ValidateUpsert).
  Status Validate(const Entity& entity, const CatalogIndexes& catalog) const {
    return ValidateUpsert(entity, *schema_, unique_, catalog.global_unique);
  }
  // Stores and indexes a validated entity, here and in `catalog`; `durable`
  // syncs the record file.
  Status Apply(const Entity& entity, bool durable, CatalogIndexes* catalog);

  // The stored entity as it was upserted (without the reflected references,
  // which the catalog attaches).
  StatusOr<std::optional<Entity>> Get(int32_t pk) const;
  int64_t count() const { return static_cast<int64_t>(offsets_.size()); }
  const std::map<int32_t, uint64_t>& offsets() const { return offsets_; }
  const EntitySchema& schema() const { return *schema_; }
  RecordWriter* writer() { return writer_.get(); }
  const std::string& records_path() const { return records_path_; }

  // The global index, or a reduced one (nullptr when nobody references that entity).
  const EntityIndex* Index(const IndexScope& scope) const;
  std::vector<int32_t> Children(int32_t parent) const;
  CollationKeys& collation() { return collation_; }
  // The id of an index key, when any entity used it (see KeyDictionary).
  std::optional<uint32_t> KeyId(const std::string& key) const { return keys_.Find(key); }

 private:
  // Indexes `entity` (or removes it when `add` is false).
  void UpdateIndexes(const Entity& entity, bool add, CatalogIndexes* catalog);
  Status ReadEntity(uint64_t offset, Entity* entity) const;

  Env* env_;
  std::string records_path_;
  const EntitySchema* schema_;
  bool compress_;
  std::unique_ptr<RecordWriter> writer_;
  mutable std::unique_ptr<ReadFile> reader_;
  mutable uint64_t reader_size_ = 0;
  std::map<int32_t, uint64_t> offsets_;
  EntityIndex global_[2];                                  // by Scope
  absl::flat_hash_map<std::string, EntityIndex> reduced_;  // "scope|reference|pk"
  UniqueValues unique_;
  std::unordered_map<int32_t, std::set<int32_t>> children_;
  CollationKeys collation_;
  KeyDictionary keys_;
  // A reused encode/decode buffer; generated types stay out of engine headers.
  std::unique_ptr<io::evitadb::externalApi::grpc::generated::GrpcSealedEntity> message_;
  std::string buffer_;
};

}  // namespace warmup::engine

#endif  // WARMUP_SRC_ENGINE_COLLECTION_H_
