#include "engine/env.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <map>
#include <set>

namespace warmup::engine {
namespace {

namespace fs = std::filesystem;

Status Errno(const std::string& what, const std::string& path) {
  return Status(errno == ENOENT ? StatusCode::kNotFound : StatusCode::kUnavailable,
                path + ": " + what + ": " + std::strerror(errno));
}

class PosixAppendFile : public AppendFile {
 public:
  PosixAppendFile(std::string path, int fd, uint64_t size)
      : path_(std::move(path)), fd_(fd), size_(size), writeback_from_(size) {
    buffer_.reserve(kBuffer);
  }
  ~PosixAppendFile() override {
    if (fd_ >= 0) {
      (void)Flush();
      ::close(fd_);
    }
  }
  Status Append(std::string_view data) override {
    size_ += data.size();
    if (buffer_.empty() && data.size() >= kBuffer / 2) return WriteAll(data);  // no copy for large appends
    if (buffer_.size() + data.size() > kBuffer) {
      if (Status s = Flush(); !s.ok()) return s;
      if (data.size() > kBuffer) return WriteAll(data);
    }
    buffer_.append(data);
    return OkStatus();
  }
  Status Flush() override {
    Status s = WriteAll(buffer_);
    buffer_.clear();
    return s;
  }
  Status Sync() override {
    if (Status s = Flush(); !s.ok()) return s;
    if (::fdatasync(fd_) != 0) return Errno("fdatasync", path_);
    return OkStatus();
  }
  void StartWriteback() override {
    const uint64_t reached = size_ - buffer_.size();  // what write() has handed over
    if (fd_ < 0 || reached <= writeback_from_) return;
    (void)::sync_file_range(fd_, static_cast<off_t>(writeback_from_),
                            static_cast<off_t>(reached - writeback_from_), SYNC_FILE_RANGE_WRITE);
    writeback_from_ = reached;
  }
  Status Close() override {
    Status s = Flush();
    if (fd_ >= 0 && ::close(fd_) != 0 && s.ok()) s = Errno("close", path_);
    fd_ = -1;
    return s;
  }
  uint64_t Size() const override { return size_; }

 private:
  static constexpr size_t kBuffer = 1 << 20;
  Status WriteAll(std::string_view data) {
    while (!data.empty()) {
      const ssize_t n = ::write(fd_, data.data(), data.size());
      if (n < 0) {
        if (errno == EINTR) continue;
        return Errno("write", path_);
      }
      data.remove_prefix(static_cast<size_t>(n));
    }
    return OkStatus();
  }
  std::string path_;
  int fd_;
  uint64_t size_;
  uint64_t writeback_from_;  // the first byte StartWriteback has not asked for
  std::string buffer_;
};

class PosixReadFile : public ReadFile {
 public:
  PosixReadFile(std::string path, int fd, uint64_t size) : path_(std::move(path)), fd_(fd), size_(size) {}
  ~PosixReadFile() override { ::close(fd_); }
  Status ReadAt(uint64_t offset, size_t size, std::string* out) const override {
    out->resize(size);
    size_t done = 0;
    while (done < size) {
      const ssize_t n = ::pread(fd_, out->data() + done, size - done, static_cast<off_t>(offset + done));
      if (n < 0) {
        if (errno == EINTR) continue;
        return Errno("read", path_);
      }
      if (n == 0) {
        return DataLossError(path_ + ": offset " + std::to_string(offset) + ": needs " +
                             std::to_string(size) + " bytes, the file ends after " + std::to_string(done));
      }
      done += static_cast<size_t>(n);
    }
    return OkStatus();
  }
  uint64_t Size() const override { return size_; }

 private:
  std::string path_;
  int fd_;
  uint64_t size_;
};

class PosixEnv : public Env {
 public:
  StatusOr<std::unique_ptr<AppendFile>> OpenAppend(const std::string& path) override {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd < 0) return Errno("cannot open for appending", path);
    const off_t size = ::lseek(fd, 0, SEEK_END);
    return std::unique_ptr<AppendFile>(new PosixAppendFile(path, fd, static_cast<uint64_t>(size)));
  }
  StatusOr<std::unique_ptr<ReadFile>> OpenRead(const std::string& path) override {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return Errno("cannot open", path);
    const off_t size = ::lseek(fd, 0, SEEK_END);
    return std::unique_ptr<ReadFile>(new PosixReadFile(path, fd, static_cast<uint64_t>(size)));
  }
  Status WriteFileAtomically(const std::string& path, std::string_view data) override {
    const std::string temp = path + ".tmp";
    const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) return Errno("cannot create", temp);
    size_t done = 0;
    while (done < data.size()) {
      const ssize_t n = ::write(fd, data.data() + done, data.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) {
        Status s = Errno("write", temp);
        ::close(fd);
        return s;
      }
      done += static_cast<size_t>(n);
    }
    if (::fsync(fd) != 0) {
      Status s = Errno("fsync", temp);
      ::close(fd);
      return s;
    }
    ::close(fd);
    if (::rename(temp.c_str(), path.c_str()) != 0) return Errno("rename", path);
    return SyncDirectory(fs::path(path).parent_path().string());
  }
  StatusOr<std::string> ReadWholeFile(const std::string& path) override {
    auto file = OpenRead(path);
    if (!file.ok()) return file.status();
    std::string out;
    if (Status s = (*file)->ReadAt(0, (*file)->Size(), &out); !s.ok()) return s;
    return out;
  }
  bool Exists(const std::string& path) override {
    std::error_code ec;
    return fs::exists(path, ec);
  }
  bool IsDirectory(const std::string& path) override {
    std::error_code ec;
    return fs::is_directory(path, ec);
  }
  Status CreateDirectories(const std::string& path) override {
    std::error_code ec;
    fs::create_directories(path, ec);
    if (ec) return Status(StatusCode::kUnavailable, path + ": cannot create: " + ec.message());
    return OkStatus();
  }
  StatusOr<std::vector<std::string>> ListDirectory(const std::string& path) override {
    std::error_code ec;
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(path, ec)) {
      names.push_back(entry.path().filename().string());
    }
    if (ec) return Status(StatusCode::kUnavailable, path + ": cannot list: " + ec.message());
    std::sort(names.begin(), names.end());
    return names;
  }
  Status RemoveAll(const std::string& path) override {
    std::error_code ec;
    fs::remove_all(path, ec);
    if (ec) return Status(StatusCode::kUnavailable, path + ": cannot remove: " + ec.message());
    return OkStatus();
  }
  Status Rename(const std::string& from, const std::string& to) override {
    if (::rename(from.c_str(), to.c_str()) != 0) return Errno("rename to " + to, from);
    return OkStatus();
  }
  Status SyncDirectory(const std::string& path) override {
    const int fd = ::open(path.empty() ? "." : path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return Errno("cannot open directory", path);
    const int rc = ::fsync(fd);
    ::close(fd);
    if (rc != 0) return Errno("fsync", path);
    return OkStatus();
  }
};

class FaultyAppendFile : public AppendFile {
 public:
  FaultyAppendFile(FaultInjectingEnv* env, std::string path, std::unique_ptr<AppendFile> base)
      : env_(env), path_(std::move(path)), base_(std::move(base)) {}
  Status Append(std::string_view data) override {
    if (Status s = env_->Tick(path_); !s.ok()) return s;
    return base_->Append(data);
  }
  Status Flush() override { return base_->Flush(); }
  Status Sync() override {
    if (Status s = env_->Tick(path_); !s.ok()) return s;
    return base_->Sync();
  }
  void StartWriteback() override { base_->StartWriteback(); }
  Status Close() override { return base_->Close(); }
  uint64_t Size() const override { return base_->Size(); }

 private:
  FaultInjectingEnv* env_;
  std::string path_;
  std::unique_ptr<AppendFile> base_;
};

// Files are strings; directories are the set of their paths.
class MemEnv : public Env {
 public:
  class File : public AppendFile {
   public:
    explicit File(std::string* data) : data_(data) {}
    Status Append(std::string_view data) override {
      data_->append(data);
      return OkStatus();
    }
    Status Flush() override { return OkStatus(); }
    Status Sync() override { return OkStatus(); }
    Status Close() override { return OkStatus(); }
    uint64_t Size() const override { return data_->size(); }

   private:
    std::string* data_;
  };
  class Reader : public ReadFile {
   public:
    Reader(std::string path, const std::string* data) : path_(std::move(path)), data_(data) {}
    Status ReadAt(uint64_t offset, size_t size, std::string* out) const override {
      if (offset + size > data_->size()) {
        return DataLossError(path_ + ": offset " + std::to_string(offset) + ": needs " +
                             std::to_string(size) + " bytes, the file has " + std::to_string(data_->size()));
      }
      out->assign(*data_, offset, size);
      return OkStatus();
    }
    uint64_t Size() const override { return data_->size(); }

   private:
    std::string path_;
    const std::string* data_;
  };

  StatusOr<std::unique_ptr<AppendFile>> OpenAppend(const std::string& path) override {
    if (!IsDirectory(Parent(path))) return NotFoundError(path + ": no such directory");
    return std::unique_ptr<AppendFile>(new File(&files_[path]));
  }
  StatusOr<std::unique_ptr<ReadFile>> OpenRead(const std::string& path) override {
    auto it = files_.find(path);
    if (it == files_.end()) return NotFoundError(path + ": no such file");
    return std::unique_ptr<ReadFile>(new Reader(path, &it->second));
  }
  Status WriteFileAtomically(const std::string& path, std::string_view data) override {
    if (!IsDirectory(Parent(path))) return NotFoundError(path + ": no such directory");
    files_[path] = std::string(data);
    return OkStatus();
  }
  StatusOr<std::string> ReadWholeFile(const std::string& path) override {
    auto it = files_.find(path);
    if (it == files_.end()) return NotFoundError(path + ": no such file");
    return it->second;
  }
  bool Exists(const std::string& path) override { return files_.contains(path) || dirs_.contains(path); }
  bool IsDirectory(const std::string& path) override { return dirs_.contains(path); }
  Status CreateDirectories(const std::string& path) override {
    for (std::string p = path; !p.empty() && p != "/" && p != "."; p = Parent(p)) dirs_.insert(p);
    return OkStatus();
  }
  StatusOr<std::vector<std::string>> ListDirectory(const std::string& path) override {
    std::set<std::string> names;
    for (const auto& [file, data] : files_) {
      if (Parent(file) == path) names.insert(file.substr(path.size() + 1));
    }
    for (const auto& dir : dirs_) {
      if (Parent(dir) == path) names.insert(dir.substr(path.size() + 1));
    }
    return std::vector<std::string>(names.begin(), names.end());
  }
  Status RemoveAll(const std::string& path) override {
    const std::string prefix = path + "/";
    std::erase_if(files_, [&](const auto& f) { return f.first == path || f.first.rfind(prefix, 0) == 0; });
    std::erase_if(dirs_, [&](const auto& d) { return d == path || d.rfind(prefix, 0) == 0; });
    return OkStatus();
  }
  Status SyncDirectory(const std::string&) override { return OkStatus(); }
  Status Rename(const std::string& from, const std::string& to) override {
    auto it = files_.find(from);
    if (it == files_.end()) return NotFoundError(from + ": no such file");
    files_[to] = std::move(it->second);
    files_.erase(from);
    return OkStatus();
  }
  StatusOr<std::unique_ptr<DirectoryLock>> LockDirectory(const std::string&) override {
    return DirectoryLock::None();  // no other process sees these files
  }

 private:
  static std::string Parent(const std::string& path) {
    const size_t slash = path.rfind('/');
    return slash == std::string::npos ? "." : path.substr(0, slash);
  }
  // Node-based maps: File and Reader keep pointers to the strings.
  std::map<std::string, std::string> files_;
  std::set<std::string> dirs_;
};

}  // namespace

std::unique_ptr<Env> NewMemEnv() { return std::make_unique<MemEnv>(); }

Env* DefaultEnv() {
  static PosixEnv env;
  return &env;
}

FaultInjectingEnv::FaultInjectingEnv(Env* base, std::string path_substring, int64_t fail_after,
                                     int error_number)
    : base_(base),
      path_substring_(std::move(path_substring)),
      fail_after_(fail_after),
      error_number_(error_number) {}

Status FaultInjectingEnv::Tick(const std::string& path) {
  if (path.find(path_substring_) == std::string::npos) return OkStatus();
  if (calls_++ < fail_after_) return OkStatus();
  ++injected_;
  if (error_number_ != 0) return UnavailableError(path + ": write: " + std::strerror(error_number_));
  return UnavailableError(path + ": injected fault");
}

StatusOr<std::unique_ptr<AppendFile>> FaultInjectingEnv::OpenAppend(const std::string& path) {
  auto file = base_->OpenAppend(path);
  if (!file.ok()) return file.status();
  return std::unique_ptr<AppendFile>(new FaultyAppendFile(this, path, std::move(file).value()));
}

Status FaultInjectingEnv::Rename(const std::string& from, const std::string& to) {
  if (Status s = Tick(to); !s.ok()) return s;
  return base_->Rename(from, to);
}

Status FaultInjectingEnv::WriteFileAtomically(const std::string& path, std::string_view data) {
  if (Status s = Tick(path); !s.ok()) return s;
  return base_->WriteFileAtomically(path, data);
}

}  // namespace warmup::engine
