#include "codec/schema_convert.h"

#include <algorithm>
#include <string>

#include "base/status_macros.h"
#include "codec/value_convert.h"

// Older evitaDB servers send deprecated single-scope fields (sellable, unique,
// filterable, indexed, ...); reading them is the point, so the warning goes.
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

namespace warmup::codec {
namespace {

using google::protobuf::RepeatedField;
using google::protobuf::RepeatedPtrField;

// Reads a protocol enum number into one of the model's enums, whose numbers
// equal evitaDB's; numbers beyond `max` (open proto3 enums) are errors.
template <typename E>
StatusOr<E> EnumFrom(int number, E max, const char* field) {
  if (number < 0 || number > static_cast<int>(max)) {
    return InvalidArgumentError(std::string(field) + ": unknown value " + std::to_string(number));
  }
  return static_cast<E>(number);
}

std::optional<std::string> OptionalString(bool present, const google::protobuf::StringValue& value) {
  return present ? std::optional<std::string>(value.value()) : std::nullopt;
}

StatusOr<std::vector<Scope>> ScopesFrom(const RepeatedField<int>& scopes, const char* field) {
  std::vector<Scope> out;
  for (int s : scopes) {
    WARMUP_ASSIGN_OR_RETURN(Scope scope, EnumFrom(s, Scope::kArchived, field));
    out.push_back(scope);
  }
  return out;
}

void ScopesTo(const std::vector<Scope>& scopes, RepeatedField<int>* out) {
  for (Scope s : scopes) out->Add(static_cast<int>(s));
}

template <typename ScopedMessage, typename E>
StatusOr<std::vector<Scoped<E>>> ScopedFrom(const RepeatedPtrField<ScopedMessage>& items, E max,
                                            const char* field) {
  std::vector<Scoped<E>> out;
  for (const auto& item : items) {
    WARMUP_ASSIGN_OR_RETURN(Scope scope, EnumFrom(item.scope(), Scope::kArchived, field));
    int value = 0;
    if constexpr (requires { item.uniquenesstype(); }) {
      value = item.uniquenesstype();
    } else {
      value = item.indextype();
    }
    WARMUP_ASSIGN_OR_RETURN(E e, EnumFrom(value, max, field));
    out.push_back({scope, e});
  }
  return out;
}

template <typename ScopedMessage, typename E>
void ScopedTo(const std::vector<Scoped<E>>& items, RepeatedPtrField<ScopedMessage>* out) {
  for (const auto& item : items) {
    auto* m = out->Add();
    m->set_scope(static_cast<pb::GrpcEntityScope>(item.scope));
    if constexpr (requires { m->uniquenesstype(); }) {
      m->set_uniquenesstype(static_cast<decltype(m->uniquenesstype())>(item.value));
    } else {
      m->set_indextype(static_cast<pb::GrpcReferenceIndexType>(item.value));
    }
  }
}

// Attribute fields shared by GrpcAttributeSchema and GrpcGlobalAttributeSchema.
template <typename Message>
StatusOr<AttributeSchema> AttributeFrom(const Message& p, AttributeSchemaKind kind) {
  AttributeSchema a;
  a.name = p.name();
  a.kind = kind;
  a.description = OptionalString(p.has_description(), p.description());
  a.deprecation_notice = OptionalString(p.has_deprecationnotice(), p.deprecationnotice());
  a.localized = p.localized();
  a.nullable = p.nullable();
  a.representative = p.representative();
  WARMUP_ASSIGN_OR_RETURN(a.type, ValueTypeFromProto(p.type()));
  if (p.has_defaultvalue()) {
    auto value = ValueFromProto(p.defaultvalue());
    if (!value.ok()) return value.status().WithContext("defaultValue");
    a.default_value = std::move(value).value();
  }
  a.indexed_decimal_places = p.indexeddecimalplaces();
  WARMUP_ASSIGN_OR_RETURN(
      a.unique_in_scopes,
      ScopedFrom(p.uniqueinscopes(), AttributeUniqueness::kUniqueWithinCollectionLocale, "uniqueInScopes"));
  WARMUP_ASSIGN_OR_RETURN(
      a.globally_unique_in_scopes,
      ScopedFrom(p.uniquegloballyinscopes(), GlobalAttributeUniqueness::kUniqueWithinCatalogLocale,
                 "uniqueGloballyInScopes"));
  WARMUP_ASSIGN_OR_RETURN(a.filterable_in_scopes, ScopesFrom(p.filterableinscopes(), "filterableInScopes"));
  WARMUP_ASSIGN_OR_RETURN(a.sortable_in_scopes, ScopesFrom(p.sortableinscopes(), "sortableInScopes"));
  // Servers before per-scope settings sent single flags meaning "in the live scope".
  if (a.unique_in_scopes.empty() && p.unique() != pb::NOT_UNIQUE) {
    WARMUP_ASSIGN_OR_RETURN(
        auto unique, EnumFrom(p.unique(), AttributeUniqueness::kUniqueWithinCollectionLocale, "unique"));
    a.unique_in_scopes.push_back({Scope::kLive, unique});
  }
  if (a.globally_unique_in_scopes.empty() && p.uniqueglobally() != pb::NOT_GLOBALLY_UNIQUE) {
    WARMUP_ASSIGN_OR_RETURN(
        auto unique, EnumFrom(p.uniqueglobally(), GlobalAttributeUniqueness::kUniqueWithinCatalogLocale,
                              "uniqueGlobally"));
    a.globally_unique_in_scopes.push_back({Scope::kLive, unique});
  }
  if (a.filterable_in_scopes.empty() && p.filterable()) a.filterable_in_scopes.push_back(Scope::kLive);
  if (a.sortable_in_scopes.empty() && p.sortable()) a.sortable_in_scopes.push_back(Scope::kLive);
  return a;
}

// Writes the fields shared by the two read messages and the two create mutations.
template <typename Message>
void AttributeTo(const AttributeSchema& a, Message* p) {
  p->set_name(a.name);
  if (a.description) p->mutable_description()->set_value(*a.description);
  if (a.deprecation_notice) p->mutable_deprecationnotice()->set_value(*a.deprecation_notice);
  p->set_localized(a.localized);
  p->set_nullable(a.nullable);
  p->set_representative(a.representative);
  p->set_type(ValueTypeToProto(a.type));
  if (a.default_value) ValueToProto(*a.default_value, p->mutable_defaultvalue());
  p->set_indexeddecimalplaces(a.indexed_decimal_places);
  ScopedTo(a.unique_in_scopes, p->mutable_uniqueinscopes());
  if constexpr (requires { p->mutable_uniquegloballyinscopes(); }) {
    ScopedTo(a.globally_unique_in_scopes, p->mutable_uniquegloballyinscopes());
  }
  ScopesTo(a.filterable_in_scopes, p->mutable_filterableinscopes());
  ScopesTo(a.sortable_in_scopes, p->mutable_sortableinscopes());
}

StatusOr<AttributeSchema> EntityAttributeFrom(const pb::GrpcAttributeSchema& p) {
  WARMUP_ASSIGN_OR_RETURN(auto kind, EnumFrom(p.schematype(), AttributeSchemaKind::kReference, "schemaType"));
  WARMUP_ASSIGN_OR_RETURN(AttributeSchema a, AttributeFrom(p, kind));
  a.inherited = p.inherited();
  return a;
}

void EntityAttributeTo(const AttributeSchema& a, pb::GrpcAttributeSchema* p) {
  AttributeTo(a, p);
  p->set_schematype(static_cast<pb::GrpcAttributeSchemaType>(a.kind));
  p->set_inherited(a.inherited);
}

template <typename Map>
Status AttributesFrom(const Map& attributes, std::map<std::string, AttributeSchema>* out) {
  for (const auto& [name, proto] : attributes) {
    auto a = EntityAttributeFrom(proto);
    if (!a.ok()) return a.status().WithContext("attribute '" + name + "'");
    out->emplace(name, std::move(a).value());
  }
  return OkStatus();
}

StatusOr<SortableAttributeCompoundSchema> CompoundFrom(const pb::GrpcSortableAttributeCompoundSchema& p) {
  SortableAttributeCompoundSchema c;
  c.name = p.name();
  c.description = OptionalString(p.has_description(), p.description());
  c.deprecation_notice = OptionalString(p.has_deprecationnotice(), p.deprecationnotice());
  for (const auto& e : p.attributeelements()) {
    AttributeElement element;
    element.attribute_name = e.attributename();
    WARMUP_ASSIGN_OR_RETURN(element.direction, EnumFrom(e.direction(), OrderDirection::kDesc, "direction"));
    WARMUP_ASSIGN_OR_RETURN(element.behaviour,
                            EnumFrom(e.behaviour(), OrderBehaviour::kNullsLast, "behaviour"));
    c.elements.push_back(std::move(element));
  }
  WARMUP_ASSIGN_OR_RETURN(c.indexed_in_scopes, ScopesFrom(p.indexedinscopes(), "indexedInScopes"));
  c.inherited = p.inherited();
  return c;
}

// Compound fields shared by the read message and the create mutation.
template <typename Message>
void CompoundTo(const SortableAttributeCompoundSchema& c, Message* p) {
  p->set_name(c.name);
  if (c.description) p->mutable_description()->set_value(*c.description);
  if (c.deprecation_notice) p->mutable_deprecationnotice()->set_value(*c.deprecation_notice);
  for (const auto& e : c.elements) {
    auto* element = p->add_attributeelements();
    element->set_attributename(e.attribute_name);
    element->set_direction(static_cast<pb::GrpcOrderDirection>(e.direction));
    element->set_behaviour(static_cast<pb::GrpcOrderBehaviour>(e.behaviour));
  }
  ScopesTo(c.indexed_in_scopes, p->mutable_indexedinscopes());
}

template <typename Map>
Status CompoundsFrom(const Map& compounds, std::map<std::string, SortableAttributeCompoundSchema>* out) {
  for (const auto& [name, proto] : compounds) {
    auto c = CompoundFrom(proto);
    if (!c.ok()) return c.status().WithContext("sortable compound '" + name + "'");
    out->emplace(name, std::move(c).value());
  }
  return OkStatus();
}

// Per scope, an optional expression (facetedPartially, bucketedPartially).
template <typename ScopedMessage>
StatusOr<std::vector<Scoped<std::optional<std::string>>>> ScopedExpressionsFrom(
    const RepeatedPtrField<ScopedMessage>& items, const char* field) {
  std::vector<Scoped<std::optional<std::string>>> out;
  for (const auto& item : items) {
    Scoped<std::optional<std::string>> scoped;
    WARMUP_ASSIGN_OR_RETURN(scoped.scope, EnumFrom(item.scope(), Scope::kArchived, field));
    scoped.value = OptionalString(item.has_expression(), item.expression());
    out.push_back(std::move(scoped));
  }
  return out;
}

template <typename ScopedMessage>
void ScopedExpressionsTo(const std::vector<Scoped<std::optional<std::string>>>& in,
                         RepeatedPtrField<ScopedMessage>* out) {
  for (const auto& scoped : in) {
    auto* item = out->Add();
    item->set_scope(static_cast<pb::GrpcEntityScope>(scoped.scope));
    if (scoped.value) item->mutable_expression()->set_value(*scoped.value);
  }
}

// The histogram fields: `bucketed` and `bucketedPartially` in the read
// message, `bucketedInScopes` and `bucketedPartiallyInScopes` in both create
// mutations (the templates; the read message takes the plain overloads).
const auto& Bucketed(const pb::GrpcReferenceSchema& p) { return p.bucketed(); }
auto* MutableBucketed(pb::GrpcReferenceSchema* p) { return p->mutable_bucketed(); }
const auto& BucketedPartially(const pb::GrpcReferenceSchema& p) { return p.bucketedpartially(); }
auto* MutableBucketedPartially(pb::GrpcReferenceSchema* p) { return p->mutable_bucketedpartially(); }
template <typename Create>
const auto& Bucketed(const Create& p) {
  return p.bucketedinscopes();
}
template <typename Create>
auto* MutableBucketed(Create* p) {
  return p->mutable_bucketedinscopes();
}
template <typename Create>
const auto& BucketedPartially(const Create& p) {
  return p.bucketedpartiallyinscopes();
}
template <typename Create>
auto* MutableBucketedPartially(Create* p) {
  return p->mutable_bucketedpartiallyinscopes();
}

// Index settings shared by the reference read message and both create mutations.
template <typename Message>
Status ReferenceIndexingFrom(const Message& p, ReferenceSchema* r) {
  WARMUP_ASSIGN_OR_RETURN(
      r->index_types,
      ScopedFrom(p.scopedindextypes(), ReferenceIndexType::kForFilteringAndPartitioning, "scopedIndexTypes"));
  for (const auto& item : p.scopedindexedcomponents()) {
    Scoped<std::vector<ReferenceIndexedComponent>> scoped;
    WARMUP_ASSIGN_OR_RETURN(scoped.scope,
                            EnumFrom(item.scope(), Scope::kArchived, "scopedIndexedComponents"));
    for (int component : item.indexedcomponents()) {
      WARMUP_ASSIGN_OR_RETURN(auto c, EnumFrom(component, ReferenceIndexedComponent::kReferencedGroupEntity,
                                               "scopedIndexedComponents"));
      scoped.value.push_back(c);
    }
    r->indexed_components.push_back(std::move(scoped));
  }
  WARMUP_ASSIGN_OR_RETURN(r->faceted_in_scopes, ScopesFrom(p.facetedinscopes(), "facetedInScopes"));
  WARMUP_ASSIGN_OR_RETURN(r->faceted_partially,
                          ScopedExpressionsFrom(p.facetedpartially(), "facetedPartially"));
  for (const auto& item : Bucketed(p)) {
    HistogramIndexDefinition histogram;
    WARMUP_ASSIGN_OR_RETURN(histogram.scope, EnumFrom(item.scope(), Scope::kArchived, "bucketed"));
    histogram.name = item.nameoftheindex();
    histogram.value_expression = OptionalString(item.has_valueexpression(), item.valueexpression());
    histogram.assigned_when = OptionalString(item.has_assignedwhen(), item.assignedwhen());
    r->bucketed.push_back(std::move(histogram));
  }
  WARMUP_ASSIGN_OR_RETURN(r->bucketed_partially,
                          ScopedExpressionsFrom(BucketedPartially(p), "bucketedPartially"));
  return OkStatus();
}

template <typename Message>
void ReferenceIndexingTo(const ReferenceSchema& r, Message* p) {
  ScopedTo(r.index_types, p->mutable_scopedindextypes());
  for (const auto& scoped : r.indexed_components) {
    auto* item = p->add_scopedindexedcomponents();
    item->set_scope(static_cast<pb::GrpcEntityScope>(scoped.scope));
    for (auto c : scoped.value) {
      item->add_indexedcomponents(static_cast<pb::GrpcReferenceIndexedComponents>(c));
    }
  }
  ScopesTo(r.faceted_in_scopes, p->mutable_facetedinscopes());
  ScopedExpressionsTo(r.faceted_partially, p->mutable_facetedpartially());
  for (const auto& histogram : r.bucketed) {
    auto* item = MutableBucketed(p)->Add();
    item->set_scope(static_cast<pb::GrpcEntityScope>(histogram.scope));
    item->set_nameoftheindex(histogram.name);
    if (histogram.value_expression) item->mutable_valueexpression()->set_value(*histogram.value_expression);
    if (histogram.assigned_when) item->mutable_assignedwhen()->set_value(*histogram.assigned_when);
  }
  ScopedExpressionsTo(r.bucketed_partially, MutableBucketedPartially(p));
}

StatusOr<ReferenceSchema> ReferenceFrom(const pb::GrpcReferenceSchema& p) {
  ReferenceSchema r;
  r.name = p.name();
  r.description = OptionalString(p.has_description(), p.description());
  r.deprecation_notice = OptionalString(p.has_deprecationnotice(), p.deprecationnotice());
  WARMUP_ASSIGN_OR_RETURN(r.cardinality,
                          EnumFrom(p.cardinality(), Cardinality::kOneOrMoreWithDuplicates, "cardinality"));
  r.referenced_entity_type = p.entitytype();
  r.referenced_entity_type_managed = p.referencedentitytypemanaged();
  r.group_type = OptionalString(p.has_grouptype(), p.grouptype());
  r.group_type_managed = p.referencedgrouptypemanaged();
  WARMUP_RETURN_IF_ERROR(ReferenceIndexingFrom(p, &r));
  if (r.index_types.empty()) {
    // Older servers: indexedInScopes, or before that a single `indexed` flag.
    for (int s : p.indexedinscopes()) {
      WARMUP_ASSIGN_OR_RETURN(Scope scope, EnumFrom(s, Scope::kArchived, "indexedInScopes"));
      r.index_types.push_back({scope, ReferenceIndexType::kForFiltering});
    }
    if (r.index_types.empty() && p.indexed()) {
      r.index_types.push_back({Scope::kLive, ReferenceIndexType::kForFiltering});
    }
  }
  if (r.faceted_in_scopes.empty() && p.faceted()) r.faceted_in_scopes.push_back(Scope::kLive);
  WARMUP_RETURN_IF_ERROR(AttributesFrom(p.attributes(), &r.attributes));
  WARMUP_RETURN_IF_ERROR(CompoundsFrom(p.sortableattributecompounds(), &r.sortable_attribute_compounds));
  r.reflected_reference_name = OptionalString(p.has_reflectedreferencename(), p.reflectedreferencename());
  r.description_inherited = p.descriptioninherited();
  r.deprecation_notice_inherited = p.deprecationnoticeinherited();
  r.cardinality_inherited = p.cardinalityinherited();
  r.faceted_inherited = p.facetedinherited();
  r.indexed_inherited = p.indexedinherited();
  WARMUP_ASSIGN_OR_RETURN(
      r.attribute_inheritance_behavior,
      EnumFrom(p.attributeinheritancebehavior(), AttributeInheritanceBehavior::kInheritOnlySpecified,
               "attributeInheritanceBehavior"));
  r.attribute_inheritance_filter.assign(p.attributeinheritancefilter().begin(),
                                        p.attributeinheritancefilter().end());
  return r;
}

void ReferenceTo(const ReferenceSchema& r, pb::GrpcReferenceSchema* p) {
  p->set_name(r.name);
  if (r.description) p->mutable_description()->set_value(*r.description);
  if (r.deprecation_notice) p->mutable_deprecationnotice()->set_value(*r.deprecation_notice);
  p->set_cardinality(static_cast<pb::GrpcCardinality>(r.cardinality));
  p->set_entitytype(r.referenced_entity_type);
  p->set_referencedentitytypemanaged(r.referenced_entity_type_managed);
  if (r.group_type) p->mutable_grouptype()->set_value(*r.group_type);
  p->set_referencedgrouptypemanaged(r.group_type_managed);
  ReferenceIndexingTo(r, p);
  for (const auto& [name, a] : r.attributes) EntityAttributeTo(a, &(*p->mutable_attributes())[name]);
  for (const auto& [name, c] : r.sortable_attribute_compounds) {
    auto& proto = (*p->mutable_sortableattributecompounds())[name];
    CompoundTo(c, &proto);
    proto.set_inherited(c.inherited);
  }
  if (r.reflected_reference_name) p->mutable_reflectedreferencename()->set_value(*r.reflected_reference_name);
  p->set_descriptioninherited(r.description_inherited);
  p->set_deprecationnoticeinherited(r.deprecation_notice_inherited);
  p->set_cardinalityinherited(r.cardinality_inherited);
  p->set_facetedinherited(r.faceted_inherited);
  p->set_indexedinherited(r.indexed_inherited);
  p->set_attributeinheritancebehavior(
      static_cast<pb::GrpcAttributeInheritanceBehavior>(r.attribute_inheritance_behavior));
  for (const auto& name : r.attribute_inheritance_filter) p->add_attributeinheritancefilter(name);
}

StatusOr<AssociatedDataSchema> AssociatedDataFrom(const pb::GrpcAssociatedDataSchema& p) {
  AssociatedDataSchema d;
  d.name = p.name();
  d.description = OptionalString(p.has_description(), p.description());
  d.deprecation_notice = OptionalString(p.has_deprecationnotice(), p.deprecationnotice());
  WARMUP_ASSIGN_OR_RETURN(d.type, AssociatedDataTypeFromProto(p.type()));
  d.localized = p.localized();
  d.nullable = p.nullable();
  return d;
}

template <typename Message>
void AssociatedDataTo(const AssociatedDataSchema& d, Message* p) {
  p->set_name(d.name);
  if (d.description) p->mutable_description()->set_value(*d.description);
  if (d.deprecation_notice) p->mutable_deprecationnotice()->set_value(*d.deprecation_notice);
  p->set_type(AssociatedDataTypeToProto(d.type));
  p->set_localized(d.localized);
  p->set_nullable(d.nullable);
}

// ---- applying mutations -------------------------------------------------

// What a reflected reference takes over from the reference it mirrors.
void InheritFromOriginal(const ReferenceSchema& original, ReferenceSchema* r) {
  if (r->description_inherited) r->description = original.description;
  if (r->deprecation_notice_inherited) r->deprecation_notice = original.deprecation_notice;
  if (r->cardinality_inherited) r->cardinality = original.cardinality;
  if (r->faceted_inherited) r->faceted_in_scopes = original.faceted_in_scopes;
  if (r->indexed_inherited) {
    r->index_types = original.index_types;
    r->indexed_components = original.indexed_components;
  }
  const auto& filter = r->attribute_inheritance_filter;
  for (const auto& [name, attribute] : original.attributes) {
    const bool listed = std::find(filter.begin(), filter.end(), name) != filter.end();
    const bool inherit = r->attribute_inheritance_behavior == AttributeInheritanceBehavior::kInheritAllExcept
                             ? !listed
                             : listed;
    if (!inherit) continue;
    AttributeSchema copy = attribute;
    copy.inherited = true;
    r->attributes.emplace(name, std::move(copy));
  }
  for (const auto& [name, compound] : original.sortable_attribute_compounds) {
    const bool complete = std::all_of(compound.elements.begin(), compound.elements.end(), [&](const auto& e) {
      return r->attributes.contains(e.attribute_name);
    });
    if (!complete) continue;
    SortableAttributeCompoundSchema copy = compound;
    copy.inherited = true;
    r->sortable_attribute_compounds.emplace(name, std::move(copy));
  }
}

// A create-compound mutation carries the read message's fields under the same
// names, so it is read through that message.
StatusOr<SortableAttributeCompoundSchema> CompoundFromCreate(
    const pb::GrpcCreateSortableAttributeCompoundSchemaMutation& c) {
  pb::GrpcSortableAttributeCompoundSchema view;
  view.set_name(c.name());
  if (c.has_description()) *view.mutable_description() = c.description();
  if (c.has_deprecationnotice()) *view.mutable_deprecationnotice() = c.deprecationnotice();
  *view.mutable_attributeelements() = c.attributeelements();
  *view.mutable_indexedinscopes() = c.indexedinscopes();
  return CompoundFrom(view);
}

template <typename Message>
StatusOr<AttributeSchema> AttributeFromCreate(const Message& m, AttributeSchemaKind kind) {
  AttributeSchema a;
  a.name = m.name();
  a.kind = kind;
  a.description = OptionalString(m.has_description(), m.description());
  a.deprecation_notice = OptionalString(m.has_deprecationnotice(), m.deprecationnotice());
  a.localized = m.localized();
  a.nullable = m.nullable();
  a.representative = m.representative();
  WARMUP_ASSIGN_OR_RETURN(a.type, ValueTypeFromProto(m.type()));
  if (m.has_defaultvalue()) {
    WARMUP_ASSIGN_OR_RETURN(a.default_value, ValueFromProto(m.defaultvalue()));
  }
  a.indexed_decimal_places = m.indexeddecimalplaces();
  WARMUP_ASSIGN_OR_RETURN(
      a.unique_in_scopes,
      ScopedFrom(m.uniqueinscopes(), AttributeUniqueness::kUniqueWithinCollectionLocale, "uniqueInScopes"));
  if constexpr (requires { m.uniquegloballyinscopes(); }) {
    WARMUP_ASSIGN_OR_RETURN(
        a.globally_unique_in_scopes,
        ScopedFrom(m.uniquegloballyinscopes(), GlobalAttributeUniqueness::kUniqueWithinCatalogLocale,
                   "uniqueGloballyInScopes"));
  }
  WARMUP_ASSIGN_OR_RETURN(a.filterable_in_scopes, ScopesFrom(m.filterableinscopes(), "filterableInScopes"));
  WARMUP_ASSIGN_OR_RETURN(a.sortable_in_scopes, ScopesFrom(m.sortableinscopes(), "sortableInScopes"));
  if (a.name.empty()) return InvalidArgumentError("attribute with an empty name");
  return a;
}

// Adds `value` under its own name; every schema element has a `name`.
template <typename T>
Status InsertNew(std::map<std::string, T>* map, T value, const char* what) {
  std::string name = value.name;
  if (!map->emplace(name, std::move(value)).second) {
    return InvalidArgumentError(std::string(what) + " '" + name + "' already exists");
  }
  return OkStatus();
}

Status ApplyEntityMutation(const pb::GrpcEntitySchemaMutation& m, const CatalogSchema& catalog,
                           EntitySchema* e) {
  using M = pb::GrpcEntitySchemaMutation;
  switch (m.mutation_case()) {
    case M::kCreateAssociatedDataSchemaMutation: {
      const auto& c = m.createassociateddataschemamutation();
      AssociatedDataSchema d;
      d.name = c.name();
      d.description = OptionalString(c.has_description(), c.description());
      d.deprecation_notice = OptionalString(c.has_deprecationnotice(), c.deprecationnotice());
      WARMUP_ASSIGN_OR_RETURN(d.type, AssociatedDataTypeFromProto(c.type()));
      d.localized = c.localized();
      d.nullable = c.nullable();
      return InsertNew(&e->associated_data, std::move(d), "associated data");
    }
    case M::kCreateAttributeSchemaMutation: {
      WARMUP_ASSIGN_OR_RETURN(AttributeSchema a, AttributeFromCreate(m.createattributeschemamutation(),
                                                                     AttributeSchemaKind::kEntity));
      return InsertNew(&e->attributes, std::move(a), "attribute");
    }
    case M::kUseGlobalAttributeSchemaMutation: {
      const std::string& name = m.useglobalattributeschemamutation().name();
      auto global = catalog.attributes.find(name);
      if (global == catalog.attributes.end()) {
        return InvalidArgumentError("global attribute '" + name + "' does not exist in the catalog");
      }
      return InsertNew(&e->attributes, global->second, "attribute");
    }
    case M::kAllowCurrencyInEntitySchemaMutation:
      for (const auto& c : m.allowcurrencyinentityschemamutation().currencies()) {
        WARMUP_ASSIGN_OR_RETURN(Currency currency, CurrencyFromProto(c));
        if (std::find(e->currencies.begin(), e->currencies.end(), currency) == e->currencies.end()) {
          e->currencies.push_back(currency);
        }
      }
      return OkStatus();
    case M::kAllowLocaleInEntitySchemaMutation:
      for (const auto& l : m.allowlocaleinentityschemamutation().locales()) {
        WARMUP_ASSIGN_OR_RETURN(Locale locale, LocaleFromProto(l));
        if (std::find(e->locales.begin(), e->locales.end(), locale) == e->locales.end()) {
          e->locales.push_back(locale);
        }
      }
      return OkStatus();
    case M::kDisallowEvolutionModeInEntitySchemaMutation:
      for (int mode : m.disallowevolutionmodeinentityschemamutation().evolutionmodes()) {
        std::erase(e->evolution_modes, static_cast<EvolutionMode>(mode));
      }
      return OkStatus();
    case M::kAllowEvolutionModeInEntitySchemaMutation:
      for (int mode : m.allowevolutionmodeinentityschemamutation().evolutionmodes()) {
        WARMUP_ASSIGN_OR_RETURN(
            auto em, EnumFrom(mode, EvolutionMode::kUpdatingReferenceCardinality, "evolutionModes"));
        if (std::find(e->evolution_modes.begin(), e->evolution_modes.end(), em) == e->evolution_modes.end()) {
          e->evolution_modes.push_back(em);
          std::sort(e->evolution_modes.begin(), e->evolution_modes.end());
        }
      }
      return OkStatus();
    case M::kModifyEntitySchemaDeprecationNoticeMutation: {
      const auto& d = m.modifyentityschemadeprecationnoticemutation();
      e->deprecation_notice = OptionalString(d.has_deprecationnotice(), d.deprecationnotice());
      return OkStatus();
    }
    case M::kModifyEntitySchemaDescriptionMutation: {
      const auto& d = m.modifyentityschemadescriptionmutation();
      e->description = OptionalString(d.has_description(), d.description());
      return OkStatus();
    }
    case M::kSetEntitySchemaWithGeneratedPrimaryKeyMutation:
      e->with_generated_primary_key =
          m.setentityschemawithgeneratedprimarykeymutation().withgeneratedprimarykey();
      return OkStatus();
    case M::kSetEntitySchemaWithHierarchyMutation: {
      const auto& h = m.setentityschemawithhierarchymutation();
      e->with_hierarchy = h.withhierarchy();
      WARMUP_ASSIGN_OR_RETURN(e->hierarchy_indexed_in_scopes,
                              ScopesFrom(h.indexedinscopes(), "indexedInScopes"));
      return OkStatus();
    }
    case M::kSetEntitySchemaWithPriceMutation: {
      const auto& p = m.setentityschemawithpricemutation();
      e->with_price = p.withprice();
      e->indexed_price_places = p.indexedpriceplaces();
      WARMUP_ASSIGN_OR_RETURN(e->price_indexed_in_scopes, ScopesFrom(p.indexedinscopes(), "indexedInScopes"));
      return OkStatus();
    }
    case M::kCreateReferenceSchemaMutation: {
      const auto& c = m.createreferenceschemamutation();
      ReferenceSchema r;
      r.name = c.name();
      r.description = OptionalString(c.has_description(), c.description());
      r.deprecation_notice = OptionalString(c.has_deprecationnotice(), c.deprecationnotice());
      WARMUP_ASSIGN_OR_RETURN(
          r.cardinality, EnumFrom(c.cardinality(), Cardinality::kOneOrMoreWithDuplicates, "cardinality"));
      r.referenced_entity_type = c.referencedentitytype();
      r.referenced_entity_type_managed = c.referencedentitytypemanaged();
      r.group_type = OptionalString(c.has_referencedgrouptype(), c.referencedgrouptype());
      r.group_type_managed = c.referencedgrouptypemanaged();
      WARMUP_RETURN_IF_ERROR(ReferenceIndexingFrom(c, &r));
      if (r.name.empty()) return InvalidArgumentError("reference with an empty name");
      return InsertNew(&e->references, std::move(r), "reference");
    }
    case M::kCreateReflectedReferenceSchemaMutation: {
      const auto& c = m.createreflectedreferenceschemamutation();
      const EntitySchema* target = catalog.FindEntity(c.referencedentitytype());
      const ReferenceSchema* original = target ? target->FindReference(c.reflectedreferencename()) : nullptr;
      if (original == nullptr) {
        return InvalidArgumentError("reflected reference '" + c.name() + "': " + c.referencedentitytype() +
                                    " has no reference '" + c.reflectedreferencename() + "'");
      }
      ReferenceSchema r;
      r.name = c.name();
      r.description = OptionalString(c.has_description(), c.description());
      r.deprecation_notice = OptionalString(c.has_deprecationnotice(), c.deprecationnotice());
      r.description_inherited = !c.has_description();
      r.deprecation_notice_inherited = !c.has_deprecationnotice();
      r.cardinality_inherited = c.cardinality() == pb::NOT_SPECIFIED;
      if (!r.cardinality_inherited) {
        WARMUP_ASSIGN_OR_RETURN(
            r.cardinality, EnumFrom(c.cardinality(), Cardinality::kOneOrMoreWithDuplicates, "cardinality"));
      }
      r.referenced_entity_type = c.referencedentitytype();
      r.referenced_entity_type_managed = true;
      r.reflected_reference_name = c.reflectedreferencename();
      WARMUP_ASSIGN_OR_RETURN(
          r.attribute_inheritance_behavior,
          EnumFrom(c.attributeinheritancebehavior(), AttributeInheritanceBehavior::kInheritOnlySpecified,
                   "attributeInheritanceBehavior"));
      r.attribute_inheritance_filter.assign(c.attributeinheritancefilter().begin(),
                                            c.attributeinheritancefilter().end());
      r.indexed_inherited = c.indexedinherited();
      r.faceted_inherited = c.facetedinherited();
      WARMUP_RETURN_IF_ERROR(ReferenceIndexingFrom(c, &r));
      InheritFromOriginal(*original, &r);
      return InsertNew(&e->references, std::move(r), "reference");
    }
    case M::kModifyReferenceAttributeSchemaMutation: {
      const auto& mod = m.modifyreferenceattributeschemamutation();
      auto reference = e->references.find(mod.name());
      if (reference == e->references.end()) {
        return InvalidArgumentError("reference '" + mod.name() + "' does not exist");
      }
      if (!mod.attributeschemamutation().has_createattributeschemamutation()) {
        return UnimplementedError("reference '" + mod.name() + "': only attribute creation is supported");
      }
      WARMUP_ASSIGN_OR_RETURN(
          AttributeSchema a,
          AttributeFromCreate(mod.attributeschemamutation().createattributeschemamutation(),
                              AttributeSchemaKind::kReference));
      return InsertNew(&reference->second.attributes, std::move(a), "reference attribute");
    }
    case M::kModifyReferenceSortableAttributeCompoundSchemaMutation: {
      const auto& mod = m.modifyreferencesortableattributecompoundschemamutation();
      auto reference = e->references.find(mod.name());
      if (reference == e->references.end()) {
        return InvalidArgumentError("reference '" + mod.name() + "' does not exist");
      }
      if (!mod.sortableattributecompoundschemamutation()
               .has_createsortableattributecompoundschemamutation()) {
        return UnimplementedError("reference '" + mod.name() + "': only compound creation is supported");
      }
      WARMUP_ASSIGN_OR_RETURN(
          auto compound,
          CompoundFromCreate(
              mod.sortableattributecompoundschemamutation().createsortableattributecompoundschemamutation()));
      return InsertNew(&reference->second.sortable_attribute_compounds, std::move(compound),
                       "reference compound");
    }
    case M::kCreateSortableAttributeCompoundSchemaMutation: {
      WARMUP_ASSIGN_OR_RETURN(auto compound,
                              CompoundFromCreate(m.createsortableattributecompoundschemamutation()));
      return InsertNew(&e->sortable_attribute_compounds, std::move(compound), "compound");
    }
    case M::MUTATION_NOT_SET:
      return InvalidArgumentError("no mutation set");
    default:
      return UnimplementedError("entity schema mutation kind " + std::to_string(m.mutation_case()) +
                                " is not supported");
  }
}

}  // namespace

StatusOr<EntitySchema> EntitySchemaFromProto(const pb::GrpcEntitySchema& p) {
  EntitySchema e;
  e.name = p.name();
  auto fail = [&](const Status& s) { return s.WithContext("entity type " + e.name); };
  e.version = p.version();
  e.description = OptionalString(p.has_description(), p.description());
  e.deprecation_notice = OptionalString(p.has_deprecationnotice(), p.deprecationnotice());
  e.with_generated_primary_key = p.withgeneratedprimarykey();
  e.with_hierarchy = p.withhierarchy();
  e.with_price = p.withprice();
  e.indexed_price_places = p.indexedpriceplaces();
  auto hierarchy = ScopesFrom(p.hierarchyindexedinscopes(), "hierarchyIndexedInScopes");
  if (!hierarchy.ok()) return fail(hierarchy.status());
  e.hierarchy_indexed_in_scopes = *hierarchy;
  auto price = ScopesFrom(p.priceindexedinscopes(), "priceIndexedInScopes");
  if (!price.ok()) return fail(price.status());
  e.price_indexed_in_scopes = *price;
  for (const auto& l : p.locales()) {
    auto locale = LocaleFromProto(l);
    if (!locale.ok()) return fail(locale.status().WithContext("locales"));
    e.locales.push_back(*locale);
  }
  for (const auto& c : p.currencies()) {
    auto currency = CurrencyFromProto(c);
    if (!currency.ok()) return fail(currency.status().WithContext("currencies"));
    e.currencies.push_back(*currency);
  }
  for (int mode : p.evolutionmode()) {
    auto em = EnumFrom(mode, EvolutionMode::kUpdatingReferenceCardinality, "evolutionMode");
    if (!em.ok()) return fail(em.status());
    e.evolution_modes.push_back(*em);
  }
  if (Status s = AttributesFrom(p.attributes(), &e.attributes); !s.ok()) return fail(s);
  for (const auto& [name, proto] : p.associateddata()) {
    auto d = AssociatedDataFrom(proto);
    if (!d.ok()) return fail(d.status().WithContext("associated data '" + name + "'"));
    e.associated_data.emplace(name, std::move(d).value());
  }
  for (const auto& [name, proto] : p.references()) {
    auto r = ReferenceFrom(proto);
    if (!r.ok()) return fail(r.status().WithContext("reference '" + name + "'"));
    e.references.emplace(name, std::move(r).value());
  }
  if (Status s = CompoundsFrom(p.sortableattributecompounds(), &e.sortable_attribute_compounds); !s.ok()) {
    return fail(s);
  }
  return e;
}

StatusOr<CatalogSchema> CatalogSchemaFromProto(const pb::GrpcCatalogSchema& catalog,
                                               const std::vector<pb::GrpcEntitySchema>& entities) {
  CatalogSchema schema;
  schema.name = catalog.name();
  schema.version = catalog.version();
  schema.description = OptionalString(catalog.has_description(), catalog.description());
  for (int mode : catalog.catalogevolutionmode()) {
    auto em = EnumFrom(mode, CatalogEvolutionMode::kAddingEntityTypes, "catalogEvolutionMode");
    if (!em.ok()) return em.status().WithContext("catalog " + schema.name);
    schema.evolution_modes.push_back(*em);
  }
  for (const auto& [name, proto] : catalog.attributes()) {
    auto a = AttributeFrom(proto, AttributeSchemaKind::kGlobal);
    if (!a.ok()) {
      return a.status().WithContext("catalog " + schema.name + ": global attribute '" + name + "'");
    }
    schema.attributes.emplace(name, std::move(a).value());
  }
  for (const auto& proto : entities) {
    WARMUP_ASSIGN_OR_RETURN(EntitySchema e, EntitySchemaFromProto(proto));
    const std::string name = e.name;
    if (!schema.entities.emplace(name, std::move(e)).second) {
      return InvalidArgumentError("catalog " + schema.name + ": entity type " + name + " listed twice");
    }
  }
  return schema;
}

void EntitySchemaToProto(const EntitySchema& e, pb::GrpcEntitySchema* p) {
  p->Clear();
  p->set_name(e.name);
  p->set_version(e.version);
  if (e.description) p->mutable_description()->set_value(*e.description);
  if (e.deprecation_notice) p->mutable_deprecationnotice()->set_value(*e.deprecation_notice);
  p->set_withgeneratedprimarykey(e.with_generated_primary_key);
  p->set_withhierarchy(e.with_hierarchy);
  p->set_withprice(e.with_price);
  p->set_indexedpriceplaces(e.indexed_price_places);
  ScopesTo(e.hierarchy_indexed_in_scopes, p->mutable_hierarchyindexedinscopes());
  ScopesTo(e.price_indexed_in_scopes, p->mutable_priceindexedinscopes());
  for (const auto& l : e.locales) p->add_locales()->set_languagetag(l.tag());
  for (const auto& c : e.currencies) p->add_currencies()->set_code(c.code());
  for (auto mode : e.evolution_modes) p->add_evolutionmode(static_cast<pb::GrpcEvolutionMode>(mode));
  for (const auto& [name, a] : e.attributes) EntityAttributeTo(a, &(*p->mutable_attributes())[name]);
  for (const auto& [name, d] : e.associated_data) AssociatedDataTo(d, &(*p->mutable_associateddata())[name]);
  for (const auto& [name, r] : e.references) ReferenceTo(r, &(*p->mutable_references())[name]);
  for (const auto& [name, c] : e.sortable_attribute_compounds) {
    auto& proto = (*p->mutable_sortableattributecompounds())[name];
    CompoundTo(c, &proto);
    proto.set_inherited(c.inherited);
  }
}

void CatalogSchemaToProto(const CatalogSchema& schema, pb::GrpcCatalogSchema* out) {
  out->Clear();
  out->set_name(schema.name);
  out->set_version(schema.version);
  if (schema.description) out->mutable_description()->set_value(*schema.description);
  for (auto mode : schema.evolution_modes) {
    out->add_catalogevolutionmode(static_cast<pb::GrpcCatalogEvolutionMode>(mode));
  }
  for (const auto& [name, a] : schema.attributes) AttributeTo(a, &(*out->mutable_attributes())[name]);
}

std::vector<pb::GrpcLocalCatalogSchemaMutation> CatalogSchemaToMutations(const CatalogSchema& schema) {
  std::vector<pb::GrpcLocalCatalogSchemaMutation> out;
  if (schema.description) {
    out.emplace_back().mutable_modifycatalogschemadescriptionmutation()->mutable_description()->set_value(
        *schema.description);
  }
  for (const auto& [name, a] : schema.attributes) {
    AttributeTo(a, out.emplace_back().mutable_createglobalattributeschemamutation());
  }
  for (const auto& [type, e] : schema.entities) {
    out.emplace_back().mutable_createentityschemamutation()->set_entitytype(type);
  }
  auto create_attribute = [](const AttributeSchema& a, pb::GrpcCreateAttributeSchemaMutation* m) {
    AttributeTo(a, m);
  };
  for (const auto& [type, e] : schema.entities) {
    auto* modify = out.emplace_back().mutable_modifyentityschemamutation();
    modify->set_entitytype(type);
    auto add = [&] { return modify->add_entityschemamutations(); };
    if (e.description) {
      add()->mutable_modifyentityschemadescriptionmutation()->mutable_description()->set_value(
          *e.description);
    }
    if (e.deprecation_notice) {
      add()->mutable_modifyentityschemadeprecationnoticemutation()->mutable_deprecationnotice()->set_value(
          *e.deprecation_notice);
    }
    add()->mutable_setentityschemawithgeneratedprimarykeymutation()->set_withgeneratedprimarykey(
        e.with_generated_primary_key);
    auto* hierarchy = add()->mutable_setentityschemawithhierarchymutation();
    hierarchy->set_withhierarchy(e.with_hierarchy);
    ScopesTo(e.hierarchy_indexed_in_scopes, hierarchy->mutable_indexedinscopes());
    auto* price = add()->mutable_setentityschemawithpricemutation();
    price->set_withprice(e.with_price);
    price->set_indexedpriceplaces(e.indexed_price_places);
    ScopesTo(e.price_indexed_in_scopes, price->mutable_indexedinscopes());
    if (!e.locales.empty()) {
      auto* locales = add()->mutable_allowlocaleinentityschemamutation();
      for (const auto& l : e.locales) locales->add_locales()->set_languagetag(l.tag());
    }
    if (!e.currencies.empty()) {
      auto* currencies = add()->mutable_allowcurrencyinentityschemamutation();
      for (const auto& c : e.currencies) currencies->add_currencies()->set_code(c.code());
    }
    for (const auto& [name, a] : e.attributes) {
      if (a.kind == AttributeSchemaKind::kGlobal) {
        add()->mutable_useglobalattributeschemamutation()->set_name(name);
      } else {
        create_attribute(a, add()->mutable_createattributeschemamutation());
      }
    }
    for (const auto& [name, d] : e.associated_data) {
      AssociatedDataTo(d, add()->mutable_createassociateddataschemamutation());
    }
    for (const auto& [name, r] : e.references) {
      if (r.is_reflected()) continue;
      auto* create = add()->mutable_createreferenceschemamutation();
      create->set_name(r.name);
      if (r.description) create->mutable_description()->set_value(*r.description);
      if (r.deprecation_notice) create->mutable_deprecationnotice()->set_value(*r.deprecation_notice);
      create->set_cardinality(static_cast<pb::GrpcCardinality>(r.cardinality));
      create->set_referencedentitytype(r.referenced_entity_type);
      create->set_referencedentitytypemanaged(r.referenced_entity_type_managed);
      if (r.group_type) create->mutable_referencedgrouptype()->set_value(*r.group_type);
      create->set_referencedgrouptypemanaged(r.group_type_managed);
      ReferenceIndexingTo(r, create);
      for (const auto& [attribute_name, a] : r.attributes) {
        auto* mod = add()->mutable_modifyreferenceattributeschemamutation();
        mod->set_name(r.name);
        create_attribute(a, mod->mutable_attributeschemamutation()->mutable_createattributeschemamutation());
      }
      for (const auto& [compound_name, c] : r.sortable_attribute_compounds) {
        auto* mod = add()->mutable_modifyreferencesortableattributecompoundschemamutation();
        mod->set_name(r.name);
        CompoundTo(c, mod->mutable_sortableattributecompoundschemamutation()
                          ->mutable_createsortableattributecompoundschemamutation());
      }
    }
    for (const auto& [name, c] : e.sortable_attribute_compounds) {
      CompoundTo(c, add()->mutable_createsortableattributecompoundschemamutation());
    }
  }
  // Reflected references last: the references they mirror must exist first.
  for (const auto& [type, e] : schema.entities) {
    pb::GrpcModifyEntitySchemaMutation modify;
    modify.set_entitytype(type);
    for (const auto& [name, r] : e.references) {
      if (!r.is_reflected()) continue;
      auto* create = modify.add_entityschemamutations()->mutable_createreflectedreferenceschemamutation();
      create->set_name(r.name);
      if (r.description && !r.description_inherited) create->mutable_description()->set_value(*r.description);
      if (r.deprecation_notice && !r.deprecation_notice_inherited) {
        create->mutable_deprecationnotice()->set_value(*r.deprecation_notice);
      }
      create->set_cardinality(r.cardinality_inherited ? pb::NOT_SPECIFIED
                                                      : static_cast<pb::GrpcCardinality>(r.cardinality));
      create->set_referencedentitytype(r.referenced_entity_type);
      create->set_reflectedreferencename(*r.reflected_reference_name);
      create->set_attributeinheritancebehavior(
          static_cast<pb::GrpcAttributeInheritanceBehavior>(r.attribute_inheritance_behavior));
      for (const auto& f : r.attribute_inheritance_filter) create->add_attributeinheritancefilter(f);
      create->set_indexedinherited(r.indexed_inherited);
      create->set_facetedinherited(r.faceted_inherited);
      ReferenceSchema own = r;
      if (r.indexed_inherited) {
        own.index_types.clear();
        own.indexed_components.clear();
      }
      if (r.faceted_inherited) own.faceted_in_scopes.clear();
      ReferenceIndexingTo(own, create);
      for (const auto& [attribute_name, a] : r.attributes) {
        if (a.inherited) continue;
        auto* mod = modify.add_entityschemamutations()->mutable_modifyreferenceattributeschemamutation();
        mod->set_name(r.name);
        create_attribute(a, mod->mutable_attributeschemamutation()->mutable_createattributeschemamutation());
      }
      for (const auto& [compound_name, c] : r.sortable_attribute_compounds) {
        if (c.inherited) continue;
        auto* mod = modify.add_entityschemamutations()
                        ->mutable_modifyreferencesortableattributecompoundschemamutation();
        mod->set_name(r.name);
        CompoundTo(c, mod->mutable_sortableattributecompoundschemamutation()
                          ->mutable_createsortableattributecompoundschemamutation());
      }
    }
    if (modify.entityschemamutations_size() > 0) {
      *out.emplace_back().mutable_modifyentityschemamutation() = modify;
    }
  }
  // Evolution restrictions last, so that the load itself never trips over them.
  for (const auto& [type, e] : schema.entities) {
    pb::GrpcDisallowEvolutionModeInEntitySchemaMutation disallow;
    for (EvolutionMode mode : AllEvolutionModes()) {
      if (std::find(e.evolution_modes.begin(), e.evolution_modes.end(), mode) == e.evolution_modes.end()) {
        disallow.add_evolutionmodes(static_cast<pb::GrpcEvolutionMode>(mode));
      }
    }
    if (disallow.evolutionmodes_size() == 0) continue;
    auto* modify = out.emplace_back().mutable_modifyentityschemamutation();
    modify->set_entitytype(type);
    *modify->add_entityschemamutations()->mutable_disallowevolutionmodeinentityschemamutation() = disallow;
  }
  if (std::find(schema.evolution_modes.begin(), schema.evolution_modes.end(),
                CatalogEvolutionMode::kAddingEntityTypes) == schema.evolution_modes.end()) {
    out.emplace_back().mutable_disallowevolutionmodeincatalogschemamutation()->add_evolutionmodes(
        pb::ADDING_ENTITY_TYPES);
  }
  return out;
}

Status ApplyCatalogSchemaMutations(const std::vector<pb::GrpcLocalCatalogSchemaMutation>& mutations,
                                   CatalogSchema* schema) {
  using M = pb::GrpcLocalCatalogSchemaMutation;
  for (size_t i = 0; i < mutations.size(); ++i) {
    const auto& m = mutations[i];
    const std::string at = "catalog " + schema->name + ": schema mutation " + std::to_string(i);
    switch (m.mutation_case()) {
      case M::kModifyCatalogSchemaDescriptionMutation: {
        const auto& d = m.modifycatalogschemadescriptionmutation();
        schema->description = OptionalString(d.has_description(), d.description());
        break;
      }
      case M::kAllowEvolutionModeInCatalogSchemaMutation:
        if (std::find(schema->evolution_modes.begin(), schema->evolution_modes.end(),
                      CatalogEvolutionMode::kAddingEntityTypes) == schema->evolution_modes.end()) {
          schema->evolution_modes.push_back(CatalogEvolutionMode::kAddingEntityTypes);
        }
        break;
      case M::kDisallowEvolutionModeInCatalogSchemaMutation:
        for (int mode : m.disallowevolutionmodeincatalogschemamutation().evolutionmodes()) {
          std::erase(schema->evolution_modes, static_cast<CatalogEvolutionMode>(mode));
        }
        break;
      case M::kCreateGlobalAttributeSchemaMutation: {
        auto a = AttributeFromCreate(m.createglobalattributeschemamutation(), AttributeSchemaKind::kGlobal);
        if (!a.ok()) return a.status().WithContext(at);
        if (Status s = InsertNew(&schema->attributes, std::move(a).value(), "global attribute"); !s.ok()) {
          return s.WithContext(at);
        }
        break;
      }
      case M::kCreateEntitySchemaMutation: {
        EntitySchema e;
        e.name = m.createentityschemamutation().entitytype();
        e.evolution_modes = AllEvolutionModes();
        if (e.name.empty()) return InvalidArgumentError(at + ": entity type with an empty name");
        if (Status s = InsertNew(&schema->entities, std::move(e), "entity type"); !s.ok()) {
          return s.WithContext(at);
        }
        break;
      }
      case M::kModifyEntitySchemaMutation: {
        const auto& modify = m.modifyentityschemamutation();
        auto entity = schema->entities.find(modify.entitytype());
        if (entity == schema->entities.end()) {
          return InvalidArgumentError(at + ": entity type " + modify.entitytype() + " does not exist");
        }
        for (int k = 0; k < modify.entityschemamutations_size(); ++k) {
          Status s = ApplyEntityMutation(modify.entityschemamutations(k), *schema, &entity->second);
          if (!s.ok()) {
            return s.WithContext(at + ": entity type " + modify.entitytype() + " [" + std::to_string(k) +
                                 "]");
          }
        }
        break;
      }
      case M::MUTATION_NOT_SET:
        return InvalidArgumentError(at + ": no mutation set");
      default:
        return UnimplementedError(at + ": catalog schema mutation kind " + std::to_string(m.mutation_case()) +
                                  " is not supported");
    }
  }
  return OkStatus();
}

}  // namespace warmup::codec
