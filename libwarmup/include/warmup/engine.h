// The embedded catalog engine: evitaDB's catalog model and its WARM_UP ->
// ALIVE lifecycle, with the index work that makes an upsert cost what it
// costs, behind a direct C++ API (no protobuf, no socket).
//
// On disk, a data directory holds one directory per catalog; a directory is a
// catalog only when it holds a valid catalog.header, anything else is
// reported as a leftover and never loaded. See docs/engine.md.
#ifndef WARMUP_ENGINE_H_
#define WARMUP_ENGINE_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "warmup/catalog_target.h"
#include "warmup/entity.h"
#include "warmup/schema.h"
#include "warmup/status.h"

namespace warmup {

struct EngineOptions {
  // Compress entity records with zstd when that makes them smaller (the
  // analogue of evitaDB's storage.compress).
  bool compress = false;
};

enum class CatalogState { kWarmingUp, kAlive };

// Which index a read call uses: the collection's global index, or the reduced
// index of the entities that reference `referenced_pk` through `reference`
// (a reference indexed for partitioning); live or archived entities, which
// evitaDB indexes apart.
struct IndexScope {
  std::string reference;  // empty = the global index
  int32_t referenced_pk = 0;
  Scope scope = Scope::kLive;
};

// The read calls default to the global index of live entities; the one
// implementation takes the same defaults (hence the NOLINTs below).
// One catalog. Borrowed from the Engine; valid until it is deleted or the
// engine is destroyed. Thread-safety: one thread at a time.
class Catalog {
 public:
  virtual ~Catalog() = default;
  virtual const std::string& name() const = 0;
  virtual CatalogState state() const = 0;
  virtual const CatalogSchema& schema() const = 0;

  // Validates `entity` against the schema and, when valid, stores and indexes
  // it (replacing an entity with the same primary key). In WARM_UP the write is
  // not durable until GoLive; in ALIVE it is durable when this returns.
  // Errors: kInvalidArgument naming entity, attribute or reference, and value
  // (unknown attribute or reference, wrong type, locale not allowed, missing
  // required value, unique violation); the catalog is unchanged and usable.
  virtual Status Upsert(const Entity& entity) = 0;
  // Errors: kNotFound for an unknown entity type.
  virtual StatusOr<int64_t> Count(const std::string& entity_type) const = 0;
  // Every stored primary key of `entity_type`, ascending.
  // Errors: kNotFound for an unknown entity type.
  virtual StatusOr<std::vector<int32_t>> PrimaryKeys(const std::string& entity_type) const = 0;
  // WARM_UP -> ALIVE: flushes and fsyncs everything, writes the offset
  // indexes, then switches the catalog header atomically. If anything fails
  // the catalog stays WARM_UP. Errors: kFailedPrecondition when already ALIVE.
  virtual Status GoLive() = 0;

  // The stored entity, with the reflected references the engine maintains.
  virtual StatusOr<std::optional<Entity>> Get(const std::string& entity_type, int32_t pk) const = 0;
  // Primary keys (ascending) of every entity the index holds: the scope's
  // entities for the global index, the partition for a reduced one.
  virtual StatusOr<std::vector<int32_t>> Members(const std::string& entity_type, const IndexScope& scope = {})
      const = 0;  // NOLINT(google-default-arguments)
  // Primary keys (ascending) whose attribute equals `value`; `locale` empty
  // for a global attribute. Only filterable or unique attributes are indexed.
  virtual StatusOr<std::vector<int32_t>> FilterEquals(
      const std::string& entity_type, const std::string& attribute, const std::string& locale,
      const Value& value, const IndexScope& scope = {}) const = 0;  // NOLINT(google-default-arguments)
  // Primary keys of entities having a sortable attribute, in its order (localized
  // strings by the locale's collation), ties by primary key.
  virtual StatusOr<std::vector<int32_t>> SortBy(
      const std::string& entity_type, const std::string& attribute, const std::string& locale,
      OrderDirection direction, const IndexScope& scope = {}) const = 0;  // NOLINT(google-default-arguments)
  // Primary keys whose price for sale in `price_list` and `currency` lies in
  // [from, to] (inclusive; compared at the schema's indexed price places).
  virtual StatusOr<std::vector<int32_t>> PriceBetween(
      const std::string& entity_type, const std::string& price_list, const Currency& currency,
      const BigDecimal& from, const BigDecimal& to,
      const IndexScope& scope = {}) const = 0;  // NOLINT(google-default-arguments)
  // Primary keys of entities with a faceted `reference` to `referenced_pk`.
  virtual StatusOr<std::vector<int32_t>> FacetMembers(
      const std::string& entity_type, const std::string& reference, int32_t referenced_pk,
      const IndexScope& scope = {}) const = 0;  // NOLINT(google-default-arguments)
  // Primary keys whose hierarchy parent is `parent_pk`.
  virtual StatusOr<std::vector<int32_t>> Children(const std::string& entity_type,
                                                  int32_t parent_pk) const = 0;
};

class Engine {
 public:
  // Opens (creating if absent) the data directory `data_dir` and loads every
  // catalog in it: ALIVE ones with all their entities, WARM_UP ones (a load that
  // never went live) with whatever was written. Entries without a valid catalog
  // header are reported by leftovers(), never loaded. The directory is locked
  // (.warmup-lock, flock) until the engine is destroyed: one engine at a time,
  // in this process or any other.
  // Errors: kFailedPrecondition "DIR is in use by pid N (COMMAND)" when
  // another holds it; kDataLoss naming a damaged file.
  static StatusOr<std::unique_ptr<Engine>> Open(const std::string& data_dir,
                                                const EngineOptions& options = {});
  virtual ~Engine() = default;

  virtual std::vector<std::string> CatalogNames() const = 0;
  // Data-directory entries that are not catalogs, with the reason.
  virtual const std::vector<std::string>& leftovers() const = 0;
  // Creates catalog `schema.name` in WARM_UP with `schema`.
  // Errors: kAlreadyExists; kInvalidArgument for a name with '/', "..", or
  // other characters than letters, digits, '.', '_', '-', or an invalid schema.
  virtual StatusOr<Catalog*> CreateCatalog(const CatalogSchema& schema) = 0;
  // Errors: kNotFound.
  virtual StatusOr<Catalog*> GetCatalog(const std::string& name) const = 0;
  // Removes the catalog and its directory. Errors: kNotFound.
  virtual Status DeleteCatalog(const std::string& name) = 0;
};

// A CatalogTarget over an engine opened on `data_dir`: the embedded mode.
// Errors: those of Engine::Open.
StatusOr<std::unique_ptr<CatalogTarget>> MakeEmbeddedTarget(const std::string& data_dir,
                                                            const EngineOptions& options = {});

}  // namespace warmup

#endif  // WARMUP_ENGINE_H_
