#include "warmup/server_storage.h"

#include <sys/stat.h>
#include <zip.h>

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "common/status_matchers.h"
#include "common/temp_dir.h"

namespace warmup {
namespace {

namespace fs = std::filesystem;
using testing::TempDir;

struct Entry {
  std::string name;     // a name ending in '/' is a directory
  std::string bytes;    // a file's content
  uint32_t mode = 0;    // Unix mode for the external attributes; 0 = none
  bool stored = false;  // not deflated: its bytes lie in the zip as they are
};

void WriteZip(const std::string& path, const std::vector<Entry>& entries) {
  int error = 0;
  zip_t* z = zip_open(path.c_str(), ZIP_CREATE | ZIP_TRUNCATE, &error);
  REQUIRE(z != nullptr);
  for (const Entry& e : entries) {
    zip_int64_t index = -1;
    if (e.name.back() == '/') {
      index = zip_dir_add(z, e.name.c_str(), ZIP_FL_ENC_RAW);
    } else {
      zip_source_t* s = zip_source_buffer(z, e.bytes.data(), e.bytes.size(), 0);
      index = zip_file_add(z, e.name.c_str(), s, ZIP_FL_ENC_RAW);
      if (index >= 0 && e.stored) REQUIRE(zip_set_file_compression(z, index, ZIP_CM_STORE, 0) == 0);
    }
    REQUIRE_MESSAGE(index >= 0, e.name);
    if (e.mode != 0) {
      REQUIRE(zip_file_set_external_attributes(z, static_cast<zip_uint64_t>(index), 0, ZIP_OPSYS_UNIX,
                                               e.mode << 16) == 0);
    }
  }
  REQUIRE(zip_close(z) == 0);  // the entries' bytes must outlive this
}

std::string ReadBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::map<std::string, std::string> Files(const std::string& dir) {
  std::map<std::string, std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    if (e.is_regular_file()) out[fs::relative(e.path(), dir).string()] = ReadBytes(e.path().string());
  }
  return out;
}

// evitaDB's full backup of a catalog "senesi", laid out as FullBackupCatalog
// writes it: the folder's entry first, then the bootstrap, the catalog's data
// file, the collections' and the write-ahead log, flat under senesi/.
std::vector<Entry> EvitaBackup() {
  return {
      {"senesi/", ""},
      {"senesi/senesi.boot", "boot records"},
      {"senesi/senesi_0.catalog", std::string(3000, 'c')},
      {"senesi/Product-1_0.collection", std::string(70000, 'p')},
      {"senesi/Brand-2_0.collection", "brands"},
      {"senesi/senesi_0.wal", "wal"},
  };
}

TEST_CASE("an evitaDB full backup zip is told apart by its entries and unpacked byte for byte") {
  TempDir dir;
  const std::string zip = dir / "full_backup_senesi.zip";
  WriteZip(zip, EvitaBackup());
  const std::string zip_bytes = ReadBytes(zip);

  auto backup = ReadServerBackupZip(zip);
  REQUIRE_OK(backup);
  CHECK(backup->server == StorageServer::kEvitaDb);
  CHECK(backup->catalogs == std::vector<std::string>{"senesi"});
  CHECK(StorageServerName(backup->server) == "evitaDB");

  auto folder = UnpackServerBackupZip(zip, "", dir / "parent/storage");
  REQUIRE_OK(folder);
  CHECK(*folder == dir / "parent/storage/senesi");
  const std::map<std::string, std::string> expected = {{"senesi.boot", "boot records"},
                                                       {"senesi_0.catalog", std::string(3000, 'c')},
                                                       {"Product-1_0.collection", std::string(70000, 'p')},
                                                       {"Brand-2_0.collection", "brands"},
                                                       {"senesi_0.wal", "wal"}};
  CHECK(Files(*folder) == expected);
  // Nothing but the folder: the temporary directory it was written in is gone.
  CHECK(std::distance(fs::directory_iterator(dir / "parent/storage"), fs::directory_iterator()) == 1);
  CHECK(ReadBytes(zip) == zip_bytes);

  CHECK(DescribeServerStorage(zip) ==
        "a backup zip of evitaDB's catalog folder senesi: read it with the source directory " + zip +
            " and a source server command (a server started on a copy of it; "
            "docs/evitadb.md), or unpack it once with warmup unpack " +
            zip + " DIR");
  CHECK(DescribeServerStorage(*folder) ==
        "a catalog folder of evitaDB's storage (senesi): read it with the source directory " +
            (dir / "parent/storage") +
            ", the catalog senesi and a source server command (a server started on a copy of it; "
            "docs/evitadb.md)");
  SpecNames flags;  // a frontend's words
  flags.source_dir = "--pristine-dir";
  flags.catalog = "--catalog";
  flags.source_server = "--source-server-command '...'";
  CHECK(DescribeServerStorage(*folder, flags) ==
        "a catalog folder of evitaDB's storage (senesi): read it with --pristine-dir " +
            (dir / "parent/storage") +
            ", --catalog senesi and --source-server-command '...' (a server started on a copy of it; "
            "docs/evitadb.md)");

  auto again = UnpackServerBackupZip(zip, "", dir / "parent/storage");
  CHECK(again.status().code() == StatusCode::kAlreadyExists);
  CHECK(again.status().message() == (dir / "parent/storage/senesi") + " already exists");
}

TEST_CASE("a backup zip's catalog is chosen by name, and the choices are named when it is not") {
  TempDir dir;
  const std::string zip = dir / "two.zip";
  std::vector<Entry> entries = EvitaBackup();
  for (const Entry& e :
       std::vector<Entry>{{"other/", ""}, {"other/other.boot", "b"}, {"other/other_3.catalog", "c"}}) {
    entries.push_back(e);
  }
  WriteZip(zip, entries);
  auto backup = ReadServerBackupZip(zip);
  REQUIRE_OK(backup);
  CHECK(backup->catalogs == std::vector<std::string>{"other", "senesi"});

  auto unnamed = UnpackServerBackupZip(zip, "", dir / "out");
  CHECK(unnamed.status().code() == StatusCode::kInvalidArgument);
  CHECK(unnamed.status().message() ==
        zip + " holds several catalog folders (other, senesi): name one with the catalog");
  SpecNames flags;
  flags.catalog = "--catalog";
  CHECK(UnpackServerBackupZip(zip, "", dir / "out", flags).status().message() ==
        zip + " holds several catalog folders (other, senesi): name one with --catalog");
  auto absent = UnpackServerBackupZip(zip, "nope", dir / "out");
  CHECK(absent.status().message() == zip + " has no catalog folder nope; it has other, senesi");
  CHECK_FALSE(fs::exists(dir / "out"));  // a refusal makes nothing

  auto other = UnpackServerBackupZip(zip, "other", dir / "out");
  REQUIRE_OK(other);
  CHECK(Files(*other) == std::map<std::string, std::string>{{"other.boot", "b"}, {"other_3.catalog", "c"}});
  CHECK_FALSE(fs::exists(dir / "out/senesi"));
}

TEST_CASE("what is not a server's backup zip is refused, naming the entry or folder") {
  TempDir dir;
  struct Case {
    const char* what;
    std::vector<Entry> entries;
    std::string message;  // after "<zip>: "
  };
  const std::vector<Case> cases = {
      {"a file beside the folders",
       {{"senesi/", ""}, {"senesi/senesi.boot", "b"}, {"senesi/senesi_0.catalog", "c"}, {"README", "r"}},
       "entry 'README' lies outside every <CATALOG>/ folder; a backup zip holds catalog folders only"},
      {"a folder that is no catalog",
       {{"docs/", ""}, {"docs/index.html", "h"}},
       "its folder 'docs/' is no server's catalog folder (evitaDB's holds docs.boot and docs_N.catalog "
       "files, "
       "warmup serve's a catalog.header)"},
      {"a bootstrap of another catalog's name",
       {{"senesi/", ""}, {"senesi/other.boot", "b"}, {"senesi/senesi_0.catalog", "c"}},
       "its folder 'senesi/' is no server's catalog folder (evitaDB's holds senesi.boot and senesi_N.catalog "
       "files, warmup serve's a catalog.header)"},
      {"two servers' formats",
       {{"senesi/", ""},
        {"senesi/senesi.boot", "b"},
        {"senesi/senesi_0.catalog", "c"},
        {"tiny/catalog.header", "h"}},
       "it holds catalog folders of both evitaDB and warmup serve; one server reads them"},
      {"an entry that climbs out",
       {{"senesi/senesi.boot", "b"}, {"senesi/../../evil", "x"}},
       "entry 'senesi/../../evil' is not a plain relative path (it is absolute, has a '.' or '..' component, "
       "or "
       "characters other than letters, digits, '.', '_', '-')"},
      {"a symbolic link",
       {{"senesi/senesi.boot", "b"}, {"senesi/senesi_0.catalog", "/etc/passwd", S_IFLNK | 0777}},
       "entry 'senesi/senesi_0.catalog' is a symbolic link (Unix mode 0120777); a server's backup zip holds "
       "only regular files and directories"},
      {"an empty zip", {}, "an empty zip, not a server's backup"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.what);
    const std::string zip = dir / "bad.zip";
    fs::remove(zip);
    if (c.entries.empty()) {
      // libzip writes no file for an archive with no entries: the 22 bytes of an empty one, by hand.
      std::ofstream(zip, std::ios::binary) << std::string("PK\x05\x06", 4) << std::string(18, '\0');
    } else {
      WriteZip(zip, c.entries);
    }
    auto read = ReadServerBackupZip(zip);
    CHECK(read.status().code() == StatusCode::kInvalidArgument);
    CHECK(read.status().message() == zip + ": " + c.message);
    CHECK(DescribeServerStorage(zip).empty());
    CHECK(UnpackServerBackupZip(zip, "", dir / "out").status().message() == read.status().message());
    CHECK_FALSE(fs::exists(dir / "out"));
  }
  CHECK(ReadServerBackupZip(dir / "none.zip").status().code() == StatusCode::kNotFound);
}

TEST_CASE("a backup entry whose bytes no longer match its CRC fails the unpack, leaving nothing behind") {
  TempDir dir;
  const std::string zip = dir / "b.zip";
  const std::string marker(64, 'q');
  WriteZip(zip, {{"senesi/", ""},
                 {"senesi/senesi.boot", "boot"},
                 {"senesi/senesi_0.catalog", "catalog " + marker, 0, /*stored=*/true}});
  // One byte of the stored entry changed on disk, as a bad sector or a cut copy would.
  std::string bytes = ReadBytes(zip);
  const size_t at = bytes.find(marker);
  REQUIRE(at != std::string::npos);
  bytes[at + 10] = 'Q';
  std::ofstream(zip, std::ios::binary | std::ios::trunc) << bytes;

  auto unpacked = UnpackServerBackupZip(zip, "", dir / "made/storage");
  CHECK(unpacked.status().code() == StatusCode::kDataLoss);
  CHECK_MESSAGE(unpacked.status().message().starts_with(zip + ":senesi/senesi_0.catalog: "),
                unpacked.status().message());
  CHECK_FALSE(fs::exists(dir / "made"));  // the directories it made went with the files
}

TEST_CASE(
    "a storage directory's catalog folder is chosen as a backup's is, among the folders in a server's "
    "layout") {
  TempDir dir;
  fs::create_directories(dir / "storage/senesi");
  std::ofstream(dir / "storage/senesi/senesi.boot") << "b";
  std::ofstream(dir / "storage/senesi/senesi_0.catalog") << "c";
  fs::create_directories(dir / "storage/tiny");
  std::ofstream(dir / "storage/tiny/catalog.header") << "h";
  std::ofstream(dir / "storage/lock") << "";     // a file beside them is no catalog
  fs::create_directories(dir / "storage/logs");  // nor a folder in no server's layout
  auto several = FindServerCatalogFolder(dir / "storage", "");
  CHECK(several.status().message() ==
        (dir / "storage") + " holds several catalog folders (senesi, tiny): name one with the catalog");
  auto named = FindServerCatalogFolder(dir / "storage", "tiny");
  REQUIRE_OK(named);
  CHECK(*named == dir / "storage/tiny");
  CHECK(FindServerCatalogFolder(dir / "storage/lock", "").status().message() ==
        (dir / "storage/lock") + " is not a directory");
  const std::string layouts =
      "(evitaDB's holds <CATALOG>.boot and <CATALOG>_N.catalog files, warmup serve's a catalog.header)";
  CHECK(FindServerCatalogFolder(dir / "storage", "logs").status().message() ==
        (dir / "storage/logs") +
            " is no server's catalog folder (evitaDB's holds logs.boot and logs_N.catalog files, warmup "
            "serve's a "
            "catalog.header)");
  CHECK(FindServerCatalogFolder(dir / "storage", "nope").status().message() ==
        (dir / "storage") + " has no catalog folder nope; it has senesi, tiny");
  fs::remove_all(dir / "storage/senesi");
  auto only = FindServerCatalogFolder(dir / "storage", "");  // logs/ is not counted
  REQUIRE_OK(only);
  CHECK(*only == dir / "storage/tiny");
  fs::remove_all(dir / "storage/tiny");
  CHECK(FindServerCatalogFolder(dir / "storage", "").status().message() ==
        (dir / "storage") + " holds no server's catalog folder " + layouts + "; its folders: logs");
  CHECK(ChooseServerCatalog({}, "", "Z").status().message() == "Z holds no catalog folder");
}

TEST_CASE("FileSha256: FIPS 180-2's worked examples") {
  TempDir dir;
  std::ofstream(dir / "abc", std::ios::binary) << "abc";
  std::ofstream(dir / "empty", std::ios::binary) << "";
  auto abc = FileSha256(dir / "abc");
  REQUIRE_OK(abc);
  CHECK(*abc == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  auto empty = FileSha256(dir / "empty");
  REQUIRE_OK(empty);
  CHECK(*empty == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(FileSha256(dir / "none").status().code() == StatusCode::kNotFound);
}

}  // namespace
}  // namespace warmup
