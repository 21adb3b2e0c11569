#include "codec/error_details.h"

#include <doctest/doctest.h>

#include <string>

namespace warmup::codec {
namespace {

// A length-delimited field: its tag byte, a one-byte length, the bytes.
std::string Field(char tag, const std::string& bytes) {
  REQUIRE(bytes.size() < 128);
  return std::string(1, tag) + static_cast<char>(bytes.size()) + bytes;
}

// google.rpc.Status{code, message, details: [Any{type_url, ErrorInfo{reason, domain}}]},
// written by hand from the field numbers of google/rpc/status.proto (1 code,
// 2 message, 3 details), google/protobuf/any.proto (1 type_url, 2 value) and
// google/rpc/error_details.proto (ErrorInfo: 1 reason, 2 domain), as evitaDB's
// server (protobuf-java) serializes them.
std::string RichStatus(const std::string& type_url, const std::string& domain) {
  const std::string info = Field(0x0a, "E1: no") + Field(0x12, domain);
  const std::string any = Field(0x0a, type_url) + Field(0x12, info);
  return std::string("\x08\x03", 2) + Field(0x12, "E1: no") + Field(0x1a, any);
}

TEST_CASE("the exception evitaDB names in an error's details is read from google.rpc.Status bytes") {
  CHECK(ErrorDomain(RichStatus("type.googleapis.com/google.rpc.ErrorInfo",
                               "ConcurrentInitializationException")) == "ConcurrentInitializationException");
  // Another detail type, no details, and bytes that are no status name nothing.
  CHECK(ErrorDomain(RichStatus("type.googleapis.com/google.rpc.DebugInfo", "X")).empty());
  CHECK(ErrorDomain("").empty());
  CHECK(ErrorDomain(std::string("\x08\x03", 2)).empty());
  CHECK(ErrorDomain("\xff\xff\xff").empty());
  const ErrorInfoFields info =
      ReadErrorInfo(RichStatus("type.googleapis.com/google.rpc.ErrorInfo", "InvalidSchemaMutationException"));
  CHECK(info.domain == "InvalidSchemaMutationException");
  CHECK(info.reason == "E1: no");
}

TEST_CASE("warmup serve's error details are google.rpc.Status bytes as evitaDB sends them") {
  const std::string bytes = EncodeErrorDetails(3, "E1: no", "ConcurrentInitializationException");
  CHECK(bytes == RichStatus("type.googleapis.com/google.rpc.ErrorInfo", "ConcurrentInitializationException"));
}

TEST_CASE("a refused session or catalog is told from a refused entity by evitaDB's exception class") {
  for (const char* refusal :
       {"ConcurrentInitializationException", "ReadOnlyException", "CatalogNotFoundException",
        "InstanceTerminatedException", "SessionBusyException", "CollectionNotFoundException"}) {
    CAPTURE(refusal);
    CHECK(IsSessionOrCatalogRefusal(refusal));
  }
  for (const char* entity : {"InvalidMutationException", "UniqueValueViolationException",
                             "MandatoryAttributesNotProvidedException", "ReferenceNotFoundException",
                             "EvitaInvalidUsageException", ""}) {
    CAPTURE(entity);
    CHECK_FALSE(IsSessionOrCatalogRefusal(entity));
  }
  CHECK(IsCatalogNotFound("CatalogNotFoundException"));
  CHECK_FALSE(IsCatalogNotFound("CollectionNotFoundException"));
}

}  // namespace
}  // namespace warmup::codec
