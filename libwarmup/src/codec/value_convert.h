// Conversions between warmup's value model and evitaDB's protocol messages.
// Internal to libwarmup: generated protobuf types never reach include/warmup.
//
// Decoding follows evitaDB's server: the `type` field decides which arm is
// read. Unlike evitaDB, a missing arm is an error rather than a default value,
// so a truncated or mistyped message is reported instead of copied as zeros.
#ifndef WARMUP_SRC_CODEC_VALUE_CONVERT_H_
#define WARMUP_SRC_CODEC_VALUE_CONVERT_H_

#include "GrpcEvitaDataTypes.pb.h"
#include "codec/pb.h"
#include "warmup/schema.h"
#include "warmup/status.h"
#include "warmup/value.h"

namespace warmup::codec {

// Errors: kInvalidArgument naming the field: unknown type number, the arm the
// type needs is unset, a BigDecimal/locale/currency/offset that does not parse.
StatusOr<Value> ValueFromProto(const pb::GrpcEvitaValue& proto);
// Writes `value` into `out` (cleared first). Never sets `version`.
void ValueToProto(const Value& value, pb::GrpcEvitaValue* out);

StatusOr<AssociatedDataValue> AssociatedDataValueFromProto(const pb::GrpcEvitaAssociatedDataValue& proto);
void AssociatedDataValueToProto(const AssociatedDataValue& value, pb::GrpcEvitaAssociatedDataValue* out);

// Value types as evitaDB numbers them in the two protocol enums.
StatusOr<ValueType> ValueTypeFromProto(pb::GrpcEvitaDataType type);
pb::GrpcEvitaDataType ValueTypeToProto(ValueType type);
StatusOr<ValueType> AssociatedDataTypeFromProto(pb::GrpcEvitaAssociatedDataDataType::GrpcEvitaDataType type);
pb::GrpcEvitaAssociatedDataDataType::GrpcEvitaDataType AssociatedDataTypeToProto(ValueType type);

StatusOr<Locale> LocaleFromProto(const pb::GrpcLocale& proto);
StatusOr<Currency> CurrencyFromProto(const pb::GrpcCurrency& proto);
StatusOr<BigDecimal> BigDecimalFromProto(const pb::GrpcBigDecimal& proto);
StatusOr<DateTimeRange> DateTimeRangeFromProto(const pb::GrpcDateTimeRange& proto);
void DateTimeRangeToProto(const DateTimeRange& range, pb::GrpcDateTimeRange* out);

}  // namespace warmup::codec

#endif  // WARMUP_SRC_CODEC_VALUE_CONVERT_H_
