#include "codec/schema_convert.h"

#include <string>

#include "base/status_macros.h"
#include "codec/schema_fields.h"
#include "codec/value_convert.h"

// Older evitaDB servers send deprecated single-scope fields (sellable, unique,
// filterable, indexed, ...); reading them is the point, so the warning goes.
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

namespace warmup::codec {
namespace {

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

template <typename Map>
Status CompoundsFrom(const Map& compounds, std::map<std::string, SortableAttributeCompoundSchema>* out) {
  for (const auto& [name, proto] : compounds) {
    auto c = CompoundFrom(proto);
    if (!c.ok()) return c.status().WithContext("sortable compound '" + name + "'");
    out->emplace(name, std::move(c).value());
  }
  return OkStatus();
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

}  // namespace

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
  // evitaDB never sends a global attribute's `representative`
  // (CatalogSchemaConverter.toGrpcGlobalAttributeSchema leaves it out; seen
  // at dev 720796cc), while every entity schema's copy of that attribute
  // carries it: the flag is taken back from the entities that use it.
  for (auto& [name, global] : schema.attributes) {
    for (const auto& [type, entity] : schema.entities) {
      auto used = entity.attributes.find(name);
      if (used != entity.attributes.end() && used->second.kind == AttributeSchemaKind::kGlobal &&
          used->second.representative) {
        global.representative = true;
      }
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
}  // namespace warmup::codec
