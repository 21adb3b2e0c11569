// The server's catalogs in their two forms: defined but empty (a pending
// schema the session's schema mutations build up, as evitaDB holds a catalog
// before its first entity), and engine catalogs, created from the pending
// schema at first use. Not thread-safe: the server calls it under its one
// lock, except for the transitions, which have a lock of their own.
// Internal to server/.
#ifndef WARMUP_SRC_SERVER_CATALOGS_H_
#define WARMUP_SRC_SERVER_CATALOGS_H_

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "GrpcCatalogSchemaMutation.pb.h"
#include "GrpcEnums.pb.h"
#include "base/mutex.h"
#include "codec/pb.h"
#include "warmup/engine.h"
#include "warmup/schema.h"
#include "warmup/status.h"

namespace warmup::server {

class CatalogRegistry {
 public:
  explicit CatalogRegistry(std::unique_ptr<Engine> engine) : engine_(std::move(engine)) {}

  bool Exists(const std::string& name) const;
  // WARMING_UP for a pending catalog; the engine catalog's state otherwise;
  // nullopt when there is no such catalog.
  std::optional<pb::GrpcCatalogState> StateOf(const std::string& name) const;
  // Every catalog's name, sorted.
  std::vector<std::string> Names() const;

  // Defines an empty catalog `name`; an existing one is reused, as evitaDB
  // does. Errors: the engine's, when the name cannot be a new catalog's (a
  // foreign directory in the way fails the definition, not the first upsert).
  Status Define(const std::string& name);
  // Deletes catalog `name`; false when there was none.
  bool Delete(const std::string& name);

  // The schema of catalog `name`, pending or not. Errors: the engine's
  // kNotFound.
  StatusOr<const CatalogSchema*> Schema(const std::string& name) const;
  // Applies schema mutations to a pending catalog, all or nothing.
  // Errors: kUnimplemented once the catalog has had an entity; the
  // interpreter's otherwise.
  Status UpdateSchema(const std::string& name,
                      const std::vector<pb::GrpcLocalCatalogSchemaMutation>& mutations);
  // The engine catalog `name`, created from its pending schema at first use.
  StatusOr<Catalog*> Materialize(const std::string& name);

  // A catalog in transition (GOING_ALIVE while goLive runs), readable while
  // the transition holds the server's lock.
  std::optional<pb::GrpcCatalogState> Transition(const std::string& name) const;
  void SetTransition(const std::string& name, std::optional<pb::GrpcCatalogState> state);
  // The engine's buffered records to the OS (Engine::Flush).
  Status Flush() { return engine_->Flush(); }
  // The engine, taken out; the registry must not be used after it but to
  // be destroyed.
  std::unique_ptr<Engine> ReleaseEngine() { return std::move(engine_); }

 private:
  std::unique_ptr<Engine> engine_;
  std::map<std::string, CatalogSchema> pending_;
  mutable Mutex transitions_mu_;
  std::map<std::string, pb::GrpcCatalogState> transitions_ GUARDED_BY(transitions_mu_);
};

}  // namespace warmup::server

#endif  // WARMUP_SRC_SERVER_CATALOGS_H_
