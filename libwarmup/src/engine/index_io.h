// Serialized index snapshots: what goLive writes and a reopen reads back.
// Internal. Format: a sequence of varints (zigzag for signed values),
// length-prefixed strings and portable Roaring bitmaps, ending with a CRC-32C
// of everything before it; see docs/engine.md.
#ifndef WARMUP_SRC_ENGINE_INDEX_IO_H_
#define WARMUP_SRC_ENGINE_INDEX_IO_H_

#include <roaring/roaring.hh>

#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "base/mutex.h"
#include "engine/env.h"
#include "engine/pk_set.h"
#include "warmup/status.h"

namespace warmup::engine {

// Streams an index snapshot into a file through two 1 MiB buffers: while one
// fills, a second thread checksums the other and appends it, so goLive's
// encoding and the kernel's copy into the page cache overlap (the copy was a
// third of goLive's CPU). The thread starts at the first full buffer; a
// snapshot smaller than one buffer is written on the caller's thread at
// Finish. The file is used by one thread at a time: the writer's until Finish.
// Without a file it encodes into memory, for parts encoded on other threads
// (OrderedEncoder) and spliced into a file's stream.
class IndexWriter {
 public:
  explicit IndexWriter(AppendFile* file);
  IndexWriter();   // into memory: see TakeEncoded
  ~IndexWriter();  // joins the writer thread if Finish was not reached
  IndexWriter(const IndexWriter&) = delete;
  IndexWriter& operator=(const IndexWriter&) = delete;
  void U64(uint64_t v) {
    if (used_ > kBuffer) Spill();
    char* p = buffer_ + used_;
    while (v >= 0x80) {
      *p++ = static_cast<char>(v | 0x80);
      v >>= 7;
    }
    *p++ = static_cast<char>(v);
    used_ = static_cast<size_t>(p - buffer_);
  }
  void I64(int64_t v) { U64((static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63)); }
  void Str(std::string_view s);
  void Bitmap(const Roaring& r);
  void Pks(const PkSet& pks);
  // Appends bytes another writer encoded (TakeEncoded), as they are.
  void Splice(std::string_view encoded);
  // In memory: the bytes encoded since the last call.
  std::string TakeEncoded();
  // Appends the checksum and flushes. Returns the first write error, if any.
  Status Finish();
  // Bytes written so far (buffered ones included).
  uint64_t written() const { return spilled_ + used_; }

 private:
  class Appender;  // the second thread
  // Where bytes go, in order: the file, with the checksum so far and the
  // first write error, or memory. Used by the appender while it holds a
  // buffer, by the caller otherwise.
  struct Sink {
    AppendFile* file;  // null: `memory`
    uint32_t crc = 0;
    Status status;
    std::string memory;
    uint64_t unflushed = 0;  // bytes since the last StartWriteback
    void Write(std::string_view data);
  };
  static constexpr size_t kBuffer = 1 << 20;
  static constexpr size_t kSlack = 16;                  // room for one varint past kBuffer
  static constexpr uint64_t kWritebackEvery = 8 << 20;  // so that Sync at the end waits for little
  // Hands the filled buffer to the appender and continues in the other one
  // (in memory: appends it).
  void Spill();
  Sink sink_;
  std::unique_ptr<char[]> first_, second_;  // second_ from the first Spill
  std::unique_ptr<Appender> appender_;      // null until the first Spill
  char* buffer_;                            // the one being filled: `used_` bytes
  size_t used_ = 0;
  uint64_t spilled_ = 0;
};

// Encodes parts 0 .. n-1 of an index stream on the caller's thread and one
// more, each part into memory, and splices them into a writer in order: the
// stream is byte for byte what encoding them one after another writes. The
// helper starts at construction, so the caller can write what precedes the
// parts meanwhile. `encode` runs on both threads and must only read what they
// share; at most kWindow encoded parts wait to be spliced.
class OrderedEncoder {
 public:
  OrderedEncoder(size_t parts, std::function<void(size_t part, IndexWriter& out)> encode);
  ~OrderedEncoder();  // stops the helper after its current part and joins it
  OrderedEncoder(const OrderedEncoder&) = delete;
  OrderedEncoder& operator=(const OrderedEncoder&) = delete;
  // Encodes what is left on this thread too and splices every part into
  // `out` in order. An exception from `encode` on the helper is rethrown here.
  void SpliceInto(IndexWriter& out);

 private:
  static constexpr size_t kWindow = 8;
  // Takes the next part when one is left within the window (under `mu_`).
  bool CanTake() const REQUIRES(mu_) { return next_ < parts_ && next_ - spliced_ < kWindow; }
  // Encodes part `part` with `mem` and files it as ready.
  void EncodeOne(size_t part, IndexWriter& mem);
  void RunHelper();
  const size_t parts_;
  const std::function<void(size_t, IndexWriter&)> encode_;
  Mutex mu_;
  CondVar changed_;                     // a part taken, encoded or spliced; stop
  size_t next_ GUARDED_BY(mu_) = 0;     // the next part to take
  size_t spliced_ GUARDED_BY(mu_) = 0;  // the next part to splice
  std::vector<std::string> encoded_ GUARDED_BY(mu_);
  std::vector<char> ready_ GUARDED_BY(mu_);
  bool stop_ GUARDED_BY(mu_) = false;
  std::exception_ptr error_ GUARDED_BY(mu_);
  std::thread helper_;  // last: starts once the rest is set
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
