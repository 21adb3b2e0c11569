// Decodes bytes that evitaDB's own .proto definitions encoded (see
// tests/testdata/wire/README.md) with warmup's generated code.
#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <google/protobuf/text_format.h>
#include <google/protobuf/unknown_field_set.h>
#include <google/protobuf/util/message_differencer.h>

#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <memory>
#include <sstream>

#include "GrpcEvitaSessionAPI.pb.h"
#include "codec/entity_convert.h"
#include "codec/pb.h"
#include "codec/schema_convert.h"

namespace warmup::codec {
namespace {

std::string ReadFile(const std::string& name) {
  std::ifstream in(std::string(WARMUP_TESTDATA_DIR) + "/wire/" + name, std::ios::binary);
  REQUIRE_MESSAGE(in.good(), "missing test data ", name);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

// Counts fields the decoder did not recognise, anywhere in the message tree.
int UnknownFieldCount(const google::protobuf::Message& message) {
  const auto* reflection = message.GetReflection();
  int count = reflection->GetUnknownFields(message).field_count();
  std::vector<const google::protobuf::FieldDescriptor*> fields;
  reflection->ListFields(message, &fields);
  for (const auto* field : fields) {
    if (field->cpp_type() != google::protobuf::FieldDescriptor::CPPTYPE_MESSAGE) continue;
    if (field->is_repeated()) {
      for (int i = 0; i < reflection->FieldSize(message, field); ++i) {
        count += UnknownFieldCount(reflection->GetRepeatedMessage(message, field, i));
      }
    } else {
      count += UnknownFieldCount(reflection->GetMessage(message, field));
    }
  }
  return count;
}

// The wire bytes of a `type` message with every map's entries in sorted order
// (a map's order on the wire is unspecified) and everything else as it was:
// equal results mean the same bytes up to map order. Parsed as raw wire data,
// independent of the generated code under test.
std::string CanonicalWire(const std::string& bytes, const google::protobuf::Descriptor* type) {
  google::protobuf::UnknownFieldSet fields;
  REQUIRE(fields.ParseFromString(bytes));
  std::string out;
  google::protobuf::io::StringOutputStream stream(&out);
  google::protobuf::io::CodedOutputStream coded(&stream);
  std::vector<std::string> map_entries;
  int map_number = -1;
  auto flush_map = [&] {
    std::sort(map_entries.begin(), map_entries.end());
    for (const auto& entry : map_entries) {
      coded.WriteTag(static_cast<uint32_t>(map_number << 3 | 2));
      coded.WriteVarint32(static_cast<uint32_t>(entry.size()));
      coded.WriteString(entry);
    }
    map_entries.clear();
    map_number = -1;
  };
  for (int i = 0; i < fields.field_count(); ++i) {
    const auto& f = fields.field(i);
    if (f.number() != map_number) flush_map();
    const auto* field = type->FindFieldByNumber(f.number());
    if (f.type() != google::protobuf::UnknownField::TYPE_LENGTH_DELIMITED || field == nullptr ||
        field->message_type() == nullptr) {
      google::protobuf::UnknownFieldSet one;
      one.AddField(f);
      one.SerializeToCodedStream(&coded);
      continue;
    }
    std::string nested = CanonicalWire(f.length_delimited(), field->message_type());
    if (field->is_map()) {
      map_number = f.number();
      map_entries.push_back(std::move(nested));
      continue;
    }
    coded.WriteTag(static_cast<uint32_t>(f.number() << 3 | 2));
    coded.WriteVarint32(static_cast<uint32_t>(nested.size()));
    coded.WriteString(nested);
  }
  flush_map();
  coded.Trim();
  return out;
}

template <typename Message>
Message CheckGolden(const std::string& name) {
  Message from_bytes;
  REQUIRE(from_bytes.ParseFromString(ReadFile(name + ".bin")));
  CHECK_MESSAGE(UnknownFieldCount(from_bytes) == 0, name, ": a field number or type differs from evitaDB's");
  Message from_text;
  REQUIRE_MESSAGE(google::protobuf::TextFormat::ParseFromString(ReadFile(name + ".txtpb"), &from_text), name,
                  ": a field name differs from evitaDB's");
  std::string diff;
  google::protobuf::util::MessageDifferencer differencer;
  differencer.ReportDifferencesToString(&diff);
  CHECK_MESSAGE(differencer.Compare(from_text, from_bytes), name, ":\n", diff);
  // Re-encoding with warmup's definitions gives evitaDB's bytes back, byte for
  // byte up to the order of map entries.
  const auto* descriptor = Message::descriptor();
  CHECK_MESSAGE(CanonicalWire(from_bytes.SerializeAsString(), descriptor) ==
                    CanonicalWire(ReadFile(name + ".bin"), descriptor),
                name, ": re-encoded bytes differ");
  // ... and that comparison can fail: the message less its first field compares unequal.
  std::vector<const google::protobuf::FieldDescriptor*> set_fields;
  from_bytes.GetReflection()->ListFields(from_bytes, &set_fields);
  REQUIRE_FALSE(set_fields.empty());
  Message changed = from_bytes;
  changed.GetReflection()->ClearField(&changed, set_fields.front());
  CHECK(CanonicalWire(changed.SerializeAsString(), descriptor) !=
        CanonicalWire(ReadFile(name + ".bin"), descriptor));
  return from_bytes;
}

TEST_CASE("query responses encoded by evitaDB decode completely") {
  auto response = CheckGolden<pb::GrpcQueryResponse>("query_response");
  REQUIRE(response.recordpage().sealedentities_size() == 2);
  auto entity = EntityFromProto(response.recordpage().sealedentities(0));
  REQUIRE_MESSAGE(entity.ok(), entity.status().ToString());
  CHECK(entity->type == "Product");
  CHECK_FALSE(entity->prices.empty());
  CHECK(response.recordpage().paginatedlist().lastpagenumber() == 9);
}

TEST_CASE("upsert requests encoded by evitaDB decode completely") {
  auto request = CheckGolden<pb::GrpcUpsertEntityRequest>("upsert_entity_request");
  CHECK(request.entitymutation().entityupsertmutation().mutations_size() > 20);
}

TEST_CASE("schema messages encoded by evitaDB decode completely") {
  auto product = CheckGolden<pb::GrpcEntitySchemaResponse>("product_schema_response");
  auto category = CheckGolden<pb::GrpcEntitySchemaResponse>("category_schema_response");
  auto catalog = CheckGolden<pb::GrpcCatalogSchemaResponse>("catalog_schema_response");
  auto update = CheckGolden<pb::GrpcUpdateCatalogSchemaRequest>("update_catalog_schema_request");
  auto schema =
      CatalogSchemaFromProto(catalog.catalogschema(), {product.entityschema(), category.entityschema()});
  REQUIRE_MESSAGE(schema.ok(), schema.status().ToString());
  CHECK(schema->entities.at("Category").references.at("products").is_reflected());
  CHECK(update.schemamutations_size() > 5);
}

}  // namespace
}  // namespace warmup::codec
