#include "snapshot/snapshot_files.h"

#include <sys/stat.h>
#include <zip.h>

#include <cstdio>
#include <filesystem>
#include <map>
#include <set>

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

// The entries of an export that passed CheckEntries, by path under `<catalog>/`.
struct ExportEntries {
  std::string catalog;
  std::map<std::string, zip_uint64_t> files;  // to the entry's index
  std::set<std::string> directories;          // "" for `<catalog>/` itself
};

// The files of a checked export. Entries are opened by index, not by name:
// the index is what was checked.
class ZipFiles : public SnapshotFiles {
 public:
  ZipFiles(std::string path, zip_t* archive) : path_(std::move(path)), archive_(archive) {}
  ~ZipFiles() override { zip_discard(archive_); }
  void SetEntries(const ExportEntries& entries) {
    prefix_ = entries.catalog + "/";
    files_ = entries.files;
  }
  StatusOr<std::unique_ptr<ByteReader>> Open(const std::string& relative) override {
    const auto it = files_.find(relative);
    if (it == files_.end()) return NotFoundError(Name(relative) + ": no such entry");
    return OpenZipEntry(archive_, it->second, Name(relative));
  }
  std::string Name(const std::string& relative) const override { return path_ + ":" + prefix_ + relative; }
  const std::string& root() const override { return path_; }

 private:
  std::string path_;
  zip_t* archive_;
  std::string prefix_;
  std::map<std::string, zip_uint64_t> files_;
};

// The Unix mode in an entry's external attributes (the upper 16 bits) when
// the entry was made on Unix; 0 when the attributes say nothing about it.
uint32_t UnixMode(zip_t* archive, zip_uint64_t index) {
  zip_uint8_t opsys = 0;
  zip_uint32_t attributes = 0;
  if (zip_file_get_external_attributes(archive, index, 0, &opsys, &attributes) != 0 ||
      opsys != ZIP_OPSYS_UNIX) {
    return 0;
  }
  return attributes >> 16;
}

std::string FileTypeName(uint32_t type) {
  switch (type) {
    case S_IFREG:
      return "a regular file";
    case S_IFDIR:
      return "a directory";
    case S_IFLNK:
      return "a symbolic link";
    case S_IFIFO:
      return "a FIFO";
    case S_IFCHR:
      return "a character device";
    case S_IFBLK:
      return "a block device";
    case S_IFSOCK:
      return "a socket";
    default:
      return "of an unknown type";
  }
}

// Step one of the validator, from the zip's directory alone: the entries pass
// CheckZipEntries and everything lies under the one `<catalog>/` that holds
// the manifest.
StatusOr<ExportEntries> CheckEntries(zip_t* archive, const std::string& path) {
  auto checked = CheckZipEntries(archive, path, "an export");
  if (!checked.ok()) return checked.status();
  const std::vector<ZipEntryName>& entries = *checked;
  auto refuse = [&](const std::string& name, const std::string& why) {
    return InvalidArgumentError(path + ": entry " + QuotedZipEntry(name) + " " + why);
  };
  // The catalog is the directory holding the manifest, so that an error names
  // the entry beside it rather than the export's own files.
  ExportEntries out;
  for (const ZipEntryName& e : entries) {
    const size_t slash = e.name.find('/');
    if (!e.directory && slash != std::string::npos && e.name.substr(slash + 1) == kManifestFile) {
      out.catalog = e.name.substr(0, slash);
      break;
    }
  }
  if (out.catalog.empty()) {
    return InvalidArgumentError(path + ": no <catalog>/" + std::string(kManifestFile) +
                                " inside: not a warmup export");
  }
  const std::string prefix = out.catalog + "/";
  for (const ZipEntryName& e : entries) {
    if (e.directory && e.name == out.catalog) {
      out.directories.insert("");
    } else if (e.name.compare(0, prefix.size(), prefix) != 0) {
      return refuse(e.raw, "is outside " + prefix + "; an export holds one <catalog>/ directory");
    } else if (e.directory) {
      out.directories.insert(e.name.substr(prefix.size()));
    } else {
      out.files.emplace(e.name.substr(prefix.size()), e.index);
    }
  }
  return out;
}

// The files of a snapshot, relative to its directory, each once.
std::vector<std::string> ListedFiles(const Manifest& manifest) {
  std::vector<std::string> listed = {kManifestFile, manifest.schema.file};
  for (const auto& c : manifest.collections) listed.push_back(c.data.file);
  std::set<std::string> seen;
  std::erase_if(listed, [&](const std::string& file) { return !seen.insert(file).second; });
  return listed;
}

// Step two, once the manifest is parsed: the export's files are exactly the
// ones it lists, and its directories only those that hold them.
Status CheckListing(const ExportEntries& entries, const Manifest& manifest,
                    const std::vector<std::string>& listed, const std::string& path) {
  const std::string prefix = entries.catalog + "/";
  const std::string manifest_name = prefix + kManifestFile;
  if (manifest.catalog != entries.catalog) {
    return InvalidArgumentError(path + ":" + manifest_name + ": catalog '" + manifest.catalog +
                                "', but the export's directory is " + prefix);
  }
  const std::set<std::string> files(listed.begin(), listed.end());
  std::set<std::string> directories = {""};
  for (const std::string& file : listed) {
    for (size_t slash = file.find('/'); slash != std::string::npos; slash = file.find('/', slash + 1)) {
      directories.insert(file.substr(0, slash));
    }
  }
  for (const auto& [file, index] : entries.files) {
    if (files.count(file) == 0) {
      return InvalidArgumentError(path + ": entry " + QuotedZipEntry(prefix + file) + " is not listed in " +
                                  manifest_name +
                                  "; an export holds only the manifest, the schema and the collections' "
                                  "data files");
    }
  }
  for (const std::string& directory : entries.directories) {
    if (directories.count(directory) == 0) {
      return InvalidArgumentError(path + ": entry " + QuotedZipEntry(prefix + directory + "/") +
                                  " is a directory that holds no file " + manifest_name + " lists");
    }
  }
  for (const std::string& file : listed) {
    if (entries.files.count(file) == 0) {
      return NotFoundError(path + ":" + prefix + file + ": no such entry (" + manifest_name + " lists it)");
    }
  }
  return OkStatus();
}

}  // namespace

std::string QuotedZipEntry(const std::string& name) {
  std::string out = "'";
  for (const char c : name) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte >= 0x20 && byte < 0x7f) {
      out += c;
    } else {
      char escaped[8];
      std::snprintf(escaped, sizeof(escaped), "\\x%02x", byte);
      out += escaped;
    }
  }
  return out + "'";
}

StatusOr<std::vector<ZipEntryName>> CheckZipEntries(zip_t* archive, const std::string& path,
                                                    const std::string& what) {
  auto refuse = [&](const std::string& name, const std::string& why) {
    return InvalidArgumentError(path + ": entry " + QuotedZipEntry(name) + " " + why);
  };
  std::vector<ZipEntryName> entries;
  std::map<std::string, std::string> seen;  // name → the raw name that had it first
  const zip_int64_t count = zip_get_num_entries(archive, 0);
  for (zip_uint64_t i = 0; static_cast<zip_int64_t>(i) < count; ++i) {
    const char* raw = zip_get_name(archive, i, 0);
    if (raw == nullptr) {
      return InvalidArgumentError(path + ": entry " + std::to_string(i) +
                                  " has no readable name: " + zip_strerror(archive));
    }
    ZipEntryName e{raw, raw, false, i};
    e.directory = !e.name.empty() && e.name.back() == '/';
    if (e.directory) e.name.pop_back();
    if (!IsSafeRelativePath(e.name)) {
      return refuse(
          e.raw,
          "is not a plain relative path (it is absolute, has a '.' or '..' component, or characters "
          "other than letters, digits, '.', '_', '-')");
    }
    // A symlink would be unpacked as a file holding its target, or followed.
    const uint32_t mode = UnixMode(archive, i);
    const uint32_t type = mode & S_IFMT;
    if (type != 0 && type != S_IFREG && type != S_IFDIR) {
      char octal[16];
      std::snprintf(octal, sizeof(octal), "0%o", mode);
      return refuse(e.raw, "is " + FileTypeName(type) + " (Unix mode " + octal + "); " + what +
                               " holds only regular files and directories");
    }
    if (type != 0 && (type == S_IFDIR) != e.directory) {
      return refuse(e.raw, "is " + FileTypeName(type) + " by its attributes but " +
                               (e.directory ? "a directory" : "a file") + " by its name");
    }
    // libzip would open the first of two entries of one name, an unzip tool
    // the last: which content counts must never be a question.
    if (const auto [first, fresh] = seen.emplace(e.name, e.raw); !fresh) {
      return refuse(e.raw, "has the name of an earlier entry " + QuotedZipEntry(first->second) +
                               "; each entry of " + what + " has its own name");
    }
    entries.push_back(std::move(e));
  }
  return entries;
}

StatusOr<ZipArchive> OpenZipArchive(const std::string& path, const std::string& what) {
  std::error_code ec;
  const auto status = fs::status(path, ec);
  if (status.type() == fs::file_type::not_found) return NotFoundError(path + ": no such file");
  if (fs::is_directory(status)) return InvalidArgumentError(path + ": is a directory, not " + what);
  int error = 0;
  zip_t* archive = zip_open(path.c_str(), ZIP_RDONLY, &error);
  if (archive == nullptr) {
    zip_error_t ze;
    zip_error_init_with_code(&ze, error);
    std::string message = path + ": not a readable zip: " + zip_error_strerror(&ze);
    zip_error_fini(&ze);
    return InvalidArgumentError(message);
  }
  return ZipArchive(archive, &zip_discard);
}

StatusOr<std::unique_ptr<ByteReader>> OpenZipEntry(zip_t* archive, zip_uint64_t index,
                                                   const std::string& name) {
  zip_file_t* file = zip_fopen_index(archive, index, 0);
  if (file == nullptr) return DataLossError(name + ": cannot be read: " + zip_strerror(archive));
  return std::unique_ptr<ByteReader>(new ZipEntryReader(file, name));
}

StatusOr<ExportZip> OpenExportZip(const std::string& path) {
  auto opened = OpenZipArchive(path, "an export zip");
  if (!opened.ok()) return opened.status();
  zip_t* archive = opened->get();
  auto files = std::make_unique<ZipFiles>(path, opened->release());  // owns the archive from here on
  auto entries = CheckEntries(archive, path);
  if (!entries.ok()) return entries.status();
  files->SetEntries(*entries);
  // The manifest is the one entry read before the export is known to be
  // valid: only it can say which files the export holds.
  auto reader = files->Open(kManifestFile);
  if (!reader.ok()) return reader.status();
  auto text = ReadAll(**reader);
  if (!text.ok()) return text.status();
  auto manifest = ParseManifest(*text, files->Name(kManifestFile));
  if (!manifest.ok()) return manifest.status();
  ExportZip zip{nullptr, std::move(manifest).value(), {}};
  zip.listed = ListedFiles(zip.manifest);
  if (Status s = CheckListing(*entries, zip.manifest, zip.listed, path); !s.ok()) return s;
  zip.files = std::move(files);
  return zip;
}

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
  // The caller reads the manifest again: a few kilobytes, for one way in.
  auto zip = OpenExportZip(path);
  if (!zip.ok()) return zip.status();
  return std::move(zip->files);
}

}  // namespace warmup::snapshot
