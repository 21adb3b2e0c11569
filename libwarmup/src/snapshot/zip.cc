// Exports (zips of a snapshot directory) and unpacking them safely.
#include <zip.h>

#include <filesystem>

#include "snapshot/byte_io.h"
#include "snapshot/manifest.h"
#include "snapshot/snapshot_source.h"
#include "warmup/snapshot.h"

namespace warmup {
namespace {

namespace fs = std::filesystem;

std::string ZipError(zip_t* archive) { return zip_strerror(archive); }

}  // namespace

Status ZipSnapshot(const std::string& snapshot_dir, const std::string& zip_path) {
  auto source = snapshot::SnapshotSource::Open(snapshot_dir);
  if (!source.ok()) return source.status();
  if (!fs::is_directory(snapshot_dir)) {
    return InvalidArgumentError(snapshot_dir + ": not a snapshot directory");
  }
  const snapshot::Manifest& manifest = (*source)->manifest();
  int error = 0;
  zip_t* archive = zip_open(zip_path.c_str(), ZIP_CREATE | ZIP_EXCL, &error);
  if (archive == nullptr) {
    return error == ZIP_ER_EXISTS ? AlreadyExistsError(zip_path + " already exists")
                                  : Status(StatusCode::kUnavailable, zip_path + ": cannot create zip");
  }
  std::vector<std::pair<std::string, bool>> files = {{snapshot::kManifestFile, true},
                                                     {manifest.schema.file, true}};
  for (const auto& c : manifest.collections) {
    files.emplace_back(c.data.file, c.compression == SnapshotCompression::kNone);
  }
  zip_dir_add(archive, (manifest.catalog + "/").c_str(), ZIP_FL_ENC_UTF_8);
  zip_dir_add(archive, (manifest.catalog + "/collections/").c_str(), ZIP_FL_ENC_UTF_8);
  for (const auto& [relative, deflate] : files) {
    const std::string path = (fs::path(snapshot_dir) / relative).string();
    zip_source_t* file = zip_source_file(archive, path.c_str(), 0, -1) /* -1: to the end */;
    const zip_int64_t index =
        file ? zip_file_add(archive, (manifest.catalog + "/" + relative).c_str(), file, ZIP_FL_ENC_UTF_8)
             : -1;
    if (index < 0) {
      if (file) zip_source_free(file);
      const std::string message = zip_path + ": cannot add " + path + ": " + ZipError(archive);
      zip_discard(archive);
      fs::remove(zip_path);
      return Status(StatusCode::kUnavailable, message);
    }
    // Already-compressed entity files are stored; the rest deflated quickly.
    zip_set_file_compression(archive, index, deflate ? ZIP_CM_DEFLATE : ZIP_CM_STORE, 1);
  }
  if (zip_close(archive) != 0) {
    const std::string message = zip_path + ": cannot write zip: " + ZipError(archive);
    zip_discard(archive);
    std::error_code ec;
    fs::remove(zip_path, ec);
    return Status(StatusCode::kUnavailable, message);
  }
  return OkStatus();
}

StatusOr<std::string> UnpackSnapshot(const std::string& zip_path, const std::string& parent_dir) {
  int error = 0;
  zip_t* archive = zip_open(zip_path.c_str(), ZIP_RDONLY, &error);
  if (archive == nullptr) return InvalidArgumentError(zip_path + ": not a readable zip");
  struct Closer {
    zip_t* archive;
    ~Closer() { zip_discard(archive); }
  } closer{archive};

  // Check every name before writing anything: all entries must lie under one
  // `<catalog>/` directory, as plain relative paths.
  const zip_int64_t entries = zip_get_num_entries(archive, 0);
  std::string catalog;
  for (zip_int64_t i = 0; i < entries; ++i) {
    std::string name = zip_get_name(archive, i, 0);
    const bool is_dir = !name.empty() && name.back() == '/';
    if (is_dir) name.pop_back();
    if (!snapshot::IsSafeRelativePath(name)) {
      return InvalidArgumentError(
          zip_path + ": entry " + std::to_string(i) + " '" + zip_get_name(archive, i, 0) +
          "' is not a plain relative path (absolute, '..', or odd characters); refusing to "
          "unpack");
    }
    const std::string top = name.substr(0, name.find('/'));
    if (catalog.empty()) catalog = top;
    if (top != catalog) {
      return InvalidArgumentError(zip_path + ": entry '" + name + "' is outside " + catalog +
                                  "/; refusing to unpack");
    }
  }
  if (catalog.empty()) return InvalidArgumentError(zip_path + ": empty zip");
  const fs::path final_dir = fs::path(parent_dir) / catalog;
  std::error_code ec;
  if (fs::exists(final_dir, ec)) return AlreadyExistsError(final_dir.string() + " already exists");
  fs::create_directories(parent_dir, ec);
  auto fresh = snapshot::MakeFreshDirectory(parent_dir, "." + catalog + ".unpack-");
  if (!fresh.ok()) return fresh.status();
  const fs::path temp_root = *fresh;
  auto fail = [&](Status s) {
    fs::remove_all(temp_root, ec);
    return s;
  };
  std::vector<char> buffer(1 << 20);
  for (zip_int64_t i = 0; i < entries; ++i) {
    std::string name = zip_get_name(archive, i, 0);
    const fs::path target = temp_root / name;
    if (name.back() == '/') {
      fs::create_directories(target, ec);
      continue;
    }
    fs::create_directories(target.parent_path(), ec);
    zip_file_t* in = zip_fopen_index(archive, i, 0);
    if (in == nullptr) return fail(DataLossError(zip_path + ": entry '" + name + "' cannot be read"));
    auto out = snapshot::FileWriter::Create(target.string(), 0);
    if (!out.ok()) {
      zip_fclose(in);
      return fail(out.status());
    }
    while (true) {
      const zip_int64_t n = zip_fread(in, buffer.data(), buffer.size());
      if (n < 0) {
        zip_fclose(in);
        return fail(DataLossError(zip_path + ": entry '" + name + "' is damaged"));
      }
      if (n == 0) break;
      if (Status s = (*out)->Write(std::string_view(buffer.data(), static_cast<size_t>(n))); !s.ok()) {
        zip_fclose(in);
        return fail(s);
      }
    }
    zip_fclose(in);
    if (Status s = (*out)->Close(); !s.ok()) return fail(s);
  }
  // Inspection reads every entity, verifying every checksum and count.
  if (Status s = InspectSnapshot((temp_root / catalog).string()).status(); !s.ok()) return fail(s);
  fs::rename(temp_root / catalog, final_dir, ec);
  if (ec) {
    return fail(
        Status(StatusCode::kUnavailable, "cannot move the unpacked snapshot to " + final_dir.string()));
  }
  fs::remove_all(temp_root, ec);
  return final_dir.string();
}

}  // namespace warmup
