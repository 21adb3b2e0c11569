#include "server/catalogs.h"

#include <algorithm>

#include "codec/schema_interpreter.h"

namespace warmup::server {

bool CatalogRegistry::Exists(const std::string& name) const {
  return pending_.contains(name) || engine_->GetCatalog(name).ok();
}

std::optional<pb::GrpcCatalogState> CatalogRegistry::StateOf(const std::string& name) const {
  if (pending_.contains(name)) return pb::WARMING_UP;
  auto catalog = engine_->GetCatalog(name);
  if (!catalog.ok()) return std::nullopt;
  return (*catalog)->state() == CatalogState::kAlive ? pb::ALIVE : pb::WARMING_UP;
}

std::vector<std::string> CatalogRegistry::Names() const {
  std::vector<std::string> names = engine_->CatalogNames();
  for (const auto& [name, schema] : pending_) names.push_back(name);
  std::sort(names.begin(), names.end());
  return names;
}

Status CatalogRegistry::Define(const std::string& name) {
  if (Exists(name)) return OkStatus();
  if (Status s = engine_->CheckNewCatalogName(name); !s.ok()) return s;
  CatalogSchema schema;
  schema.name = name;
  schema.evolution_modes = {CatalogEvolutionMode::kAddingEntityTypes};
  pending_.emplace(name, std::move(schema));
  return OkStatus();
}

bool CatalogRegistry::Delete(const std::string& name) {
  if (pending_.erase(name) > 0) return true;
  return engine_->DeleteCatalog(name).ok();
}

StatusOr<const CatalogSchema*> CatalogRegistry::Schema(const std::string& name) const {
  auto pending = pending_.find(name);
  if (pending != pending_.end()) return &pending->second;
  auto catalog = engine_->GetCatalog(name);
  if (!catalog.ok()) return catalog.status();
  return &(*catalog)->schema();
}

Status CatalogRegistry::UpdateSchema(const std::string& name,
                                     const std::vector<pb::GrpcLocalCatalogSchemaMutation>& mutations) {
  auto pending = pending_.find(name);
  if (pending == pending_.end()) {
    return UnimplementedError("catalog " + name +
                              ": schema changes after the first upsert are not supported");
  }
  CatalogSchema updated = pending->second;
  if (Status s = codec::ApplyCatalogSchemaMutations(mutations, &updated); !s.ok()) return s;
  pending->second = std::move(updated);
  return OkStatus();
}

StatusOr<Catalog*> CatalogRegistry::Materialize(const std::string& name) {
  auto pending = pending_.find(name);
  if (pending == pending_.end()) return engine_->GetCatalog(name);
  auto catalog = engine_->CreateCatalog(pending->second);
  if (!catalog.ok()) return catalog.status();
  pending_.erase(pending);
  return catalog;
}

std::optional<pb::GrpcCatalogState> CatalogRegistry::Transition(const std::string& name) const {
  MutexLock lock(transitions_mu_);
  auto it = transitions_.find(name);
  return it == transitions_.end() ? std::nullopt : std::optional<pb::GrpcCatalogState>(it->second);
}

void CatalogRegistry::SetTransition(const std::string& name, std::optional<pb::GrpcCatalogState> state) {
  MutexLock lock(transitions_mu_);
  if (state) {
    transitions_[name] = *state;
  } else {
    transitions_.erase(name);
  }
}

}  // namespace warmup::server
