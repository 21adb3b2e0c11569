// Exports (zips of a snapshot directory) and unpacking them safely.
#include <zip.h>

#include <filesystem>
#include <functional>
#include <map>
#include <set>

#include "snapshot/byte_io.h"
#include "snapshot/manifest.h"
#include "snapshot/snapshot_files.h"
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

namespace snapshot {

StatusOr<std::unique_ptr<FileWriter>> CopyZipEntry(ByteReader& in, const std::string& to) {
  auto out = FileWriter::Create(to, 0);
  if (!out.ok()) return out.status();
  std::vector<char> buffer(1 << 20);
  while (true) {
    auto n = in.Read(buffer.data(), buffer.size());
    if (!n.ok()) return n.status();
    if (*n == 0) break;
    if (Status s = (*out)->Write(std::string_view(buffer.data(), *n)); !s.ok()) return s;
  }
  if (Status s = (*out)->Close(); !s.ok()) return s;
  return out;
}

StatusOr<std::string> UnpackCatalogDirectory(const std::string& parent_dir, const std::string& catalog,
                                             const std::function<Status(const fs::path&)>& fill) {
  const fs::path final_dir = fs::path(parent_dir) / catalog;
  std::error_code ec;
  if (fs::exists(final_dir, ec)) return AlreadyExistsError(final_dir.string() + " already exists");
  // What of `parent_dir` this call creates (the outermost missing directory),
  // so that a failure removes it again.
  fs::path outermost_created;
  for (fs::path p = parent_dir; !p.empty() && !fs::exists(p, ec); p = p.parent_path()) {
    outermost_created = p;
    if (p == p.parent_path()) break;
  }
  auto remove_created = [&] {
    if (outermost_created.empty()) return;
    for (fs::path p = parent_dir;; p = p.parent_path()) {
      fs::remove(p, ec);  // only while empty: nothing of anyone else's goes
      if (p == outermost_created || p == p.parent_path()) break;
    }
  };
  fs::create_directories(parent_dir, ec);
  if (ec) {
    remove_created();
    return Status(StatusCode::kUnavailable, "cannot create " + parent_dir + ": " + ec.message());
  }
  auto fresh = MakeFreshDirectory(parent_dir, "." + catalog + ".unpack-");
  if (!fresh.ok()) {
    remove_created();
    return fresh.status();
  }
  const fs::path temp_root = *fresh;
  const fs::path temp_dir = temp_root / catalog;
  // Errors name where a file was going, never the temporary directory: it
  // is gone by the time anyone reads the message.
  auto fail = [&](const Status& s) {
    std::string message = s.message();
    for (const auto& [from, to] :
         {std::pair{temp_dir.string(), final_dir.string()}, std::pair{temp_root.string(), parent_dir}}) {
      for (size_t at = message.find(from); at != std::string::npos; at = message.find(from, at + to.size())) {
        message.replace(at, from.size(), to);
      }
    }
    fs::remove_all(temp_root, ec);
    remove_created();
    return Status(s.code(), message);
  };
  fs::create_directory(temp_dir, ec);
  if (ec) {
    return fail(Status(StatusCode::kUnavailable, "cannot create " + temp_dir.string() + ": " + ec.message()));
  }
  if (Status s = fill(temp_dir); !s.ok()) return fail(s);
  // Every directory made, innermost first, so that the files' names are as
  // durable as their contents once the rename is.
  std::vector<fs::path> directories = {temp_dir};
  for (const auto& entry : fs::recursive_directory_iterator(temp_dir, ec)) {
    if (entry.is_directory(ec)) directories.push_back(entry.path());
  }
  if (ec) {
    return fail(Status(StatusCode::kUnavailable, "cannot list " + temp_dir.string() + ": " + ec.message()));
  }
  for (auto it = directories.rbegin(); it != directories.rend(); ++it) {
    if (Status s = SyncDirectory(it->string()); !s.ok()) return fail(s);
  }
  fs::rename(temp_dir, final_dir, ec);
  if (ec) {
    return fail(Status(StatusCode::kUnavailable,
                       "cannot move the unpacked catalog to " + final_dir.string() + ": " + ec.message()));
  }
  fs::remove(temp_root, ec);
  // As the snapshot writer does: the rename is durable once the parent is
  // synced; until then it is not made, and goes again.
  if (Status s = SyncDirectory(parent_dir); !s.ok()) {
    fs::remove_all(final_dir, ec);
    remove_created();
    return s;
  }
  return final_dir.string();
}

}  // namespace snapshot

StatusOr<std::string> UnpackSnapshot(const std::string& zip_path, const std::string& parent_dir) {
  // The validator inspect and load use too: an export one command refuses,
  // none accepts. It reads only the manifest.
  auto zip = snapshot::OpenExportZip(zip_path);
  if (!zip.ok()) return zip.status();
  const snapshot::Manifest& manifest = zip->manifest;
  std::error_code ec;
  if (fs::exists(fs::path(parent_dir) / manifest.catalog, ec)) {
    return AlreadyExistsError((fs::path(parent_dir) / manifest.catalog).string() + " already exists");
  }
  // Every entity is read and every checksum and count verified before
  // anything is written, so that errors name the zip's entries.
  if (Status s = InspectSnapshot(zip_path).status(); !s.ok()) return s;

  // Only the files the manifest lists, each checked against it again as it is
  // written: the zip may have changed since it was verified.
  std::map<std::string, const snapshot::ManifestFile*> expected = {{manifest.schema.file, &manifest.schema}};
  for (const auto& c : manifest.collections) expected[c.data.file] = &c.data;
  return snapshot::UnpackCatalogDirectory(parent_dir, manifest.catalog, [&](const fs::path& dir) -> Status {
    for (const std::string& relative : zip->listed) {
      std::error_code made;
      fs::create_directories((dir / relative).parent_path(), made);
      if (made) {
        return Status(StatusCode::kUnavailable,
                      "cannot create " + (dir / relative).parent_path().string() + ": " + made.message());
      }
      auto in = zip->files->Open(relative);
      if (!in.ok()) return in.status();
      auto out = snapshot::CopyZipEntry(**in, (dir / relative).string());
      if (!out.ok()) return out.status();
      const auto it = expected.find(relative);
      if (it != expected.end() &&
          ((*out)->stored_bytes() != static_cast<uint64_t>(it->second->stored_bytes) ||
           (*out)->crc() != it->second->crc32c)) {
        return DataLossError(zip->files->Name(relative) +
                             ": changed while it was unpacked (its size or checksum no longer match "
                             "the manifest)");
      }
    }
    return OkStatus();
  });
}

}  // namespace warmup
