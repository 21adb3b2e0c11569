// A server's own storage as warmup reads it through a source server
// (SourceServer): evitaDB's catalog folders (<CATALOG>/ of its storage
// directory), the storage directories holding them, its full backups (a zip
// of one <CATALOG>/ folder, as FullBackupCatalog makes it), and warmup
// serve's equivalents. What each is, which flags read it, and how a backup's
// folder is unpacked.
#ifndef WARMUP_SERVER_STORAGE_H_
#define WARMUP_SERVER_STORAGE_H_

#include <string>
#include <string_view>
#include <vector>

#include "warmup/spec_names.h"
#include "warmup/status.h"

namespace warmup {

// Whose storage format a catalog folder is in.
enum class StorageServer {
  kEvitaDb,      // a <CATALOG>.boot and <CATALOG>_N.catalog files
  kWarmupServe,  // a catalog.header
};

// "evitaDB", "warmup serve".
std::string_view StorageServerName(StorageServer server);

// The one of the catalog folders `found` (sorted) that `catalog` names, or
// the only one when `catalog` is empty; `where` (a directory or zip) names
// where they were found in the refusals, and `names` (the caller's words)
// the catalog in the advice.
// Errors: kInvalidArgument when none is named `catalog` (naming those there
// are), or `catalog` is empty and there are none or several.
StatusOr<std::string> ChooseServerCatalog(const std::vector<std::string>& found, const std::string& catalog,
                                          const std::string& where, const SpecNames& names = {});

// The catalog folder `catalog` of the storage directory `storage`, or, when
// `catalog` is empty, its only one. Only a folder in one server's layout
// (StorageServer) is a catalog folder: files and other folders beside them
// are not, so that nothing is started on a folder no server can open.
// Errors: kInvalidArgument naming `storage` when it is not a directory, when
// `catalog` names a folder of no server's layout or none at all (naming the
// catalog folders it holds), or when `catalog` is empty and it holds several
// or none (naming its other folders); kUnavailable when it cannot be listed.
// `names`: as ChooseServerCatalog's.
StatusOr<std::string> FindServerCatalogFolder(const std::string& storage, const std::string& catalog,
                                              const SpecNames& names = {});

// A zip of a server's catalog folders, each entry `<CATALOG>/<file>`.
struct ServerBackupZip {
  StorageServer server = StorageServer::kEvitaDb;
  std::vector<std::string> catalogs;  // sorted; evitaDB's backups hold one
};

// What the zip at `path` holds, from its directory alone (nothing is
// unpacked). Every entry must pass the checks every zip warmup reads passes
// (a regular file or directory, a plain relative name, no name twice) and
// lie in a top-level folder that is a catalog folder of one server.
// Errors: kNotFound for no such file; kInvalidArgument naming `path` (and the
// entry) for an unreadable zip, an unsafe entry, an entry outside every
// catalog folder, a folder that is no server's catalog, or folders of two
// servers' formats.
StatusOr<ServerBackupZip> ReadServerBackupZip(const std::string& path);

// Unpacks the catalog folder `catalog` of the backup zip at `zip_path` (its
// only one when `catalog` is empty) into `<parent_dir>/<catalog>/`, all at
// once: nothing is left behind on an error, and the zip is only read.
// Returns the folder's path.
// Errors: ReadServerBackupZip's; kInvalidArgument when the zip holds no
// folder `catalog` or several and `catalog` is empty (naming them);
// kAlreadyExists when `<parent_dir>/<catalog>` exists; kDataLoss when an
// entry cannot be read whole (its checksum fails); I/O errors naming the path.
// `names`: as ChooseServerCatalog's.
StatusOr<std::string> UnpackServerBackupZip(const std::string& zip_path, const std::string& catalog,
                                            const std::string& parent_dir, const SpecNames& names = {});

// Writes the catalog folder `folder` into a new zip at `zip_path` as
// evitaDB's full backup lays one out: the entry `<NAME>/` first, then every
// file under it as `<NAME>/<relative path>`, deflated. warmup serve's
// FullBackupCatalog; the folder must not change meanwhile.
// Errors: kAlreadyExists when `zip_path` exists (nothing is overwritten);
// kInvalidArgument when `folder` is not a directory; kUnavailable when the
// zip cannot be written (the partial zip is removed).
Status WriteServerBackupZip(const std::string& folder, const std::string& zip_path);

// The SHA-256 of the file at `path`, 64 lower-case hex digits: a backup's
// identity in a run's provenance.
// Errors: kNotFound; kUnavailable when it cannot be read.
StatusOr<std::string> FileSha256(const std::string& path);

// When `path` is a server's catalog folder, a storage directory holding such
// folders, or a backup zip of them: what it is and how to read it through a
// source server, in the words of `names` (the caller's), e.g. "a catalog
// folder of evitaDB's storage (senesi): read it with the source directory
// /data, the catalog senesi and a source server command (...)"; empty for
// anything else (a warmup snapshot or export, another file).
std::string DescribeServerStorage(const std::string& path, const SpecNames& names = {});

}  // namespace warmup

#endif  // WARMUP_SERVER_STORAGE_H_
