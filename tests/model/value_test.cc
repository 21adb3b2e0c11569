#include "warmup/value.h"

#include <doctest/doctest.h>

#include "common/status_matchers.h"

namespace warmup {
namespace {

TEST_CASE("BigDecimal keeps Java's text and scale") {
  for (const char* good : {"0", "12.50", "-0.001", "2.5e8", "1E-7", "+3", ".5", "5.", "-12.340e+10"}) {
    auto d = BigDecimal::Parse(good);
    REQUIRE_MESSAGE(d.ok(), good);
    CHECK(d->text() == good);
  }
  CHECK(*BigDecimal::Parse("2.0") != *BigDecimal::Parse("2.00"));
}

TEST_CASE("BigDecimal that does not parse is named in the error") {
  for (const char* bad : {"", "1.2.3", "abc", "1e", "--1", "1,5", " 1", "e5", "."}) {
    auto d = BigDecimal::Parse(bad);
    REQUIRE_FALSE(d.ok());
    CHECK(d.status().code() == StatusCode::kInvalidArgument);
    CHECK(d.status().message().find("'" + std::string(bad) + "'") != std::string::npos);
  }
}

TEST_CASE("CompareBigDecimals compares values, whatever their scale, sign or exponent") {
  auto cmp = [](const char* a, const char* b) {
    return CompareBigDecimals(*BigDecimal::Parse(a), *BigDecimal::Parse(b));
  };
  CHECK(cmp("1.50", "1.5") == 0);
  CHECK(cmp("15E-1", "1.5") == 0);
  CHECK(cmp("0", "-0.000") == 0);
  CHECK(cmp("9.5", "10") < 0);
  CHECK(cmp("10", "9.5") > 0);
  CHECK(cmp("-10", "-9.5") < 0);
  CHECK(cmp("-0.01", "0") < 0);
  CHECK(cmp("12", "12.5") < 0);
  CHECK(cmp("1E+3", "999.99") > 0);
  CHECK(cmp("+7", "7.0") == 0);
}

TEST_CASE("CheckRangeBounds: one bound at least, from not after to (evitaDB's ranges)") {
  CHECK_FALSE(CheckRangeBounds(NumberRange{}).ok());
  CHECK(CheckRangeBounds(NumberRange{std::nullopt, 3}).ok());
  CHECK(CheckRangeBounds(NumberRange{3, 3}).ok());
  CHECK_FALSE(CheckRangeBounds(NumberRange{4, 3}).ok());
  DateTimeRange times;
  CHECK_FALSE(CheckRangeBounds(times).ok());
  times.from = DateTime{100, 5, 3600};
  times.to = DateTime{100, 4, 0};
  CHECK_FALSE(CheckRangeBounds(times).ok());  // the instants, whatever the offsets
  times.to = DateTime{100, 5, -3600};
  CHECK(CheckRangeBounds(times).ok());
  BigDecimalRange decimals{*BigDecimal::Parse("2.50"), *BigDecimal::Parse("2.5"), 2};
  CHECK(CheckRangeBounds(decimals).ok());
  decimals.to = *BigDecimal::Parse("2.4999");
  CHECK_FALSE(CheckRangeBounds(decimals).ok());
}

// Both seen against evitaDB (dev 720796cc), by its source's
// EvitaDataTypesConverter.toEvitaDataType.
TEST_CASE("WhyEvitaCannotTakeOverGrpc: number-range associated data, and CHARACTER_ARRAY anywhere") {
  for (ValueType t :
       {ValueType::kBigDecimalNumberRange, ValueType::kLongNumberRange, ValueType::kIntegerNumberRange,
        ValueType::kShortNumberRange, ValueType::kByteNumberRange, ValueType::kLongNumberRangeArray}) {
    CAPTURE(ValueTypeName(t));
    CHECK(!WhyEvitaCannotTakeOverGrpc(t, TypeUse::kAssociatedData).empty());
    CHECK(WhyEvitaCannotTakeOverGrpc(t, TypeUse::kAttribute).empty());
  }
  CHECK(WhyEvitaCannotTakeOverGrpc(ValueType::kDateTimeRange, TypeUse::kAssociatedData).empty());
  CHECK(!WhyEvitaCannotTakeOverGrpc(ValueType::kCharacterArray, TypeUse::kAttribute).empty());
  CHECK(!WhyEvitaCannotTakeOverGrpc(ValueType::kCharacterArray, TypeUse::kAssociatedData).empty());
  CHECK(WhyEvitaCannotTakeOverGrpc(ValueType::kCharacter, TypeUse::kAttribute).empty());
  CHECK(WhyEvitaCannotTakeOverGrpc(ValueType::kStringArray, TypeUse::kAssociatedData).empty());
}

TEST_CASE("Locale accepts BCP 47 tags and rejects the rest") {
  for (const char* good : {"cs", "cs-CZ", "sr-Latn-RS", "en-US-x-private", "de-CH-1996"}) {
    CHECK_MESSAGE(Locale::Parse(good).ok(), good);
  }
  for (const char* bad : {"", "cs_CZ", "c", "cs--CZ", "cs-", "12", "toolonglanguage", "en-x", "en-US!"}) {
    auto l = Locale::Parse(bad);
    REQUIRE_FALSE_MESSAGE(l.ok(), bad);
    CHECK(l.status().message().find("locale '" + std::string(bad) + "'") != std::string::npos);
  }
}

TEST_CASE("Currency is three upper-case letters") {
  CHECK_OK(Currency::Parse("CZK"));
  CHECK_FALSE(Currency::Parse("czk").ok());
  CHECK_FALSE(Currency::Parse("EURO").ok());
}

TEST_CASE("Zone offsets format like java.time and parse its accepted forms") {
  CHECK(FormatZoneOffset(0) == "Z");
  CHECK(FormatZoneOffset(3600) == "+01:00");
  CHECK(FormatZoneOffset(-(5 * 3600 + 30 * 60)) == "-05:30");
  CHECK(FormatZoneOffset(3600 + 15) == "+01:00:15");
  CHECK(*ParseZoneOffset("Z") == 0);
  CHECK(*ParseZoneOffset("+1") == 3600);
  CHECK(*ParseZoneOffset("+01") == 3600);
  CHECK(*ParseZoneOffset("-0530") == -(5 * 3600 + 30 * 60));
  CHECK(*ParseZoneOffset("+05:30") == 5 * 3600 + 30 * 60);
  CHECK(*ParseZoneOffset("+01:00:15") == 3615);
  for (const char* bad : {"", "+", "1", "+19:00", "+1:00", "+01:60", "UTC", "+01:", "+0100:00"}) {
    CHECK_FALSE_MESSAGE(ParseZoneOffset(bad).ok(), bad);
  }
  for (int offset = -18 * 3600; offset <= 18 * 3600; offset += 900) {
    CHECK(*ParseZoneOffset(FormatZoneOffset(offset)) == offset);
  }
}

TEST_CASE("Value::Make enforces each type's range and representation") {
  CHECK_OK(Value::Make(ValueType::kByte, {int64_t{127}}));
  CHECK_FALSE(Value::Make(ValueType::kByte, {int64_t{128}}).ok());
  CHECK_FALSE(Value::Make(ValueType::kShort, {int64_t{40000}}).ok());
  CHECK_FALSE(Value::Make(ValueType::kInteger, {int64_t{1} << 40}).ok());
  CHECK_OK(Value::Make(ValueType::kCharacter, {std::string("č")}));
  CHECK_FALSE(Value::Make(ValueType::kCharacter, {std::string("ab")}).ok());
  CHECK_FALSE(Value::Make(ValueType::kString, {int64_t{1}}).ok());
  CHECK_FALSE(Value::Make(ValueType::kString, {}).ok());
  CHECK_OK(Value::Make(ValueType::kStringArray, {}));
  CHECK_FALSE(Value::Make(ValueType::kLocalDate, {DateTime{3600, 0, 0}}).ok());
  CHECK_FALSE(Value::Make(ValueType::kLocalTime, {DateTime{86400, 0, 0}}).ok());
  CHECK_FALSE(Value::Make(ValueType::kLocalDateTime, {DateTime{0, 0, 3600}}).ok());
  CHECK_FALSE(Value::Make(ValueType::kOffsetDateTime, {DateTime{0, -1, 0}}).ok());
  CHECK_FALSE(Value::Make(ValueType::kByteNumberRange, {NumberRange{-200, 0}}).ok());
  CHECK_FALSE(Value::Make(ValueType::kLocale, {Locale()}).ok());
  CHECK_FALSE(Value::Make(ValueType::kComplexDataObject, {std::string("x")}).ok());
  auto bad_item = Value::Make(ValueType::kIntegerArray, {int64_t{1}, int64_t{1} << 33});
  REQUIRE_FALSE(bad_item.ok());
  CHECK(bad_item.status().message().find("item 1") != std::string::npos);
}

TEST_CASE("Array types map to their element types and back") {
  for (ValueType type : AllValueTypes()) {
    if (IsArrayType(type)) {
      CHECK(ArrayTypeOf(ElementType(type)) == type);
    } else if (auto array = ArrayTypeOf(type)) {
      CHECK(ElementType(*array) == type);
    } else {
      CHECK((type == ValueType::kPredecessor || type == ValueType::kReferencedEntityPredecessor));
    }
    CHECK(ValueTypeFromNumber(static_cast<int>(type)) == type);
  }
  CHECK_FALSE(ValueTypeFromNumber(23).has_value());
  CHECK(AllValueTypes().size() == 44);
}

}  // namespace
}  // namespace warmup
