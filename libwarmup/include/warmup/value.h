// The evitaDB value model: every scalar type an attribute, associated data item
// or schema default can hold, their arrays, and complex associated-data objects.
//
// Values are validated when they are made (Value::Make and the Parse functions),
// so a Value in hand is always well formed: a BigDecimal parses, a locale is a
// well-formed BCP 47 tag, a Byte fits in 8 bits. Equality is exact: BigDecimals
// compare by text (2.0 != 2.00, as in Java), date-times by instant and offset.
#ifndef WARMUP_VALUE_H_
#define WARMUP_VALUE_H_

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "warmup/status.h"

namespace warmup {

// The value types, named and numbered as evitaDB's GrpcEvitaDataType, plus
// kComplexDataObject (only valid for associated data, number 21 there).
enum class ValueType : int {
  kString = 0,
  kByte = 1,
  kShort = 2,
  kInteger = 3,
  kLong = 4,
  kBoolean = 5,
  kCharacter = 6,
  kBigDecimal = 7,
  kOffsetDateTime = 8,
  kLocalDateTime = 9,
  kLocalDate = 10,
  kLocalTime = 11,
  kDateTimeRange = 12,
  kBigDecimalNumberRange = 13,
  kLongNumberRange = 14,
  kIntegerNumberRange = 15,
  kShortNumberRange = 16,
  kByteNumberRange = 17,
  kLocale = 18,
  kCurrency = 19,
  kUuid = 20,
  kPredecessor = 21,
  kReferencedEntityPredecessor = 22,
  kStringArray = 50,
  kByteArray = 51,
  kShortArray = 52,
  kIntegerArray = 53,
  kLongArray = 54,
  kBooleanArray = 55,
  kCharacterArray = 56,
  kBigDecimalArray = 57,
  kOffsetDateTimeArray = 58,
  kLocalDateTimeArray = 59,
  kLocalDateArray = 60,
  kLocalTimeArray = 61,
  kDateTimeRangeArray = 62,
  kBigDecimalNumberRangeArray = 63,
  kLongNumberRangeArray = 64,
  kIntegerNumberRangeArray = 65,
  kShortNumberRangeArray = 66,
  kByteNumberRangeArray = 67,
  kLocaleArray = 68,
  kCurrencyArray = 69,
  kUuidArray = 70,
  kComplexDataObject = 1000,
};

// Every ValueType except kComplexDataObject, in declaration order.
const std::vector<ValueType>& AllValueTypes();
// Returns true for the *Array types.
bool IsArrayType(ValueType type);
// Returns the element type of an array type, or `type` itself for a scalar.
ValueType ElementType(ValueType type);
// Where a schema declares a value type.
enum class TypeUse { kAttribute, kAssociatedData };
// Why evitaDB's server cannot take a schema item (an attribute, of an
// entity or a reference, or associated data) of `type` and its values sent
// over gRPC, or "" when it can. Defects of evitaDB (seen at dev 720796cc):
// its EvitaDataTypesConverter maps an associated-data type onto
// GrpcEvitaDataType by name, where the number ranges are called
// *_NUMBER_RANGE, so associated data of BIG_DECIMAL_, LONG_, INTEGER_, SHORT_
// or BYTE_NUMBER_RANGE (or their arrays) is refused with INTERNAL and no
// message; it maps CHARACTER_ARRAY to Character, so such an item is defined
// as CHARACTER and every array value is then refused; and its
// UpsertAttributeMutation turns a LocalDateTime into an OffsetDateTime, so
// every value of a LOCAL_DATE_TIME (or _ARRAY) attribute is refused. What
// the tiny profile leaves out, the remote target names when the server
// refuses such a schema or value, and `warmup serve` reproduces where
// docs/evitadb.md §6 says.
std::string_view WhyEvitaCannotTakeOverGrpc(ValueType type, TypeUse use);
// Returns the array type whose elements are `type`; nullopt when there is none
// (predecessors, complex objects, arrays).
std::optional<ValueType> ArrayTypeOf(ValueType type);
// Returns evitaDB's name of the type, e.g. "BIG_DECIMAL", "LOCALE_ARRAY".
std::string_view ValueTypeName(ValueType type);
// Returns the type with the given evitaDB number, or nullopt for an unknown one.
std::optional<ValueType> ValueTypeFromNumber(int number);

// An exact decimal, kept as the text Java's BigDecimal.toString() produces
// (unscaled digits, optional fraction, optional exponent), so scale survives.
class BigDecimal {
 public:
  // Zero, "0".
  BigDecimal() = default;
  // Parses `text` of the form [+-]digits[.digits][(e|E)[+-]digits] (a leading
  // or trailing '.' with digits on the other side is accepted, as Java does).
  // Errors: kInvalidArgument naming the text when it does not parse.
  static StatusOr<BigDecimal> Parse(std::string_view text);
  const std::string& text() const { return text_; }
  friend bool operator==(const BigDecimal&, const BigDecimal&) = default;
  friend auto operator<=>(const BigDecimal&, const BigDecimal&) = default;

 private:
  explicit BigDecimal(std::string text) : text_(std::move(text)) {}
  std::string text_ = "0";
};

// A point in time with its UTC offset. How the fields are read depends on the
// ValueType that holds it:
//   kOffsetDateTime: `epoch_seconds` + `nanos` is the UTC instant; `offset_seconds`
//                    the offset it was written in.
//   kLocalDateTime:  the local date-time read as if it were UTC; offset 0.
//   kLocalDate:      midnight UTC of the date; nanos 0, offset 0.
//   kLocalTime:      `epoch_seconds` is the second of the day [0, 86400); offset 0.
struct DateTime {
  int64_t epoch_seconds = 0;
  int32_t nanos = 0;           // [0, 999'999'999]
  int32_t offset_seconds = 0;  // [-18h, +18h]
  friend bool operator==(const DateTime&, const DateTime&) = default;
  friend auto operator<=>(const DateTime&, const DateTime&) = default;
};

// Formats an offset as java.time.ZoneOffset.getId() does: "Z", "+01:00", "-05:30:15".
std::string FormatZoneOffset(int32_t offset_seconds);
// Parses "Z", "+h", "+hh", "+hhmm", "+hh:mm", "+hhmmss", "+hh:mm:ss" (and '-').
// Errors: kInvalidArgument for anything else, or beyond +-18:00.
StatusOr<int32_t> ParseZoneOffset(std::string_view text);

// An inclusive range of instants; a missing side is open.
struct DateTimeRange {
  std::optional<DateTime> from;
  std::optional<DateTime> to;
  friend bool operator==(const DateTimeRange&, const DateTimeRange&) = default;
};

// An inclusive range of BigDecimals; a missing side is open.
struct BigDecimalRange {
  std::optional<BigDecimal> from;
  std::optional<BigDecimal> to;
  int32_t decimal_places_to_compare = 0;
  friend bool operator==(const BigDecimalRange&, const BigDecimalRange&) = default;
};

// An inclusive range of integers (Byte/Short/Integer/Long ranges); a missing
// side is open.
struct NumberRange {
  std::optional<int64_t> from;
  std::optional<int64_t> to;
  friend bool operator==(const NumberRange&, const NumberRange&) = default;
};

// Compares two BigDecimals by value, whatever their scale ("1.50" equals
// "1.5" and "15E-1"): negative, zero or positive as a < b, a == b, a > b.
int CompareBigDecimals(const BigDecimal& a, const BigDecimal& b);

// OK when a range has the bounds evitaDB can hold: at least one of them, and
// `from` not after `to` (evitaDB's DateTimeRange, NumberRange and
// BigDecimalNumberRange refuse anything else as they are made, so such a
// value cannot reach it, nor come back from it).
// Errors: kInvalidArgument saying which rule the range breaks.
Status CheckRangeBounds(const DateTimeRange& range);
Status CheckRangeBounds(const BigDecimalRange& range);
Status CheckRangeBounds(const NumberRange& range);

// A locale as a well-formed BCP 47 language tag, e.g. "cs", "cs-CZ", "sr-Latn-RS".
class Locale {
 public:
  Locale() = default;  // the empty tag; only valid as "no locale"
  // Errors: kInvalidArgument naming the tag when it is not a well-formed BCP 47
  // tag (underscores as in "cs_CZ", empty subtags, a non-alphabetic language).
  static StatusOr<Locale> Parse(std::string_view tag);
  const std::string& tag() const { return tag_; }
  friend bool operator==(const Locale&, const Locale&) = default;
  friend auto operator<=>(const Locale&, const Locale&) = default;

 private:
  explicit Locale(std::string tag) : tag_(std::move(tag)) {}
  std::string tag_;
};

// An ISO 4217 currency code: three upper-case ASCII letters.
class Currency {
 public:
  Currency() = default;
  // Errors: kInvalidArgument naming the code when it is not three letters A-Z.
  static StatusOr<Currency> Parse(std::string_view code);
  const std::string& code() const { return code_; }
  friend bool operator==(const Currency&, const Currency&) = default;
  friend auto operator<=>(const Currency&, const Currency&) = default;

 private:
  explicit Currency(std::string code) : code_(std::move(code)) {}
  std::string code_;
};

// A UUID as Java keeps it: the two 64-bit halves, most significant first.
struct Uuid {
  int64_t most_significant = 0;
  int64_t least_significant = 0;
  friend bool operator==(const Uuid&, const Uuid&) = default;
  friend auto operator<=>(const Uuid&, const Uuid&) = default;
};

// A link in a chain of entities: the head, or the primary key of the predecessor.
struct Predecessor {
  std::optional<int32_t> predecessor_pk;  // nullopt = head of the chain
  friend bool operator==(const Predecessor&, const Predecessor&) = default;
};

// One element of a value. Which alternative a ValueType uses:
//   string:  kString, kCharacter          int64_t: kByte, kShort, kInteger, kLong
//   bool:    kBoolean                     BigDecimal: kBigDecimal
//   DateTime: the four date/time types    DateTimeRange, BigDecimalRange: their types
//   NumberRange: the four integer ranges  Locale, Currency, Uuid: their types
//   Predecessor: kPredecessor, kReferencedEntityPredecessor
using Scalar = std::variant<std::string, int64_t, bool, BigDecimal, DateTime, DateTimeRange, BigDecimalRange,
                            NumberRange, Locale, Currency, Uuid, Predecessor>;

// A typed value: one scalar, or an array of scalars of the element type.
// Thread-safety: const methods may be called concurrently.
class Value {
 public:
  // The empty string.
  Value();

  // Makes a value of `type` from `items`: exactly one item for a scalar type,
  // any number (including none) for an array type.
  // Errors: kInvalidArgument when an item's alternative does not fit the type,
  // an integer is out of the type's range, a Character is not one UTF-16 unit,
  // a date-time breaks the invariants of DateTime, or the type is
  // kComplexDataObject. The message names the type and the item index.
  static StatusOr<Value> Make(ValueType type, std::vector<Scalar> items);

  // Infallible shorthands for the common scalar types.
  static Value String(std::string text);
  static Value Integer(int32_t number);
  static Value Long(int64_t number);
  static Value Boolean(bool flag);

  ValueType type() const { return type_; }
  bool is_array() const { return IsArrayType(type_); }
  // REQUIRES: !is_array().
  const Scalar& scalar() const { return scalar_; }
  // The single item of a scalar, or the elements of an array.
  std::span<const Scalar> items() const {
    return is_array() ? std::span<const Scalar>(elements_) : std::span<const Scalar>(&scalar_, 1);
  }

  friend bool operator==(const Value&, const Value&) = default;

 private:
  Value(ValueType type, Scalar scalar) : type_(type), scalar_(std::move(scalar)) {}
  Value(ValueType type, std::vector<Scalar> elements) : type_(type), elements_(std::move(elements)) {}
  ValueType type_;
  // A scalar lives inline (no allocation: most values are scalars); an array's
  // elements live in `elements_` and `scalar_` stays empty.
  Scalar scalar_;
  std::vector<Scalar> elements_;
};

// A node of a complex associated-data object (evitaDB's ComplexDataObject):
// a primitive value, an array of nodes, or a map of named nodes. A null node
// (monostate) can be held here but not sent: evitaDB's protocol has none (it
// refuses a node with no value, and leaves a map's null property out), and
// warmup's decoder refuses it as evitaDB does.
struct DataItem {
  using Array = std::vector<DataItem>;
  using Map = std::map<std::string, DataItem>;
  std::variant<std::monostate, Value, Array, Map> content;
  friend bool operator==(const DataItem&, const DataItem&) = default;
};

// An associated data value: a primitive Value or a complex object's root node.
struct AssociatedDataValue {
  std::variant<Value, DataItem> content;
  // kComplexDataObject for a complex object, else the primitive's type.
  ValueType type() const;
  friend bool operator==(const AssociatedDataValue&, const AssociatedDataValue&) = default;
};

// Renders a value for messages and reports, e.g. `"abc"`, `12.50`, `[1, 2]`.
std::string DebugString(const Value& value);

}  // namespace warmup

#endif  // WARMUP_VALUE_H_
