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
#include <string_view>
#include <vector>

#include "warmup/entity.h"
#include "warmup/index_statistics.h"
#include "warmup/record_storage.h"
#include "warmup/schema.h"
#include "warmup/status.h"

namespace warmup {

struct EngineOptions {
  RecordCompression compression = RecordCompression::kNone;
  // In WARM_UP, a new entity's storage-part records are split, compressed
  // and appended on a second thread while its upsert indexes it (in upsert
  // order; a read of the collection's records waits for them, and a write
  // error reaches a later upsert or goLive). Upserts then no longer include
  // that work, where evitaDB's WARM_UP upsert writes its records itself.
  // False: each upsert writes its records itself.
  bool background_records = true;
};

enum class CatalogState { kWarmingUp, kAlive };

// Which index a read call uses: the collection's global index, or, for a
// reference indexed for filtering (or partitioning), one of the indexes
// evitaDB derives from it (see IndexKind): the reduced index of the entities
// that reference `referenced_pk`, of those referencing a group `referenced_pk`,
// or the reference type's index of referenced entities (or groups). Live or
// archived entities, which evitaDB indexes apart.
struct IndexScope {
  std::string reference;      // empty = the global index
  int32_t referenced_pk = 0;  // the referenced entity or group; unused for type indexes
  Scope scope = Scope::kLive;
  IndexKind kind = IndexKind::kReferencedEntity;  // only read when `reference` is set
  // Attribute names in read calls name attributes of the reference rather
  // than of the entity (reduced indexes hold both; type indexes only these).
  bool reference_attributes = false;
};

// One bound of a comparison; `value` has the attribute's type (an element of it, for arrays).
struct Bound {
  Value value;
  bool inclusive = true;
};

// evitaDB's price-for-sale query: prices in `currency` from `price_lists` in
// priority order (first wins), valid at `valid_at` (any validity when absent),
// compared with or without tax, optionally between `from` and `to` inclusive.
struct PriceQuery {
  std::vector<std::string> price_lists;
  Currency currency;
  std::optional<DateTime> valid_at;
  std::optional<BigDecimal> from;
  std::optional<BigDecimal> to;
  bool with_tax = true;
};

struct PriceForSale {
  int32_t primary_key = 0;
  // At the schema's indexed price places. NONE: the first price by priority;
  // LOWEST_PRICE: the lowest of the inner records' prices for sale (of those
  // in the range, when one is given); SUM: the sum of the inner records'.
  BigDecimal price;
  friend bool operator==(const PriceForSale&, const PriceForSale&) = default;
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

  // Gives `entity` the default values it lacks (ApplyDefaultValues), validates
  // it against the schema and, when valid, stores and indexes it (replacing an
  // entity with the same primary key). In WARM_UP the write is not durable
  // until GoLive; in ALIVE it is durable when this returns.
  // Errors: kInvalidArgument naming entity, attribute or reference, and value
  // (unknown attribute or reference, wrong type, locale not allowed, missing
  // required value, unique violation, a reference's cardinality broken: a
  // mandatory one missing, a second one where one is allowed, a duplicate
  // target where duplicates are not); the catalog is unchanged and usable.
  virtual Status Upsert(const Entity& entity) = 0;
  // Removes the entity and everything indexed for it, including the
  // reflected references it held on other entities.
  // Errors: kNotFound for an unknown type or primary key.
  virtual Status Remove(const std::string& entity_type, int32_t pk) = 0;
  // Errors: kNotFound for an unknown entity type.
  virtual StatusOr<int64_t> Count(const std::string& entity_type) const = 0;
  // Every stored primary key of `entity_type`, ascending.
  // Errors: kNotFound for an unknown entity type.
  virtual StatusOr<std::vector<int32_t>> PrimaryKeys(const std::string& entity_type) const = 0;
  // WARM_UP -> ALIVE: flushes and fsyncs everything, writes the offset
  // indexes, then switches the catalog header atomically. If anything fails
  // the catalog stays WARM_UP. Errors: kFailedPrecondition when already ALIVE.
  virtual Status GoLive() = 0;
  // What the indexes held when goLive wrote them, per collection (empty
  // before goLive).
  virtual const std::vector<CollectionIndexStatistics>& index_statistics() const = 0;

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
  // Primary keys (ascending) whose attribute lies between the bounds (an
  // absent bound is open): comparisons and between. Arrays match by any item.
  virtual StatusOr<std::vector<int32_t>> FilterRange(
      const std::string& entity_type, const std::string& attribute, const std::string& locale,
      const std::optional<Bound>& from, const std::optional<Bound>& to,
      const IndexScope& scope = {}) const = 0;  // NOLINT(google-default-arguments)
  // Primary keys (ascending) with a range-typed attribute value containing
  // `point` (a DateTime, integer or BigDecimal): evitaDB's inRange.
  virtual StatusOr<std::vector<int32_t>> FilterInRange(
      const std::string& entity_type, const std::string& attribute, const Value& point,
      const IndexScope& scope = {}) const = 0;  // NOLINT(google-default-arguments)
  // The entity holding a unique value in the index, if any.
  // Errors: kInvalidArgument when the attribute is not unique in the scope.
  virtual StatusOr<std::optional<int32_t>> UniqueOwner(
      const std::string& entity_type, const std::string& attribute, const std::string& locale,
      const Value& value, const IndexScope& scope = {}) const = 0;  // NOLINT(google-default-arguments)
  // Primary keys of entities having a sortable attribute or compound (by
  // name), in its order (localized strings by the locale's collation,
  // compounds element by element), ties by primary key; for a predecessor
  // attribute, the chain order (see docs/engine.md).
  virtual StatusOr<std::vector<int32_t>> SortBy(
      const std::string& entity_type, const std::string& attribute, const std::string& locale,
      OrderDirection direction, const IndexScope& scope = {}) const = 0;  // NOLINT(google-default-arguments)
  // Entities (ascending) with a price for sale under `query`, and that price.
  virtual StatusOr<std::vector<PriceForSale>> PricesForSale(
      const std::string& entity_type, const PriceQuery& query,
      const IndexScope& scope = {}) const = 0;  // NOLINT(google-default-arguments)
  // Primary keys whose price for sale in `price_list` and `currency` (with
  // tax, any validity) lies in [from, to]: PricesForSale with one price list.
  virtual StatusOr<std::vector<int32_t>> PriceBetween(
      const std::string& entity_type, const std::string& price_list, const Currency& currency,
      const BigDecimal& from, const BigDecimal& to,
      const IndexScope& scope = {}) const = 0;  // NOLINT(google-default-arguments)
  // Primary keys of entities with a faceted `reference` to `referenced_pk`.
  virtual StatusOr<std::vector<int32_t>> FacetMembers(
      const std::string& entity_type, const std::string& reference, int32_t referenced_pk,
      const IndexScope& scope = {}) const = 0;  // NOLINT(google-default-arguments)
  // Primary keys (ascending) of entities with data in `locale` (a language tag).
  virtual StatusOr<std::vector<int32_t>> WithLocale(
      const std::string& entity_type, const std::string& locale,
      const IndexScope& scope = {}) const = 0;  // NOLINT(google-default-arguments)
  // Primary keys of entities with a faceted `reference` in group `group_pk`.
  virtual StatusOr<std::vector<int32_t>> FacetGroupMembers(
      const std::string& entity_type, const std::string& reference, int32_t group_pk,
      const IndexScope& scope = {}) const = 0;  // NOLINT(google-default-arguments)
  // The hierarchy reads, in the hierarchy index of `scope` (the schema's
  // hierarchy-indexed scopes; none elsewhere). Primary keys whose hierarchy
  // parent is `parent_pk`, ascending.
  virtual StatusOr<std::vector<int32_t>> Children(
      const std::string& entity_type, int32_t parent_pk,
      Scope scope = Scope::kLive) const = 0;  // NOLINT(google-default-arguments)
  // The nodes `level` steps below the top (1 = the roots: no parent),
  // ascending; nodes under an orphan belong to no level.
  virtual StatusOr<std::vector<int32_t>> HierarchyLevel(
      const std::string& entity_type, int level,
      Scope scope = Scope::kLive) const = 0;  // NOLINT(google-default-arguments)
  // Entities whose parent is not placed in the scope (evitaDB's orphans), ascending.
  virtual StatusOr<std::vector<int32_t>> Orphans(const std::string& entity_type, Scope scope = Scope::kLive)
      const = 0;  // NOLINT(google-default-arguments)
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
  // Hands every record still buffered in this process to the OS (no fsync:
  // ALIVE catalogs are durable already, a WARM_UP one is not promised to be
  // until goLive), as destroying the engine would. For a process that ends
  // without destroying a large engine, whose freeing takes seconds.
  // Errors: the first write that failed, naming its file.
  virtual Status Flush() = 0;
  // Data-directory entries that are not catalogs, with the reason.
  virtual const std::vector<std::string>& leftovers() const = 0;
  // Creates catalog `schema.name` in WARM_UP with `schema`.
  // Errors: kAlreadyExists; kInvalidArgument for a name with '/', "..", or
  // other characters than letters, digits, '.', '_', '-', or an invalid schema.
  virtual StatusOr<Catalog*> CreateCatalog(const CatalogSchema& schema) = 0;
  // OK when a catalog named `name` could be created: an allowed name, no
  // such catalog, and nothing else of that name in the data directory.
  // Errors: CreateCatalog's for the name (kAlreadyExists naming a foreign
  // entry that is in the way).
  virtual Status CheckNewCatalogName(const std::string& name) const = 0;
  // Errors: kNotFound.
  virtual StatusOr<Catalog*> GetCatalog(const std::string& name) const = 0;
  // Removes the catalog and its directory. Errors: kNotFound.
  virtual Status DeleteCatalog(const std::string& name) = 0;
};

}  // namespace warmup

#endif  // WARMUP_ENGINE_H_
