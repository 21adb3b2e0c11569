#include "codec/schema_mutations.h"

#include <algorithm>
#include <string>

#include "codec/schema_fields.h"

namespace warmup::codec {
namespace {

using Modify = pb::GrpcModifyEntitySchemaMutation;

// The settings of an entity type: description, deprecation notice, primary
// keys, hierarchy, prices, locales and currencies.
void AddEntitySettings(const EntitySchema& e, Modify* modify) {
  if (e.description) {
    modify->add_entityschemamutations()
        ->mutable_modifyentityschemadescriptionmutation()
        ->mutable_description()
        ->set_value(*e.description);
  }
  if (e.deprecation_notice) {
    modify->add_entityschemamutations()
        ->mutable_modifyentityschemadeprecationnoticemutation()
        ->mutable_deprecationnotice()
        ->set_value(*e.deprecation_notice);
  }
  modify->add_entityschemamutations()
      ->mutable_setentityschemawithgeneratedprimarykeymutation()
      ->set_withgeneratedprimarykey(e.with_generated_primary_key);
  auto* hierarchy = modify->add_entityschemamutations()->mutable_setentityschemawithhierarchymutation();
  hierarchy->set_withhierarchy(e.with_hierarchy);
  ScopesTo(e.hierarchy_indexed_in_scopes, hierarchy->mutable_indexedinscopes());
  auto* price = modify->add_entityschemamutations()->mutable_setentityschemawithpricemutation();
  price->set_withprice(e.with_price);
  price->set_indexedpriceplaces(e.indexed_price_places);
  ScopesTo(e.price_indexed_in_scopes, price->mutable_indexedinscopes());
  if (!e.locales.empty()) {
    auto* locales = modify->add_entityschemamutations()->mutable_allowlocaleinentityschemamutation();
    for (const auto& l : e.locales) locales->add_locales()->set_languagetag(l.tag());
  }
  if (!e.currencies.empty()) {
    auto* currencies = modify->add_entityschemamutations()->mutable_allowcurrencyinentityschemamutation();
    for (const auto& c : e.currencies) currencies->add_currencies()->set_code(c.code());
  }
}

// A reference's attributes and compounds, each its own modify mutation; those
// a reflected reference inherits from the reference it mirrors are skipped
// (the server derives them).
void AddReferenceAttributesAndCompounds(const ReferenceSchema& r, Modify* modify) {
  const bool reflected = r.is_reflected();
  for (const auto& [name, a] : r.attributes) {
    if (reflected && a.inherited) continue;
    auto* mod = modify->add_entityschemamutations()->mutable_modifyreferenceattributeschemamutation();
    mod->set_name(r.name);
    AttributeTo(a, mod->mutable_attributeschemamutation()->mutable_createattributeschemamutation());
  }
  for (const auto& [name, c] : r.sortable_attribute_compounds) {
    if (reflected && c.inherited) continue;
    auto* mod =
        modify->add_entityschemamutations()->mutable_modifyreferencesortableattributecompoundschemamutation();
    mod->set_name(r.name);
    CompoundTo(c, mod->mutable_sortableattributecompoundschemamutation()
                      ->mutable_createsortableattributecompoundschemamutation());
  }
}

void AddReference(const ReferenceSchema& r, Modify* modify) {
  auto* create = modify->add_entityschemamutations()->mutable_createreferenceschemamutation();
  create->set_name(r.name);
  if (r.description) create->mutable_description()->set_value(*r.description);
  if (r.deprecation_notice) create->mutable_deprecationnotice()->set_value(*r.deprecation_notice);
  create->set_cardinality(static_cast<pb::GrpcCardinality>(r.cardinality));
  create->set_referencedentitytype(r.referenced_entity_type);
  create->set_referencedentitytypemanaged(r.referenced_entity_type_managed);
  if (r.group_type) create->mutable_referencedgrouptype()->set_value(*r.group_type);
  create->set_referencedgrouptypemanaged(r.group_type_managed);
  ReferenceIndexingTo(r, create);
  AddReferenceAttributesAndCompounds(r, modify);
}

// A reflected reference sends only what it does not inherit: an inherited
// setting travels as its `...Inherited` flag.
void AddReflectedReference(const ReferenceSchema& r, Modify* modify) {
  auto* create = modify->add_entityschemamutations()->mutable_createreflectedreferenceschemamutation();
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
  AddReferenceAttributesAndCompounds(r, modify);
}

// Everything of an entity type but its reflected references and its
// evolution restrictions.
void AddEntityType(const EntitySchema& e, Modify* modify) {
  AddEntitySettings(e, modify);
  for (const auto& [name, a] : e.attributes) {
    if (a.kind == AttributeSchemaKind::kGlobal) {
      modify->add_entityschemamutations()->mutable_useglobalattributeschemamutation()->set_name(name);
    } else {
      AttributeTo(a, modify->add_entityschemamutations()->mutable_createattributeschemamutation());
    }
  }
  for (const auto& [name, d] : e.associated_data) {
    AssociatedDataTo(d, modify->add_entityschemamutations()->mutable_createassociateddataschemamutation());
  }
  for (const auto& [name, r] : e.references) {
    if (!r.is_reflected()) AddReference(r, modify);
  }
  for (const auto& [name, c] : e.sortable_attribute_compounds) {
    CompoundTo(c,
               modify->add_entityschemamutations()->mutable_createsortableattributecompoundschemamutation());
  }
}

// The evolution modes the entity type does not allow; none when it allows all.
pb::GrpcDisallowEvolutionModeInEntitySchemaMutation DisallowedEvolution(const EntitySchema& e) {
  pb::GrpcDisallowEvolutionModeInEntitySchemaMutation disallow;
  for (EvolutionMode mode : AllEvolutionModes()) {
    if (std::find(e.evolution_modes.begin(), e.evolution_modes.end(), mode) == e.evolution_modes.end()) {
      disallow.add_evolutionmodes(static_cast<pb::GrpcEvolutionMode>(mode));
    }
  }
  return disallow;
}

}  // namespace

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
  for (const auto& [type, e] : schema.entities) {
    auto* modify = out.emplace_back().mutable_modifyentityschemamutation();
    modify->set_entitytype(type);
    AddEntityType(e, modify);
  }
  // Reflected references last: the references they mirror must exist first.
  for (const auto& [type, e] : schema.entities) {
    Modify modify;
    modify.set_entitytype(type);
    for (const auto& [name, r] : e.references) {
      if (r.is_reflected()) AddReflectedReference(r, &modify);
    }
    if (modify.entityschemamutations_size() > 0)
      *out.emplace_back().mutable_modifyentityschemamutation() = modify;
  }
  // Evolution restrictions last, so that the load itself never trips over them.
  for (const auto& [type, e] : schema.entities) {
    auto disallow = DisallowedEvolution(e);
    if (disallow.evolutionmodes_size() == 0) continue;
    auto* modify = out.emplace_back().mutable_modifyentityschemamutation();
    modify->set_entitytype(type);
    *modify->add_entityschemamutations()->mutable_disallowevolutionmodeinentityschemamutation() =
        std::move(disallow);
  }
  if (std::find(schema.evolution_modes.begin(), schema.evolution_modes.end(),
                CatalogEvolutionMode::kAddingEntityTypes) == schema.evolution_modes.end()) {
    out.emplace_back().mutable_disallowevolutionmodeincatalogschemamutation()->add_evolutionmodes(
        pb::ADDING_ENTITY_TYPES);
  }
  return out;
}

}  // namespace warmup::codec
