#include "codec/entity_convert.h"

#include <string>

#include "base/status_macros.h"
#include "codec/value_convert.h"

// Older evitaDB servers send deprecated single-scope fields (sellable, unique,
// filterable, indexed, ...); reading them is the point, so the warning goes.
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

namespace warmup::codec {
namespace {

using AttributeProtoMap = google::protobuf::Map<std::string, pb::GrpcEvitaValue>;
using LocalizedAttributeProtoMap = google::protobuf::Map<std::string, pb::GrpcLocalizedAttribute>;

Status AttributesFromProto(const AttributeProtoMap& global, const LocalizedAttributeProtoMap& localized,
                           Attributes* out) {
  for (const auto& [name, value] : global) {
    auto parsed = ValueFromProto(value);
    if (!parsed.ok()) return parsed.status().WithContext("attribute '" + name + "'");
    out->global.emplace(name, std::move(parsed).value());
  }
  for (const auto& [tag, attributes] : localized) {
    if (auto locale = Locale::Parse(tag); !locale.ok()) {
      return locale.status().WithContext("localized attributes");
    }
    auto& into = out->localized[tag];
    for (const auto& [name, value] : attributes.attributes()) {
      auto parsed = ValueFromProto(value);
      if (!parsed.ok()) return parsed.status().WithContext("attribute '" + name + "' (" + tag + ")");
      into.emplace(name, std::move(parsed).value());
    }
  }
  return OkStatus();
}

void AttributesToProto(const Attributes& attributes, AttributeProtoMap* global,
                       LocalizedAttributeProtoMap* localized) {
  for (const auto& [name, value] : attributes.global) ValueToProto(value, &(*global)[name]);
  for (const auto& [tag, values] : attributes.localized) {
    auto* into = (*localized)[tag].mutable_attributes();
    for (const auto& [name, value] : values) ValueToProto(value, &(*into)[name]);
  }
}

StatusOr<Price> PriceFromProto(const pb::GrpcPrice& p) {
  Price price;
  price.price_id = p.priceid();
  price.price_list = p.pricelist();
  WARMUP_ASSIGN_OR_RETURN(price.currency, CurrencyFromProto(p.currency()));
  if (p.has_innerrecordid()) price.inner_record_id = p.innerrecordid().value();
  auto amount = [](const pb::GrpcBigDecimal& d, bool present, const char* field) -> StatusOr<BigDecimal> {
    if (!present) return InvalidArgumentError(std::string(field) + ": unset");
    auto parsed = BigDecimalFromProto(d);
    if (!parsed.ok()) return parsed.status().WithContext(field);
    return parsed;
  };
  WARMUP_ASSIGN_OR_RETURN(price.price_without_tax,
                          amount(p.pricewithouttax(), p.has_pricewithouttax(), "priceWithoutTax"));
  WARMUP_ASSIGN_OR_RETURN(price.tax_rate, amount(p.taxrate(), p.has_taxrate(), "taxRate"));
  WARMUP_ASSIGN_OR_RETURN(price.price_with_tax,
                          amount(p.pricewithtax(), p.has_pricewithtax(), "priceWithTax"));
  if (p.has_validity()) {
    auto validity = DateTimeRangeFromProto(p.validity());
    if (!validity.ok()) return validity.status().WithContext("validity");
    price.validity = *validity;
  }
  price.indexed = p.indexed() || p.sellable();
  return price;
}

// Fields shared by GrpcPrice and GrpcUpsertPriceMutation (whose `indexed`
// numbers differ, 11 and 10, but whose generated accessors agree).
template <typename PriceMessage>
void PriceToProto(const Price& price, PriceMessage* out) {
  out->set_priceid(price.price_id);
  out->set_pricelist(price.price_list);
  out->mutable_currency()->set_code(price.currency.code());
  if (price.inner_record_id) out->mutable_innerrecordid()->set_value(*price.inner_record_id);
  out->mutable_pricewithouttax()->set_valuestring(price.price_without_tax.text());
  out->mutable_taxrate()->set_valuestring(price.tax_rate.text());
  out->mutable_pricewithtax()->set_valuestring(price.price_with_tax.text());
  if (price.validity) DateTimeRangeToProto(*price.validity, out->mutable_validity());
  out->set_indexed(price.indexed);
}

StatusOr<Reference> ReferenceFromProto(const pb::GrpcReference& r) {
  Reference reference;
  reference.name = r.referencename();
  if (r.has_referencedentityreference()) {
    reference.referenced = {r.referencedentityreference().entitytype(),
                            r.referencedentityreference().primarykey()};
  } else if (r.has_referencedentity()) {
    reference.referenced = {r.referencedentity().entitytype(), r.referencedentity().primarykey()};
  } else {
    return InvalidArgumentError("referencedEntityReference: unset");
  }
  if (r.has_groupreferencedentityreference()) {
    reference.group = EntityRef{r.groupreferencedentityreference().entitytype(),
                                r.groupreferencedentityreference().primarykey()};
  } else if (r.has_groupreferencedentity()) {
    reference.group =
        EntityRef{r.groupreferencedentity().entitytype(), r.groupreferencedentity().primarykey()};
  }
  WARMUP_RETURN_IF_ERROR(
      AttributesFromProto(r.globalattributes(), r.localizedattributes(), &reference.attributes));
  return reference;
}

std::string ReferenceLabel(const std::string& name, int32_t pk) {
  return "reference '" + name + "' -> " + std::to_string(pk);
}

void AddUpsertAttribute(const std::string& name, const std::string& tag, const Value& value,
                        pb::GrpcUpsertAttributeMutation* out) {
  out->set_attributename(name);
  if (!tag.empty()) out->mutable_attributelocale()->set_languagetag(tag);
  ValueToProto(value, out->mutable_attributevalue());
}

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

}  // namespace

StatusOr<Entity> EntityFromProto(const pb::GrpcSealedEntity& proto) {
  Entity entity;
  entity.type = proto.entitytype();
  entity.primary_key = proto.primarykey();
  const std::string label = "entity " + entity.type + "/" + std::to_string(entity.primary_key);
  auto fail = [&](const Status& s) { return s.WithContext(label); };
  if (entity.type.empty()) return fail(InvalidArgumentError("entityType: empty"));
  entity.scope = proto.scope() == pb::SCOPE_ARCHIVED ? Scope::kArchived : Scope::kLive;
  if (proto.has_parent()) entity.parent = proto.parent().value();
  if (Status s =
          AttributesFromProto(proto.globalattributes(), proto.localizedattributes(), &entity.attributes);
      !s.ok()) {
    return fail(s);
  }
  for (const auto& [name, value] : proto.globalassociateddata()) {
    auto parsed = AssociatedDataValueFromProto(value);
    if (!parsed.ok()) return fail(parsed.status().WithContext("associated data '" + name + "'"));
    entity.associated_data.global.emplace(name, std::move(parsed).value());
  }
  for (const auto& [tag, data] : proto.localizedassociateddata()) {
    if (auto locale = Locale::Parse(tag); !locale.ok()) {
      return fail(locale.status().WithContext("localized associated data"));
    }
    for (const auto& [name, value] : data.associateddata()) {
      auto parsed = AssociatedDataValueFromProto(value);
      if (!parsed.ok()) {
        return fail(parsed.status().WithContext("associated data '" + name + "' (" + tag + ")"));
      }
      entity.associated_data.localized[tag].emplace(name, std::move(parsed).value());
    }
  }
  const int handling = proto.priceinnerrecordhandling();
  if (handling < 0 || handling > 3) {
    return fail(InvalidArgumentError("priceInnerRecordHandling: unknown value " + std::to_string(handling)));
  }
  entity.price_inner_record_handling = static_cast<PriceInnerRecordHandling>(handling);
  entity.prices.reserve(proto.prices_size());
  for (int i = 0; i < proto.prices_size(); ++i) {
    auto price = PriceFromProto(proto.prices(i));
    if (!price.ok()) return fail(price.status().WithContext("prices[" + std::to_string(i) + "]"));
    entity.prices.push_back(std::move(price).value());
  }
  entity.references.reserve(proto.references_size());
  for (int i = 0; i < proto.references_size(); ++i) {
    auto reference = ReferenceFromProto(proto.references(i));
    if (!reference.ok()) return fail(reference.status().WithContext("references[" + std::to_string(i) + "]"));
    entity.references.push_back(std::move(reference).value());
  }
  for (int i = 0; i < proto.locales_size(); ++i) {
    auto locale = LocaleFromProto(proto.locales(i));
    if (!locale.ok()) return fail(locale.status().WithContext("locales[" + std::to_string(i) + "]"));
    entity.locales.push_back(std::move(locale).value());
  }
  return entity;
}

void EntityToProto(const Entity& entity, pb::GrpcSealedEntity* out) {
  out->Clear();
  out->set_entitytype(entity.type);
  out->set_primarykey(entity.primary_key);
  out->set_scope(entity.scope == Scope::kArchived ? pb::SCOPE_ARCHIVED : pb::SCOPE_LIVE);
  if (entity.parent) out->mutable_parent()->set_value(*entity.parent);
  AttributesToProto(entity.attributes, out->mutable_globalattributes(), out->mutable_localizedattributes());
  for (const auto& [name, value] : entity.associated_data.global) {
    AssociatedDataValueToProto(value, &(*out->mutable_globalassociateddata())[name]);
  }
  for (const auto& [tag, values] : entity.associated_data.localized) {
    auto* into = (*out->mutable_localizedassociateddata())[tag].mutable_associateddata();
    for (const auto& [name, value] : values) AssociatedDataValueToProto(value, &(*into)[name]);
  }
  out->set_priceinnerrecordhandling(
      static_cast<pb::GrpcPriceInnerRecordHandling>(entity.price_inner_record_handling));
  for (const Price& price : entity.prices) PriceToProto(price, out->add_prices());
  for (const Reference& reference : entity.references) {
    auto* r = out->add_references();
    r->set_referencename(reference.name);
    r->mutable_referencedentityreference()->set_entitytype(reference.referenced.entity_type);
    r->mutable_referencedentityreference()->set_primarykey(reference.referenced.primary_key);
    if (reference.group) {
      r->mutable_groupreferencedentityreference()->set_entitytype(reference.group->entity_type);
      r->mutable_groupreferencedentityreference()->set_primarykey(reference.group->primary_key);
    }
    AttributesToProto(reference.attributes, r->mutable_globalattributes(), r->mutable_localizedattributes());
  }
  for (const Locale& locale : entity.locales) out->add_locales()->set_languagetag(locale.tag());
}

StatusOr<pb::GrpcEntityMutation> EntityToUpsertMutation(const Entity& entity, const EntitySchema& schema,
                                                        Existence existence) {
  pb::GrpcEntityMutation mutation;
  auto* upsert = mutation.mutable_entityupsertmutation();
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
    if (reference_schema->is_reflected()) continue;
    const int32_t internal_id = next_internal_id--;
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
    auto add_reference_attribute = [&](const std::string& name, const std::string& tag, const Value& value) {
      auto* m = upsert->add_mutations()->mutable_referenceattributemutation();
      m->set_referencename(reference.name);
      m->set_referenceprimarykey(pk);
      m->set_internalprimarykey(internal_id);
      AddUpsertAttribute(name, tag, value, m->mutable_attributemutation()->mutable_upsertattributemutation());
    };
    for (const auto& [name, value] : reference.attributes.global) add_reference_attribute(name, "", value);
    for (const auto& [tag, values] : reference.attributes.localized) {
      for (const auto& [name, value] : values) add_reference_attribute(name, tag, value);
    }
  }
  for (const auto& [name, value] : entity.attributes.global) {
    AddUpsertAttribute(name, "", value, upsert->add_mutations()->mutable_upsertattributemutation());
  }
  for (const auto& [tag, values] : entity.attributes.localized) {
    for (const auto& [name, value] : values) {
      AddUpsertAttribute(name, tag, value, upsert->add_mutations()->mutable_upsertattributemutation());
    }
  }
  auto add_associated_data = [&](const std::string& name, const std::string& tag,
                                 const AssociatedDataValue& value) {
    auto* m = upsert->add_mutations()->mutable_upsertassociateddatamutation();
    m->set_associateddataname(name);
    if (!tag.empty()) m->mutable_associateddatalocale()->set_languagetag(tag);
    AssociatedDataValueToProto(value, m->mutable_associateddatavalue());
  };
  for (const auto& [name, value] : entity.associated_data.global) add_associated_data(name, "", value);
  for (const auto& [tag, values] : entity.associated_data.localized) {
    for (const auto& [name, value] : values) add_associated_data(name, tag, value);
  }
  if (schema.with_price && entity.price_inner_record_handling != PriceInnerRecordHandling::kUnknown) {
    upsert->add_mutations()->mutable_setpriceinnerrecordhandlingmutation()->set_priceinnerrecordhandling(
        static_cast<pb::GrpcPriceInnerRecordHandling>(entity.price_inner_record_handling));
  }
  for (const Price& price : entity.prices) {
    PriceToProto(price, upsert->add_mutations()->mutable_upsertpricemutation());
  }
  return mutation;
}

StatusOr<Entity> EntityFromUpsertMutation(const pb::GrpcEntityUpsertMutation& mutation,
                                          const EntitySchema& schema) {
  Entity entity;
  entity.type = mutation.entitytype();
  const std::string label =
      "entity " + entity.type + "/" +
      (mutation.has_entityprimarykey() ? std::to_string(mutation.entityprimarykey().value()) : "?");
  auto fail = [&](const Status& s) { return s.WithContext(label); };
  if (entity.type != schema.name) {
    return fail(InvalidArgumentError("entityType: expected " + schema.name));
  }
  if (!mutation.has_entityprimarykey()) return fail(InvalidArgumentError("entityPrimaryKey: unset"));
  entity.primary_key = mutation.entityprimarykey().value();
  // Maps a reference's negative internal id to its index in entity.references.
  std::map<int32_t, size_t> reference_by_internal_id;
  auto find_reference = [&](const std::string& name, int32_t pk,
                            int32_t internal_id) -> StatusOr<Reference*> {
    auto it = reference_by_internal_id.find(internal_id);
    if (it == reference_by_internal_id.end() || entity.references[it->second].name != name ||
        entity.references[it->second].referenced.primary_key != pk) {
      return InvalidArgumentError(ReferenceLabel(name, pk) + " (internal id " + std::to_string(internal_id) +
                                  ") was not inserted by this mutation");
    }
    return &entity.references[it->second];
  };
  for (int i = 0; i < mutation.mutations_size(); ++i) {
    const pb::GrpcLocalMutation& local = mutation.mutations(i);
    const std::string at = "mutations[" + std::to_string(i) + "]";
    switch (local.mutation_case()) {
      case pb::GrpcLocalMutation::kSetEntityScopeMutation:
        entity.scope =
            local.setentityscopemutation().scope() == pb::SCOPE_ARCHIVED ? Scope::kArchived : Scope::kLive;
        break;
      case pb::GrpcLocalMutation::kSetParentMutation:
        entity.parent = local.setparentmutation().primarykey();
        break;
      case pb::GrpcLocalMutation::kUpsertAttributeMutation:
        if (Status s = ApplyUpsertAttribute(local.upsertattributemutation(), &entity.attributes); !s.ok()) {
          return fail(s.WithContext(at));
        }
        break;
      case pb::GrpcLocalMutation::kUpsertAssociatedDataMutation: {
        const auto& m = local.upsertassociateddatamutation();
        auto value = AssociatedDataValueFromProto(m.associateddatavalue());
        if (!value.ok()) {
          return fail(value.status().WithContext(at + ": associated data '" + m.associateddataname() + "'"));
        }
        const std::string& tag = m.associateddatalocale().languagetag();
        if (tag.empty()) {
          entity.associated_data.global.insert_or_assign(m.associateddataname(), std::move(value).value());
        } else if (auto locale = Locale::Parse(tag); !locale.ok()) {
          return fail(locale.status().WithContext(at + ": associatedDataLocale"));
        } else {
          entity.associated_data.localized[tag].insert_or_assign(m.associateddataname(),
                                                                 std::move(value).value());
        }
        break;
      }
      case pb::GrpcLocalMutation::kSetPriceInnerRecordHandlingMutation: {
        const int handling = local.setpriceinnerrecordhandlingmutation().priceinnerrecordhandling();
        if (handling < 0 || handling > 3) {
          return fail(InvalidArgumentError(at + ": priceInnerRecordHandling: unknown value " +
                                           std::to_string(handling)));
        }
        entity.price_inner_record_handling = static_cast<PriceInnerRecordHandling>(handling);
        break;
      }
      case pb::GrpcLocalMutation::kUpsertPriceMutation: {
        const auto& m = local.upsertpricemutation();
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
        if (!price.ok()) {
          return fail(price.status().WithContext(at + ": price " + std::to_string(m.priceid())));
        }
        auto same_key = [&](const Price& p) {
          return p.price_id == price->price_id && p.price_list == price->price_list &&
                 p.currency == price->currency;
        };
        auto existing = std::find_if(entity.prices.begin(), entity.prices.end(), same_key);
        if (existing != entity.prices.end()) {
          *existing = std::move(price).value();
        } else {
          entity.prices.push_back(std::move(price).value());
        }
        break;
      }
      case pb::GrpcLocalMutation::kInsertReferenceMutation: {
        const auto& m = local.insertreferencemutation();
        const ReferenceSchema* reference_schema = schema.FindReference(m.referencename());
        if (reference_schema == nullptr && !m.has_referencedentitytype()) {
          return fail(InvalidArgumentError(at + ": " +
                                           ReferenceLabel(m.referencename(), m.referenceprimarykey()) +
                                           ": the schema of " + schema.name + " has no such reference"));
        }
        Reference reference;
        reference.name = m.referencename();
        reference.referenced = {m.has_referencedentitytype() ? m.referencedentitytype().value()
                                                             : reference_schema->referenced_entity_type,
                                m.referenceprimarykey()};
        reference_by_internal_id[m.internalprimarykey()] = entity.references.size();
        entity.references.push_back(std::move(reference));
        break;
      }
      case pb::GrpcLocalMutation::kSetReferenceGroupMutation: {
        const auto& m = local.setreferencegroupmutation();
        auto reference = find_reference(m.referencename(), m.referenceprimarykey(), m.internalprimarykey());
        if (!reference.ok()) return fail(reference.status().WithContext(at));
        const ReferenceSchema* reference_schema = schema.FindReference(m.referencename());
        std::string group_type;
        if (m.has_grouptype()) {
          group_type = m.grouptype().value();
        } else if (reference_schema != nullptr && reference_schema->group_type) {
          group_type = *reference_schema->group_type;
        } else {
          return fail(
              InvalidArgumentError(at + ": groupType: unset and the reference schema has no group type"));
        }
        (*reference)->group = EntityRef{group_type, m.groupprimarykey()};
        break;
      }
      case pb::GrpcLocalMutation::kReferenceAttributeMutation: {
        const auto& m = local.referenceattributemutation();
        auto reference = find_reference(m.referencename(), m.referenceprimarykey(), m.internalprimarykey());
        if (!reference.ok()) return fail(reference.status().WithContext(at));
        if (!m.attributemutation().has_upsertattributemutation()) {
          return fail(
              UnimplementedError(at + ": only upserts of reference attributes apply to a new entity"));
        }
        if (Status s = ApplyUpsertAttribute(m.attributemutation().upsertattributemutation(),
                                            &(*reference)->attributes);
            !s.ok()) {
          return fail(s.WithContext(at + ": " + ReferenceLabel(m.referencename(), m.referenceprimarykey())));
        }
        break;
      }
      case pb::GrpcLocalMutation::MUTATION_NOT_SET:
        return fail(InvalidArgumentError(at + ": no mutation set"));
      default:
        return fail(UnimplementedError(at + ": mutation kind " + std::to_string(local.mutation_case()) +
                                       " (a removal or delta) has no meaning on a new entity"));
    }
  }
  entity.locales = DeriveLocales(entity);
  return entity;
}

}  // namespace warmup::codec
