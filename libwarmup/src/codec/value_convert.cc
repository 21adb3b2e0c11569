#include "codec/value_convert.h"

#include <string>

#include "base/status_macros.h"

namespace warmup::codec {
namespace {

// Seconds from 0000-01-01T00:00:00Z to the Unix epoch: where evitaDB places a
// LocalTime on the time line.
constexpr int64_t kLocalTimeBaseSeconds = -62'167'219'200;
constexpr int64_t kSecondsPerDay = 86'400;

int64_t FloorMod(int64_t a, int64_t b) { return ((a % b) + b) % b; }

StatusOr<DateTime> DateTimeFromProto(ValueType type, const pb::GrpcOffsetDateTime& proto) {
  if (proto.offset().empty()) return InvalidArgumentError("offset: empty");
  auto offset = ParseZoneOffset(proto.offset());
  if (!offset.ok()) return offset.status().WithContext("offset");
  const auto& ts = proto.timestamp();
  if (ts.nanos() < 0 || ts.nanos() > 999'999'999) {
    return InvalidArgumentError("timestamp.nanos: " + std::to_string(ts.nanos()) + " out of range");
  }
  DateTime dt{ts.seconds(), ts.nanos(), *offset};
  const int64_t local_seconds = ts.seconds() + *offset;
  switch (type) {
    case ValueType::kLocalDateTime:
      return DateTime{local_seconds, ts.nanos(), 0};
    case ValueType::kLocalDate:
      return DateTime{local_seconds - FloorMod(local_seconds, kSecondsPerDay), 0, 0};
    case ValueType::kLocalTime:
      return DateTime{FloorMod(local_seconds, kSecondsPerDay), ts.nanos(), 0};
    default:
      return dt;
  }
}

void DateTimeToProto(ValueType type, const DateTime& dt, pb::GrpcOffsetDateTime* out) {
  auto* ts = out->mutable_timestamp();
  ts->set_seconds(type == ValueType::kLocalTime ? kLocalTimeBaseSeconds + dt.epoch_seconds
                                                : dt.epoch_seconds);
  ts->set_nanos(dt.nanos);
  out->set_offset(FormatZoneOffset(dt.offset_seconds));
}

// Reads one scalar of `type` (an element type) from a message of the matching kind.
template <typename Message>
StatusOr<Scalar> ScalarFrom(ValueType type, const Message& m);

template <>
StatusOr<Scalar> ScalarFrom(ValueType type, const pb::GrpcOffsetDateTime& m) {
  WARMUP_ASSIGN_OR_RETURN(DateTime dt, DateTimeFromProto(type, m));
  return Scalar(dt);
}
template <>
StatusOr<Scalar> ScalarFrom(ValueType, const pb::GrpcBigDecimal& m) {
  WARMUP_ASSIGN_OR_RETURN(BigDecimal d, BigDecimalFromProto(m));
  return Scalar(std::move(d));
}
template <>
StatusOr<Scalar> ScalarFrom(ValueType, const pb::GrpcDateTimeRange& m) {
  WARMUP_ASSIGN_OR_RETURN(DateTimeRange r, DateTimeRangeFromProto(m));
  return Scalar(r);
}
template <>
StatusOr<Scalar> ScalarFrom(ValueType, const pb::GrpcBigDecimalNumberRange& m) {
  BigDecimalRange range;
  if (m.has_from()) {
    WARMUP_ASSIGN_OR_RETURN(range.from, BigDecimalFromProto(m.from()));
  }
  if (m.has_to()) {
    WARMUP_ASSIGN_OR_RETURN(range.to, BigDecimalFromProto(m.to()));
  }
  range.decimal_places_to_compare = m.decimalplacestocompare();
  WARMUP_RETURN_IF_ERROR(CheckRangeBounds(range));  // as evitaDB's BigDecimalNumberRange is made
  return Scalar(std::move(range));
}
template <>
StatusOr<Scalar> ScalarFrom(ValueType, const pb::GrpcLongNumberRange& m) {
  NumberRange range;
  if (m.has_from()) range.from = m.from().value();
  if (m.has_to()) range.to = m.to().value();
  WARMUP_RETURN_IF_ERROR(CheckRangeBounds(range));  // as evitaDB's NumberRange is made
  return Scalar(range);
}
template <>
StatusOr<Scalar> ScalarFrom(ValueType, const pb::GrpcIntegerNumberRange& m) {
  NumberRange range;
  if (m.has_from()) range.from = m.from().value();
  if (m.has_to()) range.to = m.to().value();
  WARMUP_RETURN_IF_ERROR(CheckRangeBounds(range));  // as evitaDB's NumberRange is made
  return Scalar(range);
}
template <>
StatusOr<Scalar> ScalarFrom(ValueType, const pb::GrpcLocale& m) {
  WARMUP_ASSIGN_OR_RETURN(Locale l, LocaleFromProto(m));
  return Scalar(std::move(l));
}
template <>
StatusOr<Scalar> ScalarFrom(ValueType, const pb::GrpcCurrency& m) {
  WARMUP_ASSIGN_OR_RETURN(Currency c, CurrencyFromProto(m));
  return Scalar(std::move(c));
}
template <>
StatusOr<Scalar> ScalarFrom(ValueType, const pb::GrpcUuid& m) {
  return Scalar(Uuid{m.mostsignificantbits(), m.leastsignificantbits()});
}
template <>
StatusOr<Scalar> ScalarFrom(ValueType, const pb::GrpcPredecessor& m) {
  if (m.head()) return Scalar(Predecessor{});
  if (!m.has_predecessorid()) return InvalidArgumentError("predecessorId: unset on a non-head predecessor");
  return Scalar(Predecessor{m.predecessorid().value()});
}

// Reads the elements of an array wrapper {repeated T value = 1}.
template <typename ArrayMessage>
StatusOr<std::vector<Scalar>> ElementsFrom(ValueType element, const ArrayMessage& array) {
  std::vector<Scalar> items;
  items.reserve(array.value_size());
  for (int i = 0; i < array.value_size(); ++i) {
    using Element = std::decay_t<decltype(array.value(i))>;
    if constexpr (std::is_same_v<Element, std::string>) {
      items.emplace_back(array.value(i));
    } else if constexpr (std::is_same_v<Element, bool>) {
      items.emplace_back(array.value(i));
    } else if constexpr (std::is_integral_v<Element>) {
      items.emplace_back(int64_t{array.value(i)});
    } else {
      auto item = ScalarFrom(element, array.value(i));
      if (!item.ok()) return item.status().WithContext("value[" + std::to_string(i) + "]");
      items.push_back(std::move(item).value());
    }
  }
  return items;
}

std::string ArmError(ValueType type, std::string_view arm) {
  return "type is " + std::string(ValueTypeName(type)) + " but arm '" + std::string(arm) + "' is unset";
}

StatusOr<std::vector<Scalar>> ItemsFromProto(ValueType type, const pb::GrpcEvitaValue& p) {
  using V = pb::GrpcEvitaValue;
  auto need = [&](V::ValueCase arm, std::string_view name) -> Status {
    return p.value_case() == arm ? OkStatus() : InvalidArgumentError(ArmError(type, name));
  };
  auto one = [](StatusOr<Scalar> s) -> StatusOr<std::vector<Scalar>> {
    if (!s.ok()) return s.status();
    return std::vector<Scalar>{std::move(s).value()};
  };
  const ValueType element = ElementType(type);
  switch (type) {
    case ValueType::kString:
    case ValueType::kCharacter:
      WARMUP_RETURN_IF_ERROR(need(V::kStringValue, "stringValue"));
      return std::vector<Scalar>{p.stringvalue()};
    case ValueType::kByte:
    case ValueType::kShort:
    case ValueType::kInteger:
      WARMUP_RETURN_IF_ERROR(need(V::kIntegerValue, "integerValue"));
      return std::vector<Scalar>{int64_t{p.integervalue()}};
    case ValueType::kLong:
      WARMUP_RETURN_IF_ERROR(need(V::kLongValue, "longValue"));
      return std::vector<Scalar>{int64_t{p.longvalue()}};
    case ValueType::kBoolean:
      WARMUP_RETURN_IF_ERROR(need(V::kBooleanValue, "booleanValue"));
      return std::vector<Scalar>{p.booleanvalue()};
    case ValueType::kBigDecimal:
      WARMUP_RETURN_IF_ERROR(need(V::kBigDecimalValue, "bigDecimalValue"));
      return one(ScalarFrom(type, p.bigdecimalvalue()));
    case ValueType::kOffsetDateTime:
    case ValueType::kLocalDateTime:
    case ValueType::kLocalDate:
    case ValueType::kLocalTime:
      WARMUP_RETURN_IF_ERROR(need(V::kOffsetDateTimeValue, "offsetDateTimeValue"));
      return one(ScalarFrom(type, p.offsetdatetimevalue()));
    case ValueType::kDateTimeRange:
      WARMUP_RETURN_IF_ERROR(need(V::kDateTimeRangeValue, "dateTimeRangeValue"));
      return one(ScalarFrom(type, p.datetimerangevalue()));
    case ValueType::kBigDecimalNumberRange:
      WARMUP_RETURN_IF_ERROR(need(V::kBigDecimalNumberRangeValue, "bigDecimalNumberRangeValue"));
      return one(ScalarFrom(type, p.bigdecimalnumberrangevalue()));
    case ValueType::kLongNumberRange:
      WARMUP_RETURN_IF_ERROR(need(V::kLongNumberRangeValue, "longNumberRangeValue"));
      return one(ScalarFrom(type, p.longnumberrangevalue()));
    case ValueType::kIntegerNumberRange:
    case ValueType::kShortNumberRange:
    case ValueType::kByteNumberRange:
      WARMUP_RETURN_IF_ERROR(need(V::kIntegerNumberRangeValue, "integerNumberRangeValue"));
      return one(ScalarFrom(type, p.integernumberrangevalue()));
    case ValueType::kLocale:
      WARMUP_RETURN_IF_ERROR(need(V::kLocaleValue, "localeValue"));
      return one(ScalarFrom(type, p.localevalue()));
    case ValueType::kCurrency:
      WARMUP_RETURN_IF_ERROR(need(V::kCurrencyValue, "currencyValue"));
      return one(ScalarFrom(type, p.currencyvalue()));
    case ValueType::kUuid:
      WARMUP_RETURN_IF_ERROR(need(V::kUuidValue, "uuidValue"));
      return one(ScalarFrom(type, p.uuidvalue()));
    case ValueType::kPredecessor:
    case ValueType::kReferencedEntityPredecessor:
      WARMUP_RETURN_IF_ERROR(need(V::kPredecessorValue, "predecessorValue"));
      return one(ScalarFrom(type, p.predecessorvalue()));
    case ValueType::kStringArray:
    case ValueType::kCharacterArray:
      WARMUP_RETURN_IF_ERROR(need(V::kStringArrayValue, "stringArrayValue"));
      return ElementsFrom(element, p.stringarrayvalue());
    case ValueType::kByteArray:
    case ValueType::kShortArray:
    case ValueType::kIntegerArray:
      WARMUP_RETURN_IF_ERROR(need(V::kIntegerArrayValue, "integerArrayValue"));
      return ElementsFrom(element, p.integerarrayvalue());
    case ValueType::kLongArray:
      WARMUP_RETURN_IF_ERROR(need(V::kLongArrayValue, "longArrayValue"));
      return ElementsFrom(element, p.longarrayvalue());
    case ValueType::kBooleanArray:
      WARMUP_RETURN_IF_ERROR(need(V::kBooleanArrayValue, "booleanArrayValue"));
      return ElementsFrom(element, p.booleanarrayvalue());
    case ValueType::kBigDecimalArray:
      WARMUP_RETURN_IF_ERROR(need(V::kBigDecimalArrayValue, "bigDecimalArrayValue"));
      return ElementsFrom(element, p.bigdecimalarrayvalue());
    case ValueType::kOffsetDateTimeArray:
    case ValueType::kLocalDateTimeArray:
    case ValueType::kLocalDateArray:
    case ValueType::kLocalTimeArray:
      WARMUP_RETURN_IF_ERROR(need(V::kOffsetDateTimeArrayValue, "offsetDateTimeArrayValue"));
      return ElementsFrom(element, p.offsetdatetimearrayvalue());
    case ValueType::kDateTimeRangeArray:
      WARMUP_RETURN_IF_ERROR(need(V::kDateTimeRangeArrayValue, "dateTimeRangeArrayValue"));
      return ElementsFrom(element, p.datetimerangearrayvalue());
    case ValueType::kBigDecimalNumberRangeArray:
      WARMUP_RETURN_IF_ERROR(need(V::kBigDecimalNumberRangeArrayValue, "bigDecimalNumberRangeArrayValue"));
      return ElementsFrom(element, p.bigdecimalnumberrangearrayvalue());
    case ValueType::kLongNumberRangeArray:
      WARMUP_RETURN_IF_ERROR(need(V::kLongNumberRangeArrayValue, "longNumberRangeArrayValue"));
      return ElementsFrom(element, p.longnumberrangearrayvalue());
    case ValueType::kIntegerNumberRangeArray:
    case ValueType::kShortNumberRangeArray:
    case ValueType::kByteNumberRangeArray:
      WARMUP_RETURN_IF_ERROR(need(V::kIntegerNumberRangeArrayValue, "integerNumberRangeArrayValue"));
      return ElementsFrom(element, p.integernumberrangearrayvalue());
    case ValueType::kLocaleArray:
      WARMUP_RETURN_IF_ERROR(need(V::kLocaleArrayValue, "localeArrayValue"));
      return ElementsFrom(element, p.localearrayvalue());
    case ValueType::kCurrencyArray:
      WARMUP_RETURN_IF_ERROR(need(V::kCurrencyArrayValue, "currencyArrayValue"));
      return ElementsFrom(element, p.currencyarrayvalue());
    case ValueType::kUuidArray:
      WARMUP_RETURN_IF_ERROR(need(V::kUuidArrayValue, "uuidArrayValue"));
      return ElementsFrom(element, p.uuidarrayvalue());
    case ValueType::kComplexDataObject:
      break;
  }
  return InvalidArgumentError("type: " + std::string(ValueTypeName(type)) + " is not a primitive type");
}

// Writes one scalar into the message kind its element type uses.
void ScalarTo(ValueType element, const Scalar& s, pb::GrpcOffsetDateTime* out) {
  DateTimeToProto(element, std::get<DateTime>(s), out);
}
void ScalarTo(ValueType, const Scalar& s, pb::GrpcBigDecimal* out) {
  out->set_valuestring(std::get<BigDecimal>(s).text());
}
void ScalarTo(ValueType, const Scalar& s, pb::GrpcDateTimeRange* out) {
  DateTimeRangeToProto(std::get<DateTimeRange>(s), out);
}
void ScalarTo(ValueType, const Scalar& s, pb::GrpcBigDecimalNumberRange* out) {
  const auto& r = std::get<BigDecimalRange>(s);
  if (r.from) out->mutable_from()->set_valuestring(r.from->text());
  if (r.to) out->mutable_to()->set_valuestring(r.to->text());
  out->set_decimalplacestocompare(r.decimal_places_to_compare);
}
void ScalarTo(ValueType, const Scalar& s, pb::GrpcLongNumberRange* out) {
  const auto& r = std::get<NumberRange>(s);
  if (r.from) out->mutable_from()->set_value(*r.from);
  if (r.to) out->mutable_to()->set_value(*r.to);
}
void ScalarTo(ValueType, const Scalar& s, pb::GrpcIntegerNumberRange* out) {
  const auto& r = std::get<NumberRange>(s);
  if (r.from) out->mutable_from()->set_value(static_cast<int32_t>(*r.from));
  if (r.to) out->mutable_to()->set_value(static_cast<int32_t>(*r.to));
}
void ScalarTo(ValueType, const Scalar& s, pb::GrpcLocale* out) {
  out->set_languagetag(std::get<Locale>(s).tag());
}
void ScalarTo(ValueType, const Scalar& s, pb::GrpcCurrency* out) {
  out->set_code(std::get<Currency>(s).code());
}
void ScalarTo(ValueType, const Scalar& s, pb::GrpcUuid* out) {
  const auto& u = std::get<Uuid>(s);
  out->set_mostsignificantbits(u.most_significant);
  out->set_leastsignificantbits(u.least_significant);
}
void ScalarTo(ValueType, const Scalar& s, pb::GrpcPredecessor* out) {
  const auto& p = std::get<Predecessor>(s);
  out->set_head(!p.predecessor_pk.has_value());
  if (p.predecessor_pk) out->mutable_predecessorid()->set_value(*p.predecessor_pk);
}

template <typename ArrayMessage>
void ElementsTo(ValueType element, std::span<const Scalar> items, ArrayMessage* out) {
  for (const Scalar& s : items) {
    using Element = std::decay_t<decltype(out->value(0))>;
    if constexpr (std::is_same_v<Element, std::string>) {
      out->add_value(std::get<std::string>(s));
    } else if constexpr (std::is_same_v<Element, bool>) {
      out->add_value(std::get<bool>(s));
    } else if constexpr (std::is_integral_v<Element>) {
      out->add_value(static_cast<Element>(std::get<int64_t>(s)));
    } else {
      ScalarTo(element, s, out->add_value());
    }
  }
}

Status DataItemFromProto(const pb::GrpcDataItem& proto, DataItem* out) {
  switch (proto.value_case()) {
    case pb::GrpcDataItem::kPrimitiveValue: {
      WARMUP_ASSIGN_OR_RETURN(Value v, ValueFromProto(proto.primitivevalue()));
      out->content = std::move(v);
      return OkStatus();
    }
    case pb::GrpcDataItem::kArrayValue: {
      DataItem::Array array(proto.arrayvalue().children_size());
      for (int i = 0; i < proto.arrayvalue().children_size(); ++i) {
        Status s = DataItemFromProto(proto.arrayvalue().children(i), &array[i]);
        if (!s.ok()) return s.WithContext("[" + std::to_string(i) + "]");
      }
      out->content = std::move(array);
      return OkStatus();
    }
    case pb::GrpcDataItem::kMapValue: {
      DataItem::Map map;
      for (const auto& [key, child] : proto.mapvalue().data()) {
        Status s = DataItemFromProto(child, &map[key]);
        if (!s.ok()) return s.WithContext("." + key);
      }
      out->content = std::move(map);
      return OkStatus();
    }
    case pb::GrpcDataItem::VALUE_NOT_SET:
      // evitaDB refuses a node with no value (EvitaDataTypesConverter.toDataItem)
      // and never sends one: it leaves a map's null property out.
      return InvalidArgumentError("a complex object's node has no value (evitaDB takes none)");
  }
  return InvalidArgumentError("unknown data item kind");
}

void DataItemToProto(const DataItem& item, pb::GrpcDataItem* out) {
  if (const auto* v = std::get_if<Value>(&item.content)) {
    ValueToProto(*v, out->mutable_primitivevalue());
  } else if (const auto* a = std::get_if<DataItem::Array>(&item.content)) {
    auto* array = out->mutable_arrayvalue();
    for (const DataItem& child : *a) DataItemToProto(child, array->add_children());
  } else if (const auto* m = std::get_if<DataItem::Map>(&item.content)) {
    auto* map = out->mutable_mapvalue()->mutable_data();
    for (const auto& [key, child] : *m) DataItemToProto(child, &(*map)[key]);
  }
}

}  // namespace

StatusOr<ValueType> ValueTypeFromProto(pb::GrpcEvitaDataType type) {
  const auto parsed = ValueTypeFromNumber(static_cast<int>(type));
  if (!parsed) return InvalidArgumentError("type: unknown value type " + std::to_string(type));
  return *parsed;
}

pb::GrpcEvitaDataType ValueTypeToProto(ValueType type) {
  return static_cast<pb::GrpcEvitaDataType>(static_cast<int>(type));
}

StatusOr<ValueType> AssociatedDataTypeFromProto(pb::GrpcEvitaAssociatedDataDataType::GrpcEvitaDataType type) {
  const int number = static_cast<int>(type);
  if (number == pb::GrpcEvitaAssociatedDataDataType::COMPLEX_DATA_OBJECT) {
    return ValueType::kComplexDataObject;
  }
  const auto parsed = ValueTypeFromNumber(number);
  if (!parsed || *parsed == ValueType::kPredecessor || *parsed == ValueType::kReferencedEntityPredecessor) {
    return InvalidArgumentError("type: unknown associated data type " + std::to_string(number));
  }
  return *parsed;
}

pb::GrpcEvitaAssociatedDataDataType::GrpcEvitaDataType AssociatedDataTypeToProto(ValueType type) {
  if (type == ValueType::kComplexDataObject) return pb::GrpcEvitaAssociatedDataDataType::COMPLEX_DATA_OBJECT;
  return static_cast<pb::GrpcEvitaAssociatedDataDataType::GrpcEvitaDataType>(static_cast<int>(type));
}

StatusOr<Value> ValueFromProto(const pb::GrpcEvitaValue& proto) {
  WARMUP_ASSIGN_OR_RETURN(ValueType type, ValueTypeFromProto(proto.type()));
  auto items = ItemsFromProto(type, proto);
  if (!items.ok()) return items.status();
  return Value::Make(type, std::move(items).value());
}

void ValueToProto(const Value& value, pb::GrpcEvitaValue* out) {
  out->Clear();
  const ValueType type = value.type();
  const ValueType element = ElementType(type);
  out->set_type(ValueTypeToProto(type));
  const auto& items = value.items();
  switch (type) {
    case ValueType::kString:
    case ValueType::kCharacter:
      out->set_stringvalue(std::get<std::string>(items[0]));
      break;
    case ValueType::kByte:
    case ValueType::kShort:
    case ValueType::kInteger:
      out->set_integervalue(static_cast<int32_t>(std::get<int64_t>(items[0])));
      break;
    case ValueType::kLong:
      out->set_longvalue(std::get<int64_t>(items[0]));
      break;
    case ValueType::kBoolean:
      out->set_booleanvalue(std::get<bool>(items[0]));
      break;
    case ValueType::kBigDecimal:
      ScalarTo(type, items[0], out->mutable_bigdecimalvalue());
      break;
    case ValueType::kOffsetDateTime:
    case ValueType::kLocalDateTime:
    case ValueType::kLocalDate:
    case ValueType::kLocalTime:
      ScalarTo(type, items[0], out->mutable_offsetdatetimevalue());
      break;
    case ValueType::kDateTimeRange:
      ScalarTo(type, items[0], out->mutable_datetimerangevalue());
      break;
    case ValueType::kBigDecimalNumberRange:
      ScalarTo(type, items[0], out->mutable_bigdecimalnumberrangevalue());
      break;
    case ValueType::kLongNumberRange:
      ScalarTo(type, items[0], out->mutable_longnumberrangevalue());
      break;
    case ValueType::kIntegerNumberRange:
    case ValueType::kShortNumberRange:
    case ValueType::kByteNumberRange:
      ScalarTo(type, items[0], out->mutable_integernumberrangevalue());
      break;
    case ValueType::kLocale:
      ScalarTo(type, items[0], out->mutable_localevalue());
      break;
    case ValueType::kCurrency:
      ScalarTo(type, items[0], out->mutable_currencyvalue());
      break;
    case ValueType::kUuid:
      ScalarTo(type, items[0], out->mutable_uuidvalue());
      break;
    case ValueType::kPredecessor:
    case ValueType::kReferencedEntityPredecessor:
      ScalarTo(type, items[0], out->mutable_predecessorvalue());
      break;
    case ValueType::kStringArray:
    case ValueType::kCharacterArray:
      ElementsTo(element, items, out->mutable_stringarrayvalue());
      break;
    case ValueType::kByteArray:
    case ValueType::kShortArray:
    case ValueType::kIntegerArray:
      ElementsTo(element, items, out->mutable_integerarrayvalue());
      break;
    case ValueType::kLongArray:
      ElementsTo(element, items, out->mutable_longarrayvalue());
      break;
    case ValueType::kBooleanArray:
      ElementsTo(element, items, out->mutable_booleanarrayvalue());
      break;
    case ValueType::kBigDecimalArray:
      ElementsTo(element, items, out->mutable_bigdecimalarrayvalue());
      break;
    case ValueType::kOffsetDateTimeArray:
    case ValueType::kLocalDateTimeArray:
    case ValueType::kLocalDateArray:
    case ValueType::kLocalTimeArray:
      ElementsTo(element, items, out->mutable_offsetdatetimearrayvalue());
      break;
    case ValueType::kDateTimeRangeArray:
      ElementsTo(element, items, out->mutable_datetimerangearrayvalue());
      break;
    case ValueType::kBigDecimalNumberRangeArray:
      ElementsTo(element, items, out->mutable_bigdecimalnumberrangearrayvalue());
      break;
    case ValueType::kLongNumberRangeArray:
      ElementsTo(element, items, out->mutable_longnumberrangearrayvalue());
      break;
    case ValueType::kIntegerNumberRangeArray:
    case ValueType::kShortNumberRangeArray:
    case ValueType::kByteNumberRangeArray:
      ElementsTo(element, items, out->mutable_integernumberrangearrayvalue());
      break;
    case ValueType::kLocaleArray:
      ElementsTo(element, items, out->mutable_localearrayvalue());
      break;
    case ValueType::kCurrencyArray:
      ElementsTo(element, items, out->mutable_currencyarrayvalue());
      break;
    case ValueType::kUuidArray:
      ElementsTo(element, items, out->mutable_uuidarrayvalue());
      break;
    case ValueType::kComplexDataObject:
      break;  // unreachable: Value::Make rejects it
  }
}

StatusOr<AssociatedDataValue> AssociatedDataValueFromProto(const pb::GrpcEvitaAssociatedDataValue& proto) {
  switch (proto.value_case()) {
    case pb::GrpcEvitaAssociatedDataValue::kPrimitiveValue: {
      auto value = ValueFromProto(proto.primitivevalue());
      if (!value.ok()) return value.status().WithContext("primitiveValue");
      return AssociatedDataValue{std::move(value).value()};
    }
    case pb::GrpcEvitaAssociatedDataValue::kRoot: {
      DataItem root;
      Status s = DataItemFromProto(proto.root(), &root);
      if (!s.ok()) return s.WithContext("root");
      // evitaDB's ComplexDataObject refuses a value at its root.
      if (std::holds_alternative<Value>(root.content)) {
        return InvalidArgumentError(
            "root: a complex object's root is a value, not a map or an array (evitaDB takes none)");
      }
      return AssociatedDataValue{std::move(root)};
    }
    case pb::GrpcEvitaAssociatedDataValue::kJsonValue:
      return InvalidArgumentError(
          "jsonValue: legacy JSON complex objects are not supported; the server sends the "
          "structured form when the request carries clientversion >= 2025.4");
    case pb::GrpcEvitaAssociatedDataValue::VALUE_NOT_SET:
      break;
  }
  return InvalidArgumentError("value: no arm set");
}

void AssociatedDataValueToProto(const AssociatedDataValue& value, pb::GrpcEvitaAssociatedDataValue* out) {
  out->Clear();
  out->set_type(AssociatedDataTypeToProto(value.type()));
  if (const auto* primitive = std::get_if<Value>(&value.content)) {
    ValueToProto(*primitive, out->mutable_primitivevalue());
  } else {
    DataItemToProto(std::get<DataItem>(value.content), out->mutable_root());
  }
}

StatusOr<Locale> LocaleFromProto(const pb::GrpcLocale& proto) {
  auto locale = Locale::Parse(proto.languagetag());
  if (!locale.ok()) return locale.status().WithContext("languageTag");
  return locale;
}

StatusOr<Currency> CurrencyFromProto(const pb::GrpcCurrency& proto) {
  auto currency = Currency::Parse(proto.code());
  if (!currency.ok()) return currency.status().WithContext("code");
  return currency;
}

StatusOr<BigDecimal> BigDecimalFromProto(const pb::GrpcBigDecimal& proto) {
  auto decimal = BigDecimal::Parse(proto.valuestring());
  if (!decimal.ok()) return decimal.status().WithContext("valueString");
  return decimal;
}

StatusOr<DateTimeRange> DateTimeRangeFromProto(const pb::GrpcDateTimeRange& proto) {
  DateTimeRange range;
  if (proto.has_from()) {
    auto from = DateTimeFromProto(ValueType::kOffsetDateTime, proto.from());
    if (!from.ok()) return from.status().WithContext("from");
    range.from = *from;
  }
  if (proto.has_to()) {
    auto to = DateTimeFromProto(ValueType::kOffsetDateTime, proto.to());
    if (!to.ok()) return to.status().WithContext("to");
    range.to = *to;
  }
  WARMUP_RETURN_IF_ERROR(CheckRangeBounds(range));  // as evitaDB's DateTimeRange is made
  return range;
}

void DateTimeRangeToProto(const DateTimeRange& range, pb::GrpcDateTimeRange* out) {
  if (range.from) DateTimeToProto(ValueType::kOffsetDateTime, *range.from, out->mutable_from());
  if (range.to) DateTimeToProto(ValueType::kOffsetDateTime, *range.to, out->mutable_to());
}

}  // namespace warmup::codec
