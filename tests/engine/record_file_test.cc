// The engine's record files: frames, compression, and records older builds wrote.
#include "engine/record_file.h"

#include <doctest/doctest.h>

#include <random>
#include <string>
#include <vector>

#include "base/crc32c.h"
#include "common/status_matchers.h"
#include "engine/env.h"

namespace warmup::engine {
namespace {

void PutU32(std::string& out, uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

std::string FromHex(const std::string& hex) {
  std::string out;
  for (size_t i = 0; i + 1 < hex.size(); i += 2)
    out.push_back(static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16)));
  return out;
}

// The flags byte of the record at `offset` (after its length and checksum).
uint8_t FlagsAt(Env& env, const std::string& path, uint64_t offset) {
  auto file = env.OpenRead(path);
  REQUIRE_OK(file);
  std::string flags;
  REQUIRE_OK((*file)->ReadAt(offset + 8, 1, &flags));
  return static_cast<uint8_t>(flags[0]);
}

TEST_CASE(
    "regression: a record deflated by zlib (builds before libdeflate, and evitaDB's Deflater) still reads "
    "back") {
  // "warmup " 20 times, as zlib's raw deflate at level 3 writes it
  // (Python: zlib.compressobj(3, zlib.DEFLATED, -15)), framed by hand:
  // length, CRC-32C of flags and body, flags 2 (deflated), the inflated
  // size, the deflate stream.
  std::string payload;
  for (int i = 0; i < 20; ++i) payload += "warmup ";
  std::string body;
  PutU32(body, static_cast<uint32_t>(payload.size()));
  body += FromHex("2b4f2cca2d2d50281f0c1400");
  const std::string flagged = std::string(1, '\x02') + body;
  std::string frame;
  PutU32(frame, static_cast<uint32_t>(body.size()));
  PutU32(frame, Crc32c(flagged.data(), flagged.size()));
  frame += flagged;
  auto env = NewMemEnv();
  REQUIRE_OK(env->CreateDirectories("/d"));
  REQUIRE_OK(env->WriteFileAtomically("/d/records", frame));
  auto file = env->OpenRead("/d/records");
  REQUIRE_OK(file);
  std::string read;
  REQUIRE_OK(ReadRecord(**file, "records", 0, &read));
  CHECK(read == payload);
}

TEST_CASE(
    "records: deflated or zstd-compressed only when that makes them smaller, and read back as written") {
  std::string compressible;
  for (int i = 0; i < 40; ++i) compressible += "attribute name:cs = Zahradní lavice ";
  std::string random(300, '\0');
  std::mt19937 bytes(3);
  for (char& c : random) c = static_cast<char>(bytes());
  const std::string tiny = "short";  // at most 64 bytes: never compressed
  const std::vector<const std::string*> payloads = {&compressible, &random, &tiny};
  for (RecordCompression compression : {RecordCompression::kDeflate, RecordCompression::kZstd}) {
    CAPTURE(RecordCompressionName(compression));
    auto env = NewMemEnv();
    REQUIRE_OK(env->CreateDirectories("/d"));
    auto writer = RecordWriter::Open(env.get(), "/d/records", compression);
    REQUIRE_OK(writer);
    std::vector<uint64_t> offsets;
    for (const std::string* p : payloads) {
      auto offset = (*writer)->Append(*p);
      REQUIRE_OK(offset);
      offsets.push_back(*offset);
    }
    REQUIRE_OK((*writer)->Flush());
    const uint8_t packed = compression == RecordCompression::kDeflate ? 2 : 1;
    CHECK(FlagsAt(*env, "/d/records", offsets[0]) == packed);
    CHECK(FlagsAt(*env, "/d/records", offsets[1]) == 0);  // random bytes do not shrink
    CHECK(FlagsAt(*env, "/d/records", offsets[2]) == 0);
    CHECK(offsets[1] - offsets[0] < compressible.size());  // the compressed frame is smaller
    auto file = env->OpenRead("/d/records");
    REQUIRE_OK(file);
    int i = 0;
    for (const std::string* p : payloads) {
      std::string read;
      REQUIRE_OK(ReadRecord(**file, "records", offsets[static_cast<size_t>(i++)], &read));
      CHECK(read == *p);
    }
  }
}

}  // namespace
}  // namespace warmup::engine
