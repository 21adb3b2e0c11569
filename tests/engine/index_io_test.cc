// The index snapshot stream: its byte format, the writer's second thread, the
// in-memory parts spliced in order, and errors on the way to the file.
#include "engine/index_io.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "base/crc32c.h"
#include "common/status_matchers.h"
#include "common/temp_dir.h"
#include "engine/catalog_files.h"
#include "engine/env.h"

namespace warmup::engine_test {
namespace {

using engine::IndexReader;
using engine::IndexWriter;
using engine::OrderedEncoder;

// A deterministic value stream of part `part`: varints of every length,
// negatives, strings (every 997th part one of 1.5 MiB, past the writer's
// buffer), posting sets. `Check` reads the same stream back.
std::string LongString(size_t part) { return std::string(3 << 19, static_cast<char>('a' + part % 26)); }

void Encode(size_t part, IndexWriter& out) {
  out.U64(part);
  for (uint64_t i = 0; i < 200; ++i) {
    out.U64(i << (i % 57));
    out.I64(-static_cast<int64_t>(i * part) - 1);
  }
  out.Str("part " + std::to_string(part));
  if (part % 997 == 5) out.Str(LongString(part));
  engine::PkSet pks;
  for (uint32_t pk = 1; pk < 1 + part % 90; ++pk) pks.Add(pk * 3);
  out.Pks(pks);
}

void Check(size_t part, IndexReader& in) {
  CHECK(in.U64() == part);
  for (uint64_t i = 0; i < 200; ++i) {
    REQUIRE(in.U64() == (i << (i % 57)));
    REQUIRE(in.I64() == -static_cast<int64_t>(i * part) - 1);
  }
  CHECK(in.Str() == "part " + std::to_string(part));
  if (part % 997 == 5) CHECK(in.Str() == LongString(part));
  const engine::PkSet pks = in.Pks();
  std::vector<uint32_t> read;
  pks.ForEach([&](uint32_t pk) { read.push_back(pk); });
  std::vector<uint32_t> expected;
  for (uint32_t k = 1; k <= part % 90; ++k) expected.push_back(k * 3);
  CHECK(read == expected);
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST_CASE("the snapshot format by hand: LEB128 varints, zigzag, length-prefixed strings, CRC-32C last") {
  testing::TempDir dir;
  const std::string path = dir.path() + "/small.index";
  REQUIRE_OK(engine::WriteIndexFile(engine::DefaultEnv(), path, [](IndexWriter& out) {
    out.U64(300);  // 0b10_0101100: 0xAC 0x02
    out.I64(-1);   // zigzag 1
    out.I64(1);    // zigzag 2
    out.Str("hi");
  }));
  const std::string bytes = ReadFile(path);
  const std::string body("\xAC\x02\x01\x02\x02hi", 7);
  REQUIRE(bytes.size() == body.size() + 4);
  CHECK(bytes.substr(0, body.size()) == body);
  const uint32_t crc = Crc32c(body.data(), body.size());
  for (int i = 0; i < 4; ++i)
    CHECK(static_cast<uint8_t>(bytes[body.size() + i]) == ((crc >> (8 * i)) & 0xFF));
}

TEST_CASE("a snapshot of many buffers goes through the writer's second thread and reads back whole") {
  testing::TempDir dir;
  const std::string path = dir.path() + "/big.index";
  constexpr size_t kParts = 3000;  // ~11 MB: a dozen buffers, four strings straight through
  REQUIRE_OK(engine::WriteIndexFile(engine::DefaultEnv(), path, [&](IndexWriter& out) {
    for (size_t part = 0; part < kParts; ++part) Encode(part, out);
  }));
  auto data = engine::DefaultEnv()->ReadWholeFile(path);
  REQUIRE_OK(data);
  CHECK(data->size() > (8u << 20));
  IndexReader in(std::move(data).value(), path);
  for (size_t part = 0; part < kParts; ++part) Check(part, in);
  REQUIRE_OK(in.Done());
}

// The serial encoding of parts [0, n) with a prefix and a suffix, as one
// writer into memory: the oracle the ordered encoder must equal byte for byte.
std::string Serial(size_t parts) {
  IndexWriter out;
  out.Str("before");
  for (size_t part = 0; part < parts; ++part) Encode(part, out);
  out.U64(parts);
  return out.TakeEncoded();
}

// Waits up to 20 s for `done` (the helper's progress, seen from the test);
// false when it never came.
bool WaitFor(const std::function<bool()>& done) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (!done()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return true;
}

TEST_CASE("parts encoded on two threads and spliced in order are the bytes one thread writes") {
  for (size_t parts : {0, 1, 7, 8, 9, 300}) {
    CAPTURE(parts);
    std::atomic<size_t> by_helper{0};
    const std::thread::id caller = std::this_thread::get_id();
    IndexWriter out;
    OrderedEncoder encoder(parts, [&](size_t part, IndexWriter& part_out) {
      Encode(part, part_out);
      if (std::this_thread::get_id() != caller) ++by_helper;
    });
    out.Str("before");
    // The helper works before SpliceInto is called, and at most 8 parts ahead.
    const bool helper_worked = WaitFor([&] { return by_helper.load() == std::min<size_t>(parts, 8); });
    CHECK(helper_worked);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    CHECK(by_helper.load() == std::min<size_t>(parts, 8));
    encoder.SpliceInto(out);
    out.U64(parts);
    const bool same = out.TakeEncoded() == Serial(parts);
    CHECK(same);
  }
}

TEST_CASE("an exception in a part is rethrown by SpliceInto and nothing hangs") {
  SUBCASE("on the helper: the first part fails before SpliceInto is called") {
    std::atomic<bool> tried{false};
    IndexWriter out;
    OrderedEncoder encoder(60, [&](size_t part, IndexWriter& part_out) {
      if (part == 0) {
        tried = true;
        throw std::runtime_error("part 0 failed");
      }
      Encode(part, part_out);
    });
    REQUIRE(WaitFor([&] { return tried.load(); }));
    CHECK_THROWS_WITH_AS(encoder.SpliceInto(out), "part 0 failed", std::runtime_error);
  }
  SUBCASE("on either thread, later") {
    IndexWriter out;
    OrderedEncoder encoder(60, [&](size_t part, IndexWriter& part_out) {
      if (part == 40) throw std::runtime_error("part 40 failed");
      Encode(part, part_out);
    });
    CHECK_THROWS_WITH_AS(encoder.SpliceInto(out), "part 40 failed", std::runtime_error);
  }
  SUBCASE("abandoned before SpliceInto (the caller failed first): the helper stops and joins") {
    OrderedEncoder abandoned(1000, Encode);
  }
}

TEST_CASE("a write error in the writer's second thread is Finish's error, and nothing is appended after it") {
  auto mem = engine::NewMemEnv();
  REQUIRE_OK(mem->CreateDirectories("d"));
  engine::FaultInjectingEnv faulty(mem.get(), "x.index", /*fail_after=*/3);
  const Status s = engine::WriteIndexFile(&faulty, "d/x.index", [](IndexWriter& out) {
    for (size_t part = 0; part < 2000; ++part) Encode(part, out);  // ~8 buffers
  });
  CHECK(s.code() == StatusCode::kUnavailable);
  CHECK(s.message().find("injected fault") != std::string::npos);
  CHECK(faulty.injected() == 1);  // the fourth append failed; none was tried after it
  CHECK_FALSE(mem->Exists("d/x.index"));
}

TEST_CASE("a posix append file keeps the order of buffered small appends and unbuffered large ones") {
  testing::TempDir dir;
  const std::string path = dir.path() + "/f";
  auto file = engine::DefaultEnv()->OpenAppend(path);
  REQUIRE_OK(file);
  const std::string large(700 << 10, 'L');  // past half the file's buffer: written at once when it is empty
  const std::string larger(3 << 20, 'M');   // past the whole buffer
  std::string expected;
  for (const std::string& piece :
       {std::string("a"), large, std::string("b"), larger, large, std::string("c")}) {
    REQUIRE_OK((*file)->Append(piece));
    expected += piece;
    (*file)->StartWriteback();  // advisory: changes nothing that is read
  }
  CHECK((*file)->Size() == expected.size());
  REQUIRE_OK((*file)->Sync());
  REQUIRE_OK((*file)->Close());
  const bool same = ReadFile(path) == expected;
  CHECK(same);
}

}  // namespace
}  // namespace warmup::engine_test
