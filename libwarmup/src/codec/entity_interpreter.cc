#include "codec/entity_interpreter.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>

#include "base/status_macros.h"
#include "codec/entity_fields.h"
#include "codec/value_convert.h"

// Older evitaDB clients send the deprecated `sellable` of a price; reading it
// is the point, so the warning goes.
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

namespace warmup::codec {
namespace {

// Upserts the attribute of a mutation into `attributes`; an unset or empty
// locale means global, as in evitaDB.
Status ApplyUpsertAttribute(const pb::GrpcUpsertAttributeMutation& m, Attributes* attributes) {
  if (m.attributename().empty()) return InvalidArgumentError("attributeName: empty");
  auto value = ValueFromProto(m.attributevalue());
  if (!value.ok()) return value.status().WithContext("attribute '" + m.attributename() + "'");
  const std::string& tag = m.attributelocale().languagetag();
  if (tag.empty()) {
    attributes->global.insert_or_assign(m.attributename(), std::move(value).value());
    return OkStatus();
  }
  if (auto locale = Locale::Parse(tag); !locale.ok()) {
    return locale.status().WithContext("attribute '" + m.attributename() + "': attributeLocale");
  }
  attributes->localized[tag].insert_or_assign(m.attributename(), std::move(value).value());
  return OkStatus();
}

// One handler per local mutation kind, each applying its mutation to the new
// entity; errors name the field, the caller adds where the mutation stands.
class EntityBuilder {
 public:
  EntityBuilder(const EntitySchema& schema, Entity* entity) : schema_(schema), entity_(*entity) {}

  Status Apply(const pb::GrpcSetEntityScopeMutation& m) {
    entity_.scope = m.scope() == pb::SCOPE_ARCHIVED ? Scope::kArchived : Scope::kLive;
    return OkStatus();
  }

  Status Apply(const pb::GrpcSetParentMutation& m) {
    entity_.parent = m.primarykey();
    return OkStatus();
  }

  Status Apply(const pb::GrpcUpsertAttributeMutation& m) {
    return ApplyUpsertAttribute(m, &entity_.attributes);
  }

  Status Apply(const pb::GrpcUpsertAssociatedDataMutation& m) {
    auto value = AssociatedDataValueFromProto(m.associateddatavalue());
    if (!value.ok()) return value.status().WithContext("associated data '" + m.associateddataname() + "'");
    const std::string& tag = m.associateddatalocale().languagetag();
    if (tag.empty()) {
      entity_.associated_data.global.insert_or_assign(m.associateddataname(), std::move(value).value());
      return OkStatus();
    }
    if (auto locale = Locale::Parse(tag); !locale.ok()) {
      return locale.status().WithContext("associatedDataLocale");
    }
    entity_.associated_data.localized[tag].insert_or_assign(m.associateddataname(), std::move(value).value());
    return OkStatus();
  }

  Status Apply(const pb::GrpcSetPriceInnerRecordHandlingMutation& m) {
    const int handling = m.priceinnerrecordhandling();
    if (handling < 0 || handling > 3) {
      return InvalidArgumentError("priceInnerRecordHandling: unknown value " + std::to_string(handling));
    }
    entity_.price_inner_record_handling = static_cast<PriceInnerRecordHandling>(handling);
    return OkStatus();
  }

  // A price replaces the one of the same id, price list and currency.
  Status Apply(const pb::GrpcUpsertPriceMutation& m) {
    // GrpcUpsertPriceMutation carries the same fields as GrpcPrice except
    // `indexed`'s number, so it is read through a GrpcPrice view.
    pb::GrpcPrice view;
    view.set_priceid(m.priceid());
    view.set_pricelist(m.pricelist());
    *view.mutable_currency() = m.currency();
    if (m.has_innerrecordid()) *view.mutable_innerrecordid() = m.innerrecordid();
    if (m.has_pricewithouttax()) *view.mutable_pricewithouttax() = m.pricewithouttax();
    if (m.has_taxrate()) *view.mutable_taxrate() = m.taxrate();
    if (m.has_pricewithtax()) *view.mutable_pricewithtax() = m.pricewithtax();
    if (m.has_validity()) *view.mutable_validity() = m.validity();
    view.set_indexed(m.indexed() || m.sellable());
    auto price = PriceFromProto(view);
    if (!price.ok()) return price.status().WithContext("price " + std::to_string(m.priceid()));
    auto same_key = [&](const Price& p) {
      return p.price_id == price->price_id && p.price_list == price->price_list &&
             p.currency == price->currency;
    };
    auto existing = std::find_if(entity_.prices.begin(), entity_.prices.end(), same_key);
    if (existing != entity_.prices.end()) {
      *existing = std::move(price).value();
    } else {
      entity_.prices.push_back(std::move(price).value());
    }
    return OkStatus();
  }

  Status Apply(const pb::GrpcInsertReferenceMutation& m) {
    const ReferenceSchema* reference_schema = schema_.FindReference(m.referencename());
    if (reference_schema == nullptr && !m.has_referencedentitytype()) {
      return InvalidArgumentError(ReferenceLabel(m.referencename(), m.referenceprimarykey()) +
                                  ": the schema of " + schema_.name + " has no such reference");
    }
    Reference reference;
    reference.name = m.referencename();
    reference.referenced = {m.has_referencedentitytype() ? m.referencedentitytype().value()
                                                         : reference_schema->referenced_entity_type,
                            m.referenceprimarykey()};
    reference_by_internal_id_[m.internalprimarykey()] = entity_.references.size();
    entity_.references.push_back(std::move(reference));
    return OkStatus();
  }

  // The group's type is the mutation's, else the reference schema's.
  Status Apply(const pb::GrpcSetReferenceGroupMutation& m) {
    WARMUP_ASSIGN_OR_RETURN(Reference * reference,
                            Inserted(m.referencename(), m.referenceprimarykey(), m.internalprimarykey()));
    const ReferenceSchema* reference_schema = schema_.FindReference(m.referencename());
    std::string group_type;
    if (m.has_grouptype()) {
      group_type = m.grouptype().value();
    } else if (reference_schema != nullptr && reference_schema->group_type) {
      group_type = *reference_schema->group_type;
    } else {
      return InvalidArgumentError("groupType: unset and the reference schema has no group type");
    }
    reference->group = EntityRef{group_type, m.groupprimarykey()};
    return OkStatus();
  }

  Status Apply(const pb::GrpcReferenceAttributeMutation& m) {
    WARMUP_ASSIGN_OR_RETURN(Reference * reference,
                            Inserted(m.referencename(), m.referenceprimarykey(), m.internalprimarykey()));
    if (!m.attributemutation().has_upsertattributemutation()) {
      return UnimplementedError("only upserts of reference attributes apply to a new entity");
    }
    return ApplyUpsertAttribute(m.attributemutation().upsertattributemutation(), &reference->attributes)
        .WithContext(ReferenceLabel(m.referencename(), m.referenceprimarykey()));
  }

 private:
  // The reference this mutation inserted under `internal_id` (a negative id,
  // as evitaDB's client assigns to references it creates).
  StatusOr<Reference*> Inserted(const std::string& name, int32_t pk, int32_t internal_id) {
    auto it = reference_by_internal_id_.find(internal_id);
    if (it == reference_by_internal_id_.end() || entity_.references[it->second].name != name ||
        entity_.references[it->second].referenced.primary_key != pk) {
      return InvalidArgumentError(ReferenceLabel(name, pk) + " (internal id " + std::to_string(internal_id) +
                                  ") was not inserted by this mutation");
    }
    return &entity_.references[it->second];
  }

  const EntitySchema& schema_;
  Entity& entity_;
  // A reference's internal id to its index in entity_.references.
  std::map<int32_t, size_t> reference_by_internal_id_;
};

Status ApplyLocal(const pb::GrpcLocalMutation& local, EntityBuilder* builder) {
  using M = pb::GrpcLocalMutation;
  switch (local.mutation_case()) {
    case M::kSetEntityScopeMutation:
      return builder->Apply(local.setentityscopemutation());
    case M::kSetParentMutation:
      return builder->Apply(local.setparentmutation());
    case M::kUpsertAttributeMutation:
      return builder->Apply(local.upsertattributemutation());
    case M::kUpsertAssociatedDataMutation:
      return builder->Apply(local.upsertassociateddatamutation());
    case M::kSetPriceInnerRecordHandlingMutation:
      return builder->Apply(local.setpriceinnerrecordhandlingmutation());
    case M::kUpsertPriceMutation:
      return builder->Apply(local.upsertpricemutation());
    case M::kInsertReferenceMutation:
      return builder->Apply(local.insertreferencemutation());
    case M::kSetReferenceGroupMutation:
      return builder->Apply(local.setreferencegroupmutation());
    case M::kReferenceAttributeMutation:
      return builder->Apply(local.referenceattributemutation());
    case M::MUTATION_NOT_SET:
      return InvalidArgumentError("no mutation set");
    default:
      return UnimplementedError("mutation kind " + std::to_string(local.mutation_case()) +
                                " (a removal or delta) has no meaning on a new entity");
  }
}

}  // namespace

StatusOr<Entity> EntityFromUpsertMutation(const pb::GrpcEntityUpsertMutation& mutation,
                                          const EntitySchema& schema) {
  Entity entity;
  entity.type = mutation.entitytype();
  const std::string label =
      "entity " + entity.type + "/" +
      (mutation.has_entityprimarykey() ? std::to_string(mutation.entityprimarykey().value()) : "?");
  if (entity.type != schema.name) {
    return InvalidArgumentError("entityType: expected " + schema.name).WithContext(label);
  }
  if (!mutation.has_entityprimarykey())
    return InvalidArgumentError("entityPrimaryKey: unset").WithContext(label);
  entity.primary_key = mutation.entityprimarykey().value();
  EntityBuilder builder(schema, &entity);
  for (int i = 0; i < mutation.mutations_size(); ++i) {
    if (Status s = ApplyLocal(mutation.mutations(i), &builder); !s.ok()) {
      return s.WithContext("mutations[" + std::to_string(i) + "]").WithContext(label);
    }
  }
  entity.locales = DeriveLocales(entity);
  return entity;
}

}  // namespace warmup::codec
