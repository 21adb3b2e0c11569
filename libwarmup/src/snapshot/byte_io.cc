#include "snapshot/byte_io.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include <cerrno>
#include <cstring>
#include <random>

#include "base/crc32c.h"

namespace warmup::snapshot {
namespace {

Status IoError(const std::string& what, const std::string& path) {
  const int err = errno;
  std::string message = path + ": " + what + ": " + std::strerror(err);
  if (err == ENOENT) return NotFoundError(message);
  if (err == EEXIST) return AlreadyExistsError(message);
  return Status(StatusCode::kUnavailable, message);
}

class FileReader : public ByteReader {
 public:
  FileReader(std::string path, int fd) : path_(std::move(path)), fd_(fd) {}
  ~FileReader() override { ::close(fd_); }
  StatusOr<size_t> Read(void* buffer, size_t size) override {
    while (true) {
      const ssize_t n = ::read(fd_, buffer, size);
      if (n >= 0) return static_cast<size_t>(n);
      if (errno != EINTR) return IoError("read", path_);
    }
  }

 private:
  std::string path_;
  int fd_;
};

class ZstdReader : public ByteReader {
 public:
  ZstdReader(ByteReader* inner, std::string name)
      : inner_(inner), name_(std::move(name)), stream_(ZSTD_createDStream()), in_(ZSTD_DStreamInSize()) {}
  ~ZstdReader() override { ZSTD_freeDStream(stream_); }
  StatusOr<size_t> Read(void* buffer, size_t size) override {
    ZSTD_outBuffer out{buffer, size, 0};
    while (out.pos == 0) {
      if (input_.pos == input_.size) {
        auto n = inner_->Read(in_.data(), in_.size());
        if (!n.ok()) return n.status();
        if (*n == 0) {
          if (!frame_done_) {
            return DataLossError(name_ + ": zstd stream ends in the middle of a frame (truncated)");
          }
          return size_t{0};
        }
        input_ = ZSTD_inBuffer{in_.data(), *n, 0};
      }
      const size_t rc = ZSTD_decompressStream(stream_, &out, &input_);
      if (ZSTD_isError(rc)) {
        return DataLossError(name_ + ": zstd data is corrupt: " + ZSTD_getErrorName(rc));
      }
      frame_done_ = rc == 0;
    }
    return out.pos;
  }

 private:
  ByteReader* inner_;
  std::string name_;
  ZSTD_DStream* stream_;
  std::vector<char> in_;
  ZSTD_inBuffer input_{nullptr, 0, 0};
  bool frame_done_ = true;
};

}  // namespace

StatusOr<std::unique_ptr<ByteReader>> OpenFileForReading(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return IoError("cannot open", path);
  return std::unique_ptr<ByteReader>(new FileReader(path, fd));
}

StatusOr<size_t> ChecksummingReader::Read(void* buffer, size_t size) {
  auto n = inner_->Read(buffer, size);
  if (n.ok() && *n > 0) {
    crc_ = Crc32cExtend(crc_, buffer, *n);
    bytes_ += *n;
  }
  return n;
}

std::unique_ptr<ByteReader> MakeZstdReader(ByteReader* inner, std::string name) {
  return std::make_unique<ZstdReader>(inner, std::move(name));
}

Status RecordReader::Fill(size_t needed) {
  if (end_ - begin_ >= needed) return OkStatus();
  if (begin_ > 0) {
    std::memmove(buffer_.data(), buffer_.data() + begin_, end_ - begin_);
    end_ -= begin_;
    begin_ = 0;
  }
  if (buffer_.size() < needed) buffer_.resize(needed);
  while (end_ < needed && !eof_) {
    auto n = input_->Read(buffer_.data() + end_, buffer_.size() - end_);
    if (!n.ok()) return n.status();
    if (*n == 0) eof_ = true;
    end_ += *n;
  }
  return OkStatus();
}

StatusOr<bool> RecordReader::Next(std::string_view* record, uint64_t* offset) {
  if (Status s = Fill(10); !s.ok()) return s;
  if (begin_ == end_) return false;
  *offset = consumed_;
  uint64_t length = 0;
  size_t i = 0;
  for (int shift = 0;; shift += 7, ++i) {
    if (begin_ + i >= end_) {
      return DataLossError(name_ + ": offset " + std::to_string(*offset) + ": truncated record length");
    }
    const auto byte = static_cast<uint8_t>(buffer_[begin_ + i]);
    if (shift > 28) {
      return DataLossError(name_ + ": offset " + std::to_string(*offset) +
                           ": record length is not a valid varint");
    }
    length |= static_cast<uint64_t>(byte & 0x7F) << shift;
    if ((byte & 0x80) == 0) break;
  }
  const size_t header = i + 1;
  constexpr uint64_t kMaxRecord = 1ull << 30;
  if (length > kMaxRecord) {
    return DataLossError(name_ + ": offset " + std::to_string(*offset) + ": record length " +
                         std::to_string(length) + " exceeds 1 GiB");
  }
  if (Status s = Fill(header + length); !s.ok()) return s;
  if (end_ - begin_ < header + length) {
    return DataLossError(name_ + ": offset " + std::to_string(*offset) + ": truncated record (needs " +
                         std::to_string(length) + " bytes, " + std::to_string(end_ - begin_ - header) +
                         " left)");
  }
  *record = std::string_view(buffer_.data() + begin_ + header, length);
  begin_ += header + length;
  consumed_ += header + length;
  return true;
}

struct FileWriter::Zstd {
  ZSTD_CStream* stream = ZSTD_createCStream();
  std::vector<char> out = std::vector<char>(ZSTD_CStreamOutSize());
  ~Zstd() { ZSTD_freeCStream(stream); }
};

StatusOr<std::unique_ptr<FileWriter>> FileWriter::Create(const std::string& path, int zstd_level) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) return IoError("cannot create", path);
  return std::unique_ptr<FileWriter>(new FileWriter(path, fd, zstd_level));
}

FileWriter::FileWriter(std::string path, int fd, int zstd_level) : path_(std::move(path)), fd_(fd) {
  buffer_.reserve(1 << 20);
  if (zstd_level > 0) {
    zstd_ = std::make_unique<Zstd>();
    ZSTD_initCStream(zstd_->stream, zstd_level);
  }
}

FileWriter::~FileWriter() {
  if (fd_ >= 0) ::close(fd_);
}

Status FileWriter::FlushStored() {
  size_t done = 0;
  while (done < buffer_.size()) {
    const ssize_t n = ::write(fd_, buffer_.data() + done, buffer_.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return IoError("write", path_);
    }
    done += static_cast<size_t>(n);
  }
  buffer_.clear();
  return OkStatus();
}

Status FileWriter::WriteStored(const char* data, size_t size) {
  crc_ = Crc32cExtend(crc_, data, size);
  stored_bytes_ += size;
  buffer_.append(data, size);
  return buffer_.size() >= (1 << 20) ? FlushStored() : OkStatus();
}

Status FileWriter::Write(std::string_view bytes) {
  content_crc_ = Crc32cExtend(content_crc_, bytes.data(), bytes.size());
  content_bytes_ += bytes.size();
  if (!zstd_) return WriteStored(bytes.data(), bytes.size());
  ZSTD_inBuffer in{bytes.data(), bytes.size(), 0};
  while (in.pos < in.size) {
    ZSTD_outBuffer out{zstd_->out.data(), zstd_->out.size(), 0};
    const size_t rc = ZSTD_compressStream(zstd_->stream, &out, &in);
    if (ZSTD_isError(rc)) return InternalError(path_ + ": zstd: " + ZSTD_getErrorName(rc));
    if (Status s = WriteStored(zstd_->out.data(), out.pos); !s.ok()) return s;
  }
  return OkStatus();
}

Status FileWriter::WriteRecord(std::string_view record) {
  char header[10];
  size_t n = 0;
  uint64_t length = record.size();
  do {
    header[n++] = static_cast<char>((length & 0x7F) | (length > 0x7F ? 0x80 : 0));
    length >>= 7;
  } while (length > 0);
  if (Status s = Write(std::string_view(header, n)); !s.ok()) return s;
  return Write(record);
}

Status FileWriter::Close() {
  if (zstd_) {
    size_t remaining = 0;
    do {
      ZSTD_outBuffer out{zstd_->out.data(), zstd_->out.size(), 0};
      remaining = ZSTD_endStream(zstd_->stream, &out);
      if (ZSTD_isError(remaining)) return InternalError(path_ + ": zstd: " + ZSTD_getErrorName(remaining));
      if (Status s = WriteStored(zstd_->out.data(), out.pos); !s.ok()) return s;
    } while (remaining > 0);
  }
  if (Status s = FlushStored(); !s.ok()) return s;
  if (::fsync(fd_) != 0) return IoError("fsync", path_);
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) return IoError("close", path_);
  return OkStatus();
}

StatusOr<uint32_t> WriteWholeFile(const std::string& path, std::string_view bytes) {
  auto writer = FileWriter::Create(path, 0);
  if (!writer.ok()) return writer.status();
  if (Status s = (*writer)->Write(bytes); !s.ok()) return s;
  if (Status s = (*writer)->Close(); !s.ok()) return s;
  return (*writer)->crc();
}

StatusOr<std::string> ReadAll(ByteReader& reader) {
  std::string out;
  char chunk[1 << 16];
  while (true) {
    auto n = reader.Read(chunk, sizeof(chunk));
    if (!n.ok()) return n.status();
    if (*n == 0) return out;
    out.append(chunk, *n);
  }
}

StatusOr<std::string> ReadWholeFile(const std::string& path) {
  auto reader = OpenFileForReading(path);
  if (!reader.ok()) return reader.status();
  return ReadAll(**reader);
}

Status SyncDirectory(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return IoError("cannot open directory", path);
  const int rc = ::fsync(fd);
  ::close(fd);
  if (rc != 0) return IoError("fsync", path);
  return OkStatus();
}

StatusOr<std::string> MakeFreshDirectory(const std::string& parent, const std::string& prefix) {
  static constexpr char kLetters[] = "abcdefghijklmnopqrstuvwxyz0123456789";
  std::random_device entropy;
  std::mt19937_64 rng((static_cast<uint64_t>(entropy()) << 32) ^ static_cast<uint64_t>(::getpid()));
  for (int attempt = 0; attempt < 100; ++attempt) {
    std::string path = parent + "/" + prefix;
    for (int i = 0; i < 8; ++i) path += kLetters[rng() % (sizeof(kLetters) - 1)];
    if (::mkdir(path.c_str(), 0777) == 0) return path;
    if (errno != EEXIST) return IoError("cannot create a directory in", parent);
  }
  return IoError("cannot find a fresh directory name in", parent);
}

}  // namespace warmup::snapshot
