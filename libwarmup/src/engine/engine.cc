// The engine: a data directory of catalogs.
#include "warmup/engine.h"

#include <map>

#include "common/dir_lock.h"
#include "common/names.h"
#include "engine/catalog.h"
#include "engine/catalog_files.h"
#include "engine/env.h"
#include "warmup/work_dir.h"

namespace warmup {
namespace {

using engine::CatalogImpl;
using engine::Env;
using engine::kHeaderFile;
using engine::kSchemaFile;

class EngineImpl : public Engine {
 public:
  EngineImpl(Env* env, std::string dir, EngineOptions options, std::unique_ptr<DirectoryLock> lock)
      : env_(env), dir_(std::move(dir)), options_(options), lock_(std::move(lock)) {}

  Status LoadAll() {
    auto names = env_->ListDirectory(dir_);
    if (!names.ok()) return names.status();
    for (const std::string& name : *names) {
      const std::string path = dir_ + "/" + name;
      auto leftover = [&](const std::string& why) { leftovers_.push_back(path + ": " + why); };
      if (!env_->IsDirectory(path)) {
        if (name != kWorkDirMarker && name != kLockFile) leftover("not a directory");
        continue;
      }
      auto header = env_->ReadWholeFile(path + "/" + kHeaderFile);
      if (!header.ok()) {
        leftover("no catalog header; not loaded");
        continue;
      }
      auto state = engine::ParseHeader(*header, name);
      if (!state.ok()) {
        leftover("catalog header is not valid (" + state.status().message() + "); not loaded");
        continue;
      }
      auto schema_data = env_->ReadWholeFile(path + "/" + kSchemaFile);
      if (!schema_data.ok()) return schema_data.status();
      auto schema = engine::ParseSchema(*schema_data, path + "/" + kSchemaFile);
      if (!schema.ok()) return schema.status();
      auto catalog = std::make_unique<CatalogImpl>(env_, path, std::move(schema).value(), *state, options_);
      if (Status s = catalog->Load(); !s.ok()) return s.WithContext("loading catalog " + name);
      catalogs_.emplace(name, std::move(catalog));
    }
    return OkStatus();
  }

  std::vector<std::string> CatalogNames() const override {
    std::vector<std::string> names;
    for (const auto& [name, c] : catalogs_) names.push_back(name);
    return names;
  }
  const std::vector<std::string>& leftovers() const override { return leftovers_; }
  Status Flush() override {
    for (auto& [name, catalog] : catalogs_) {
      if (Status s = catalog->Flush(); !s.ok()) return s;
    }
    return OkStatus();
  }

  Status CheckNewCatalogName(const std::string& name) const override {
    if (!IsSafeName(name)) {
      return InvalidArgumentError("catalog name '" + name +
                                  "' is not allowed (letters, digits, '.', '_', '-'; not '.' or '..')");
    }
    if (catalogs_.contains(name)) return AlreadyExistsError("catalog " + name + " already exists");
    const std::string path = dir_ + "/" + name;
    if (env_->Exists(path)) {
      return AlreadyExistsError(path + " is in the data directory and is not a catalog of this engine " +
                                "(a name collision); refusing to touch it");
    }
    return OkStatus();
  }

  StatusOr<Catalog*> CreateCatalog(const CatalogSchema& schema) override {
    if (Status s = CheckNewCatalogName(schema.name); !s.ok()) return s;
    const std::string path = dir_ + "/" + schema.name;
    if (Status s = ValidateCatalogSchema(schema); !s.ok()) return s;
    if (Status s = RecordInMarker(schema.name); !s.ok()) return s;
    if (Status s = env_->CreateDirectories(path + "/collections"); !s.ok()) return s;
    if (Status s = env_->WriteFileAtomically(path + "/" + kSchemaFile, engine::SerializeSchema(schema));
        !s.ok()) {
      return s;
    }
    if (Status s = env_->WriteFileAtomically(path + "/" + kHeaderFile,
                                             engine::HeaderText(schema.name, CatalogState::kWarmingUp));
        !s.ok()) {
      return s;
    }
    auto catalog = std::make_unique<CatalogImpl>(env_, path, schema, CatalogState::kWarmingUp, options_);
    if (Status s = catalog->OpenForAppend(); !s.ok()) return s;
    Catalog* raw = catalog.get();
    catalogs_.emplace(schema.name, std::move(catalog));
    return raw;
  }

  StatusOr<Catalog*> GetCatalog(const std::string& name) const override {
    auto it = catalogs_.find(name);
    if (it == catalogs_.end()) return NotFoundError("no catalog " + name);
    return static_cast<Catalog*>(it->second.get());
  }

  Status DeleteCatalog(const std::string& name) override {
    auto it = catalogs_.find(name);
    if (it == catalogs_.end()) return NotFoundError("no catalog " + name);
    catalogs_.erase(it);
    return env_->RemoveAll(dir_ + "/" + name);
  }

 private:
  // In a work directory (one with warmup's marker), the catalog directory
  // `name` is recorded as warmup's before it is made, so that clearing the
  // directory for the next run removes it (and nothing of anyone else's).
  Status RecordInMarker(const std::string& name) {
    const std::string marker = dir_ + "/" + kWorkDirMarker;
    if (!env_->Exists(marker)) return OkStatus();
    auto file = env_->OpenAppend(marker);
    if (!file.ok()) return file.status();
    if (Status s = (*file)->Append(WorkDirEntryLine(name)); !s.ok()) return s;
    return (*file)->Close();
  }

  Env* env_;
  std::string dir_;
  EngineOptions options_;
  std::unique_ptr<DirectoryLock> lock_;  // the data directory is ours while the engine lives
  std::map<std::string, std::unique_ptr<CatalogImpl>> catalogs_;
  std::vector<std::string> leftovers_;
};

}  // namespace

namespace engine {
// For tests: opens an engine over a given Env (see engine/env.h).
StatusOr<std::unique_ptr<Engine>> OpenEngineWithEnv(Env* env, const std::string& data_dir,
                                                    const EngineOptions& options) {
  if (Status s = env->CreateDirectories(data_dir); !s.ok()) return s;
  auto lock = env->LockDirectory(data_dir);
  if (!lock.ok()) return lock.status();
  auto engine = std::make_unique<EngineImpl>(env, data_dir, options, std::move(lock).value());
  if (Status s = engine->LoadAll(); !s.ok()) return s;
  return std::unique_ptr<Engine>(std::move(engine));
}
}  // namespace engine

StatusOr<std::unique_ptr<Engine>> Engine::Open(const std::string& data_dir, const EngineOptions& options) {
  return engine::OpenEngineWithEnv(engine::DefaultEnv(), data_dir, options);
}

}  // namespace warmup
