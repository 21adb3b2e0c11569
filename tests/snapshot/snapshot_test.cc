#include "warmup/snapshot.h"

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zip.h>

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <sstream>

#include "common/snapshot_paths.h"
#include "common/status_matchers.h"
#include "common/temp_dir.h"
#include "warmup/digest.h"
#include "warmup/generator.h"

namespace warmup {
namespace {

namespace fs = std::filesystem;
using testing::ProductFile;
using testing::TempDir;

std::string Generate(const std::string& parent, const std::string& profile = "tiny", double scale = 1.0,
                     uint64_t seed = 1, SnapshotCompression compression = SnapshotCompression::kNone) {
  GeneratorOptions options;
  options.profile = profile;
  options.scale = scale;
  options.seed = seed;
  SnapshotWriteOptions write;
  write.compression = compression;
  auto path = GenerateSnapshot(options, parent, write);
  REQUIRE_MESSAGE(path.ok(), path.status().ToString());
  return *path;
}

// Every entity of every collection, by "type/pk", as digests.
std::map<std::string, Digest> ReadAll(CatalogSource& source) {
  std::map<std::string, Digest> out;
  Entity entity;
  for (const auto& c : source.collections()) {
    auto stream = source.OpenCollection(c.entity_type);
    REQUIRE_OK(stream);
    while (true) {
      auto more = (*stream)->Next(&entity);
      REQUIRE_MESSAGE(more.ok(), more.status().ToString());
      if (!*more) break;
      out[EntityLabel(entity)] = EntityDigest(entity);
    }
  }
  return out;
}

// Reads and verifies every entity (InspectSnapshot does), returning the first error.
Status ReadAllStatus(const std::string& path) { return InspectSnapshot(path).status(); }

std::map<std::string, std::string> FileContents(const std::string& dir) {
  std::map<std::string, std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    if (!e.is_regular_file()) continue;
    std::ifstream in(e.path(), std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    out[fs::relative(e.path(), dir).string()] = s.str();
  }
  return out;
}

void EditFile(const std::string& path, const std::string& from, const std::string& to) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  std::string text = s.str();
  const size_t at = text.find(from);
  REQUIRE_MESSAGE(at != std::string::npos, from);
  text.replace(at, from.size(), to);
  std::ofstream(path, std::ios::trunc) << text;
}

TEST_CASE("tiny survives generate -> snapshot -> read with the same digests, every value type included") {
  TempDir dir;
  const std::string path = Generate(dir.path());
  auto generated = OpenGeneratorSource({"tiny", 1.0, 1, ""});
  REQUIRE_OK(generated);
  auto snapshot = OpenSnapshotSource(path);
  REQUIRE_MESSAGE(snapshot.ok(), snapshot.status().ToString());
  CHECK((*snapshot)->schema() == (*generated)->schema());
  CHECK(ReadAll(**snapshot) == ReadAll(**generated));

  std::set<ValueType> seen;
  auto stream = (*snapshot)->OpenCollection("Product");
  REQUIRE_OK(stream);
  Entity e;
  while (*(*stream)->Next(&e)) {
    for (const auto& [name, v] : e.attributes.global) seen.insert(v.type());
    for (const auto& [tag, values] : e.attributes.localized) {
      for (const auto& [name, v] : values) seen.insert(v.type());
    }
  }
  std::set<ValueType> publishable;  // tiny leaves out what evitaDB cannot define over gRPC
  for (ValueType type : AllValueTypes()) {
    if (WhyEvitaCannotTakeOverGrpc(type, TypeUse::kAttribute).empty()) publishable.insert(type);
  }
  CHECK(seen == publishable);
}

// Tiny, read as a live catalog holding reflected references' own attributes
// would be: OmittedValues reports them.
class OmittingSource : public CatalogSource {
 public:
  OmittingSource() : inner_(std::move(OpenGeneratorSource({"tiny", 1.0, 1, ""})).value()) {}
  const CatalogSchema& schema() const override { return inner_->schema(); }
  const std::vector<CollectionInfo>& collections() const override { return inner_->collections(); }
  StatusOr<std::unique_ptr<EntityStream>> OpenCollection(const std::string& type) override {
    return inner_->OpenCollection(type);
  }
  std::string Describe() const override { return "omitting"; }
  std::string Fingerprint() const override { return inner_->Fingerprint(); }
  std::map<std::string, int64_t> OmittedValues() const override {
    return {{"Category.products.note", 12}, {"Brand.products.rank", 1}};
  }

 private:
  std::unique_ptr<CatalogSource> inner_;
};

TEST_CASE("what an export's source left out is in the manifest, and a snapshot source reports it again") {
  TempDir dir;
  OmittingSource source;
  auto path = WriteSnapshot(source, dir.path(), {});
  REQUIRE_OK(path);
  auto snapshot = OpenSnapshotSource(*path);
  REQUIRE_OK(snapshot);
  CHECK((*snapshot)->Provenance().at("omitted.Category.products.note") == "12");
  CHECK((*snapshot)->OmittedValues() == source.OmittedValues());
  TempDir plain;
  auto generated = OpenGeneratorSource({"tiny", 1.0, 1, ""});
  REQUIRE_OK(generated);
  auto clean = OpenSnapshotSource(Generate(plain.path()));
  REQUIRE_OK(clean);
  CHECK((*clean)->OmittedValues().empty());
}

TEST_CASE(
    "the same arguments give identical bytes, another seed differs (regression: unordered protobuf maps)") {
  TempDir a, b, c;
  const auto first = FileContents(Generate(a.path(), "senesi", 0.003, 7));
  const auto second = FileContents(Generate(b.path(), "senesi", 0.003, 7));
  const auto other = FileContents(Generate(c.path(), "senesi", 0.003, 8));
  CHECK(first.size() == 20);  // manifest, schema, 18 collections
  CHECK(first == second);
  CHECK(first.at("manifest.json") != other.at("manifest.json"));
}

TEST_CASE("zstd snapshots read the same entities and share the fingerprint") {
  TempDir plain, packed;
  auto a = OpenSnapshotSource(Generate(plain.path()));
  auto b = OpenSnapshotSource(Generate(packed.path(), "tiny", 1.0, 1, SnapshotCompression::kZstd));
  REQUIRE_OK(a);
  REQUIRE_OK(b);
  CHECK(ReadAll(**a) == ReadAll(**b));
  CHECK((*a)->Fingerprint() == (*b)->Fingerprint());
  // ... and the fingerprint tells other content apart: another seed, or the
  // same catalog at another scale.
  TempDir other_seed, other_scale;
  auto c = OpenSnapshotSource(Generate(other_seed.path(), "tiny", 1.0, 2));
  auto d = OpenSnapshotSource(Generate(other_scale.path(), "tiny", 2.0, 1));
  REQUIRE_OK(c);
  REQUIRE_OK(d);
  CHECK((*c)->Fingerprint() != (*a)->Fingerprint());
  CHECK((*d)->Fingerprint() != (*a)->Fingerprint());
  CHECK((*c)->Fingerprint() != (*d)->Fingerprint());
  CHECK_FALSE((*a)->Fingerprint().empty());
}

// Runs `body` in a child process as an unprivileged user (nobody) when this
// process is root, as CI runs it: root ignores permission bits, so only then
// does a read-only check check anything. Returns the child's exit code (0 = ok).
int AsUnprivileged(const std::function<int()>& body) {
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    // Never return into the test runner from here: it would go on running
    // the other tests in this child, as nobody.
    if (::geteuid() == 0 && (::setgid(65534) != 0 || ::setuid(65534) != 0)) ::_exit(90);
    try {
      ::_exit(body());
    } catch (...) {
      ::_exit(91);
    }
  }
  int status = 0;
  REQUIRE(::waitpid(child, &status, 0) == child);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// Whether every directory above `path` lets others through (a checkout under
// a private home directory does not).
bool OthersCanReach(const fs::path& path) {
  for (fs::path p = fs::absolute(path); p != p.root_path(); p = p.parent_path()) {
    struct stat st {};
    if (::stat(p.c_str(), &st) != 0 || (st.st_mode & S_IXOTH) == 0) return false;
  }
  return true;
}

TEST_CASE("reading never modifies the snapshot and works on a read-only copy, also for root") {
  // The unprivileged reader must reach the snapshot: under $TMPDIR if it can, else under /tmp.
  const fs::path tmp = fs::temp_directory_path();
  TempDir dir(OthersCanReach(tmp) ? tmp : fs::path("/tmp"));
  const std::string path = Generate(dir.path(), "tiny", 1.0, 3, SnapshotCompression::kZstd);
  std::map<std::string, std::pair<std::string, fs::file_time_type>> before;
  for (const auto& [name, bytes] : FileContents(path)) {
    before[name] = {bytes, fs::last_write_time(path + "/" + name)};
  }
  // Readable by everyone, writable by no one; the zip goes to a directory the
  // reader may write.
  fs::permissions(dir.path(), fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                                  fs::perms::others_read | fs::perms::others_exec);
  for (const auto& e : fs::recursive_directory_iterator(path)) {
    fs::permissions(e.path(), fs::perms::owner_write | fs::perms::group_write | fs::perms::others_write,
                    fs::perm_options::remove);
    fs::permissions(e.path(), fs::perms::others_read | fs::perms::group_read, fs::perm_options::add);
    if (e.is_directory()) {
      fs::permissions(e.path(), fs::perms::others_exec | fs::perms::group_exec, fs::perm_options::add);
    }
  }
  fs::permissions(path, fs::perms::owner_write, fs::perm_options::remove);
  fs::permissions(path, fs::perms::others_read | fs::perms::others_exec, fs::perm_options::add);
  const std::string out = dir / "out";
  fs::create_directory(out);
  fs::permissions(out, fs::perms::all);
  const int code = AsUnprivileged([&] {
    if (::access(path.c_str(), W_OK) == 0 && ::geteuid() != 0) return 10;  // the copy is not read-only
    if (!ReadAllStatus(path).ok()) return 11;
    if (!InspectSnapshot(path).ok()) return 12;
    if (!OpenSnapshotSource(path).ok()) return 13;
    if (!ZipSnapshot(path, out + "/export.zip").ok()) return 14;
    return 0;
  });
  CHECK_MESSAGE(code == 0, "the unprivileged reader failed with ", code);
  CHECK(fs::exists(out + "/export.zip"));
  std::map<std::string, std::pair<std::string, fs::file_time_type>> after;
  for (const auto& [name, bytes] : FileContents(path)) {
    after[name] = {bytes, fs::last_write_time(path + "/" + name)};
  }
  CHECK(after == before);
  fs::permissions(path, fs::perms::owner_all, fs::perm_options::add);
  for (const auto& e : fs::recursive_directory_iterator(path)) {
    fs::permissions(e.path(), fs::perms::owner_write, fs::perm_options::add);
  }
  fs::remove_all(out);  // written by nobody: removed here while the directory is still ours
}

TEST_CASE("an export reads like its directory and unpacks into an identical pristine copy") {
  TempDir dir;
  const std::string path = Generate(dir.path());
  REQUIRE_OK(ZipSnapshot(path, dir / "tiny.zip"));
  CHECK(ZipSnapshot(path, dir / "tiny.zip").code() == StatusCode::kAlreadyExists);
  auto from_zip = OpenSnapshotSource(dir / "tiny.zip");
  REQUIRE_MESSAGE(from_zip.ok(), from_zip.status().ToString());
  auto from_dir = OpenSnapshotSource(path);
  CHECK(ReadAll(**from_zip) == ReadAll(**from_dir));
  auto unpacked = UnpackSnapshot(dir / "tiny.zip", dir / "pristine");
  REQUIRE_MESSAGE(unpacked.ok(), unpacked.status().ToString());
  CHECK(*unpacked == dir / "pristine/tiny");
  CHECK(FileContents(*unpacked) == FileContents(path));
  CHECK(UnpackSnapshot(dir / "tiny.zip", dir / "pristine").status().code() == StatusCode::kAlreadyExists);
}

// Every directory and file under `root` with its permission bits, as "path mode" lines.
std::vector<std::string> Modes(const std::string& root) {
  std::vector<std::string> out;
  auto mode = [](const std::filesystem::path& p) {
    struct stat st {};
    ::stat(p.c_str(), &st);
    char text[8];
    std::snprintf(text, sizeof(text), "%o", st.st_mode & 0777);
    return std::string(text);
  };
  out.push_back(". " + mode(root));
  for (const auto& entry : std::filesystem::recursive_directory_iterator(root)) {
    out.push_back(std::filesystem::relative(entry.path(), root).string() + " " + mode(entry.path()));
  }
  return out;
}

TEST_CASE("regression: snapshots and unpacked exports were 0700 (mkdtemp), now the umask decides") {
  TempDir dir;
  const mode_t saved = ::umask(022);
  const std::string path = Generate(dir / "team");
  const Status zipped = ZipSnapshot(path, dir / "tiny.zip");
  auto unpacked = UnpackSnapshot(dir / "tiny.zip", dir / "unpacked");
  ::umask(077);
  const std::string private_path = Generate(dir / "mine");
  ::umask(saved);
  REQUIRE_OK(zipped);
  REQUIRE_OK(unpacked);
  for (const std::string& root : {path, *unpacked}) {
    for (const std::string& line : Modes(root)) {
      const bool directory = std::filesystem::is_directory(root + "/" + line.substr(0, line.rfind(' ')));
      CHECK_MESSAGE(line.substr(line.rfind(' ') + 1) == (directory ? "755" : "644"), root, ": ", line);
    }
  }
  struct stat zip_stat {};
  REQUIRE(::stat((dir / "tiny.zip").c_str(), &zip_stat) == 0);
  CHECK((zip_stat.st_mode & 0777) == 0644);
  // A stricter umask is respected, not widened.
  for (const std::string& line : Modes(private_path)) {
    CHECK_MESSAGE(line.substr(line.rfind(' ') + 1).back() == '0', line);
  }
}

TEST_CASE("inspection reports counts and per-entity averages") {
  TempDir dir;
  auto info = InspectSnapshot(Generate(dir.path(), "senesi", 0.002));
  REQUIRE_MESSAGE(info.ok(), info.status().ToString());
  CHECK(info->collections.size() == 18);
  for (const auto& c : info->collections) {
    if (c.entity_type != "Product") continue;
    CHECK(c.count == 238);
    CHECK(c.prices == doctest::Approx(58));
    CHECK(c.localized_attributes == doctest::Approx(12));  // 6 localized attributes x cs, sk
    CHECK(c.global_attributes + c.localized_attributes / 2 >= 30);
    CHECK(c.references.at("parameterValues") > 4);
    CHECK(c.associated_data_bytes > 500);
  }
  CHECK(SnapshotInfoToJson(*info).find("\"total_count\": " + std::to_string(info->total_count())) !=
        std::string::npos);
  CHECK(SnapshotInfoToText(*info).find("checksums verified") != std::string::npos);
}

TEST_CASE("the writer refuses to overwrite and leaves nothing behind on failure") {
  TempDir dir;
  Generate(dir.path());
  const auto before = FileContents(dir.path());
  auto source = OpenGeneratorSource({"tiny", 1.0, 2, ""});
  auto again = WriteSnapshot(**source, dir.path(), {});
  CHECK(again.status().code() == StatusCode::kAlreadyExists);
  CHECK(FileContents(dir.path()) == before);

  CatalogSchema schema = (*source)->schema();
  schema.name = "partial";
  auto writer = SnapshotWriter::Create(dir.path(), schema, {});
  REQUIRE_OK(writer);
  Entity e;
  e.type = "Brand";
  e.primary_key = 5;
  CHECK_OK((*writer)->Append(e));
  e.primary_key = 4;
  CHECK((*writer)->Append(e).message().find("primary keys must ascend") != std::string::npos);
  e.type = "Nope";
  CHECK((*writer)->Append(e).code() == StatusCode::kInvalidArgument);
  writer->reset();  // abandoned: the temporary directory goes away
  CHECK(FileContents(dir.path()) == before);
  CHECK_FALSE(fs::exists(dir / "partial"));
  schema.name = "../escape";
  CHECK(SnapshotWriter::Create(dir.path(), schema, {}).status().code() == StatusCode::kInvalidArgument);
}

TEST_CASE("damaged snapshots give clear errors naming file and offset") {
  TempDir dir;
  const std::string path = Generate(dir.path());
  const std::string product = ProductFile(path);
  const auto size = fs::file_size(product);

  SUBCASE(
      "regression: a damaged entity file was interpreted before its checksum was checked, now it is "
      "refused when the snapshot is opened") {
    fs::resize_file(product, size - 100);
    auto source = OpenSnapshotSource(path);
    CHECK(source.status().code() == StatusCode::kDataLoss);
    CHECK(source.status().message() == product + ": " + std::to_string(size - 100) +
                                           " bytes, the manifest says " + std::to_string(size) +
                                           ": the file is damaged (found when the snapshot was opened, "
                                           "before any of its entities was read)");
    CHECK(ReadAllStatus(path).message() == source.status().message());  // inspect: the same check
  }
  SUBCASE("truncated behind the manifest's back: the record reader names the offset") {
    testing::TruncateBehindTheManifest(path, product, size - 100);
    Status s = ReadAllStatus(path);
    CHECK(s.code() == StatusCode::kDataLoss);
    CHECK(s.message().find(product + ": offset ") == 0);
    CHECK(s.message().find("truncated") != std::string::npos);
  }
  SUBCASE("flipped byte") {
    std::fstream f(product, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(static_cast<std::streamoff>(size / 2));
    char c = 0;
    f.read(&c, 1);
    f.seekp(static_cast<std::streamoff>(size / 2));
    c = static_cast<char>(c ^ 0x10);
    f.write(&c, 1);
    f.close();
    Status s = ReadAllStatus(path);
    REQUIRE_FALSE(s.ok());
    CHECK(s.message().find(product) == 0);
  }
  SUBCASE("wrong format version") {
    EditFile(path + "/manifest.json", "\"format_version\": 1", "\"format_version\": 7");
    auto source = OpenSnapshotSource(path);
    CHECK(source.status().code() == StatusCode::kFailedPrecondition);
    CHECK(source.status().message() ==
          path + "/manifest.json: format_version 7 is not supported (this build reads 1)");
  }
  SUBCASE("missing manifest") {
    fs::remove(path + "/manifest.json");
    auto source = OpenSnapshotSource(path);
    CHECK(source.status().message() == path + ": no manifest.json: not a warmup snapshot directory");
    auto parent = OpenSnapshotSource(dir.path());
    CHECK(parent.status().message().find("did you mean") == std::string::npos);
  }
  SUBCASE("manifest count that does not match the file") {
    EditFile(path + "/manifest.json", "\"count\": 200", "\"count\": 201");
    Status s = ReadAllStatus(path);
    CHECK(s.code() == StatusCode::kDataLoss);
    CHECK(s.message().find("holds 200 entities, the manifest says 201") != std::string::npos);
  }
  SUBCASE("manifest pointing outside the snapshot") {
    EditFile(path + "/manifest.json", "\"file\": \"schema.pb\"", "\"file\": \"../schema.pb\"");
    auto source = OpenSnapshotSource(path);
    CHECK(source.status().message().find("is not a plain relative path") != std::string::npos);
  }
  SUBCASE("a snapshot's parent directory is not a snapshot, with a hint") {
    auto source = OpenSnapshotSource(dir.path());
    CHECK(source.status().message().find("did you mean " + path) != std::string::npos);
  }
}

// Writes a zip with the given entry names (each holding a few bytes).
void WriteZip(const std::string& path, const std::vector<std::string>& names) {
  int error = 0;
  zip_t* z = zip_open(path.c_str(), ZIP_CREATE | ZIP_TRUNCATE, &error);
  REQUIRE(z != nullptr);
  static const char kBytes[] = "x";
  for (const auto& name : names) {
    zip_source_t* s = zip_source_buffer(z, kBytes, 1, 0);
    REQUIRE(zip_file_add(z, name.c_str(), s, ZIP_FL_ENC_RAW) >= 0);
  }
  REQUIRE(zip_close(z) == 0);
}

TEST_CASE("unpacking refuses entries that escape the target directory") {
  TempDir dir;
  const std::string absolute = dir / "absolute-evil";  // an absolute entry name, unique to this run
  for (const auto& evil :
       std::vector<std::string>{"tiny/../evil", absolute, "tiny/a/../../evil", "other/manifest.json"}) {
    CAPTURE(evil);
    WriteZip(dir / "bad.zip", {"tiny/manifest.json", evil});
    auto result = UnpackSnapshot(dir / "bad.zip", dir / "target");
    REQUIRE_FALSE(result.ok());
    CHECK(result.status().code() == StatusCode::kInvalidArgument);
    CHECK(result.status().message().find("'" + evil + "'") != std::string::npos);
    CHECK_FALSE(fs::exists(dir / "target/tiny"));
    CHECK_FALSE(fs::exists(dir / "evil"));
    CHECK_FALSE(fs::exists(absolute));
  }
  // A well-formed but bogus export fails verification and leaves nothing, not
  // even the target directory it would have created.
  WriteZip(dir / "bogus.zip", {"tiny/manifest.json"});
  auto result = UnpackSnapshot(dir / "bogus.zip", dir / "target");
  REQUIRE_FALSE(result.ok());
  CHECK(result.status().message().find("manifest.json") != std::string::npos);
  CHECK_FALSE(fs::exists(dir / "target"));
}

// One entry of a hand-made zip: its name, its bytes, and its Unix mode (file
// type and permission bits; 0 leaves libzip's default). A name ending in '/'
// is a directory entry.
struct RawEntry {
  std::string name;
  std::string bytes = "x";
  uint32_t mode = 0;
};

std::string ReadBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Writes `entries` to a new zip at `path`, in order. libzip refuses to add a
// name twice, so a repeated name is added under a placeholder of the same
// length and renamed in the written bytes, as other zip tools would write it.
void WriteRawZip(const std::string& path, const std::vector<RawEntry>& entries) {
  int error = 0;
  zip_t* z = zip_open(path.c_str(), ZIP_CREATE | ZIP_TRUNCATE, &error);
  REQUIRE(z != nullptr);
  std::set<std::string> names;
  std::vector<std::pair<std::string, std::string>> renames;  // placeholder, name
  for (const auto& entry : entries) {
    std::string name = entry.name;
    if (!names.insert(name).second) {
      name[name.size() - (name.back() == '/' ? 2 : 1)] = static_cast<char>('A' + renames.size());
      renames.emplace_back(name, entry.name);
    }
    zip_int64_t index = -1;
    if (!name.empty() && name.back() == '/') {
      index = zip_dir_add(z, name.c_str(), ZIP_FL_ENC_RAW);
    } else {
      zip_source_t* s = zip_source_buffer(z, entry.bytes.data(), entry.bytes.size(), 0);
      index = zip_file_add(z, name.c_str(), s, ZIP_FL_ENC_RAW);
    }
    REQUIRE_MESSAGE(index >= 0, name);
    if (entry.mode != 0) {
      REQUIRE(zip_file_set_external_attributes(z, static_cast<zip_uint64_t>(index), 0, ZIP_OPSYS_UNIX,
                                               entry.mode << 16) == 0);
    }
  }
  REQUIRE(zip_close(z) == 0);  // the entries' bytes must outlive this
  if (renames.empty()) return;
  std::string bytes = ReadBytes(path);
  for (const auto& [placeholder, name] : renames) {
    int replaced = 0;
    for (size_t at = 0; (at = bytes.find(placeholder, at)) != std::string::npos; ++replaced) {
      bytes.replace(at, name.size(), name);
    }
    REQUIRE(replaced == 2);  // the local header and the central directory
  }
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

// The entries of an export of a fresh `tiny` snapshot in `dir`, as ZipSnapshot
// writes them: the two directories, then every file. Written as they are,
// they make an export every command accepts (checked here, so that a test
// refusing a variant refuses it for the variant's sake).
std::vector<RawEntry> TinyExportEntries(const TempDir& dir) {
  const std::string snapshot = Generate(dir / "generated");
  std::vector<RawEntry> entries = {{"tiny/", ""}, {"tiny/collections/", ""}};
  for (const auto& [relative, bytes] : FileContents(snapshot)) entries.push_back({"tiny/" + relative, bytes});
  WriteRawZip(dir / "clean.zip", entries);
  REQUIRE_OK(InspectSnapshot(dir / "clean.zip"));
  REQUIRE_OK(OpenSnapshotSource(dir / "clean.zip"));
  auto unpacked = UnpackSnapshot(dir / "clean.zip", dir / "clean");
  REQUIRE_OK(unpacked);
  CHECK(FileContents(*unpacked) == FileContents(snapshot));
  return entries;
}

// Inspect, load (FindSnapshot then OpenSnapshotSource, as `warmup load
// --pristine-dir X.zip` does) and unpack all refuse `zip` with `code`, naming
// the zip and quoting `entry`, never a temporary directory; unpack leaves nothing
// behind, not even the output directory (and its parent) it would create.
void CheckEveryCommandRefuses(const TempDir& dir, const std::string& zip, StatusCode code,
                              const std::string& entry) {
  const Status inspect = InspectSnapshot(zip).status();
  auto found = FindSnapshot(zip, "");
  REQUIRE_OK(found);
  const Status load = OpenSnapshotSource(*found).status();
  const Status unpack = UnpackSnapshot(zip, dir / "out/pristine").status();
  for (const auto& result : std::vector<std::pair<std::string, Status>>{
           {"inspect", inspect}, {"load", load}, {"unpack", unpack}}) {
    // Named references, not a structured binding: doctest's macros capture them.
    const std::string& command = result.first;
    const Status& status = result.second;
    CAPTURE(command);
    CHECK_MESSAGE(status.code() == code, status);
    CHECK_MESSAGE(status.message().find(zip) == 0, status);
    CHECK_MESSAGE(status.message().find("'" + entry + "'") != std::string::npos, status);
    CHECK_MESSAGE(status.message().find(".unpack-") == std::string::npos, status);
  }
  CHECK_FALSE(fs::exists(dir / "out"));
}

TEST_CASE("regression: inspect and load accepted a zip entry named ../evil.txt or an absolute path") {
  TempDir dir;
  const auto entries = TinyExportEntries(dir);
  const std::string absolute = dir / "absolute-evil.txt";
  // Each name, and how the message shows it (a control character escaped).
  for (const auto& evil_shown : std::vector<std::pair<std::string, std::string>>{
           {"../evil.txt", "../evil.txt"},
           {absolute, absolute},
           {"tiny/../evil.txt", "tiny/../evil.txt"},
           {"tiny/collections/../../evil.txt", "tiny/collections/../../evil.txt"},
           {"./evil.txt", "./evil.txt"},
           {"tiny/collections/bad name.entities", "tiny/collections/bad name.entities"},
           {"tiny/new\nline", "tiny/new\\x0aline"},
           {"evil.txt", "evil.txt"},
           {"other/evil.txt", "other/evil.txt"},
           {"other/manifest.json", "other/manifest.json"}}) {
    const std::string& evil = evil_shown.first;  // named: CAPTURE takes no structured binding
    const std::string& shown = evil_shown.second;
    CAPTURE(evil);
    auto bad = entries;
    bad.push_back({evil, "evil"});
    WriteRawZip(dir / "bad.zip", bad);
    CheckEveryCommandRefuses(dir, dir / "bad.zip", StatusCode::kInvalidArgument, shown);
    CHECK_FALSE(fs::exists(dir / "evil.txt"));
    CHECK_FALSE(fs::exists(absolute));
  }
}

TEST_CASE(
    "regression: unpack copied a file the manifest does not list, and a symlink entry as a plain file") {
  TempDir dir;
  const auto entries = TinyExportEntries(dir);
  auto without = [&](const std::string& name) {
    auto out = entries;
    out.erase(std::remove_if(out.begin(), out.end(), [&](const RawEntry& e) { return e.name == name; }),
              out.end());
    REQUIRE(out.size() == entries.size() - 1);
    return out;
  };
  const std::string schema = ReadBytes(dir / "generated/tiny/schema.pb");
  struct Case {
    std::vector<RawEntry> zip;
    std::string entry;
  };
  std::vector<Case> cases;
  for (const RawEntry& extra :
       {RawEntry{"tiny/README.txt", "read me"}, RawEntry{"tiny/collections/999-Extra.entities", ""},
        RawEntry{"tiny/docs/", ""},                               // a directory
        RawEntry{"tiny/link", "manifest.json", 0120777},          // a symlink
        RawEntry{"tiny/escape", "../../../etc/passwd", 0120777},  // another
        RawEntry{"tiny/fifo", "", 0010644}}) {
    auto zip = entries;
    zip.push_back(extra);
    cases.push_back({zip, extra.name});
  }
  // A symlink under a listed name, holding the very bytes the manifest
  // expects: only its type tells it apart.
  auto linked = without("tiny/schema.pb");
  linked.push_back({"tiny/schema.pb", schema, 0120644});
  cases.push_back({linked, "tiny/schema.pb"});
  // A regular file where the export has a directory.
  auto file_for_dir = without("tiny/collections/");
  file_for_dir.insert(file_for_dir.begin() + 1, RawEntry{"tiny/collections/", "", 0100644});
  cases.push_back({file_for_dir, "tiny/collections/"});
  for (const auto& c : cases) {
    CAPTURE(c.entry);
    WriteRawZip(dir / "bad.zip", c.zip);
    CheckEveryCommandRefuses(dir, dir / "bad.zip", StatusCode::kInvalidArgument, c.entry);
  }
}

TEST_CASE(
    "regression: a duplicated zip entry passed inspect and load, and unpack failed naming its temp directory "
    "and left the output directory behind") {
  TempDir dir;
  const auto entries = TinyExportEntries(dir);
  std::string first_collection;
  for (const auto& e : entries) {
    if (first_collection.empty() && e.name.find("tiny/collections/0") == 0) first_collection = e.name;
  }
  REQUIRE_FALSE(first_collection.empty());
  for (const RawEntry& again : {RawEntry{"tiny/manifest.json", ""},  // bytes filled in below: the same
                                RawEntry{first_collection, "different bytes"},
                                RawEntry{"tiny/schema.pb/", ""},  // a directory named like a file
                                RawEntry{"tiny/collections", "x"}, RawEntry{"tiny/", ""}}) {
    CAPTURE(again.name);
    auto zip = entries;
    RawEntry copy = again;
    if (copy.name == "tiny/manifest.json") {
      for (const auto& e : entries) {
        if (e.name == copy.name) copy.bytes = e.bytes;
      }
    }
    zip.push_back(copy);
    WriteRawZip(dir / "bad.zip", zip);
    CheckEveryCommandRefuses(dir, dir / "bad.zip", StatusCode::kInvalidArgument, again.name);
  }
  // Damaged content (the manifest's checksum disagrees) fails unpack too: the
  // error names the zip's entry, not a temporary file, and nothing is left.
  auto damaged = entries;
  for (auto& e : damaged) {
    if (e.name != first_collection) continue;
    REQUIRE_FALSE(e.bytes.empty());
    e.bytes[e.bytes.size() / 2] = static_cast<char>(e.bytes[e.bytes.size() / 2] ^ 0x10);
  }
  WriteRawZip(dir / "damaged.zip", damaged);
  const Status unpack = UnpackSnapshot(dir / "damaged.zip", dir / "out/pristine").status();
  CHECK(unpack.code() == StatusCode::kDataLoss);
  CHECK_MESSAGE(unpack.message().find(dir / "damaged.zip:" + first_collection) == 0, unpack);
  CHECK_FALSE(fs::exists(dir / "out"));
}

TEST_CASE("regression: unpack of a zip that does not exist said 'not a readable zip'") {
  TempDir dir;
  const std::string missing = dir / "nothere.zip";
  const Status unpack = UnpackSnapshot(missing, dir / "out").status();
  CHECK(unpack.code() == StatusCode::kNotFound);
  CHECK(unpack.message() == missing + ": no such file");
  CHECK_FALSE(fs::exists(dir / "out"));
  // inspect and load say the same kind of thing (they take a directory too).
  const Status inspect = InspectSnapshot(missing).status();
  CHECK(inspect.code() == StatusCode::kNotFound);
  CHECK(inspect.message().find(missing + ": no such file") == 0);
  CHECK(FindSnapshot(missing, "").status().code() == StatusCode::kNotFound);
  CHECK(OpenSnapshotSource(missing).status().code() == StatusCode::kNotFound);
}

TEST_CASE(
    "regression: FindSnapshot failed 'Too many levels of symbolic links' (or 'Permission denied') when the "
    "last "
    "entry it looked into could not be looked into, though the snapshot was there") {
  TempDir dir;
  fs::create_directories(dir / "tiny");
  std::ofstream(dir / "tiny/manifest.json") << "{}";
  // Entries whose manifest.json cannot be checked (ELOOP; as root, an
  // unreadable directory would not do), enough that one of them comes last.
  for (int i = 0; i < 20; ++i)
    fs::create_symlink("loop" + std::to_string(i), dir / ("loop" + std::to_string(i)));
  auto named = FindSnapshot(dir.path(), "tiny");
  REQUIRE_MESSAGE(named.ok(), named.status().ToString());
  CHECK(*named == dir / "tiny");
  auto only = FindSnapshot(dir.path(), "");
  REQUIRE_MESSAGE(only.ok(), only.status().ToString());
  CHECK(*only == dir / "tiny");
}

TEST_CASE("FindSnapshot: one snapshot is taken, several or none need a catalog, a zip is a source") {
  TempDir dir;
  auto snapshot = [&](const std::string& name) {
    fs::create_directories(dir / name);
    std::ofstream(dir / (name + "/manifest.json")) << "{}";
  };
  CHECK(FindSnapshot(dir.path(), "").status().message() ==
        dir.path() + " holds no snapshot (no */manifest.json in it)");
  fs::create_directories(dir / "not-a-snapshot");
  snapshot("senesi");
  CHECK(*FindSnapshot(dir.path(), "") == dir / "senesi");
  snapshot("tiny");
  CHECK(FindSnapshot(dir.path(), "").status().message() ==
        dir.path() + " holds 2 snapshots (senesi, tiny): choose one with the catalog");
  SpecNames flags;  // a frontend's words
  flags.source_dir = "--pristine-dir";
  flags.catalog = "--catalog";
  CHECK(FindSnapshot(dir.path(), "", flags).status().message() ==
        dir.path() + " holds 2 snapshots (senesi, tiny): choose one with --catalog");
  CHECK(*FindSnapshot(dir.path(), "tiny") == dir / "tiny");
  // Regression: an unknown --catalog lists what there is (it failed later, naming a file inside).
  auto unknown = FindSnapshot(dir.path(), "nope");
  CHECK(unknown.status().code() == StatusCode::kNotFound);
  CHECK(unknown.status().message() == "no snapshot nope in " + dir.path() + "; it holds: senesi, tiny");
  // A snapshot given as the parent: what to pass instead.
  CHECK(FindSnapshot((dir / "tiny"), "").status().message() ==
        (dir / "tiny") + " is a snapshot itself; pass its parent directory: the source directory " +
            dir.path() + " with the catalog tiny");
  CHECK(FindSnapshot((dir / "tiny"), "", flags).status().message() ==
        (dir / "tiny") + " is a snapshot itself; pass its parent directory: --pristine-dir " + dir.path() +
            " with --catalog tiny");
  std::ofstream(dir / "export.zip") << "zip";
  CHECK(*FindSnapshot(dir / "export.zip", "") == dir / "export.zip");
  CHECK(FindSnapshot(dir / "missing", "").status().code() == StatusCode::kNotFound);
}

}  // namespace
}  // namespace warmup
