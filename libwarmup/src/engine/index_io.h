// Serialized index snapshots: what goLive writes and a reopen reads back.
// Internal. Format: a sequence of varints (zigzag for signed values),
// length-prefixed strings and portable Roaring bitmaps, ending with a CRC-32C
// of everything before it; see docs/engine.md.
#ifndef WARMUP_SRC_ENGINE_INDEX_IO_H_
#define WARMUP_SRC_ENGINE_INDEX_IO_H_

#include <roaring/roaring.hh>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "engine/env.h"
#include "engine/pk_set.h"
#include "warmup/status.h"

namespace warmup::engine {

// Streams an index snapshot into a file through a 1 MiB buffer.
class IndexWriter {
 public:
  explicit IndexWriter(AppendFile* file) : file_(file), buffer_(kBuffer + kSlack, '\0') {}
  void U64(uint64_t v) {
    if (used_ > kBuffer) Spill();
    char* p = buffer_.data() + used_;
    while (v >= 0x80) {
      *p++ = static_cast<char>(v | 0x80);
      v >>= 7;
    }
    *p++ = static_cast<char>(v);
    used_ = static_cast<size_t>(p - buffer_.data());
  }
  void I64(int64_t v) { U64((static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63)); }
  void Str(std::string_view s);
  void Bitmap(const Roaring& r);
  void Pks(const PkSet& pks);
  // Appends the checksum and flushes. Returns the first write error, if any.
  Status Finish();
  // Bytes written so far (buffered ones included).
  uint64_t written() const { return spilled_ + used_; }

 private:
  static constexpr size_t kBuffer = 1 << 20;
  static constexpr size_t kSlack = 16;  // room for one varint past kBuffer
  void Spill();
  AppendFile* file_;
  std::string buffer_;  // fixed size; `used_` bytes are filled
  size_t used_ = 0;
  uint64_t spilled_ = 0;
  uint32_t crc_ = 0;
  Status status_;
};

// Reads an index snapshot held in memory. Errors are sticky: after the first,
// reads return zeros and status() says what and where.
class IndexReader {
 public:
  IndexReader(std::string data, std::string name);
  uint64_t U64();
  int64_t I64() {
    const uint64_t v = U64();
    return static_cast<int64_t>(v >> 1) ^ -static_cast<int64_t>(v & 1);
  }
  std::string Str();
  Roaring Bitmap();
  PkSet Pks();
  // An I64 that must be a non-negative int32 (an id whose negatives the
  // index reserves, or that keeps a flag in the bit above it); one outside
  // 0 .. 2^31 - 1 is refused through Invalid, naming `what`, and read as 0.
  int32_t NonNegativeI32(std::string_view what);
  // OK when the checksum matched and every read stayed inside the data.
  const Status& status() const { return status_; }
  // Checks that everything was consumed.
  Status Done();
  // Marks the snapshot as corrupt at the current offset: a value read whole
  // that the index cannot hold (`what` says which). Later reads return zeros.
  void Invalid(std::string_view what);

 private:
  bool Need(size_t n);
  std::string data_;
  std::string name_;
  size_t pos_ = 0;
  size_t end_ = 0;  // where the checksum starts
  Status status_;
};

}  // namespace warmup::engine

#endif  // WARMUP_SRC_ENGINE_INDEX_IO_H_
