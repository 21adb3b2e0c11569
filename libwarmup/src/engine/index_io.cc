#include "engine/index_io.h"

#include <cstring>
#include <exception>
#include <limits>
#include <string>

#include "base/crc32c.h"

namespace warmup::engine {

void IndexWriter::Spill() {
  if (used_ == 0) return;
  crc_ = Crc32cExtend(crc_, buffer_.data(), used_);
  spilled_ += used_;
  if (status_.ok()) status_ = file_->Append(std::string_view(buffer_.data(), used_));
  used_ = 0;
}

void IndexWriter::Str(std::string_view s) {
  U64(s.size());
  if (used_ + s.size() > kBuffer + kSlack) {
    Spill();
    if (s.size() > kBuffer) {  // larger than the buffer: straight through
      crc_ = Crc32cExtend(crc_, s.data(), s.size());
      spilled_ += s.size();
      if (status_.ok()) status_ = file_->Append(s);
      return;
    }
  }
  std::memcpy(buffer_.data() + used_, s.data(), s.size());
  used_ += s.size();
}

void IndexWriter::Bitmap(const Roaring& r) {
  std::string bytes(r.getSizeInBytes(true), '\0');
  r.write(bytes.data(), true);
  Str(bytes);
}

void IndexWriter::Pks(const PkSet& pks) {
  // Count, then ascending deltas: short for the many small sets.
  U64(pks.size());
  uint32_t last = 0;
  pks.ForEach([&](uint32_t pk) {
    U64(pk - last);
    last = pk;
  });
}

Status IndexWriter::Finish() {
  Spill();
  char crc[4];
  for (int i = 0; i < 4; ++i) crc[i] = static_cast<char>(crc_ >> (8 * i));
  if (status_.ok()) status_ = file_->Append(std::string_view(crc, 4));
  return status_;
}

IndexReader::IndexReader(std::string data, std::string name)
    : data_(std::move(data)), name_(std::move(name)) {
  if (data_.size() < 4) {
    status_ = DataLossError(name_ + ": too short to be an index snapshot");
    return;
  }
  end_ = data_.size() - 4;
  uint32_t stored = 0;
  for (int i = 0; i < 4; ++i) {
    stored |= static_cast<uint32_t>(static_cast<uint8_t>(data_[end_ + i])) << (8 * i);
  }
  if (stored != Crc32c(data_.data(), end_)) status_ = DataLossError(name_ + ": checksum does not match");
}

bool IndexReader::Need(size_t n) {
  if (!status_.ok()) return false;
  if (end_ - pos_ < n) {
    status_ = DataLossError(name_ + ": offset " + std::to_string(pos_) + ": ends early");
    return false;
  }
  return true;
}

uint64_t IndexReader::U64() {
  uint64_t v = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    if (!Need(1)) return 0;
    const auto byte = static_cast<uint8_t>(data_[pos_++]);
    v |= static_cast<uint64_t>(byte & 0x7F) << shift;
    if ((byte & 0x80) == 0) return v;
  }
  status_ = DataLossError(name_ + ": offset " + std::to_string(pos_) + ": malformed varint");
  return 0;
}

std::string IndexReader::Str() {
  const uint64_t n = U64();
  if (!Need(n)) return std::string();
  std::string s = data_.substr(pos_, n);
  pos_ += n;
  return s;
}

Roaring IndexReader::Bitmap() {
  const std::string bytes = Str();
  if (!status_.ok() || bytes.empty()) return Roaring();
  try {
    return Roaring::readSafe(bytes.data(), bytes.size());
  } catch (const std::exception&) {  // CRoaring reports malformed input by throwing
    status_ = DataLossError(name_ + ": offset " + std::to_string(pos_) + ": malformed bitmap");
    return Roaring();
  }
}

PkSet IndexReader::Pks() {
  PkSet pks;
  const uint64_t n = U64();
  uint32_t last = 0;
  for (uint64_t i = 0; i < n && status_.ok(); ++i) {
    last += static_cast<uint32_t>(U64());
    pks.Add(last);
  }
  return pks;
}

int32_t IndexReader::NonNegativeI32(std::string_view what) {
  const int64_t stored = I64();
  if (stored < 0) {
    Invalid("negative " + std::string(what) + " " + std::to_string(stored));
  } else if (stored > std::numeric_limits<int32_t>::max()) {
    Invalid(std::string(what) + " " + std::to_string(stored) + " outside 0 .. 2^31 - 1");
  } else {
    return static_cast<int32_t>(stored);
  }
  return 0;
}

void IndexReader::Invalid(std::string_view what) {
  if (status_.ok())
    status_ = DataLossError(name_ + ": offset " + std::to_string(pos_) + ": " + std::string(what));
}

Status IndexReader::Done() {
  if (status_.ok() && pos_ != end_) {
    status_ = DataLossError(name_ + ": " + std::to_string(end_ - pos_) + " unread bytes at the end");
  }
  return status_;
}

}  // namespace warmup::engine
