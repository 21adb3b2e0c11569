#include "codec/value_convert.h"

#include <doctest/doctest.h>

#include "common/status_matchers.h"

#include "generator/tiny_profile.h"

namespace warmup::codec {
namespace {

TEST_CASE("every value type survives model -> proto -> model") {
  generator::Rng rng(7);
  for (ValueType type : AllValueTypes()) {
    for (int i = 0; i < 50; ++i) {
      const Value value = generator::RandomValue(rng, type);
      pb::GrpcEvitaValue proto;
      ValueToProto(value, &proto);
      CHECK(proto.type() == static_cast<int>(type));
      auto back = ValueFromProto(proto);
      REQUIRE_MESSAGE(back.ok(), back.status().ToString());
      CHECK_MESSAGE(*back == value, ValueTypeName(type), " ", DebugString(value), " != ", DebugString(*back));
    }
  }
}

TEST_CASE("complex associated data survives model -> proto -> model") {
  generator::Rng rng(11);
  for (int i = 0; i < 200; ++i) {
    AssociatedDataValue value{generator::RandomDataRoot(rng, 4)};
    pb::GrpcEvitaAssociatedDataValue proto;
    AssociatedDataValueToProto(value, &proto);
    CHECK(proto.type() == pb::GrpcEvitaAssociatedDataDataType::COMPLEX_DATA_OBJECT);
    auto back = AssociatedDataValueFromProto(proto);
    REQUIRE_OK(back);
    CHECK(*back == value);
  }
}

TEST_CASE("local date-times follow evitaDB's wire placement") {
  // A LocalTime sits on 0000-01-01 UTC; a LocalDate at midnight UTC.
  auto time = Value::Make(ValueType::kLocalTime, {DateTime{3661, 5, 0}});
  pb::GrpcEvitaValue proto;
  ValueToProto(*time, &proto);
  CHECK(proto.offsetdatetimevalue().timestamp().seconds() == -62'167'219'200 + 3661);
  CHECK(proto.offsetdatetimevalue().offset() == "Z");
  // Decoding reads the local value in the given offset, as java.time does.
  proto.mutable_offsetdatetimevalue()->set_offset("+01:00");
  auto shifted = ValueFromProto(proto);
  REQUIRE_OK(shifted);
  CHECK(std::get<DateTime>(shifted->scalar()).epoch_seconds == 3661 + 3600);
}

// Seen against evitaDB: "UpsertEntity of Product/1: ...: From must be before
// or equals to to!": the tiny profile made ranges evitaDB cannot hold, and
// serve took them.
TEST_CASE("regression: ranges evitaDB cannot hold are refused as they are read, as evitaDB refuses them") {
  SUBCASE("a number range upside down") {
    pb::GrpcEvitaValue proto;
    proto.set_type(pb::LONG_NUMBER_RANGE);
    proto.mutable_longnumberrangevalue()->mutable_from()->set_value(5);
    proto.mutable_longnumberrangevalue()->mutable_to()->set_value(4);
    auto v = ValueFromProto(proto);
    REQUIRE_FALSE(v.ok());
    CHECK(v.status().code() == StatusCode::kInvalidArgument);
    CHECK(v.status().message().find("from must not be after its to") != std::string::npos);
    proto.mutable_longnumberrangevalue()->mutable_to()->set_value(5);  // from == to is a range
    CHECK_OK(ValueFromProto(proto));
  }
  SUBCASE("a date-time range with no bound") {
    pb::GrpcEvitaValue proto;
    proto.set_type(pb::DATE_TIME_RANGE);
    proto.mutable_datetimerangevalue();
    auto v = ValueFromProto(proto);
    REQUIRE_FALSE(v.ok());
    CHECK(v.status().message().find("at least one bound") != std::string::npos);
  }
  SUBCASE("a BigDecimal range compared by value, not by text") {
    pb::GrpcEvitaValue proto;
    proto.set_type(pb::BIG_DECIMAL_NUMBER_RANGE);
    proto.mutable_bigdecimalnumberrangevalue()->mutable_from()->set_valuestring("9.5");
    proto.mutable_bigdecimalnumberrangevalue()->mutable_to()->set_valuestring("10");
    CHECK_OK(ValueFromProto(proto));  // "9.5" > "10" as text, not as numbers
    proto.mutable_bigdecimalnumberrangevalue()->mutable_to()->set_valuestring("9.49");
    CHECK_FALSE(ValueFromProto(proto).ok());
  }
}

TEST_CASE("bad values give a clear error naming the field") {
  SUBCASE("unknown value type") {
    pb::GrpcEvitaValue proto;
    proto.set_type(static_cast<pb::GrpcEvitaDataType>(999));
    auto v = ValueFromProto(proto);
    REQUIRE_FALSE(v.ok());
    CHECK(v.status().message() == "type: unknown value type 999");
  }
  SUBCASE("type without its arm") {
    pb::GrpcEvitaValue proto;
    proto.set_type(pb::INTEGER);
    proto.set_stringvalue("12");
    auto v = ValueFromProto(proto);
    REQUIRE_FALSE(v.ok());
    CHECK(v.status().message().find("arm 'integerValue' is unset") != std::string::npos);
  }
  SUBCASE("BigDecimal that does not parse") {
    pb::GrpcEvitaValue proto;
    proto.set_type(pb::BIG_DECIMAL);
    proto.mutable_bigdecimalvalue()->set_valuestring("1.2.3");
    auto v = ValueFromProto(proto);
    REQUIRE_FALSE(v.ok());
    CHECK(v.status().code() == StatusCode::kInvalidArgument);
    CHECK(v.status().message() == "valueString: BigDecimal '1.2.3' does not parse");
  }
  SUBCASE("locale that is not BCP 47") {
    pb::GrpcEvitaValue proto;
    proto.set_type(pb::LOCALE_ARRAY);
    proto.mutable_localearrayvalue()->add_value()->set_languagetag("cs");
    proto.mutable_localearrayvalue()->add_value()->set_languagetag("cs_CZ");
    auto v = ValueFromProto(proto);
    REQUIRE_FALSE(v.ok());
    CHECK(v.status().message().find("value[1]: languageTag: locale 'cs_CZ'") == 0);
  }
  SUBCASE("empty offset") {
    pb::GrpcEvitaValue proto;
    proto.set_type(pb::OFFSET_DATE_TIME);
    proto.mutable_offsetdatetimevalue()->mutable_timestamp()->set_seconds(5);
    auto v = ValueFromProto(proto);
    REQUIRE_FALSE(v.ok());
    CHECK(v.status().message() == "offset: empty");
  }
  SUBCASE("byte out of range") {
    pb::GrpcEvitaValue proto;
    proto.set_type(pb::BYTE);
    proto.set_integervalue(300);
    CHECK_FALSE(ValueFromProto(proto).ok());
  }
  SUBCASE("predecessor without id") {
    pb::GrpcEvitaValue proto;
    proto.set_type(pb::PREDECESSOR);
    proto.mutable_predecessorvalue()->set_head(false);
    auto v = ValueFromProto(proto);
    REQUIRE_FALSE(v.ok());
    CHECK(v.status().message().find("predecessorId") != std::string::npos);
  }
  SUBCASE("legacy JSON associated data") {
    pb::GrpcEvitaAssociatedDataValue proto;
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    proto.set_jsonvalue("{}");  // what a server sends a client that gives no clientversion
#pragma GCC diagnostic pop
    auto v = AssociatedDataValueFromProto(proto);
    REQUIRE_FALSE(v.ok());
    CHECK(v.status().message().find("jsonValue") == 0);
  }
}

}  // namespace
}  // namespace warmup::codec
