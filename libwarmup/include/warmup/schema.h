// The evitaDB schema model: catalog, entity, attribute, associated data,
// reference and sortable-compound schemas, with every setting evitaDB's gRPC
// protocol carries that changes what the engine indexes or validates.
//
// Settings that are per scope (filterable, sortable, unique, indexed, faceted)
// are lists of scopes, as in evitaDB: an empty list means "in no scope".
// Deliberately not modelled: name variants (derived from names), conflict
// resolution policies and bucketed histograms (evitaDB's own copy tool does not
// replicate those either); see docs/data-model.md.
#ifndef WARMUP_SCHEMA_H_
#define WARMUP_SCHEMA_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "warmup/value.h"

namespace warmup {

// Where an entity lives: the live set or the archive.
enum class Scope : int { kLive = 0, kArchived = 1 };

enum class AttributeUniqueness : int {
  kNotUnique = 0,
  kUniqueWithinCollection = 1,
  kUniqueWithinCollectionLocale = 2,
};

enum class GlobalAttributeUniqueness : int {
  kNotGloballyUnique = 0,
  kUniqueWithinCatalog = 1,
  kUniqueWithinCatalogLocale = 2,
};

enum class Cardinality : int {
  kNotSpecified = 0,
  kZeroOrOne = 1,
  kExactlyOne = 2,
  kZeroOrMore = 3,
  kOneOrMore = 4,
  kZeroOrMoreWithDuplicates = 5,
  kOneOrMoreWithDuplicates = 6,
};

enum class ReferenceIndexType : int {
  kNone = 0,
  kForFiltering = 1,
  kForFilteringAndPartitioning = 2,
};

enum class ReferenceIndexedComponent : int { kReferencedEntity = 0, kReferencedGroupEntity = 1 };

enum class EvolutionMode : int {
  kAdaptPrimaryKeyGeneration = 0,
  kAddingAttributes = 1,
  kAddingAssociatedData = 2,
  kAddingReferences = 3,
  kAddingPrices = 4,
  kAddingLocales = 5,
  kAddingCurrencies = 6,
  kAddingHierarchy = 7,
  kUpdatingReferenceCardinality = 8,
};

enum class CatalogEvolutionMode : int { kAddingEntityTypes = 0 };

enum class OrderDirection : int { kAsc = 0, kDesc = 1 };
enum class OrderBehaviour : int { kNullsFirst = 0, kNullsLast = 1 };
enum class AttributeInheritanceBehavior : int { kInheritAllExcept = 0, kInheritOnlySpecified = 1 };

// Whether an attribute schema belongs to the catalog (global), an entity type,
// or a reference. An entity's attribute that uses a global one is kGlobal.
enum class AttributeSchemaKind : int { kGlobal = 0, kEntity = 1, kReference = 2 };

template <typename T>
struct Scoped {
  Scope scope = Scope::kLive;
  T value{};
  friend bool operator==(const Scoped&, const Scoped&) = default;
};

struct AttributeSchema {
  std::string name;
  AttributeSchemaKind kind = AttributeSchemaKind::kEntity;
  std::optional<std::string> description;
  std::optional<std::string> deprecation_notice;
  ValueType type = ValueType::kString;
  bool localized = false;
  bool nullable = false;
  bool representative = false;
  std::optional<Value> default_value;
  int32_t indexed_decimal_places = 0;
  std::vector<Scoped<AttributeUniqueness>> unique_in_scopes;
  // Only for kGlobal schemas defined on the catalog.
  std::vector<Scoped<GlobalAttributeUniqueness>> globally_unique_in_scopes;
  std::vector<Scope> filterable_in_scopes;
  std::vector<Scope> sortable_in_scopes;
  // On a reflected reference: the attribute comes from the original reference.
  bool inherited = false;
  // Its uniqueness in `scope`: kNotUnique when it is not unique there.
  AttributeUniqueness UniquenessIn(Scope scope) const;
  // Its catalog-wide uniqueness in `scope`: kNotGloballyUnique when none.
  GlobalAttributeUniqueness GlobalUniquenessIn(Scope scope) const;
  friend bool operator==(const AttributeSchema&, const AttributeSchema&) = default;
};

struct AssociatedDataSchema {
  std::string name;
  std::optional<std::string> description;
  std::optional<std::string> deprecation_notice;
  ValueType type = ValueType::kString;  // may be kComplexDataObject
  bool localized = false;
  bool nullable = false;
  friend bool operator==(const AssociatedDataSchema&, const AssociatedDataSchema&) = default;
};

struct AttributeElement {
  std::string attribute_name;
  OrderDirection direction = OrderDirection::kAsc;
  OrderBehaviour behaviour = OrderBehaviour::kNullsLast;
  friend bool operator==(const AttributeElement&, const AttributeElement&) = default;
};

// A sort key over several attributes, indexed as one.
struct SortableAttributeCompoundSchema {
  std::string name;
  std::optional<std::string> description;
  std::optional<std::string> deprecation_notice;
  std::vector<AttributeElement> elements;
  std::vector<Scope> indexed_in_scopes;
  bool inherited = false;
  friend bool operator==(const SortableAttributeCompoundSchema&,
                         const SortableAttributeCompoundSchema&) = default;
};

// A histogram index evitaDB (2026.2 and later) keeps over a reference's
// targets in one scope: the reference schema's `bucketed` entry.
struct HistogramIndexDefinition {
  Scope scope = Scope::kLive;
  std::string name;
  // What a referenced entity counts as in the histogram; none = not set.
  std::optional<std::string> value_expression;
  // Which eligible references this histogram takes; none = all of them.
  std::optional<std::string> assigned_when;
  friend bool operator==(const HistogramIndexDefinition&, const HistogramIndexDefinition&) = default;
};

struct ReferenceSchema {
  std::string name;
  std::optional<std::string> description;
  std::optional<std::string> deprecation_notice;
  Cardinality cardinality = Cardinality::kZeroOrMore;
  std::string referenced_entity_type;
  bool referenced_entity_type_managed = false;
  std::optional<std::string> group_type;
  bool group_type_managed = false;
  std::vector<Scoped<ReferenceIndexType>> index_types;
  std::vector<Scoped<std::vector<ReferenceIndexedComponent>>> indexed_components;
  std::vector<Scope> faceted_in_scopes;
  // Per scope, the expression limiting which references are faceted; empty
  // optional = no expression for that scope.
  std::vector<Scoped<std::optional<std::string>>> faceted_partially;
  // Histogram indexes over the referenced entities, and per scope the
  // expression limiting which references take part (evitaDB's
  // `bucketedInScopes` and `bucketedPartiallyInScopes`). Modelled and copied;
  // warmup's engine builds none of them (RunResult notes say so).
  std::vector<HistogramIndexDefinition> bucketed;
  std::vector<Scoped<std::optional<std::string>>> bucketed_partially;
  std::map<std::string, AttributeSchema> attributes;
  std::map<std::string, SortableAttributeCompoundSchema> sortable_attribute_compounds;

  // Set for a reflected reference: the name of the reference on
  // `referenced_entity_type` that this one mirrors. The fields below only
  // matter for reflected references.
  std::optional<std::string> reflected_reference_name;
  bool description_inherited = false;
  bool deprecation_notice_inherited = false;
  bool cardinality_inherited = false;
  bool faceted_inherited = false;
  bool indexed_inherited = false;
  AttributeInheritanceBehavior attribute_inheritance_behavior =
      AttributeInheritanceBehavior::kInheritAllExcept;
  std::vector<std::string> attribute_inheritance_filter;

  bool is_reflected() const { return reflected_reference_name.has_value(); }
  // The index type in `scope`, kNone when the reference is not indexed there.
  ReferenceIndexType IndexTypeIn(Scope scope) const;
  friend bool operator==(const ReferenceSchema&, const ReferenceSchema&) = default;
};

struct EntitySchema {
  std::string name;
  int32_t version = 1;
  std::optional<std::string> description;
  std::optional<std::string> deprecation_notice;
  bool with_generated_primary_key = false;
  bool with_hierarchy = false;
  std::vector<Scope> hierarchy_indexed_in_scopes;
  bool with_price = false;
  int32_t indexed_price_places = 2;
  std::vector<Scope> price_indexed_in_scopes;
  std::vector<Locale> locales;
  std::vector<Currency> currencies;
  // The evolution modes that are allowed; evitaDB allows all on a new schema.
  std::vector<EvolutionMode> evolution_modes;
  std::map<std::string, AttributeSchema> attributes;
  std::map<std::string, AssociatedDataSchema> associated_data;
  std::map<std::string, ReferenceSchema> references;
  std::map<std::string, SortableAttributeCompoundSchema> sortable_attribute_compounds;

  // Returns the reference schema called `name`, or nullptr.
  const ReferenceSchema* FindReference(const std::string& name) const;
  friend bool operator==(const EntitySchema&, const EntitySchema&) = default;
};

// A whole catalog's schema: global attributes and every entity type's schema.
struct CatalogSchema {
  std::string name;
  int32_t version = 1;
  std::optional<std::string> description;
  std::vector<CatalogEvolutionMode> evolution_modes;
  std::map<std::string, AttributeSchema> attributes;  // global attributes (kind kGlobal)
  std::map<std::string, EntitySchema> entities;

  // Returns the entity schema called `type`, or nullptr.
  const EntitySchema* FindEntity(const std::string& type) const;
  friend bool operator==(const CatalogSchema&, const CatalogSchema&) = default;
};

// Every EvolutionMode, in number order: what a freshly created entity schema allows.
std::vector<EvolutionMode> AllEvolutionModes();

// Checks the cross-references of a catalog schema: entity attributes of kind
// kGlobal name an existing global attribute with the same settings, reference
// attributes are not global, reflected references name an existing reference
// on their target, compounds name existing attributes, default values have the
// attribute's type, price places and decimal places are not negative.
// Errors: kInvalidArgument naming the entity type, reference and attribute.
Status ValidateCatalogSchema(const CatalogSchema& schema);

}  // namespace warmup

#endif  // WARMUP_SCHEMA_H_
