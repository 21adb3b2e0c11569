// What the entity's read model (entity_convert), the client's write model
// (entity_mutations) and the server's interpreter (entity_interpreter) share:
// a price's fields and how errors name a reference. Internal to codec/.
#ifndef WARMUP_SRC_CODEC_ENTITY_FIELDS_H_
#define WARMUP_SRC_CODEC_ENTITY_FIELDS_H_

#include <cstdint>
#include <string>

#include "GrpcEntity.pb.h"
#include "codec/pb.h"
#include "codec/value_convert.h"
#include "warmup/entity.h"
#include "warmup/status.h"

namespace warmup::codec {

// Errors: kInvalidArgument naming the field that is unset or wrong.
StatusOr<Price> PriceFromProto(const pb::GrpcPrice& p);

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

// "reference 'NAME' -> PK", as errors name a reference of an entity.
std::string ReferenceLabel(const std::string& name, int32_t pk);

}  // namespace warmup::codec

#endif  // WARMUP_SRC_CODEC_ENTITY_FIELDS_H_
