#include "warmup/schema.h"

#include <algorithm>

namespace warmup {

AttributeUniqueness AttributeSchema::UniquenessIn(Scope scope) const {
  for (const auto& scoped : unique_in_scopes) {
    if (scoped.scope == scope) return scoped.value;
  }
  return AttributeUniqueness::kNotUnique;
}

GlobalAttributeUniqueness AttributeSchema::GlobalUniquenessIn(Scope scope) const {
  for (const auto& scoped : globally_unique_in_scopes) {
    if (scoped.scope == scope) return scoped.value;
  }
  return GlobalAttributeUniqueness::kNotGloballyUnique;
}

ReferenceIndexType ReferenceSchema::IndexTypeIn(Scope scope) const {
  for (const auto& scoped : index_types) {
    if (scoped.scope == scope) return scoped.value;
  }
  return ReferenceIndexType::kNone;
}

const ReferenceSchema* EntitySchema::FindReference(const std::string& reference_name) const {
  auto it = references.find(reference_name);
  return it == references.end() ? nullptr : &it->second;
}

const EntitySchema* CatalogSchema::FindEntity(const std::string& type) const {
  auto it = entities.find(type);
  return it == entities.end() ? nullptr : &it->second;
}

std::vector<EvolutionMode> AllEvolutionModes() {
  std::vector<EvolutionMode> modes;
  for (int i = 0; i <= static_cast<int>(EvolutionMode::kUpdatingReferenceCardinality); ++i) {
    modes.push_back(static_cast<EvolutionMode>(i));
  }
  return modes;
}

namespace {

Status CheckAttribute(const AttributeSchema& attribute) {
  const std::string where = "attribute '" + attribute.name + "'";
  if (attribute.name.empty()) return InvalidArgumentError("an attribute has an empty name");
  if (attribute.type == ValueType::kComplexDataObject) {
    return InvalidArgumentError(where + ": attributes cannot hold complex objects");
  }
  if (attribute.default_value && attribute.default_value->type() != attribute.type) {
    return InvalidArgumentError(where + ": default value is " +
                                std::string(ValueTypeName(attribute.default_value->type())) + ", not " +
                                std::string(ValueTypeName(attribute.type)));
  }
  if (attribute.indexed_decimal_places < 0) {
    return InvalidArgumentError(where + ": negative indexed decimal places");
  }
  return OkStatus();
}

Status CheckCompounds(const std::map<std::string, SortableAttributeCompoundSchema>& compounds,
                      const std::map<std::string, AttributeSchema>& attributes) {
  for (const auto& [name, compound] : compounds) {
    // evitaDB's schema builder refuses fewer (InternalSchemaBuilderHelper);
    // one sent over gRPC is taken, and every upsert it indexes then fails.
    if (compound.elements.size() < 2) {
      return InvalidArgumentError("sortable compound '" + name + "' has " +
                                  std::to_string(compound.elements.size()) +
                                  " attribute(s); evitaDB needs two at least");
    }
    for (const auto& element : compound.elements) {
      auto attribute = attributes.find(element.attribute_name);
      if (attribute == attributes.end()) {
        return InvalidArgumentError("sortable compound '" + name + "' names unknown attribute '" +
                                    element.attribute_name + "'");
      }
      // evitaDB sorts a compound by comparing its values: it refuses every
      // upsert whose compound holds a predecessor or an array (not Comparable).
      const ValueType type = attribute->second.type;
      if (IsArrayType(type) || type == ValueType::kPredecessor ||
          type == ValueType::kReferencedEntityPredecessor) {
        return InvalidArgumentError("sortable compound '" + name + "': attribute '" + element.attribute_name +
                                    "' is " + std::string(ValueTypeName(type)) +
                                    ", which evitaDB cannot compare in a compound");
      }
    }
  }
  return OkStatus();
}

}  // namespace

Status ValidateCatalogSchema(const CatalogSchema& schema) {
  for (const auto& [name, attribute] : schema.attributes) {
    if (attribute.kind != AttributeSchemaKind::kGlobal) {
      return InvalidArgumentError("catalog attribute '" + name + "' is not of kind global");
    }
    if (Status s = CheckAttribute(attribute); !s.ok()) return s.WithContext("catalog " + schema.name);
  }
  for (const auto& [type, entity] : schema.entities) {
    const std::string where = "entity type " + type;
    if (entity.indexed_price_places < 0) {
      return InvalidArgumentError(where + ": negative indexed price places");
    }
    for (const auto& [name, attribute] : entity.attributes) {
      if (Status s = CheckAttribute(attribute); !s.ok()) return s.WithContext(where);
      if (attribute.kind == AttributeSchemaKind::kGlobal) {
        auto global = schema.attributes.find(name);
        if (global == schema.attributes.end()) {
          return InvalidArgumentError(where + ": attribute '" + name +
                                      "' uses a global attribute the catalog lacks");
        }
        if (!(global->second == attribute)) {
          return InvalidArgumentError(where + ": attribute '" + name + "' differs from the global attribute");
        }
      } else if (attribute.kind == AttributeSchemaKind::kReference) {
        return InvalidArgumentError(where + ": attribute '" + name + "' is of kind reference");
      }
    }
    if (Status s = CheckCompounds(entity.sortable_attribute_compounds, entity.attributes); !s.ok()) {
      return s.WithContext(where);
    }
    for (const auto& [reference_name, reference] : entity.references) {
      const std::string ref_where = where + ": reference '" + reference_name + "'";
      if (reference.referenced_entity_type.empty()) {
        return InvalidArgumentError(ref_where + ": no referenced entity type");
      }
      for (const auto& [name, attribute] : reference.attributes) {
        if (Status s = CheckAttribute(attribute); !s.ok()) return s.WithContext(ref_where);
        if (attribute.kind != AttributeSchemaKind::kReference) {
          return InvalidArgumentError(ref_where + ": attribute '" + name + "' is not of kind reference");
        }
      }
      if (Status s = CheckCompounds(reference.sortable_attribute_compounds, reference.attributes); !s.ok()) {
        return s.WithContext(ref_where);
      }
      if (reference.is_reflected()) {
        const EntitySchema* target = schema.FindEntity(reference.referenced_entity_type);
        if (target == nullptr || target->FindReference(*reference.reflected_reference_name) == nullptr) {
          return InvalidArgumentError(ref_where + ": reflects '" + *reference.reflected_reference_name +
                                      "' of " + reference.referenced_entity_type + ", which does not exist");
        }
      }
    }
  }
  return OkStatus();
}

}  // namespace warmup
