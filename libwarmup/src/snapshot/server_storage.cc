#include "warmup/server_storage.h"

#include <openssl/evp.h>
#include <zip.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>

#include "snapshot/byte_io.h"
#include "snapshot/snapshot_files.h"

namespace warmup {
namespace {

namespace fs = std::filesystem;

// Whose catalog folder one named `name` holding `files` (names relative to
// it) is, by the files each server writes first.
std::optional<StorageServer> ServerOfCatalogFiles(const std::string& name,
                                                  const std::vector<std::string>& files) {
  bool boot = false, catalog = false;
  for (const std::string& file : files) {
    if (file == "catalog.header") return StorageServer::kWarmupServe;
    boot = boot || file == name + ".boot";
    catalog = catalog || (file.starts_with(name + "_") && file.ends_with(".catalog"));
  }
  if (boot && catalog) return StorageServer::kEvitaDb;
  return std::nullopt;
}

// What each server's catalog folder `name` holds first, for the refusals.
std::string Layouts(const std::string& name) {
  return "evitaDB's holds " + name + ".boot and " + name +
         "_N.catalog files, warmup serve's a catalog.header";
}

// `path` without a trailing '/' ("dir/" names "dir").
fs::path Clean(const std::string& path) {
  const fs::path normal = fs::path(path).lexically_normal();
  return normal.has_filename() ? normal : normal.parent_path();
}

// The entries of the directory `dir`. Iterated by increment(ec), since the
// range-for's ++ throws on an error midway.
StatusOr<std::vector<fs::directory_entry>> Entries(const fs::path& dir) {
  std::vector<fs::directory_entry> out;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) out.push_back(*it);
  if (ec) return UnavailableError("cannot list " + dir.string() + ": " + ec.message());
  return out;
}

// Whose catalog folder the directory `dir` is, if any's.
// Errors: kUnavailable when it cannot be listed.
StatusOr<std::optional<StorageServer>> ServerOfCatalogFolder(const fs::path& dir) {
  auto entries = Entries(dir);
  if (!entries.ok()) return entries.status();
  std::vector<std::string> files;
  for (const fs::directory_entry& entry : *entries) files.push_back(entry.path().filename().string());
  return ServerOfCatalogFiles(dir.filename().string(), files);
}

// A storage directory's folders: those in a server's layout (sorted, and
// whose layout the last of them is in) and the others (sorted).
struct StorageFolders {
  std::vector<std::string> catalogs;
  std::optional<StorageServer> server;
  std::vector<std::string> others;
};

StatusOr<StorageFolders> ReadStorageFolders(const fs::path& storage) {
  auto entries = Entries(storage);
  if (!entries.ok()) return entries.status();
  StorageFolders folders;
  for (const fs::directory_entry& entry : *entries) {
    std::error_code ec;  // an entry that cannot be looked into is simply not a folder
    if (!entry.is_directory(ec)) continue;
    auto of = ServerOfCatalogFolder(entry.path());
    if (!of.ok()) return of.status();
    if (*of) folders.server = *of;
    (*of ? folders.catalogs : folders.others).push_back(entry.path().filename().string());
  }
  std::sort(folders.catalogs.begin(), folders.catalogs.end());
  std::sort(folders.others.begin(), folders.others.end());
  return folders;
}

std::string Listed(const std::vector<std::string>& names) {
  std::string listed;
  for (const std::string& n : names) listed += (listed.empty() ? "" : ", ") + n;
  return listed;
}

// A checked backup zip: its entries by catalog folder.
struct BackupEntries {
  snapshot::ZipArchive archive{nullptr, &zip_discard};
  ServerBackupZip zip;
  std::map<std::string, std::vector<snapshot::ZipEntryName>> by_catalog;  // files and subdirectories
};

StatusOr<BackupEntries> OpenBackupZip(const std::string& path) {
  const std::string what = "a server's backup zip";
  auto archive = snapshot::OpenZipArchive(path, what);
  if (!archive.ok()) return archive.status();
  auto entries = snapshot::CheckZipEntries(archive->get(), path, what);
  if (!entries.ok()) return entries.status();
  BackupEntries out;
  out.archive = std::move(archive).value();
  std::map<std::string, std::vector<std::string>> files;  // by top-level folder, relative to it
  for (const snapshot::ZipEntryName& e : *entries) {
    const size_t slash = e.name.find('/');
    if (slash == std::string::npos) {
      if (e.directory) {
        files[e.name];
        continue;
      }
      return InvalidArgumentError(path + ": entry " + snapshot::QuotedZipEntry(e.raw) +
                                  " lies outside every <CATALOG>/ folder; a backup zip holds catalog "
                                  "folders only");
    }
    const std::string folder = e.name.substr(0, slash);
    files[folder].push_back(e.name.substr(slash + 1));
    out.by_catalog[folder].push_back(e);
  }
  std::optional<StorageServer> server;
  for (const auto& [folder, names] : files) {
    const auto of = ServerOfCatalogFiles(folder, names);
    if (!of) {
      return InvalidArgumentError(path + ": its folder " + snapshot::QuotedZipEntry(folder + "/") +
                                  " is no server's catalog folder (" + Layouts(folder) + ")");
    }
    if (server && *server != *of) {
      return InvalidArgumentError(path + ": it holds catalog folders of both " +
                                  std::string(StorageServerName(*server)) + " and " +
                                  std::string(StorageServerName(*of)) + "; one server reads them");
    }
    server = of;
    out.zip.catalogs.push_back(folder);
  }
  if (!server) return InvalidArgumentError(path + ": an empty zip, not a server's backup");
  out.zip.server = *server;
  return out;
}

}  // namespace

std::string_view StorageServerName(StorageServer server) {
  switch (server) {
    case StorageServer::kEvitaDb:
      return "evitaDB";
    case StorageServer::kWarmupServe:
      return "warmup serve";
  }
  return "?";
}

StatusOr<std::string> ChooseServerCatalog(const std::vector<std::string>& found, const std::string& catalog,
                                          const std::string& where, const SpecNames& names) {
  if (!catalog.empty()) {
    if (std::find(found.begin(), found.end(), catalog) != found.end()) return catalog;
    return InvalidArgumentError(where + " has no catalog folder " + catalog +
                                (found.empty() ? "" : "; it has " + Listed(found)));
  }
  if (found.size() == 1) return found.front();
  return InvalidArgumentError(where + (found.empty() ? " holds no catalog folder"
                                                     : " holds several catalog folders (" + Listed(found) +
                                                           "): name one with " + names.catalog));
}

StatusOr<std::string> FindServerCatalogFolder(const std::string& storage, const std::string& catalog,
                                              const SpecNames& names) {
  std::error_code ec;
  if (!fs::is_directory(storage, ec)) return InvalidArgumentError(storage + " is not a directory");
  auto folders = ReadStorageFolders(storage);
  if (!folders.ok()) return folders.status();
  const std::vector<std::string>& others = folders->others;
  if (!catalog.empty() && std::find(others.begin(), others.end(), catalog) != others.end()) {
    return InvalidArgumentError((fs::path(storage) / catalog).string() + " is no server's catalog folder (" +
                                Layouts(catalog) + ")");
  }
  if (catalog.empty() && folders->catalogs.empty() && !others.empty()) {
    return InvalidArgumentError(storage + " holds no server's catalog folder (" + Layouts("<CATALOG>") +
                                "); its folders: " + Listed(others));
  }
  auto chosen = ChooseServerCatalog(folders->catalogs, catalog, storage, names);
  if (!chosen.ok()) return chosen.status();
  return (fs::path(storage) / *chosen).string();
}

StatusOr<ServerBackupZip> ReadServerBackupZip(const std::string& path) {
  auto entries = OpenBackupZip(path);
  if (!entries.ok()) return entries.status();
  return std::move(entries->zip);
}

StatusOr<std::string> UnpackServerBackupZip(const std::string& zip_path, const std::string& catalog,
                                            const std::string& parent_dir, const SpecNames& names) {
  auto backup = OpenBackupZip(zip_path);
  if (!backup.ok()) return backup.status();
  auto chosen = ChooseServerCatalog(backup->zip.catalogs, catalog, zip_path, names);
  if (!chosen.ok()) return chosen.status();
  zip_t* archive = backup->archive.get();
  const std::vector<snapshot::ZipEntryName>& entries = backup->by_catalog[*chosen];
  return snapshot::UnpackCatalogDirectory(parent_dir, *chosen, [&](const fs::path& dir) -> Status {
    for (const snapshot::ZipEntryName& e : entries) {
      const fs::path to = dir / e.name.substr(chosen->size() + 1);
      std::error_code ec;
      fs::create_directories(e.directory ? to : to.parent_path(), ec);
      if (ec) return UnavailableError("cannot create " + to.string() + ": " + ec.message());
      if (e.directory) continue;
      const std::string name = zip_path + ":" + e.name;
      auto in = snapshot::OpenZipEntry(archive, e.index, name);
      if (!in.ok()) return in.status();
      auto out = snapshot::CopyZipEntry(**in, to.string());
      if (!out.ok()) return out.status();
      // libzip checks each entry's CRC and size as it reads it to its end.
    }
    return OkStatus();
  });
}

Status WriteServerBackupZip(const std::string& folder, const std::string& zip_path) {
  std::error_code ec;
  if (!fs::is_directory(folder, ec)) return InvalidArgumentError(folder + " is not a directory");
  std::vector<std::string> files;
  for (fs::recursive_directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
    std::error_code file_ec;
    if (it->is_regular_file(file_ec)) files.push_back(it->path().lexically_relative(folder).string());
  }
  if (ec) return UnavailableError("cannot list " + folder + ": " + ec.message());
  std::sort(files.begin(), files.end());
  int error = 0;
  zip_t* archive = zip_open(zip_path.c_str(), ZIP_CREATE | ZIP_EXCL, &error);
  if (archive == nullptr) {
    return error == ZIP_ER_EXISTS ? AlreadyExistsError(zip_path + " already exists")
                                  : UnavailableError(zip_path + ": cannot create zip");
  }
  auto fail = [&](const std::string& why) {
    const std::string message = zip_path + ": " + why + ": " + zip_strerror(archive);
    zip_discard(archive);
    fs::remove(zip_path, ec);
    return UnavailableError(message);
  };
  const std::string name = Clean(folder).filename().string();
  if (zip_dir_add(archive, (name + "/").c_str(), ZIP_FL_ENC_UTF_8) < 0) {
    return fail("cannot add " + name + "/");
  }
  for (const std::string& file : files) {
    const std::string path = (fs::path(folder) / file).string();
    zip_source_t* source = zip_source_file(archive, path.c_str(), 0, -1);  // -1: to the end
    if (source == nullptr ||
        zip_file_add(archive, (name + "/" + file).c_str(), source, ZIP_FL_ENC_UTF_8) < 0) {
      if (source != nullptr) zip_source_free(source);
      return fail("cannot add " + path);
    }
  }
  if (zip_close(archive) != 0) return fail("cannot write zip");
  return OkStatus();
}

StatusOr<std::string> FileSha256(const std::string& path) {
  auto in = snapshot::OpenFileForReading(path);
  if (!in.ok()) return in.status();
  std::unique_ptr<EVP_MD_CTX, void (*)(EVP_MD_CTX*)> context(EVP_MD_CTX_new(), &EVP_MD_CTX_free);
  if (!context || EVP_DigestInit_ex(context.get(), EVP_sha256(), nullptr) != 1) {
    return InternalError("cannot start a SHA-256");
  }
  std::vector<char> buffer(1 << 20);
  while (true) {
    auto n = (*in)->Read(buffer.data(), buffer.size());
    if (!n.ok()) return n.status();
    if (*n == 0) break;
    EVP_DigestUpdate(context.get(), buffer.data(), *n);
  }
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  EVP_DigestFinal_ex(context.get(), digest, &size);
  std::string hex;
  for (unsigned int i = 0; i < size; ++i) {
    char two[3];
    std::snprintf(two, sizeof(two), "%02x", digest[i]);
    hex += two;
  }
  return hex;
}

std::string DescribeServerStorage(const std::string& path, const SpecNames& names) {
  const fs::path clean = Clean(path);
  // "read it with <source_dir> DIR, <catalog> NAME and <source_server> (...)"
  const auto read_with = [&names](const std::string& dir, const std::string& catalog, const char* it = "it") {
    return "read " + std::string(it) + " with " + names.source_dir + " " + dir +
           (catalog.empty() ? "" : ", " + names.catalog + " " + catalog) + " and " + names.source_server +
           " (a server started on a copy of it; docs/evitadb.md)";
  };
  std::error_code ec;
  if (fs::is_regular_file(clean, ec)) {
    auto backup = ReadServerBackupZip(clean.string());
    if (!backup.ok()) return "";
    const std::string server(StorageServerName(backup->server));
    const std::string& first = backup->catalogs.front();
    return "a backup zip of " + server + "'s catalog folder" + (backup->catalogs.size() > 1 ? "s " : " ") +
           Listed(backup->catalogs) + ": " +
           read_with(clean.string(), backup->catalogs.size() > 1 ? first : "") +
           ", or unpack it once with warmup unpack " + clean.string() + " DIR";
  }
  if (!fs::is_directory(clean, ec)) return "";
  if (auto server = ServerOfCatalogFolder(clean); server.ok() && *server) {
    return "a catalog folder of " + std::string(StorageServerName(**server)) + "'s storage (" +
           clean.filename().string() +
           "): " + read_with(clean.parent_path().string(), clean.filename().string());
  }
  auto folders = ReadStorageFolders(clean);
  if (!folders.ok() || folders->catalogs.empty()) return "";
  const std::vector<std::string>& catalogs = folders->catalogs;
  return "a storage directory of " + std::string(StorageServerName(*folders->server)) +
         " holding the catalog folder" + (catalogs.size() > 1 ? "s " : " ") + Listed(catalogs) + ": " +
         read_with(clean.string(), catalogs.front(), "one");
}

}  // namespace warmup
