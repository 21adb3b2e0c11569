#include "engine/record_file.h"

#include <zstd.h>

#include <cstring>

#include "common/crc32c.h"

namespace warmup::engine {
namespace {

constexpr size_t kHeader = 9;
constexpr uint8_t kCompressed = 1;

void PutU32(char* p, uint32_t v) {
  for (int i = 0; i < 4; ++i) p[i] = static_cast<char>(v >> (8 * i));
}
uint32_t GetU32(const char* p) {
  uint32_t v = 0;
  for (int i = 0; i < 4; ++i) v |= static_cast<uint32_t>(static_cast<uint8_t>(p[i])) << (8 * i);
  return v;
}

Status Decode(std::string_view flags_and_payload, std::string* payload, const std::string& where) {
  const auto flags = static_cast<uint8_t>(flags_and_payload[0]);
  std::string_view body = flags_and_payload.substr(1);
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

StatusOr<std::unique_ptr<RecordWriter>> RecordWriter::Open(Env* env, const std::string& path, bool compress) {
  auto file = env->OpenAppend(path);
  if (!file.ok()) return file.status();
  return std::unique_ptr<RecordWriter>(new RecordWriter(std::move(file).value(), compress));
}

RecordWriter::RecordWriter(std::unique_ptr<AppendFile> file, bool compress)
    : file_(std::move(file)), compress_(compress) {
  if (compress_) zstd_context_ = ZSTD_createCCtx();
}

RecordWriter::~RecordWriter() {
  if (zstd_context_ != nullptr) ZSTD_freeCCtx(static_cast<ZSTD_CCtx*>(zstd_context_));
}

StatusOr<uint64_t> RecordWriter::Append(std::string_view payload) {
  uint8_t flags = 0;
  std::string_view body = payload;
  if (compress_ && payload.size() > 64) {
    compressed_.resize(ZSTD_compressBound(payload.size()));
    const size_t n = ZSTD_compressCCtx(static_cast<ZSTD_CCtx*>(zstd_context_), compressed_.data(),
                                       compressed_.size(), payload.data(), payload.size(), 1);
    if (!ZSTD_isError(n) && n < payload.size()) {
      body = std::string_view(compressed_.data(), n);
      flags = kCompressed;
    }
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
