#include "codec/entity_convert.h"

#include <string>

#include "base/status_macros.h"
#include "codec/entity_fields.h"
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

std::string ReferenceLabel(const std::string& name, int32_t pk) {
  return "reference '" + name + "' -> " + std::to_string(pk);
}

}  // namespace warmup::codec
