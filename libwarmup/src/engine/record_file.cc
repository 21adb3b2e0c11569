#include "engine/record_file.h"

#include <zlib.h>
#include <zstd.h>

#include <cstring>

#include "base/crc32c.h"

namespace warmup::engine {
namespace {

constexpr size_t kHeader = 9;
constexpr uint8_t kCompressed = 1;
constexpr uint8_t kDeflated = 2;
constexpr int kDeflateLevel = 3;  // evitaDB's Deflater(3, nowrap)

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
  z_stream z{};
  if (inflateInit2(&z, -MAX_WBITS) != Z_OK) return InternalError(where + ": inflateInit2 failed");
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(body.data() + 4));
  z.avail_in = static_cast<uInt>(body.size() - 4);
  z.next_out = reinterpret_cast<Bytef*>(payload->data());
  z.avail_out = size;
  const int rc = inflate(&z, Z_FINISH);
  const bool whole = rc == Z_STREAM_END && z.total_out == size;
  inflateEnd(&z);
  if (!whole) return DataLossError(where + ": deflated record does not inflate");
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
    auto* z = new z_stream{};
    if (deflateInit2(z, kDeflateLevel, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
      delete z;
      compression_ = RecordCompression::kNone;  // no memory for zlib: store records as they are
    } else {
      deflate_stream_ = z;
    }
  }
}

RecordWriter::~RecordWriter() {
  if (zstd_context_ != nullptr) ZSTD_freeCCtx(static_cast<ZSTD_CCtx*>(zstd_context_));
  if (deflate_stream_ != nullptr) {
    auto* z = static_cast<z_stream*>(deflate_stream_);
    deflateEnd(z);
    delete z;
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
  auto* z = static_cast<z_stream*>(deflate_stream_);
  deflateReset(z);
  compressed_.resize(4 + deflateBound(z, static_cast<uLong>(payload.size())));
  PutU32(compressed_.data(), static_cast<uint32_t>(payload.size()));
  z->next_in = reinterpret_cast<Bytef*>(const_cast<char*>(payload.data()));
  z->avail_in = static_cast<uInt>(payload.size());
  z->next_out = reinterpret_cast<Bytef*>(compressed_.data() + 4);
  z->avail_out = static_cast<uInt>(compressed_.size() - 4);
  if (deflate(z, Z_FINISH) != Z_STREAM_END) return false;
  const size_t n = 4 + z->total_out;
  if (n >= payload.size()) return false;
  *size = n;
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
