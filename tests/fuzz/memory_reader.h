// A ByteReader over bytes in memory, for the fuzz targets.
#ifndef WARMUP_TESTS_FUZZ_MEMORY_READER_H_
#define WARMUP_TESTS_FUZZ_MEMORY_READER_H_

#include <algorithm>
#include <cstring>
#include <string_view>

#include "snapshot/byte_io.h"

namespace warmup::fuzz {

class MemoryReader : public snapshot::ByteReader {
 public:
  explicit MemoryReader(std::string_view bytes) : bytes_(bytes) {}
  StatusOr<size_t> Read(void* buffer, size_t size) override {
    const size_t n = std::min(size, bytes_.size());
    std::memcpy(buffer, bytes_.data(), n);
    bytes_.remove_prefix(n);
    return n;
  }

 private:
  std::string_view bytes_;
};

}  // namespace warmup::fuzz

#endif  // WARMUP_TESTS_FUZZ_MEMORY_READER_H_
