#include "codec/schema_interpreter.h"

#include <algorithm>
#include <string>

#include "GrpcEntitySchemaMutation.pb.h"
#include "codec/schema_fields.h"

namespace warmup::codec {
namespace {

// Adds `value` under its own name; every schema element has a `name`.
template <typename T>
Status InsertNew(std::map<std::string, T>* map, T value, const char* what) {
  std::string name = value.name;
  if (!map->emplace(name, std::move(value)).second) {
    return InvalidArgumentError(std::string(what) + " '" + name + "' already exists");
  }
  return OkStatus();
}

// Appends `value` unless present; true when it was appended.
template <typename T>
bool AddOnce(std::vector<T>* values, T value) {
  if (std::find(values->begin(), values->end(), value) != values->end()) return false;
  values->push_back(std::move(value));
  return true;
}

// The type evitaDB's server gives a schema item sent as `declared`: its
// EvitaDataTypesConverter takes CHARACTER_ARRAY for CHARACTER, and throws on
// number-range associated data (WhyEvitaCannotTakeOverGrpc). (Its refusal of
// LOCAL_DATE_TIME attribute values is not reproduced: docs/evitadb.md §6.) warmup serve
// does the same, so that a catalog serve takes, evitaDB takes too; the
// throw is kInternal, which the server answers as evitaDB does.
StatusOr<ValueType> AsEvitaDefines(ValueType declared, TypeUse use) {
  if (declared == ValueType::kCharacterArray) return ValueType::kCharacter;
  if (std::string_view why = WhyEvitaCannotTakeOverGrpc(declared, use);
      use == TypeUse::kAssociatedData && !why.empty()) {
    return InternalError(std::string(ValueTypeName(declared)) + ": " + std::string(why));
  }
  return declared;
}

// The attribute a create mutation describes (entity, reference or global).
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
  WARMUP_ASSIGN_OR_RETURN(ValueType declared, ValueTypeFromProto(m.type()));
  WARMUP_ASSIGN_OR_RETURN(a.type, AsEvitaDefines(declared, TypeUse::kAttribute));
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

// One handler per entity schema mutation kind, each applying its mutation to
// the entity type `e` of `catalog`.
class EntityTypeEditor {
 public:
  EntityTypeEditor(const CatalogSchema& catalog, EntitySchema* e) : catalog_(catalog), e_(*e) {}

  Status Apply(const pb::GrpcCreateAssociatedDataSchemaMutation& c) {
    AssociatedDataSchema d;
    d.name = c.name();
    d.description = OptionalString(c.has_description(), c.description());
    d.deprecation_notice = OptionalString(c.has_deprecationnotice(), c.deprecationnotice());
    WARMUP_ASSIGN_OR_RETURN(ValueType declared, AssociatedDataTypeFromProto(c.type()));
    WARMUP_ASSIGN_OR_RETURN(d.type, AsEvitaDefines(declared, TypeUse::kAssociatedData));
    d.localized = c.localized();
    d.nullable = c.nullable();
    return InsertNew(&e_.associated_data, std::move(d), "associated data");
  }

  Status Apply(const pb::GrpcCreateAttributeSchemaMutation& c) {
    WARMUP_ASSIGN_OR_RETURN(AttributeSchema a, AttributeFromCreate(c, AttributeSchemaKind::kEntity));
    return InsertNew(&e_.attributes, std::move(a), "attribute");
  }

  Status Apply(const pb::GrpcUseGlobalAttributeSchemaMutation& m) {
    auto global = catalog_.attributes.find(m.name());
    if (global == catalog_.attributes.end()) {
      return InvalidArgumentError("global attribute '" + m.name() + "' does not exist in the catalog");
    }
    return InsertNew(&e_.attributes, global->second, "attribute");
  }

  Status Apply(const pb::GrpcAllowCurrencyInEntitySchemaMutation& m) {
    for (const auto& c : m.currencies()) {
      WARMUP_ASSIGN_OR_RETURN(Currency currency, CurrencyFromProto(c));
      AddOnce(&e_.currencies, currency);
    }
    return OkStatus();
  }

  Status Apply(const pb::GrpcAllowLocaleInEntitySchemaMutation& m) {
    for (const auto& l : m.locales()) {
      WARMUP_ASSIGN_OR_RETURN(Locale locale, LocaleFromProto(l));
      AddOnce(&e_.locales, locale);
    }
    return OkStatus();
  }

  Status Apply(const pb::GrpcDisallowEvolutionModeInEntitySchemaMutation& m) {
    for (int mode : m.evolutionmodes()) std::erase(e_.evolution_modes, static_cast<EvolutionMode>(mode));
    return OkStatus();
  }

  Status Apply(const pb::GrpcAllowEvolutionModeInEntitySchemaMutation& m) {
    for (int mode : m.evolutionmodes()) {
      WARMUP_ASSIGN_OR_RETURN(auto em,
                              EnumFrom(mode, EvolutionMode::kUpdatingReferenceCardinality, "evolutionModes"));
      if (AddOnce(&e_.evolution_modes, em)) std::sort(e_.evolution_modes.begin(), e_.evolution_modes.end());
    }
    return OkStatus();
  }

  Status Apply(const pb::GrpcModifyEntitySchemaDeprecationNoticeMutation& m) {
    e_.deprecation_notice = OptionalString(m.has_deprecationnotice(), m.deprecationnotice());
    return OkStatus();
  }

  Status Apply(const pb::GrpcModifyEntitySchemaDescriptionMutation& m) {
    e_.description = OptionalString(m.has_description(), m.description());
    return OkStatus();
  }

  Status Apply(const pb::GrpcSetEntitySchemaWithGeneratedPrimaryKeyMutation& m) {
    e_.with_generated_primary_key = m.withgeneratedprimarykey();
    return OkStatus();
  }

  Status Apply(const pb::GrpcSetEntitySchemaWithHierarchyMutation& m) {
    e_.with_hierarchy = m.withhierarchy();
    WARMUP_ASSIGN_OR_RETURN(e_.hierarchy_indexed_in_scopes,
                            ScopesFrom(m.indexedinscopes(), "indexedInScopes"));
    return OkStatus();
  }

  Status Apply(const pb::GrpcSetEntitySchemaWithPriceMutation& m) {
    e_.with_price = m.withprice();
    e_.indexed_price_places = m.indexedpriceplaces();
    WARMUP_ASSIGN_OR_RETURN(e_.price_indexed_in_scopes, ScopesFrom(m.indexedinscopes(), "indexedInScopes"));
    return OkStatus();
  }

  Status Apply(const pb::GrpcCreateReferenceSchemaMutation& c) {
    ReferenceSchema r;
    r.name = c.name();
    r.description = OptionalString(c.has_description(), c.description());
    r.deprecation_notice = OptionalString(c.has_deprecationnotice(), c.deprecationnotice());
    WARMUP_ASSIGN_OR_RETURN(r.cardinality,
                            EnumFrom(c.cardinality(), Cardinality::kOneOrMoreWithDuplicates, "cardinality"));
    r.referenced_entity_type = c.referencedentitytype();
    r.referenced_entity_type_managed = c.referencedentitytypemanaged();
    r.group_type = OptionalString(c.has_referencedgrouptype(), c.referencedgrouptype());
    r.group_type_managed = c.referencedgrouptypemanaged();
    WARMUP_RETURN_IF_ERROR(ReferenceIndexingFrom(c, &r));
    if (r.name.empty()) return InvalidArgumentError("reference with an empty name");
    return InsertNew(&e_.references, std::move(r), "reference");
  }

  // A reflected reference starts from what it sets itself and takes the rest
  // from the reference it mirrors, which must already exist.
  Status Apply(const pb::GrpcCreateReflectedReferenceSchemaMutation& c) {
    const EntitySchema* target = catalog_.FindEntity(c.referencedentitytype());
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
    return InsertNew(&e_.references, std::move(r), "reference");
  }

  Status Apply(const pb::GrpcModifyReferenceAttributeSchemaMutation& m) {
    WARMUP_ASSIGN_OR_RETURN(ReferenceSchema * reference, FindReference(m.name()));
    if (!m.attributeschemamutation().has_createattributeschemamutation()) {
      return UnimplementedError("reference '" + m.name() + "': only attribute creation is supported");
    }
    WARMUP_ASSIGN_OR_RETURN(AttributeSchema a,
                            AttributeFromCreate(m.attributeschemamutation().createattributeschemamutation(),
                                                AttributeSchemaKind::kReference));
    return InsertNew(&reference->attributes, std::move(a), "reference attribute");
  }

  Status Apply(const pb::GrpcModifyReferenceSortableAttributeCompoundSchemaMutation& m) {
    WARMUP_ASSIGN_OR_RETURN(ReferenceSchema * reference, FindReference(m.name()));
    const auto& compound_mutation = m.sortableattributecompoundschemamutation();
    if (!compound_mutation.has_createsortableattributecompoundschemamutation()) {
      return UnimplementedError("reference '" + m.name() + "': only compound creation is supported");
    }
    WARMUP_ASSIGN_OR_RETURN(
        auto compound, CompoundFromCreate(compound_mutation.createsortableattributecompoundschemamutation()));
    return InsertNew(&reference->sortable_attribute_compounds, std::move(compound), "reference compound");
  }

  Status Apply(const pb::GrpcCreateSortableAttributeCompoundSchemaMutation& c) {
    WARMUP_ASSIGN_OR_RETURN(auto compound, CompoundFromCreate(c));
    return InsertNew(&e_.sortable_attribute_compounds, std::move(compound), "compound");
  }

 private:
  StatusOr<ReferenceSchema*> FindReference(const std::string& name) {
    auto reference = e_.references.find(name);
    if (reference == e_.references.end()) {
      return InvalidArgumentError("reference '" + name + "' does not exist");
    }
    return &reference->second;
  }

  const CatalogSchema& catalog_;
  EntitySchema& e_;
};

Status ApplyEntityMutation(const pb::GrpcEntitySchemaMutation& m, const CatalogSchema& catalog,
                           EntitySchema* e) {
  EntityTypeEditor editor(catalog, e);
  using M = pb::GrpcEntitySchemaMutation;
  switch (m.mutation_case()) {
    case M::kCreateAssociatedDataSchemaMutation:
      return editor.Apply(m.createassociateddataschemamutation());
    case M::kCreateAttributeSchemaMutation:
      return editor.Apply(m.createattributeschemamutation());
    case M::kUseGlobalAttributeSchemaMutation:
      return editor.Apply(m.useglobalattributeschemamutation());
    case M::kAllowCurrencyInEntitySchemaMutation:
      return editor.Apply(m.allowcurrencyinentityschemamutation());
    case M::kAllowLocaleInEntitySchemaMutation:
      return editor.Apply(m.allowlocaleinentityschemamutation());
    case M::kDisallowEvolutionModeInEntitySchemaMutation:
      return editor.Apply(m.disallowevolutionmodeinentityschemamutation());
    case M::kAllowEvolutionModeInEntitySchemaMutation:
      return editor.Apply(m.allowevolutionmodeinentityschemamutation());
    case M::kModifyEntitySchemaDeprecationNoticeMutation:
      return editor.Apply(m.modifyentityschemadeprecationnoticemutation());
    case M::kModifyEntitySchemaDescriptionMutation:
      return editor.Apply(m.modifyentityschemadescriptionmutation());
    case M::kSetEntitySchemaWithGeneratedPrimaryKeyMutation:
      return editor.Apply(m.setentityschemawithgeneratedprimarykeymutation());
    case M::kSetEntitySchemaWithHierarchyMutation:
      return editor.Apply(m.setentityschemawithhierarchymutation());
    case M::kSetEntitySchemaWithPriceMutation:
      return editor.Apply(m.setentityschemawithpricemutation());
    case M::kCreateReferenceSchemaMutation:
      return editor.Apply(m.createreferenceschemamutation());
    case M::kCreateReflectedReferenceSchemaMutation:
      return editor.Apply(m.createreflectedreferenceschemamutation());
    case M::kModifyReferenceAttributeSchemaMutation:
      return editor.Apply(m.modifyreferenceattributeschemamutation());
    case M::kModifyReferenceSortableAttributeCompoundSchemaMutation:
      return editor.Apply(m.modifyreferencesortableattributecompoundschemamutation());
    case M::kCreateSortableAttributeCompoundSchemaMutation:
      return editor.Apply(m.createsortableattributecompoundschemamutation());
    case M::MUTATION_NOT_SET:
      return InvalidArgumentError("no mutation set");
    default:
      return UnimplementedError("entity schema mutation kind " + std::to_string(m.mutation_case()) +
                                " is not supported");
  }
}

// One handler per catalog schema mutation kind.
Status Apply(const pb::GrpcModifyCatalogSchemaDescriptionMutation& m, CatalogSchema* schema) {
  schema->description = OptionalString(m.has_description(), m.description());
  return OkStatus();
}

// evitaDB knows one catalog evolution mode, ADDING_ENTITY_TYPES.
Status Apply(const pb::GrpcAllowEvolutionModeInCatalogSchemaMutation&, CatalogSchema* schema) {
  AddOnce(&schema->evolution_modes, CatalogEvolutionMode::kAddingEntityTypes);
  return OkStatus();
}

Status Apply(const pb::GrpcDisallowEvolutionModeInCatalogSchemaMutation& m, CatalogSchema* schema) {
  for (int mode : m.evolutionmodes())
    std::erase(schema->evolution_modes, static_cast<CatalogEvolutionMode>(mode));
  return OkStatus();
}

Status Apply(const pb::GrpcCreateGlobalAttributeSchemaMutation& m, CatalogSchema* schema) {
  WARMUP_ASSIGN_OR_RETURN(AttributeSchema a, AttributeFromCreate(m, AttributeSchemaKind::kGlobal));
  return InsertNew(&schema->attributes, std::move(a), "global attribute");
}

Status Apply(const pb::GrpcCreateEntitySchemaMutation& m, CatalogSchema* schema) {
  EntitySchema e;
  e.name = m.entitytype();
  e.evolution_modes = AllEvolutionModes();
  if (e.name.empty()) return InvalidArgumentError("entity type with an empty name");
  return InsertNew(&schema->entities, std::move(e), "entity type");
}

Status Apply(const pb::GrpcModifyEntitySchemaMutation& modify, CatalogSchema* schema) {
  auto entity = schema->entities.find(modify.entitytype());
  if (entity == schema->entities.end()) {
    return InvalidArgumentError("entity type " + modify.entitytype() + " does not exist");
  }
  for (int k = 0; k < modify.entityschemamutations_size(); ++k) {
    Status s = ApplyEntityMutation(modify.entityschemamutations(k), *schema, &entity->second);
    if (!s.ok()) return s.WithContext("entity type " + modify.entitytype() + " [" + std::to_string(k) + "]");
  }
  return OkStatus();
}

Status ApplyCatalogMutation(const pb::GrpcLocalCatalogSchemaMutation& m, CatalogSchema* schema) {
  using M = pb::GrpcLocalCatalogSchemaMutation;
  switch (m.mutation_case()) {
    case M::kModifyCatalogSchemaDescriptionMutation:
      return Apply(m.modifycatalogschemadescriptionmutation(), schema);
    case M::kAllowEvolutionModeInCatalogSchemaMutation:
      return Apply(m.allowevolutionmodeincatalogschemamutation(), schema);
    case M::kDisallowEvolutionModeInCatalogSchemaMutation:
      return Apply(m.disallowevolutionmodeincatalogschemamutation(), schema);
    case M::kCreateGlobalAttributeSchemaMutation:
      return Apply(m.createglobalattributeschemamutation(), schema);
    case M::kCreateEntitySchemaMutation:
      return Apply(m.createentityschemamutation(), schema);
    case M::kModifyEntitySchemaMutation:
      return Apply(m.modifyentityschemamutation(), schema);
    case M::MUTATION_NOT_SET:
      return InvalidArgumentError("no mutation set");
    default:
      return UnimplementedError("catalog schema mutation kind " + std::to_string(m.mutation_case()) +
                                " is not supported");
  }
}

}  // namespace

Status ApplyCatalogSchemaMutations(const std::vector<pb::GrpcLocalCatalogSchemaMutation>& mutations,
                                   CatalogSchema* schema) {
  for (size_t i = 0; i < mutations.size(); ++i) {
    if (Status s = ApplyCatalogMutation(mutations[i], schema); !s.ok()) {
      return s.WithContext("catalog " + schema->name + ": schema mutation " + std::to_string(i));
    }
  }
  return OkStatus();
}

}  // namespace warmup::codec
