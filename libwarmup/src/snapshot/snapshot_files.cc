#include "snapshot/snapshot_files.h"

#include <zip.h>

#include <filesystem>

#include "snapshot/manifest.h"

namespace warmup::snapshot {
namespace {

namespace fs = std::filesystem;

class DirectoryFiles : public SnapshotFiles {
 public:
  explicit DirectoryFiles(std::string root) : root_(std::move(root)) {}
  StatusOr<std::unique_ptr<ByteReader>> Open(const std::string& relative) override {
    return OpenFileForReading(Name(relative));
  }
  std::string Name(const std::string& relative) const override {
    return (fs::path(root_) / relative).string();
  }
  const std::string& root() const override { return root_; }

 private:
  std::string root_;
};

class ZipEntryReader : public ByteReader {
 public:
  ZipEntryReader(zip_file_t* file, std::string name) : file_(file), name_(std::move(name)) {}
  ~ZipEntryReader() override { zip_fclose(file_); }
  StatusOr<size_t> Read(void* buffer, size_t size) override {
    const zip_int64_t n = zip_fread(file_, buffer, size);
    if (n < 0) return DataLossError(name_ + ": " + zip_file_strerror(file_));
    return static_cast<size_t>(n);
  }

 private:
  zip_file_t* file_;
  std::string name_;
};

class ZipFiles : public SnapshotFiles {
 public:
  ZipFiles(std::string path, zip_t* archive, std::string prefix)
      : path_(std::move(path)), archive_(archive), prefix_(std::move(prefix)) {}
  ~ZipFiles() override { zip_discard(archive_); }
  StatusOr<std::unique_ptr<ByteReader>> Open(const std::string& relative) override {
    zip_file_t* file = zip_fopen(archive_, (prefix_ + relative).c_str(), 0);
    if (file == nullptr) return NotFoundError(Name(relative) + ": no such entry");
    return std::unique_ptr<ByteReader>(new ZipEntryReader(file, Name(relative)));
  }
  std::string Name(const std::string& relative) const override { return path_ + ":" + prefix_ + relative; }
  const std::string& root() const override { return path_; }

 private:
  std::string path_;
  zip_t* archive_;
  std::string prefix_;
};

}  // namespace

StatusOr<std::unique_ptr<SnapshotFiles>> OpenSnapshotFiles(const std::string& path) {
  std::error_code ec;
  const auto status = fs::status(path, ec);
  if (ec || !fs::exists(status)) return NotFoundError(path + ": no such file or directory");
  if (fs::is_directory(status)) {
    if (!fs::exists(fs::path(path) / kManifestFile)) {
      std::string hint;
      for (const auto& entry : fs::directory_iterator(path, ec)) {
        if (entry.is_directory() && fs::exists(entry.path() / kManifestFile)) {
          hint = " (did you mean " + entry.path().string() + "?)";
          break;
        }
      }
      return InvalidArgumentError(path + ": no " + kManifestFile + ": not a warmup snapshot directory" +
                                  hint);
    }
    return std::unique_ptr<SnapshotFiles>(new DirectoryFiles(path));
  }
  int error = 0;
  zip_t* archive = zip_open(path.c_str(), ZIP_RDONLY, &error);
  if (archive == nullptr) {
    zip_error_t ze;
    zip_error_init_with_code(&ze, error);
    std::string message =
        path + ": not a snapshot directory, and not a readable zip: " + zip_error_strerror(&ze);
    zip_error_fini(&ze);
    return InvalidArgumentError(message);
  }
  // The export holds exactly one `<catalog>/manifest.json`.
  std::string prefix;
  const zip_int64_t entries = zip_get_num_entries(archive, 0);
  for (zip_int64_t i = 0; i < entries; ++i) {
    const std::string name = zip_get_name(archive, i, 0);
    const size_t slash = name.find('/');
    if (slash != std::string::npos && name.substr(slash + 1) == kManifestFile) {
      if (!prefix.empty()) {
        zip_discard(archive);
        return InvalidArgumentError(path + ": holds more than one snapshot");
      }
      prefix = name.substr(0, slash + 1);
    }
  }
  if (prefix.empty()) {
    zip_discard(archive);
    return InvalidArgumentError(path + ": no <catalog>/" + std::string(kManifestFile) +
                                " inside: not a warmup export");
  }
  return std::unique_ptr<SnapshotFiles>(new ZipFiles(path, archive, prefix));
}

}  // namespace warmup::snapshot
