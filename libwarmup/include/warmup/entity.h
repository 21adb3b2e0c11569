// The evitaDB entity model: what one entity of a collection holds.
//
// An Entity is plain data. Order is kept as given (prices and references stay
// in the order their source listed them); EntityDigest() is what compares two
// entities regardless of order and encoding.
#ifndef WARMUP_ENTITY_H_
#define WARMUP_ENTITY_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "warmup/schema.h"
#include "warmup/value.h"

namespace warmup {

enum class PriceInnerRecordHandling : int { kNone = 0, kLowestPrice = 1, kSum = 2, kUnknown = 3 };
// evitaDB's name of `handling`: "NONE", "LOWEST_PRICE", "SUM", "UNKNOWN".
std::string_view PriceInnerRecordHandlingName(PriceInnerRecordHandling handling);

// Attribute values keyed by name: the global ones, and per language tag the
// localized ones.
struct Attributes {
  std::map<std::string, Value> global;
  std::map<std::string, std::map<std::string, Value>> localized;  // tag -> name -> value
  bool empty() const { return global.empty() && localized.empty(); }
  friend bool operator==(const Attributes&, const Attributes&) = default;
};

// Associated data keyed by name, global and per language tag.
struct AssociatedData {
  std::map<std::string, AssociatedDataValue> global;
  std::map<std::string, std::map<std::string, AssociatedDataValue>> localized;
  bool empty() const { return global.empty() && localized.empty(); }
  friend bool operator==(const AssociatedData&, const AssociatedData&) = default;
};

struct Price {
  int32_t price_id = 0;
  std::string price_list;
  Currency currency;
  std::optional<int32_t> inner_record_id;
  BigDecimal price_without_tax;
  BigDecimal tax_rate;
  BigDecimal price_with_tax;
  std::optional<DateTimeRange> validity;
  // Whether the price takes part in price filtering and sorting (evitaDB's
  // `indexed`, formerly `sellable`).
  bool indexed = true;
  friend bool operator==(const Price&, const Price&) = default;
};

// A pointer to another entity: its type and primary key.
struct EntityRef {
  std::string entity_type;
  int32_t primary_key = 0;
  friend bool operator==(const EntityRef&, const EntityRef&) = default;
  friend auto operator<=>(const EntityRef&, const EntityRef&) = default;
};

struct Reference {
  std::string name;      // the reference schema's name
  EntityRef referenced;  // the entity it points to
  std::optional<EntityRef> group;
  Attributes attributes;
  friend bool operator==(const Reference&, const Reference&) = default;
};

struct Entity {
  std::string type;  // the collection, e.g. "Product"
  int32_t primary_key = 0;
  Scope scope = Scope::kLive;
  std::optional<int32_t> parent;  // hierarchy parent's primary key; nullopt = root
  Attributes attributes;
  AssociatedData associated_data;
  PriceInnerRecordHandling price_inner_record_handling = PriceInnerRecordHandling::kNone;
  std::vector<Price> prices;
  std::vector<Reference> references;
  // The locales the entity has data in; evitaDB derives it from the localized
  // attributes and associated data (see DeriveLocales).
  std::vector<Locale> locales;
  friend bool operator==(const Entity&, const Entity&) = default;
};

// The price inner-record handling evitaDB reads back for `entity`: kUnknown
// when the entity keeps no prices container, that is when it has no prices
// and its handling is kNone or kUnknown (evitaDB stores no empty container:
// PricesStoragePart.isEmpty; an entity read without one is given UNKNOWN:
// EntityFactory), whatever its collection's schema; else its own handling.
// What the generator makes, the engine stores and answers, and the content
// digest compares, so that NONE-without-prices and UNKNOWN are one content.
// Thread-safety: pure function.
PriceInnerRecordHandling StoredPriceInnerRecordHandling(const Entity& entity);

// Returns the sorted set of language tags used by `entity`'s localized
// attributes and associated data, as evitaDB computes an entity's locales.
std::vector<Locale> DeriveLocales(const Entity& entity);

// Removes `entity`'s reflected references (per `schema`). They are read back
// from a catalog but never written: the engine rebuilds them from the
// originals, so an upsert carries none and a copy keeps none. What a
// rebuilt one cannot have is the reflected reference's own attributes (those
// its schema declares as not inherited): when `dropped_own_attributes` is
// not null, each such value removed adds one to its
// "Type.reference.attribute" entry.
void RemoveReflectedReferences(const EntitySchema& schema, Entity& entity,
                               std::map<std::string, int64_t>* dropped_own_attributes = nullptr);

// Whether `entity` lacks an attribute value that `schema` gives a default
// value for: a global attribute, a localized one in one of the entity's
// locales, or an attribute of one of its own (not reflected) references in
// one of the entity's locales. Unknown references are skipped.
bool LacksDefaultValues(const EntitySchema& schema, const Entity& entity);

// Gives `entity` each value LacksDefaultValues finds missing, as evitaDB's
// implicit attribute mutations do on an upsert; returns how many it added.
int ApplyDefaultValues(const EntitySchema& schema, Entity& entity);

// Returns "<type>/<primary key>", the way errors name an entity.
std::string EntityLabel(const Entity& entity);

}  // namespace warmup

#endif  // WARMUP_ENTITY_H_
