// Byte streams under snapshot files: plain files (read-only or create-new),
// zstd (de)compression, and entries of a zip archive. Internal.
#ifndef WARMUP_SRC_SNAPSHOT_BYTE_IO_H_
#define WARMUP_SRC_SNAPSHOT_BYTE_IO_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "warmup/status.h"

namespace warmup::snapshot {

// A source of bytes. Thread-safety: one thread.
class ByteReader {
 public:
  virtual ~ByteReader() = default;
  // Reads up to `size` bytes; returns how many were read, 0 only at the end.
  virtual StatusOr<size_t> Read(void* buffer, size_t size) = 0;
};

// Opens `path` with O_RDONLY; never creates or modifies it.
StatusOr<std::unique_ptr<ByteReader>> OpenFileForReading(const std::string& path);

// Passes bytes through while counting them and extending a CRC-32C over them:
// how a reader verifies what is stored.
class ChecksummingReader : public ByteReader {
 public:
  explicit ChecksummingReader(std::unique_ptr<ByteReader> inner) : inner_(std::move(inner)) {}
  StatusOr<size_t> Read(void* buffer, size_t size) override;
  uint32_t crc() const { return crc_; }
  uint64_t bytes() const { return bytes_; }

 private:
  std::unique_ptr<ByteReader> inner_;
  uint32_t crc_ = 0;
  uint64_t bytes_ = 0;
};

// Decompresses a zstd stream read from `inner`. `name` is used in errors.
std::unique_ptr<ByteReader> MakeZstdReader(ByteReader* inner, std::string name);

// Reads length-delimited records (a varint length, then that many bytes),
// the framing protobuf's writeDelimitedTo uses.
class RecordReader {
 public:
  RecordReader(ByteReader* input, std::string name) : input_(input), name_(std::move(name)) {}
  // Sets `*record` to the next record (valid until the next call) and
  // `*offset` to the offset of its length prefix; returns false at a clean end.
  // Errors: kDataLoss naming the file and offset for a truncated record or a
  // malformed length.
  StatusOr<bool> Next(std::string_view* record, uint64_t* offset);

 private:
  Status Fill(size_t needed);
  ByteReader* input_;
  std::string name_;
  std::vector<char> buffer_ = std::vector<char>(1 << 20);
  size_t begin_ = 0;
  size_t end_ = 0;
  uint64_t consumed_ = 0;  // stream offset of buffer_[begin_]
  bool eof_ = false;
};

// A file created new (O_EXCL), written through a buffer, with the stored bytes
// counted and checksummed; optionally zstd-compressed.
class FileWriter {
 public:
  // Errors: kAlreadyExists or an I/O error naming the path.
  static StatusOr<std::unique_ptr<FileWriter>> Create(const std::string& path, int zstd_level /* 0 = none */);
  ~FileWriter();
  Status Write(std::string_view bytes);
  // Appends a varint length and the bytes.
  Status WriteRecord(std::string_view record);
  // Flushes, fsyncs and closes. Required before the file counts as written.
  Status Close();
  uint32_t crc() const { return crc_; }
  uint64_t stored_bytes() const { return stored_bytes_; }
  // The same for the bytes given to Write, before compression.
  uint32_t content_crc() const { return content_crc_; }
  uint64_t content_bytes() const { return content_bytes_; }

 private:
  FileWriter(std::string path, int fd, int zstd_level);
  Status WriteStored(const char* data, size_t size);
  Status FlushStored();
  struct Zstd;
  std::string path_;
  int fd_;
  std::unique_ptr<Zstd> zstd_;
  std::string buffer_;
  uint32_t crc_ = 0;
  uint64_t stored_bytes_ = 0;
  uint32_t content_crc_ = 0;
  uint64_t content_bytes_ = 0;
};

// Writes `bytes` to a new file at `path` and fsyncs it; returns its CRC-32C.
StatusOr<uint32_t> WriteWholeFile(const std::string& path, std::string_view bytes);
// Reads `reader` to its end.
StatusOr<std::string> ReadAll(ByteReader& reader);
// Reads a whole file (read-only). Errors name the path.
StatusOr<std::string> ReadWholeFile(const std::string& path);
// Fsyncs a directory, so a rename or create in it is durable.
Status SyncDirectory(const std::string& path);
// Creates a new directory "<parent>/<prefix><8 random letters>" and returns
// its path. Its mode is what mkdir gives (0777 less the umask), so that a
// snapshot renamed into place from it is as readable as the user's files:
// mkdtemp's 0700 would shut a team out of a shared pristine directory.
// Errors: kUnavailable naming the parent.
StatusOr<std::string> MakeFreshDirectory(const std::string& parent, const std::string& prefix);

}  // namespace warmup::snapshot

#endif  // WARMUP_SRC_SNAPSHOT_BYTE_IO_H_
