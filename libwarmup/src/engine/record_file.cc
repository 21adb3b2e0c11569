#include "engine/record_file.h"

#include <libdeflate.h>
#include <zstd.h>

#include <cstring>
#include <memory>

#include "base/crc32c.h"

namespace warmup::engine {
namespace {

constexpr size_t kHeader = 9;
constexpr uint8_t kCompressed = 1;
constexpr uint8_t kDeflated = 2;
// evitaDB's Deflater(3, nowrap) writes raw deflate at zlib's level 3;
// libdeflate's level 3 writes the same format, at a similar ratio, about
// 1.7 times as fast (benchmarks/engine_micro_bench.cc).
constexpr int kDeflateLevel = 3;

void PutU32(char* p, uint32_t v) {
  for (int i = 0; i < 4; ++i) p[i] = static_cast<char>(v >> (8 * i));
}
uint32_t GetU32(const char* p) {
  uint32_t v = 0;
  for (int i = 0; i < 4; ++i) v |= static_cast<uint32_t>(static_cast<uint8_t>(p[i])) << (8 * i);
  return v;
}

// Raw deflate keeps no length, so the inflated size is written before the stream.
Status Inflate(std::string_view body, std::string* payload, const std::string& where) {
  if (body.size() < 4) return DataLossError(where + ": deflated record too short");
  const uint32_t size = GetU32(body.data());
  payload->resize(size);
  // One decompressor per thread: reads may run on several (ReadFile is
  // thread-safe), and making one costs more than a small record's inflate.
  thread_local std::unique_ptr<libdeflate_decompressor, void (*)(libdeflate_decompressor*)> decompressor(
      libdeflate_alloc_decompressor(), &libdeflate_free_decompressor);
  if (decompressor == nullptr) return InternalError(where + ": no memory for a deflate decompressor");
  size_t inflated = 0;
  const libdeflate_result rc = libdeflate_deflate_decompress(
      decompressor.get(), body.data() + 4, body.size() - 4, payload->data(), size, &inflated);
  if (rc != LIBDEFLATE_SUCCESS || inflated != size) {
    return DataLossError(where + ": deflated record does not inflate");
  }
  return OkStatus();
}

Status Decode(std::string_view flags_and_payload, std::string* payload, const std::string& where) {
  const auto flags = static_cast<uint8_t>(flags_and_payload[0]);
  std::string_view body = flags_and_payload.substr(1);
  if ((flags & kDeflated) != 0) return Inflate(body, payload, where);
  if ((flags & kCompressed) == 0) {
    payload->assign(body);
    return OkStatus();
  }
  const uint64_t size = ZSTD_getFrameContentSize(body.data(), body.size());
  if (size == ZSTD_CONTENTSIZE_ERROR || size == ZSTD_CONTENTSIZE_UNKNOWN) {
    return DataLossError(where + ": compressed record has no valid zstd frame");
  }
  payload->resize(size);
  const size_t n = ZSTD_decompress(payload->data(), size, body.data(), body.size());
  if (ZSTD_isError(n) || n != size) return DataLossError(where + ": compressed record does not decompress");
  return OkStatus();
}

}  // namespace

StatusOr<std::unique_ptr<RecordWriter>> RecordWriter::Open(Env* env, const std::string& path,
                                                           RecordCompression compression) {
  auto file = env->OpenAppend(path);
  if (!file.ok()) return file.status();
  return std::unique_ptr<RecordWriter>(new RecordWriter(std::move(file).value(), compression));
}

RecordWriter::RecordWriter(std::unique_ptr<AppendFile> file, RecordCompression compression)
    : file_(std::move(file)), compression_(compression) {
  if (compression_ == RecordCompression::kZstd) zstd_context_ = ZSTD_createCCtx();
  if (compression_ == RecordCompression::kDeflate) {
    deflate_compressor_ = libdeflate_alloc_compressor(kDeflateLevel);
    // No memory for a compressor: store records as they are.
    if (deflate_compressor_ == nullptr) compression_ = RecordCompression::kNone;
  }
}

RecordWriter::~RecordWriter() {
  if (zstd_context_ != nullptr) ZSTD_freeCCtx(static_cast<ZSTD_CCtx*>(zstd_context_));
  if (deflate_compressor_ != nullptr) {
    libdeflate_free_compressor(static_cast<libdeflate_compressor*>(deflate_compressor_));
  }
}

bool RecordWriter::Compress(std::string_view payload, size_t* size) {
  if (compression_ == RecordCompression::kZstd) {
    compressed_.resize(ZSTD_compressBound(payload.size()));
    const size_t n = ZSTD_compressCCtx(static_cast<ZSTD_CCtx*>(zstd_context_), compressed_.data(),
                                       compressed_.size(), payload.data(), payload.size(), 1);
    if (ZSTD_isError(n) || n >= payload.size()) return false;
    *size = n;
    return true;
  }
  auto* compressor = static_cast<libdeflate_compressor*>(deflate_compressor_);
  // Only a record that shrinks is kept compressed: room for one byte less.
  if (payload.size() <= 5) return false;
  compressed_.resize(payload.size() - 1);
  PutU32(compressed_.data(), static_cast<uint32_t>(payload.size()));
  const size_t n = libdeflate_deflate_compress(compressor, payload.data(), payload.size(),
                                               compressed_.data() + 4, compressed_.size() - 4);
  if (n == 0) return false;  // it did not fit: not smaller
  *size = 4 + n;
  return true;
}

StatusOr<uint64_t> RecordWriter::Append(std::string_view payload) {
  uint8_t flags = 0;
  std::string_view body = payload;
  size_t compressed_size = 0;
  if (compression_ != RecordCompression::kNone && payload.size() > 64 &&
      Compress(payload, &compressed_size)) {
    body = std::string_view(compressed_.data(), compressed_size);
    flags = compression_ == RecordCompression::kZstd ? kCompressed : kDeflated;
  }
  frame_.resize(kHeader + body.size());
  PutU32(frame_.data(), static_cast<uint32_t>(body.size()));
  frame_[8] = static_cast<char>(flags);
  std::memcpy(frame_.data() + kHeader, body.data(), body.size());
  PutU32(frame_.data() + 4, Crc32c(frame_.data() + 8, 1 + body.size()));
  const uint64_t offset = file_->Size();
  if (Status s = file_->Append(frame_); !s.ok()) return s;
  return offset;
}

Status ReadRecord(const ReadFile& file, const std::string& name, uint64_t offset, std::string* payload) {
  const std::string where = name + ": offset " + std::to_string(offset);
  std::string header;
  if (Status s = file.ReadAt(offset, kHeader, &header); !s.ok()) {
    return DataLossError(where + ": torn record header");
  }
  const uint32_t length = GetU32(header.data());
  std::string frame;
  if (Status s = file.ReadAt(offset + 8, 1 + length, &frame); !s.ok()) {
    return DataLossError(where + ": torn record");
  }
  if (Crc32c(frame.data(), frame.size()) != GetU32(header.data() + 4)) {
    return DataLossError(where + ": record checksum does not match");
  }
  return Decode(frame, payload, where);
}

StatusOr<uint64_t> ScanRecords(const ReadFile& file, uint64_t from,
                               const std::function<Status(uint64_t, std::string_view)>& visit) {
  uint64_t offset = from;
  std::string frame;
  std::string payload;
  while (offset + kHeader <= file.Size()) {
    std::string header;
    if (!file.ReadAt(offset, kHeader, &header).ok()) break;
    const uint32_t length = GetU32(header.data());
    if (offset + kHeader + length > file.Size()) break;  // torn tail
    if (!file.ReadAt(offset + 8, 1 + length, &frame).ok()) break;
    if (Crc32c(frame.data(), frame.size()) != GetU32(header.data() + 4)) break;
    if (Status s = Decode(frame, &payload, "offset " + std::to_string(offset)); !s.ok()) break;
    if (Status s = visit(offset, payload); !s.ok()) return s;
    offset += kHeader + length;
  }
  return offset;
}

}  // namespace warmup::engine
