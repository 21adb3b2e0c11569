#include "warmup/source_server.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <thread>
#include <utility>

#include "warmup/catalog_admin.h"
#include "warmup/server_process.h"

namespace warmup {
namespace {

namespace fs = std::filesystem;

// pristine_dir/catalog, or pristine_dir's only subdirectory (files beside it,
// a lock or a marker, are not catalogs).
StatusOr<fs::path> FindCatalogFolder(const SourceSpec& spec) {
  const fs::path parent = spec.pristine_dir;
  std::error_code ec;
  if (!fs::is_directory(parent, ec)) {
    return InvalidArgumentError("--pristine-dir " + spec.pristine_dir + " is not a directory");
  }
  std::vector<std::string> folders;
  for (const auto& entry : fs::directory_iterator(parent, ec)) {
    if (entry.is_directory(ec)) folders.push_back(entry.path().filename().string());
  }
  std::sort(folders.begin(), folders.end());
  std::string listed;
  for (const std::string& f : folders) listed += (listed.empty() ? "" : ", ") + f;
  if (!spec.catalog.empty()) {
    if (std::find(folders.begin(), folders.end(), spec.catalog) != folders.end()) {
      return parent / spec.catalog;
    }
    return InvalidArgumentError("--pristine-dir " + spec.pristine_dir + " has no catalog folder " +
                                spec.catalog + (listed.empty() ? "" : "; it has " + listed));
  }
  if (folders.size() == 1) return parent / folders.front();
  return InvalidArgumentError(
      "--pristine-dir " + spec.pristine_dir +
      (folders.empty() ? " holds no catalog folder"
                       : " holds several catalog folders (" + listed + "): name one with --catalog"));
}

// Until the server at `address` lists `catalog` ALIVE (a server opening a
// catalog from its storage lists it loading first, evitaDB's as
// BEING_ACTIVATED), by `deadline`.
Status WaitForAlive(const std::string& address, const std::string& catalog,
                    std::chrono::steady_clock::time_point deadline, const StopRequest* stop) {
  std::string last = "nothing yet";
  ServerAdminOptions admin;
  admin.call_timeout_seconds = 10;
  while (std::chrono::steady_clock::now() < deadline) {
    if (stop != nullptr && stop->requested()) {
      return FailedPreconditionError("stopped while the source server opened " + catalog +
                                     "; nothing was run");
    }
    auto listed = ListServerCatalogs(address, admin);
    if (!listed.ok()) {
      last = listed.status().ToString();
    } else {
      last = "no catalog " + catalog;
      for (const ServerCatalog& c : *listed) {
        if (c.name != catalog) continue;
        if (c.state == "ALIVE") return OkStatus();
        last = catalog + " " + c.state;
        if (c.state == "CORRUPTED") {
          return FailedPreconditionError(
              "the source server lists the catalog " + catalog +
              " CORRUPTED: it cannot open the folder (its log says why; for evitaDB one cause is a "
              "storage.compress other than the catalog was written with)");
        }
      }
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  return FailedPreconditionError("the source server did not list the catalog " + catalog +
                                 " ALIVE within the start timeout; it last said: " + last);
}

class StartedSourceServer : public SourceServer {
 public:
  StartedSourceServer(std::unique_ptr<ServerProcess> process, std::string catalog, std::string folder,
                      std::string copy, std::string command, std::string log)
      : process_(std::move(process)),
        catalog_(std::move(catalog)),
        folder_(std::move(folder)),
        copy_(std::move(copy)),
        command_(std::move(command)),
        log_(std::move(log)) {}

  std::string address() const override { return process_->address(); }
  std::string catalog() const override { return catalog_; }
  std::string Describe(const std::string& ended) const override {
    return "the catalog folder " + folder_ + ", read through a server started on a copy of it in " + copy_ +
           " (" + command_ + "; " + ended + " after the run)";
  }
  std::string LogErrors() const override {
    const std::string lines = LogEndsWith("the source server's", log_);
    return lines.empty() ? "" : "\n" + lines;
  }
  std::map<std::string, std::string> Provenance() const override {
    // The last -Dstorage.compress= of the command wins, as on a JVM's command line.
    std::string compress = "not set (evitaDB's default, false)";
    const std::string key = "-Dstorage.compress=";
    for (size_t at = command_.find(key); at != std::string::npos; at = command_.find(key, at + 1)) {
      const size_t end = command_.find_first_of(" '\"", at + key.size());
      compress = command_.substr(at + key.size(),
                                 end == std::string::npos ? std::string::npos : end - at - key.size());
    }
    return {{"source.catalog_folder", folder_},
            {"source.server_command", command_},
            {"source.storage_compress", compress}};
  }
  const ServerProcess& process() const override { return *process_; }
  ServerFigures Stop() override { return process_->Stop(); }

 private:
  std::unique_ptr<ServerProcess> process_;
  std::string catalog_, folder_, copy_, command_, log_;
};

}  // namespace

StatusOr<std::unique_ptr<SourceServer>> SourceServer::Start(const SourceSpec& spec,
                                                            const std::string& work_dir,
                                                            const std::vector<PathInUse>& in_use,
                                                            const StopRequest* stop) {
  if (spec.server.command.empty()) {
    return InvalidArgumentError("a source server needs SourceSpec::server.command");
  }
  auto folder = FindCatalogFolder(spec);
  if (!folder.ok()) return folder.status();
  const std::string catalog = folder->filename().string();
  if (auto s = PrepareWorkDir(work_dir, in_use); !s.ok()) {
    return s.WithContext("the source server's work directory");
  }
  for (const char* made : {"data", "server.log", "gc.log"}) {
    if (auto s = RecordInWorkDir(work_dir, made); !s.ok()) return s;
  }
  const fs::path data = fs::path(work_dir) / "data";
  std::error_code ec;
  fs::create_directories(data, ec);
  if (!ec) fs::copy(*folder, data / catalog, fs::copy_options::recursive, ec);
  if (ec) {
    return InternalError("cannot copy the catalog folder " + folder->string() + " into " +
                         (data / catalog).string() + ": " + ec.message());
  }
  ServerProcessOptions options;
  options.command = spec.server.command;
  options.data_dir = data.string();
  options.run_label = catalog + "-source";
  options.gc_log = (fs::path(work_dir) / "gc.log").string();
  options.xmx = spec.server.xmx;
  options.log = (fs::path(work_dir) / "server.log").string();
  options.start_timeout = std::chrono::seconds(spec.server.start_timeout_seconds);
  options.stop_grace = std::chrono::seconds(spec.server.stop_grace_seconds);
  const auto deadline = std::chrono::steady_clock::now() + options.start_timeout;
  auto process = ServerProcess::Start(options);
  if (!process.ok()) return process.status().WithContext("the source server");
  auto server = std::make_unique<StartedSourceServer>(std::move(process).value(), catalog, folder->string(),
                                                      data.string(), spec.server.command, options.log);
  if (Status alive = WaitForAlive(server->address(), catalog, deadline, stop); !alive.ok()) {
    server->Stop();
    return Status(alive.code(), alive.message() + server->LogErrors());
  }
  return std::unique_ptr<SourceServer>(std::move(server));
}

namespace {

// "evitaDB" or "warmup serve" when `dir` is a catalog folder of that server's, else empty.
std::string CatalogFolderOf(const fs::path& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return "";
  const std::string name = dir.filename().string();
  if (fs::exists(dir / "catalog.header", ec)) return "warmup serve";
  if (!fs::exists(dir / (name + ".boot"), ec)) return "";
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string file = entry.path().filename().string();
    if (file.starts_with(name + "_") && file.ends_with(".catalog")) return "evitaDB";
  }
  return "";
}

}  // namespace

std::string DescribeServerStorage(const std::string& path) {
  const fs::path dir = fs::path(path).lexically_normal();
  const fs::path clean = dir.has_filename() ? dir : dir.parent_path();
  const std::string reads =
      " --source-server-command '...' (a server started on a copy of it; docs/evitadb.md)";
  if (const std::string server = CatalogFolderOf(clean); !server.empty()) {
    return "a catalog folder of " + server + "'s storage (" + clean.filename().string() + "): read it with " +
           "--pristine-dir " + clean.parent_path().string() + " --catalog " + clean.filename().string() +
           reads;
  }
  std::error_code ec;
  if (!fs::is_directory(clean, ec)) return "";
  std::vector<std::string> catalogs;
  std::string server;
  for (const auto& entry : fs::directory_iterator(clean, ec)) {
    if (const std::string of = CatalogFolderOf(entry.path()); !of.empty()) {
      catalogs.push_back(entry.path().filename().string());
      server = of;
    }
  }
  if (catalogs.empty()) return "";
  std::sort(catalogs.begin(), catalogs.end());
  std::string listed;
  for (const std::string& c : catalogs) listed += (listed.empty() ? "" : ", ") + c;
  return "a storage directory of " + server + " holding the catalog folder" +
         (catalogs.size() > 1 ? "s " : " ") + listed + ": read one with --pristine-dir " + clean.string() +
         " --catalog " + catalogs.front() + reads;
}

}  // namespace warmup
