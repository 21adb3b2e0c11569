// Deterministic protobuf serialization. Internal.
#ifndef WARMUP_SRC_CODEC_SERIALIZE_H_
#define WARMUP_SRC_CODEC_SERIALIZE_H_

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <google/protobuf/message_lite.h>

#include <string>

namespace warmup::codec {

// Serializes `message` into `*out` (replacing it) with map entries sorted by
// key. Protobuf's default map order is unspecified and varies between map
// instances, so anything hashed or compared byte for byte (snapshot files,
// fingerprints) must be written this way.
inline void SerializeDeterministic(const google::protobuf::MessageLite& message, std::string* out) {
  out->clear();
  google::protobuf::io::StringOutputStream stream(out);
  google::protobuf::io::CodedOutputStream coded(&stream);
  coded.SetSerializationDeterministic(true);
  message.SerializeToCodedStream(&coded);
}

}  // namespace warmup::codec

#endif  // WARMUP_SRC_CODEC_SERIALIZE_H_
