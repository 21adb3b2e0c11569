#include "codec/entity_mutations.h"

#include <cstdint>
#include <string>

#include "codec/entity_fields.h"
#include "codec/value_convert.h"

namespace warmup::codec {
namespace {

using Upsert = pb::GrpcEntityUpsertMutation;

void AddUpsertAttribute(const std::string& name, const std::string& tag, const Value& value,
                        pb::GrpcUpsertAttributeMutation* out) {
  out->set_attributename(name);
  if (!tag.empty()) out->mutable_attributelocale()->set_languagetag(tag);
  ValueToProto(value, out->mutable_attributevalue());
}

// Calls `add(name, tag, value)` for every value, global ones with an empty tag.
template <typename Values, typename Add>
void ForEachValue(const Values& values, Add add) {
  for (const auto& [name, value] : values.global) add(name, std::string(), value);
  for (const auto& [tag, localized] : values.localized) {
    for (const auto& [name, value] : localized) add(name, tag, value);
  }
}

// A reference's insert, its group and its attributes, all addressed by the
// reference's name, primary key and `internal_id`.
void AddReference(const Reference& reference, int32_t internal_id, Upsert* upsert) {
  const int32_t pk = reference.referenced.primary_key;
  auto* insert = upsert->add_mutations()->mutable_insertreferencemutation();
  insert->set_referencename(reference.name);
  insert->set_referenceprimarykey(pk);
  insert->set_internalprimarykey(internal_id);
  if (reference.group) {
    auto* group = upsert->add_mutations()->mutable_setreferencegroupmutation();
    group->set_referencename(reference.name);
    group->set_referenceprimarykey(pk);
    group->set_groupprimarykey(reference.group->primary_key);
    group->set_internalprimarykey(internal_id);
  }
  ForEachValue(reference.attributes, [&](const std::string& name, const std::string& tag,
                                         const Value& value) {
    auto* m = upsert->add_mutations()->mutable_referenceattributemutation();
    m->set_referencename(reference.name);
    m->set_referenceprimarykey(pk);
    m->set_internalprimarykey(internal_id);
    AddUpsertAttribute(name, tag, value, m->mutable_attributemutation()->mutable_upsertattributemutation());
  });
}

}  // namespace

StatusOr<pb::GrpcEntityMutation> EntityToUpsertMutation(const Entity& entity, const EntitySchema& schema,
                                                        Existence existence) {
  pb::GrpcEntityMutation mutation;
  Upsert* upsert = mutation.mutable_entityupsertmutation();
  upsert->set_entitytype(entity.type);
  upsert->mutable_entityprimarykey()->set_value(entity.primary_key);
  upsert->set_entityexistence(existence == Existence::kMustNotExist ? pb::MUST_NOT_EXIST : pb::MAY_EXIST);
  if (entity.scope == Scope::kArchived) {
    upsert->add_mutations()->mutable_setentityscopemutation()->set_scope(pb::SCOPE_ARCHIVED);
  }
  if (entity.parent) {
    upsert->add_mutations()->mutable_setparentmutation()->set_primarykey(*entity.parent);
  }
  int32_t next_internal_id = -1;
  for (const Reference& reference : entity.references) {
    const ReferenceSchema* reference_schema = schema.FindReference(reference.name);
    if (reference_schema == nullptr) {
      return InvalidArgumentError("entity " + EntityLabel(entity) + ": " +
                                  ReferenceLabel(reference.name, reference.referenced.primary_key) +
                                  ": the schema of " + schema.name + " has no such reference");
    }
    if (!reference_schema->is_reflected()) AddReference(reference, next_internal_id--, upsert);
  }
  ForEachValue(entity.attributes, [&](const std::string& name, const std::string& tag, const Value& value) {
    AddUpsertAttribute(name, tag, value, upsert->add_mutations()->mutable_upsertattributemutation());
  });
  ForEachValue(entity.associated_data,
               [&](const std::string& name, const std::string& tag, const AssociatedDataValue& value) {
                 auto* m = upsert->add_mutations()->mutable_upsertassociateddatamutation();
                 m->set_associateddataname(name);
                 if (!tag.empty()) m->mutable_associateddatalocale()->set_languagetag(tag);
                 AssociatedDataValueToProto(value, m->mutable_associateddatavalue());
               });
  if (schema.with_price && entity.price_inner_record_handling != PriceInnerRecordHandling::kUnknown) {
    upsert->add_mutations()->mutable_setpriceinnerrecordhandlingmutation()->set_priceinnerrecordhandling(
        static_cast<pb::GrpcPriceInnerRecordHandling>(entity.price_inner_record_handling));
  }
  for (const Price& price : entity.prices) {
    PriceToProto(price, upsert->add_mutations()->mutable_upsertpricemutation());
  }
  return mutation;
}

}  // namespace warmup::codec
