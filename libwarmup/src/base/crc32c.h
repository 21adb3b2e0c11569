// CRC-32C (Castagnoli), as used by snapshot files and engine records.
#ifndef WARMUP_SRC_COMMON_CRC32C_H_
#define WARMUP_SRC_COMMON_CRC32C_H_

#include <cstddef>
#include <cstdint>

namespace warmup {

// Extends `crc` (0 for a fresh checksum) over `size` bytes at `data`. Uses the
// SSE4.2 instruction when the processor has it.
uint32_t Crc32cExtend(uint32_t crc, const void* data, size_t size);

inline uint32_t Crc32c(const void* data, size_t size) { return Crc32cExtend(0, data, size); }

}  // namespace warmup

#endif  // WARMUP_SRC_COMMON_CRC32C_H_
