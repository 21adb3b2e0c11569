#include "warmup/value.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>
#include <cstring>
#include <limits>
#include <utility>

namespace warmup {
namespace {

struct TypeInfo {
  ValueType type;
  std::string_view name;
};

constexpr std::array kTypes = {
    TypeInfo{ValueType::kString, "STRING"},
    TypeInfo{ValueType::kByte, "BYTE"},
    TypeInfo{ValueType::kShort, "SHORT"},
    TypeInfo{ValueType::kInteger, "INTEGER"},
    TypeInfo{ValueType::kLong, "LONG"},
    TypeInfo{ValueType::kBoolean, "BOOLEAN"},
    TypeInfo{ValueType::kCharacter, "CHARACTER"},
    TypeInfo{ValueType::kBigDecimal, "BIG_DECIMAL"},
    TypeInfo{ValueType::kOffsetDateTime, "OFFSET_DATE_TIME"},
    TypeInfo{ValueType::kLocalDateTime, "LOCAL_DATE_TIME"},
    TypeInfo{ValueType::kLocalDate, "LOCAL_DATE"},
    TypeInfo{ValueType::kLocalTime, "LOCAL_TIME"},
    TypeInfo{ValueType::kDateTimeRange, "DATE_TIME_RANGE"},
    TypeInfo{ValueType::kBigDecimalNumberRange, "BIG_DECIMAL_NUMBER_RANGE"},
    TypeInfo{ValueType::kLongNumberRange, "LONG_NUMBER_RANGE"},
    TypeInfo{ValueType::kIntegerNumberRange, "INTEGER_NUMBER_RANGE"},
    TypeInfo{ValueType::kShortNumberRange, "SHORT_NUMBER_RANGE"},
    TypeInfo{ValueType::kByteNumberRange, "BYTE_NUMBER_RANGE"},
    TypeInfo{ValueType::kLocale, "LOCALE"},
    TypeInfo{ValueType::kCurrency, "CURRENCY"},
    TypeInfo{ValueType::kUuid, "UUID"},
    TypeInfo{ValueType::kPredecessor, "PREDECESSOR"},
    TypeInfo{ValueType::kReferencedEntityPredecessor, "REFERENCED_ENTITY_PREDECESSOR"},
    TypeInfo{ValueType::kStringArray, "STRING_ARRAY"},
    TypeInfo{ValueType::kByteArray, "BYTE_ARRAY"},
    TypeInfo{ValueType::kShortArray, "SHORT_ARRAY"},
    TypeInfo{ValueType::kIntegerArray, "INTEGER_ARRAY"},
    TypeInfo{ValueType::kLongArray, "LONG_ARRAY"},
    TypeInfo{ValueType::kBooleanArray, "BOOLEAN_ARRAY"},
    TypeInfo{ValueType::kCharacterArray, "CHARACTER_ARRAY"},
    TypeInfo{ValueType::kBigDecimalArray, "BIG_DECIMAL_ARRAY"},
    TypeInfo{ValueType::kOffsetDateTimeArray, "OFFSET_DATE_TIME_ARRAY"},
    TypeInfo{ValueType::kLocalDateTimeArray, "LOCAL_DATE_TIME_ARRAY"},
    TypeInfo{ValueType::kLocalDateArray, "LOCAL_DATE_ARRAY"},
    TypeInfo{ValueType::kLocalTimeArray, "LOCAL_TIME_ARRAY"},
    TypeInfo{ValueType::kDateTimeRangeArray, "DATE_TIME_RANGE_ARRAY"},
    TypeInfo{ValueType::kBigDecimalNumberRangeArray, "BIG_DECIMAL_NUMBER_RANGE_ARRAY"},
    TypeInfo{ValueType::kLongNumberRangeArray, "LONG_NUMBER_RANGE_ARRAY"},
    TypeInfo{ValueType::kIntegerNumberRangeArray, "INTEGER_NUMBER_RANGE_ARRAY"},
    TypeInfo{ValueType::kShortNumberRangeArray, "SHORT_NUMBER_RANGE_ARRAY"},
    TypeInfo{ValueType::kByteNumberRangeArray, "BYTE_NUMBER_RANGE_ARRAY"},
    TypeInfo{ValueType::kLocaleArray, "LOCALE_ARRAY"},
    TypeInfo{ValueType::kCurrencyArray, "CURRENCY_ARRAY"},
    TypeInfo{ValueType::kUuidArray, "UUID_ARRAY"},
};

constexpr int64_t kSecondsPerDay = 86'400;
constexpr int32_t kMaxOffsetSeconds = 18 * 3600;

// The Scalar alternative index a scalar type uses.
size_t AlternativeOf(ValueType scalar_type) {
  switch (scalar_type) {
    case ValueType::kString:
    case ValueType::kCharacter:
      return 0;
    case ValueType::kByte:
    case ValueType::kShort:
    case ValueType::kInteger:
    case ValueType::kLong:
      return 1;
    case ValueType::kBoolean:
      return 2;
    case ValueType::kBigDecimal:
      return 3;
    case ValueType::kOffsetDateTime:
    case ValueType::kLocalDateTime:
    case ValueType::kLocalDate:
    case ValueType::kLocalTime:
      return 4;
    case ValueType::kDateTimeRange:
      return 5;
    case ValueType::kBigDecimalNumberRange:
      return 6;
    case ValueType::kLongNumberRange:
    case ValueType::kIntegerNumberRange:
    case ValueType::kShortNumberRange:
    case ValueType::kByteNumberRange:
      return 7;
    case ValueType::kLocale:
      return 8;
    case ValueType::kCurrency:
      return 9;
    case ValueType::kUuid:
      return 10;
    case ValueType::kPredecessor:
    case ValueType::kReferencedEntityPredecessor:
      return 11;
    default:
      return std::variant_npos;
  }
}

// The inclusive integer bounds of an integer or integer-range type.
std::pair<int64_t, int64_t> IntegerBounds(ValueType type) {
  switch (type) {
    case ValueType::kByte:
    case ValueType::kByteNumberRange:
      return {std::numeric_limits<int8_t>::min(), std::numeric_limits<int8_t>::max()};
    case ValueType::kShort:
    case ValueType::kShortNumberRange:
      return {std::numeric_limits<int16_t>::min(), std::numeric_limits<int16_t>::max()};
    case ValueType::kInteger:
    case ValueType::kIntegerNumberRange:
      return {std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max()};
    default:
      return {std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max()};
  }
}

// Counts UTF-16 code units of valid UTF-8 `text`; -1 when it is not valid UTF-8.
int Utf16Length(std::string_view text) {
  // Fast path: pure ASCII, checked eight bytes at a time.
  size_t ascii = 0;
  for (; ascii + 8 <= text.size(); ascii += 8) {
    uint64_t word;
    std::memcpy(&word, text.data() + ascii, 8);
    if (word & 0x8080808080808080ull) break;
  }
  int units = static_cast<int>(ascii);
  for (size_t i = ascii; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    size_t len = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
    if (len == 0 || i + len > text.size()) return -1;
    for (size_t k = 1; k < len; ++k) {
      if ((static_cast<unsigned char>(text[i + k]) >> 6) != 0x2) return -1;
    }
    units += len == 4 ? 2 : 1;
    i += len;
  }
  return units;
}

Status CheckDateTime(ValueType type, const DateTime& dt) {
  if (dt.nanos < 0 || dt.nanos > 999'999'999) {
    return InvalidArgumentError("nanos " + std::to_string(dt.nanos) + " outside [0, 999999999]");
  }
  if (dt.offset_seconds < -kMaxOffsetSeconds || dt.offset_seconds > kMaxOffsetSeconds) {
    return InvalidArgumentError("offset of " + std::to_string(dt.offset_seconds) + " s is beyond +-18:00");
  }
  if (type != ValueType::kOffsetDateTime && type != ValueType::kDateTimeRange && dt.offset_seconds != 0) {
    return InvalidArgumentError("a local date/time carries no offset");
  }
  if (type == ValueType::kLocalDate && (dt.nanos != 0 || dt.epoch_seconds % kSecondsPerDay != 0)) {
    return InvalidArgumentError("a LocalDate must be midnight UTC of its day");
  }
  if (type == ValueType::kLocalTime && (dt.epoch_seconds < 0 || dt.epoch_seconds >= kSecondsPerDay)) {
    return InvalidArgumentError("a LocalTime must be a second of the day in [0, 86400)");
  }
  return OkStatus();
}

Status CheckScalar(ValueType type, const Scalar& item) {
  if (item.index() != AlternativeOf(type)) {
    return InvalidArgumentError("item does not hold the C++ type that " + std::string(ValueTypeName(type)) +
                                " uses");
  }
  switch (type) {
    case ValueType::kCharacter:
      if (Utf16Length(std::get<std::string>(item)) != 1) {
        return InvalidArgumentError("a Character must be exactly one UTF-16 code unit");
      }
      return OkStatus();
    case ValueType::kString:
      if (Utf16Length(std::get<std::string>(item)) < 0) {
        return InvalidArgumentError("string is not valid UTF-8");
      }
      return OkStatus();
    case ValueType::kByte:
    case ValueType::kShort:
    case ValueType::kInteger: {
      const auto [lo, hi] = IntegerBounds(type);
      const int64_t n = std::get<int64_t>(item);
      if (n < lo || n > hi) {
        return InvalidArgumentError(std::to_string(n) + " does not fit " + std::string(ValueTypeName(type)));
      }
      return OkStatus();
    }
    case ValueType::kOffsetDateTime:
    case ValueType::kLocalDateTime:
    case ValueType::kLocalDate:
    case ValueType::kLocalTime:
      return CheckDateTime(type, std::get<DateTime>(item));
    case ValueType::kDateTimeRange: {
      const auto& range = std::get<DateTimeRange>(item);
      for (const auto* side : {&range.from, &range.to}) {
        if (*side) {
          if (Status s = CheckDateTime(type, **side); !s.ok()) return s;
        }
      }
      return OkStatus();
    }
    case ValueType::kLongNumberRange:
    case ValueType::kIntegerNumberRange:
    case ValueType::kShortNumberRange:
    case ValueType::kByteNumberRange: {
      const auto [lo, hi] = IntegerBounds(type);
      const auto& range = std::get<NumberRange>(item);
      for (const auto* side : {&range.from, &range.to}) {
        if (*side && (**side < lo || **side > hi)) {
          return InvalidArgumentError("range bound " + std::to_string(**side) + " does not fit " +
                                      std::string(ValueTypeName(type)));
        }
      }
      return OkStatus();
    }
    case ValueType::kLocale:
      if (std::get<Locale>(item).tag().empty()) return InvalidArgumentError("empty locale");
      return OkStatus();
    case ValueType::kCurrency:
      if (std::get<Currency>(item).code().empty()) return InvalidArgumentError("empty currency");
      return OkStatus();
    default:
      return OkStatus();
  }
}

bool IsAlpha(char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; }
bool IsAlnum(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }
bool IsDigit(char c) { return c >= '0' && c <= '9'; }

std::string ScalarString(const Scalar& item) {
  return std::visit(
      [](const auto& v) -> std::string {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, std::string>) {
          return "\"" + v + "\"";
        } else if constexpr (std::is_same_v<T, int64_t>) {
          return std::to_string(v);
        } else if constexpr (std::is_same_v<T, bool>) {
          return v ? "true" : "false";
        } else if constexpr (std::is_same_v<T, BigDecimal>) {
          return v.text();
        } else if constexpr (std::is_same_v<T, DateTime>) {
          return "@" + std::to_string(v.epoch_seconds) + "." + std::to_string(v.nanos) +
                 FormatZoneOffset(v.offset_seconds);
        } else if constexpr (std::is_same_v<T, DateTimeRange>) {
          auto side = [](const std::optional<DateTime>& d) {
            return d ? std::to_string(d->epoch_seconds) : std::string();
          };
          return "[" + side(v.from) + ".." + side(v.to) + "]";
        } else if constexpr (std::is_same_v<T, BigDecimalRange>) {
          return "[" + (v.from ? v.from->text() : "") + ".." + (v.to ? v.to->text() : "") + "]";
        } else if constexpr (std::is_same_v<T, NumberRange>) {
          return "[" + (v.from ? std::to_string(*v.from) : "") + ".." + (v.to ? std::to_string(*v.to) : "") +
                 "]";
        } else if constexpr (std::is_same_v<T, Locale>) {
          return v.tag();
        } else if constexpr (std::is_same_v<T, Currency>) {
          return v.code();
        } else if constexpr (std::is_same_v<T, Uuid>) {
          char buf[40];
          std::snprintf(buf, sizeof(buf), "%016llx%016llx",
                        static_cast<unsigned long long>(v.most_significant),
                        static_cast<unsigned long long>(v.least_significant));
          return buf;
        } else {
          return v.predecessor_pk ? "after " + std::to_string(*v.predecessor_pk) : "head";
        }
      },
      item);
}

}  // namespace

const std::vector<ValueType>& AllValueTypes() {
  static const std::vector<ValueType> kAll = [] {
    std::vector<ValueType> all;
    all.reserve(kTypes.size());
    for (const auto& info : kTypes) all.push_back(info.type);
    return all;
  }();
  return kAll;
}

bool IsArrayType(ValueType type) {
  const int n = static_cast<int>(type);
  return n >= 50 && n <= 70;
}

std::string_view WhyEvitaCannotTakeOverGrpc(ValueType type, TypeUse use) {
  if (type == ValueType::kCharacterArray) {
    return "evitaDB defines a CHARACTER_ARRAY item sent over gRPC as CHARACTER, then refuses every array "
           "value (EvitaDataTypesConverter.toEvitaDataType: an evitaDB defect)";
  }
  if (use == TypeUse::kAttribute && ElementType(type) == ValueType::kLocalDateTime) {
    return "evitaDB's UpsertAttributeMutation turns a LocalDateTime into an OffsetDateTime "
           "(EvitaDataTypes.toSupportedTypeOrItsArray), so it refuses every value of a LOCAL_DATE_TIME "
           "attribute (an evitaDB defect, since its commit 016d93255 of 2026-03-27)";
  }
  if (use != TypeUse::kAssociatedData) return "";
  switch (ElementType(type)) {
    case ValueType::kBigDecimalNumberRange:
    case ValueType::kLongNumberRange:
    case ValueType::kIntegerNumberRange:
    case ValueType::kShortNumberRange:
    case ValueType::kByteNumberRange:
      return "evitaDB cannot define associated data of a number-range type over gRPC: it maps the "
             "associated-data type onto GrpcEvitaDataType by name, where these are *_NUMBER_RANGE, and "
             "answers INTERNAL with no message (EvitaDataTypesConverter.toEvitaDataType: an evitaDB defect)";
    default:
      return "";
  }
}

ValueType ElementType(ValueType type) {
  // Each array type's number is its element type's number plus 50.
  return IsArrayType(type) ? static_cast<ValueType>(static_cast<int>(type) - 50) : type;
}

std::optional<ValueType> ArrayTypeOf(ValueType type) {
  if (IsArrayType(type)) return std::nullopt;
  for (const auto& info : kTypes) {
    if (IsArrayType(info.type) && ElementType(info.type) == type) return info.type;
  }
  return std::nullopt;
}

std::string_view ValueTypeName(ValueType type) {
  if (type == ValueType::kComplexDataObject) return "COMPLEX_DATA_OBJECT";
  for (const auto& info : kTypes) {
    if (info.type == type) return info.name;
  }
  return "UNKNOWN_TYPE";
}

std::optional<ValueType> ValueTypeFromNumber(int number) {
  for (const auto& info : kTypes) {
    if (static_cast<int>(info.type) == number) return info.type;
  }
  return std::nullopt;
}

StatusOr<BigDecimal> BigDecimal::Parse(std::string_view text) {
  auto bad = [&] { return InvalidArgumentError("BigDecimal '" + std::string(text) + "' does not parse"); };
  size_t i = 0;
  if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
  size_t digits = 0;
  while (i < text.size() && IsDigit(text[i])) ++i, ++digits;
  if (i < text.size() && text[i] == '.') {
    ++i;
    while (i < text.size() && IsDigit(text[i])) ++i, ++digits;
  }
  if (digits == 0) return bad();
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
    size_t exponent_digits = 0;
    while (i < text.size() && IsDigit(text[i])) ++i, ++exponent_digits;
    if (exponent_digits == 0 || exponent_digits > 9) return bad();
  }
  if (i != text.size()) return bad();
  return BigDecimal(std::string(text));
}

namespace {

// A BigDecimal's text as sign, significant digits and the power of ten of
// the last digit: "-12.50" is {-1, "125", -1}; zero is {0, "", 0}.
struct Decimal {
  int sign = 0;
  std::string digits;
  int64_t exponent = 0;
};
Decimal Normalize(const std::string& text) {
  Decimal d;
  size_t i = 0;
  bool negative = false;
  if (i < text.size() && (text[i] == '+' || text[i] == '-')) negative = text[i++] == '-';
  int64_t fraction = 0;
  bool in_fraction = false;
  for (; i < text.size() && text[i] != 'e' && text[i] != 'E'; ++i) {
    if (text[i] == '.') {
      in_fraction = true;
      continue;
    }
    d.digits.push_back(text[i]);
    if (in_fraction) ++fraction;
  }
  int64_t exponent = 0;
  if (i < text.size()) exponent = std::stoll(text.substr(i + 1));  // at most 9 digits (Parse)
  const size_t first = d.digits.find_first_not_of('0');
  if (first == std::string::npos) return {};
  d.digits.erase(0, first);
  d.exponent = exponent - fraction;
  while (d.digits.size() > 1 && d.digits.back() == '0') {
    d.digits.pop_back();
    ++d.exponent;
  }
  d.sign = negative ? -1 : 1;
  return d;
}

template <typename T>
Status CheckBounds(const std::optional<T>& from, const std::optional<T>& to, bool from_after_to) {
  if (!from && !to) return InvalidArgumentError("a range needs at least one bound, and this one has neither");
  if (from_after_to) return InvalidArgumentError("a range's from must not be after its to");
  return OkStatus();
}

}  // namespace

int CompareBigDecimals(const BigDecimal& a, const BigDecimal& b) {
  const Decimal x = Normalize(a.text());
  const Decimal y = Normalize(b.text());
  if (x.sign != y.sign) return x.sign < y.sign ? -1 : 1;
  if (x.sign == 0) return 0;
  // Magnitudes: the power of ten of the leading digit first, then the digits.
  const int64_t x_lead = x.exponent + static_cast<int64_t>(x.digits.size());
  const int64_t y_lead = y.exponent + static_cast<int64_t>(y.digits.size());
  int magnitude = 0;
  if (x_lead != y_lead) {
    magnitude = x_lead < y_lead ? -1 : 1;
  } else {
    const int c = x.digits.compare(y.digits);  // same leading power: digit by digit, shorter is smaller
    magnitude = c < 0 ? -1 : (c > 0 ? 1 : 0);
  }
  return x.sign * magnitude;
}

Status CheckRangeBounds(const DateTimeRange& range) {
  const bool after = range.from && range.to &&
                     std::pair(range.from->epoch_seconds, range.from->nanos) >
                         std::pair(range.to->epoch_seconds, range.to->nanos);
  return CheckBounds(range.from, range.to, after);
}

Status CheckRangeBounds(const BigDecimalRange& range) {
  const bool after = range.from && range.to && CompareBigDecimals(*range.from, *range.to) > 0;
  return CheckBounds(range.from, range.to, after);
}

Status CheckRangeBounds(const NumberRange& range) {
  return CheckBounds(range.from, range.to, range.from && range.to && *range.from > *range.to);
}

std::string FormatZoneOffset(int32_t offset_seconds) {
  if (offset_seconds == 0) return "Z";
  const char sign = offset_seconds < 0 ? '-' : '+';
  int32_t abs = offset_seconds < 0 ? -offset_seconds : offset_seconds;
  char buf[16];
  if (abs % 60 != 0) {
    std::snprintf(buf, sizeof(buf), "%c%02d:%02d:%02d", sign, abs / 3600, abs / 60 % 60, abs % 60);
  } else {
    std::snprintf(buf, sizeof(buf), "%c%02d:%02d", sign, abs / 3600, abs / 60 % 60);
  }
  return buf;
}

StatusOr<int32_t> ParseZoneOffset(std::string_view text) {
  auto bad = [&] { return InvalidArgumentError("zone offset '" + std::string(text) + "' does not parse"); };
  if (text == "Z") return 0;
  if (text.size() < 2 || (text[0] != '+' && text[0] != '-')) return bad();
  std::string digits;
  for (size_t i = 1; i < text.size(); ++i) {
    if (IsDigit(text[i])) {
      digits += text[i];
    } else if (text[i] != ':' || i == 1 || i + 1 == text.size()) {
      return bad();
    }
  }
  const bool has_colon = text.find(':') != std::string_view::npos;
  int hours = 0;
  int minutes = 0;
  int seconds = 0;
  if (digits.size() == 1 && !has_colon) {
    hours = digits[0] - '0';
  } else if (digits.size() == 2 || digits.size() == 4 || digits.size() == 6) {
    hours = std::stoi(digits.substr(0, 2));
    if (digits.size() >= 4) minutes = std::stoi(digits.substr(2, 2));
    if (digits.size() == 6) seconds = std::stoi(digits.substr(4, 2));
    if (has_colon && text.size() != 1 + digits.size() + digits.size() / 2 - 1) return bad();
  } else {
    return bad();
  }
  if (minutes > 59 || seconds > 59) return bad();
  const int32_t total = hours * 3600 + minutes * 60 + seconds;
  if (total > kMaxOffsetSeconds) return bad();
  return text[0] == '-' ? -total : total;
}

StatusOr<Locale> Locale::Parse(std::string_view tag) {
  auto bad = [&](std::string_view why) {
    return InvalidArgumentError("locale '" + std::string(tag) + "' is not a BCP 47 language tag (" +
                                std::string(why) + ")");
  };
  if (tag.empty()) return bad("empty");
  size_t start = 0;
  bool first = true;
  bool after_singleton = false;
  while (true) {
    const size_t end = std::min(tag.find('-', start), tag.size());
    const std::string_view subtag = tag.substr(start, end - start);
    if (subtag.empty()) return bad("empty subtag");
    if (subtag.size() > 8) return bad("subtag longer than 8 characters");
    if (first) {
      if (subtag.size() < 2 || !std::all_of(subtag.begin(), subtag.end(), IsAlpha)) {
        return bad("language must be 2 to 8 letters");
      }
    } else if (!std::all_of(subtag.begin(), subtag.end(), IsAlnum)) {
      return bad("subtags are letters and digits");
    }
    after_singleton = !first && subtag.size() == 1;
    first = false;
    if (end == tag.size()) break;
    start = end + 1;
  }
  if (after_singleton) return bad("extension without a value");
  return Locale(std::string(tag));
}

StatusOr<Currency> Currency::Parse(std::string_view code) {
  if (code.size() != 3 ||
      !std::all_of(code.begin(), code.end(), [](char c) { return c >= 'A' && c <= 'Z'; })) {
    return InvalidArgumentError("currency '" + std::string(code) + "' is not an ISO 4217 code");
  }
  return Currency(std::string(code));
}

Value::Value() : type_(ValueType::kString) {}

StatusOr<Value> Value::Make(ValueType type, std::vector<Scalar> items) {
  if (type == ValueType::kComplexDataObject || ValueTypeName(type) == "UNKNOWN_TYPE") {
    return InvalidArgumentError("value type " + std::to_string(static_cast<int>(type)) +
                                " cannot hold a primitive value");
  }
  if (!IsArrayType(type) && items.size() != 1) {
    return InvalidArgumentError(std::string(ValueTypeName(type)) + " needs exactly one item, got " +
                                std::to_string(items.size()));
  }
  const ValueType element = ElementType(type);
  for (size_t i = 0; i < items.size(); ++i) {
    if (Status s = CheckScalar(element, items[i]); !s.ok()) {
      return s.WithContext(std::string(ValueTypeName(type)) +
                           (IsArrayType(type) ? " item " + std::to_string(i) : ""));
    }
  }
  if (IsArrayType(type)) return Value(type, std::move(items));
  return Value(type, std::move(items.front()));
}

Value Value::String(std::string text) { return Value(ValueType::kString, Scalar(std::move(text))); }
Value Value::Integer(int32_t number) { return Value(ValueType::kInteger, Scalar(int64_t{number})); }
Value Value::Long(int64_t number) { return Value(ValueType::kLong, Scalar(number)); }
Value Value::Boolean(bool flag) { return Value(ValueType::kBoolean, Scalar(flag)); }

ValueType AssociatedDataValue::type() const {
  if (const auto* value = std::get_if<Value>(&content)) return value->type();
  return ValueType::kComplexDataObject;
}

std::string DebugString(const Value& value) {
  if (!value.is_array()) return ScalarString(value.scalar());
  std::string out = "[";
  for (size_t i = 0; i < value.items().size(); ++i) {
    if (i > 0) out += ", ";
    out += ScalarString(value.items()[i]);
  }
  return out + "]";
}

}  // namespace warmup
