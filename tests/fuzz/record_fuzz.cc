// Fuzz target: an entity file's record stream, as the snapshot reader takes
// it (varint-framed records, each a GrpcSealedEntity, converted to the
// model). Property: whatever converts survives a round trip unchanged.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "codec/entity_convert.h"
#include "codec/pb.h"
#include "fuzz/memory_reader.h"
#include "snapshot/byte_io.h"
#include "warmup/digest.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  warmup::fuzz::MemoryReader bytes(std::string_view(reinterpret_cast<const char*>(data), size));
  warmup::snapshot::RecordReader records(&bytes, "fuzz.entities");
  std::string_view record;
  uint64_t offset = 0;
  for (int i = 0; i < 1000; ++i) {
    auto more = records.Next(&record, &offset);
    if (!more.ok() || !*more) break;
    warmup::pb::GrpcSealedEntity proto;
    if (!proto.ParseFromArray(record.data(), static_cast<int>(record.size()))) continue;
    auto entity = warmup::codec::EntityFromProto(proto);
    if (!entity.ok()) continue;
    warmup::pb::GrpcSealedEntity again;
    warmup::codec::EntityToProto(*entity, &again);
    auto reread = warmup::codec::EntityFromProto(again);
    if (!reread.ok() || warmup::EntityDigest(*reread) != warmup::EntityDigest(*entity)) std::abort();
  }
  return 0;
}
