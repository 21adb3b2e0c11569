// warmup._warmup: the library for Python (the `warmup` package wraps it).
// Long calls release the GIL; a run checks for Ctrl-C between upserts and
// stops as an interrupted run would on the command line.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "python_entity.h"
#include "warmup/copy_engine.h"
#include "warmup/engine.h"
#include "warmup/generator.h"
#include "warmup/remote_target.h"
#include "warmup/report.h"
#include "warmup/run.h"
#include "warmup/run_result.h"
#include "warmup/server.h"
#include "warmup/snapshot.h"
#include "warmup/version.h"
#include "warmup/work_dir.h"

namespace warmup::python {
namespace {
namespace py = pybind11;

// Runs `call` without the GIL (it must not touch Python) and returns its result.
template <typename F>
auto WithoutGil(F call) {
  py::gil_scoped_release release;
  return call();
}

py::object FromJson(const std::string& text) { return py::module_::import("json").attr("loads")(text); }

RecordCompression CompressionNamed(const std::string& name) {
  if (auto named = RecordCompressionNamed(name)) return *named;
  Raise(InvalidArgumentError("compress is \"none\", \"zstd\" or \"deflate\", not \"" + name + "\""));
}

Scope ScopeNamed(const std::string& name) {
  if (name == "live") return Scope::kLive;
  if (name == "archived") return Scope::kArchived;
  Raise(InvalidArgumentError("scope is \"live\" or \"archived\", not \"" + name + "\""));
}

// What the library's errors call the values Python passes: the arguments
// of warmup.run() and the functions that take a source; the others keep the
// library's words.
SpecNames PythonNames() {
  SpecNames names;
  names.source_dir = "source";
  names.work_dir = "work_dir";
  names.per_entity_csv = "per_entity_csv";
  names.catalog = "catalog";
  return names;
}

// A source from what Python passes: a snapshot directory (or export zip),
// a directory holding snapshots (with `catalog` when it holds several), or
// a dict {"profile", "scale", "seed"} for the generator.
std::unique_ptr<CatalogSource> OpenSource(const py::object& source, const std::string& catalog) {
  if (py::isinstance<py::dict>(source)) {
    GeneratorOptions options;
    const auto spec = source.cast<py::dict>();
    for (const auto& [key, value] : spec) {
      const std::string k = py::str(key).cast<std::string>();
      if (k == "profile") {
        options.profile = value.cast<std::string>();
      } else if (k == "scale") {
        options.scale = value.cast<double>();
      } else if (k == "seed") {
        options.seed = value.cast<uint64_t>();
      } else {
        Raise(
            InvalidArgumentError("source: unknown generator key '" + k + "' (known: profile, scale, seed)"));
      }
    }
    options.catalog_name = catalog;
    return Unwrap(OpenGeneratorSource(options));
  }
  const std::string path = py::str(source).cast<std::string>();
  return Unwrap(WithoutGil([&]() -> StatusOr<std::unique_ptr<CatalogSource>> {
    const bool snapshot = std::filesystem::exists(std::filesystem::path(path) / "manifest.json") ||
                          std::filesystem::is_regular_file(path);
    if (snapshot) return OpenSnapshotSource(path);
    auto found = FindSnapshot(path, catalog, PythonNames());
    if (!found.ok()) return found.status();
    return OpenSnapshotSource(*found);
  }));
}

// Calls the progress callback, and checks for Ctrl-C, at most every
// `interval` (and at each collection's end): between timed calls, as every
// observer runs, and with the GIL taken only for that moment.
class PythonProgress : public RunObserver {
 public:
  PythonProgress(py::object callback, StopRequest* stop) : callback_(std::move(callback)), stop_(stop) {}

  void OnRunStart(const RunStart& start) override { start_ = start; }
  void OnCollectionStart(int32_t collection) override {
    collection_ = collection;
    copied_ = 0;
  }
  void OnUpsert(const UpsertSample&) override {
    ++copied_;
    if ((copied_ & 63) != 0) return;
    const auto now = std::chrono::steady_clock::now();
    if (now - last_ < std::chrono::milliseconds(200)) return;
    last_ = now;
    Report(false);
  }
  void OnCollectionEnd(const CollectionResult&, double, int64_t) override { Report(true); }

  // The exception a callback raised (or KeyboardInterrupt), to re-raise once
  // the run has returned.
  std::optional<py::error_already_set>& pending() { return pending_; }

 private:
  void Report(bool collection_done) {
    if (pending_) return;
    py::gil_scoped_acquire gil;
    try {
      if (PyErr_CheckSignals() != 0) throw py::error_already_set();
      if (!callback_.is_none()) {
        const auto c = static_cast<size_t>(collection_);
        callback_(py::dict(py::arg("collection") = start_.collections[c], py::arg("copied") = copied_,
                           py::arg("expected") = start_.expected_counts[c],
                           py::arg("collection_done") = collection_done));
      }
    } catch (py::error_already_set& e) {
      pending_ = std::move(e);
      stop_->Request(0);
    }
  }

  py::object callback_;
  StopRequest* stop_;
  RunStart start_;
  int32_t collection_ = 0;
  int64_t copied_ = 0;
  std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
  std::optional<py::error_already_set> pending_;
};

// `name` as an absolute path without a trailing separator: "tiny", "a/b/"
// and "." name their directory alike.
std::filesystem::path SnapshotPath(const std::string& name) {
  std::filesystem::path path = std::filesystem::absolute(name).lexically_normal();
  return path.has_filename() ? path : path.parent_path();
}

// warmup.run(): a RunSpec from the arguments, RunLoad, the JSON report.
py::object Run(const py::object& source, const std::string& catalog, const std::string& target,
               const std::string& address, const std::string& work_dir, const std::string& target_catalog,
               const std::vector<std::string>& collections, int64_t max_per_collection,
               const std::string& verify, const std::string& run_label, bool keep_target,
               const std::string& compress, bool read_ahead, const py::object& progress) {
  RunSpec spec;
  auto kind = ParseTargetKind(target);
  // A started server is reindex's; an open target is a C++ caller's CatalogTarget.
  if (!kind.ok() || *kind == TargetKind::kStartedServer || *kind == TargetKind::kOpen) {
    Raise(InvalidArgumentError("target is \"embedded\", \"remote\" or \"null\", not \"" + target + "\""));
  }
  const RecordCompression compression = CompressionNamed(compress);  // a wrong name is refused for any target
  if (*kind == TargetKind::kEmbedded) {
    if (work_dir.empty()) Raise(InvalidArgumentError("target \"embedded\" needs work_dir"));
    spec.target = EmbeddedTargetSpec{work_dir, compression, /*records_inline=*/false};
  } else if (*kind == TargetKind::kRemote) {
    if (address.empty()) Raise(InvalidArgumentError("target \"remote\" needs address (host:port)"));
    RemoteTargetSpec remote;
    remote.address = address;
    spec.target = remote;
  } else {
    spec.target = NullTargetSpec{};
  }
  // A generator is opened here; a snapshot (its directory, a directory of
  // snapshots, an export zip) is RunLoad's, its page cache measured as the
  // CLI's is.
  std::unique_ptr<CatalogSource> generator;
  if (!py::isinstance<py::str>(source)) {
    generator = OpenSource(source, catalog);
    spec.source = OpenSourceSpec{generator.get()};
  } else if (const std::filesystem::path path = SnapshotPath(source.cast<std::string>());
             std::filesystem::exists(path / "manifest.json")) {
    spec.source =
        SnapshotSourceSpec{path.parent_path().string(), path.filename().string(), SourceCacheStep::kAsFound};
  } else {
    spec.source = SnapshotSourceSpec{path.string(), catalog, SourceCacheStep::kAsFound};
  }
  spec.names = PythonNames();
  spec.copy.target_catalog = target_catalog;
  spec.copy.collections = collections;
  spec.copy.max_per_collection = max_per_collection;
  spec.copy.read_ahead = read_ahead;
  spec.copy.run_label = run_label;
  spec.copy.keep_target = keep_target;
  bool known = false;
  for (VerifyMode mode : {VerifyMode::kNone, VerifyMode::kCounts, VerifyMode::kContent}) {
    if (verify == VerifyModeName(mode)) {
      spec.copy.verify = mode;
      known = true;
    }
  }
  if (!known) {
    Raise(InvalidArgumentError("verify is \"none\", \"counts\" or \"content\", not \"" + verify + "\""));
  }
  StopRequest stop;
  PythonProgress observer(progress, &stop);
  RunHooks hooks;
  hooks.observers = {&observer};
  hooks.stop = &stop;
  auto result = WithoutGil([&] { return RunLoad(spec, hooks); });
  if (observer.pending()) throw std::move(*observer.pending());
  if (!result.ok()) Raise(result.status());
  return FromJson(RenderJsonReport(*result));
}

IndexScope IndexFrom(const py::object& index) {
  IndexScope scope;
  if (index.is_none()) return scope;
  if (!py::isinstance<py::dict>(index)) Raise(InvalidArgumentError("index wants a dict or None"));
  for (const auto& [key, value] : index.cast<py::dict>()) {
    const std::string k = py::str(key).cast<std::string>();
    if (k == "reference") {
      scope.reference = value.cast<std::string>();
    } else if (k == "pk") {
      scope.referenced_pk = Unwrap(KeyFrom(value, "index.pk"));
    } else if (k == "scope") {
      scope.scope = ScopeNamed(value.cast<std::string>());
    } else if (k == "kind") {
      const std::string kind = value.cast<std::string>();
      bool found = false;
      for (int i = 0; i < kIndexKinds; ++i) {
        if (IndexKindName(static_cast<IndexKind>(i)) == kind) {
          scope.kind = static_cast<IndexKind>(i);
          found = true;
        }
      }
      if (!found) {
        Raise(InvalidArgumentError("index kind '" + kind + "' is not one of evitaDB's (GLOBAL, ...)"));
      }
    } else if (k == "reference_attributes") {
      scope.reference_attributes = value.cast<bool>();
    } else {
      Raise(InvalidArgumentError("index: unknown key '" + k +
                                 "' (known: reference, pk, scope, kind, reference_attributes)"));
    }
  }
  return scope;
}

// The engine a Python Engine and its Catalogs share: Close ends it for all of
// them (the data-directory lock is released once no call is running in it),
// and a Catalog of a closed engine refuses every call instead of writing
// through it.
struct EngineHandle {
  std::shared_ptr<Engine> engine;
};

class PyCatalog {
 public:
  PyCatalog(std::shared_ptr<EngineHandle> engine, const Catalog& catalog)
      : engine_(std::move(engine)), name_(catalog.name()) {}

  std::string name() const { return name_; }
  std::string state() const {
    return Hold().catalog->state() == CatalogState::kAlive ? "ALIVE" : "WARMING_UP";
  }
  std::vector<std::string> entity_types() const {
    std::vector<std::string> types;
    for (const auto& [type, schema] : Hold().catalog->schema().entities) types.push_back(type);
    return types;
  }
  void Upsert(const py::dict& entity) {
    if (!entity.contains("type")) Raise(InvalidArgumentError("entity: needs \"type\""));
    const std::string type = py::str(entity["type"]).cast<std::string>();
    const EntitySchema* schema = Hold().catalog->schema().FindEntity(type);
    if (schema == nullptr) {
      Raise(InvalidArgumentError("entity: catalog " + name() + " has no entity type " + type));
    }
    Entity e = Unwrap(ToEntity(entity, *schema));
    Held held = Hold();
    Check(WithoutGil([&] { return held.catalog->Upsert(e); }));
  }
  void Remove(const std::string& type, const py::object& pk) {
    Check(Hold().catalog->Remove(type, Unwrap(KeyFrom(pk, "pk"))));
  }
  int64_t Count(const std::string& type) const { return Unwrap(Hold().catalog->Count(type)); }
  std::vector<int32_t> PrimaryKeys(const std::string& type) const {
    return Unwrap(Hold().catalog->PrimaryKeys(type));
  }
  void GoLive() {
    Held held = Hold();
    Check(WithoutGil([&] { return held.catalog->GoLive(); }));
  }
  py::object Get(const std::string& type, const py::object& pk) const {
    auto entity = Unwrap(Hold().catalog->Get(type, Unwrap(KeyFrom(pk, "pk"))));
    return entity ? py::object(FromEntity(*entity)) : py::object(py::none());
  }
  std::vector<int32_t> Members(const std::string& type, const py::object& index) const {
    return Unwrap(Hold().catalog->Members(type, IndexFrom(index)));
  }
  std::vector<int32_t> FilterEquals(const std::string& type, const std::string& attribute,
                                    const py::object& value, const std::string& locale,
                                    const py::object& index) const {
    const IndexScope scope = IndexFrom(index);
    return Unwrap(Hold().catalog->FilterEquals(type, attribute, locale,
                                               TypedLike(type, attribute, value, scope), scope));
  }
  std::vector<int32_t> FilterRange(const std::string& type, const std::string& attribute,
                                   const py::object& low, const py::object& high, const std::string& locale,
                                   const py::object& index) const {
    const IndexScope scope = IndexFrom(index);
    auto bound = [&](const py::object& v) -> std::optional<Bound> {
      if (v.is_none()) return std::nullopt;
      return Bound{TypedLike(type, attribute, v, scope, /*element=*/true), true};
    };
    return Unwrap(Hold().catalog->FilterRange(type, attribute, locale, bound(low), bound(high), scope));
  }
  std::vector<int32_t> SortBy(const std::string& type, const std::string& attribute, bool descending,
                              const std::string& locale, const py::object& index) const {
    return Unwrap(Hold().catalog->SortBy(type, attribute, locale,
                                         descending ? OrderDirection::kDesc : OrderDirection::kAsc,
                                         IndexFrom(index)));
  }
  std::vector<int32_t> FacetMembers(const std::string& type, const std::string& reference,
                                    const py::object& pk, const py::object& index) const {
    return Unwrap(Hold().catalog->FacetMembers(type, reference, Unwrap(KeyFrom(pk, "pk")), IndexFrom(index)));
  }
  std::vector<int32_t> WithLocale(const std::string& type, const std::string& locale,
                                  const py::object& index) const {
    return Unwrap(Hold().catalog->WithLocale(type, locale, IndexFrom(index)));
  }
  std::vector<int32_t> Children(const std::string& type, const py::object& parent,
                                const std::string& scope) const {
    return Unwrap(Hold().catalog->Children(type, Unwrap(KeyFrom(parent, "parent")), ScopeNamed(scope)));
  }
  std::vector<int32_t> HierarchyLevel(const std::string& type, int level, const std::string& scope) const {
    return Unwrap(Hold().catalog->HierarchyLevel(type, level, ScopeNamed(scope)));
  }
  py::list PricesForSale(const std::string& type, const std::vector<std::string>& price_lists,
                         const std::string& currency, const py::object& low, const py::object& high,
                         bool with_tax, const py::object& index) const {
    PriceQuery query;
    query.price_lists = price_lists;
    query.currency = Unwrap(Currency::Parse(currency));
    query.with_tax = with_tax;
    auto decimal = [](const py::object& v, const char* what) -> std::optional<BigDecimal> {
      if (v.is_none()) return std::nullopt;
      return std::get<BigDecimal>(Unwrap(ToValue(v, ValueType::kBigDecimal, what)).scalar());
    };
    query.from = decimal(low, "low");
    query.to = decimal(high, "high");
    py::list out;
    const py::object to_decimal = py::module_::import("decimal").attr("Decimal");
    for (const PriceForSale& p : Unwrap(Hold().catalog->PricesForSale(type, query, IndexFrom(index)))) {
      out.append(py::make_tuple(p.primary_key, to_decimal(p.price.text())));
    }
    return out;
  }
  py::list IndexStatistics() const {
    py::list out;
    for (const CollectionIndexStatistics& c : Hold().catalog->index_statistics()) {
      py::dict kinds;
      for (const IndexKindStatistics& k : c.kinds) {
        kinds[py::str(std::string(IndexKindName(k.kind)))] =
            py::dict(py::arg("indexes") = k.indexes, py::arg("entities") = k.entities,
                     py::arg("entries") = k.entries, py::arg("bytes") = k.bytes);
      }
      out.append(py::dict(py::arg("entity_type") = c.entity_type, py::arg("kinds") = kinds));
    }
    return out;
  }

 private:
  // `value` as the attribute's type says (of the entity, or of the reference
  // when the index reads reference attributes); an element for arrays when
  // `element` (a range bound).
  Value TypedLike(const std::string& type, const std::string& attribute, const py::object& value,
                  const IndexScope& scope, bool element = false) const {
    const EntitySchema* schema = Hold().catalog->schema().FindEntity(type);
    if (schema == nullptr) Raise(NotFoundError("catalog " + name() + " has no entity type " + type));
    const std::map<std::string, AttributeSchema>* attributes = &schema->attributes;
    if (scope.reference_attributes) {
      const ReferenceSchema* rs = schema->FindReference(scope.reference);
      if (rs == nullptr) Raise(NotFoundError(type + " has no reference " + scope.reference));
      attributes = &rs->attributes;
    }
    auto it = attributes->find(attribute);
    if (it == attributes->end()) Raise(NotFoundError(type + " has no attribute " + attribute));
    const ValueType t = element ? ElementType(it->second.type) : it->second.type;
    return Unwrap(ToValue(value, t, "attribute '" + attribute + "'"));
  }

  // A call's hold on the catalog: the engine kept alive for the call (a
  // Close on another thread frees nothing under it), the catalog looked up
  // by name (a deleted one is refused, not read through a dangling pointer).
  struct Held {
    std::shared_ptr<Engine> engine;
    Catalog* catalog;
  };
  Held Hold() const {
    std::shared_ptr<Engine> engine = engine_->engine;
    if (engine == nullptr) Raise(FailedPreconditionError("catalog " + name_ + ": its engine is closed"));
    Catalog* catalog = Unwrap(engine->GetCatalog(name_));
    return {std::move(engine), catalog};
  }

  std::shared_ptr<EngineHandle> engine_;
  std::string name_;
};

class PyEngine {
 public:
  PyEngine(const std::string& data_dir, const std::string& compress) {
    EngineOptions options;
    options.compression = CompressionNamed(compress);
    engine_->engine =
        std::shared_ptr<Engine>(Unwrap(WithoutGil([&] { return Engine::Open(data_dir, options); })));
  }
  std::vector<std::string> CatalogNames() const { return Live().CatalogNames(); }
  PyCatalog CreateCatalog(const std::string& name, const py::object& schema_from) {
    CatalogSchema schema = OpenSource(schema_from, "")->schema();
    schema.name = name;
    return PyCatalog(engine_, *Unwrap(Live().CreateCatalog(schema)));
  }
  PyCatalog GetCatalog(const std::string& name) {
    return PyCatalog(engine_, *Unwrap(Live().GetCatalog(name)));
  }
  void DeleteCatalog(const std::string& name) { Check(Live().DeleteCatalog(name)); }
  // Closes the engine (and its data-directory lock); its catalogs refuse
  // every call afterwards.
  void Close() { engine_->engine.reset(); }

 private:
  Engine& Live() const {
    if (engine_->engine == nullptr) Raise(FailedPreconditionError("the engine is closed"));
    return *engine_->engine;
  }
  std::shared_ptr<EngineHandle> engine_ = std::make_shared<EngineHandle>();
};

class PyServer {
 public:
  PyServer(const std::string& data_dir, const std::string& listen, const std::string& compress) {
    ServerOptions options;
    options.data_dir = data_dir;
    options.listen = listen;
    options.engine.compression = CompressionNamed(compress);
    server_ = Unwrap(WithoutGil([&] { return Server::Start(options); }));
  }
  // A server nobody shut down stops with its Python object; nothing may
  // escape a destructor.
  ~PyServer() {
    try {
      Shutdown();
    } catch (...) {  // NOLINT(bugprone-empty-catch): the interpreter is going away
    }
  }
  int port() const { return server_ ? server_->port() : 0; }
  void Shutdown() {
    if (server_ == nullptr) return;
    py::gil_scoped_release release;
    server_->Shutdown();
    server_->Wait();
    server_.reset();
  }

 private:
  std::unique_ptr<Server> server_;
};

// Every function and class of the module.
void DefineModule(py::module_& m) {
  m.doc() = "warmup: measures how long publishing an evitaDB catalog takes (see the warmup package)";
  RegisterErrors(m);
  m.def(
      "version", [] { return Version(); }, "The library's version and commit.");
  m.def(
      "generate",
      [](const std::string& profile, double scale, const std::string& out, uint64_t seed,
         const std::string& catalog, bool compress) {
        GeneratorOptions options{profile, scale, seed, catalog};
        SnapshotWriteOptions write;
        if (compress) write.compression = SnapshotCompression::kZstd;
        return Unwrap(WithoutGil([&] { return GenerateSnapshot(options, out, write); }));
      },
      py::arg("profile"), py::arg("scale"), py::arg("out"), py::arg("seed") = 1, py::arg("catalog") = "",
      py::arg("compress") = false);
  m.def(
      "inspect_json",
      [](const std::string& path) {
        auto info = Unwrap(WithoutGil([&] { return InspectSnapshot(path); }));
        return SnapshotInfoToJson(info);
      },
      py::arg("path"));
  m.def("run", &Run, py::arg("source"), py::arg("catalog"), py::arg("target"), py::arg("address"),
        py::arg("work_dir"), py::arg("target_catalog"), py::arg("collections"), py::arg("max_per_collection"),
        py::arg("verify"), py::arg("run_label"), py::arg("keep_target"), py::arg("compress"),
        py::arg("read_ahead"), py::arg("progress"));

  py::class_<PyCatalog>(m, "Catalog")
      .def_property_readonly("name", &PyCatalog::name)
      .def_property_readonly("state", &PyCatalog::state)
      .def_property_readonly("entity_types", &PyCatalog::entity_types)
      .def("upsert", &PyCatalog::Upsert, py::arg("entity"))
      .def("remove", &PyCatalog::Remove, py::arg("entity_type"), py::arg("pk"))
      .def("count", &PyCatalog::Count, py::arg("entity_type"))
      .def("primary_keys", &PyCatalog::PrimaryKeys, py::arg("entity_type"))
      .def("go_live", &PyCatalog::GoLive)
      .def("get", &PyCatalog::Get, py::arg("entity_type"), py::arg("pk"))
      .def("members", &PyCatalog::Members, py::arg("entity_type"), py::arg("index") = py::none())
      .def("filter_equals", &PyCatalog::FilterEquals, py::arg("entity_type"), py::arg("attribute"),
           py::arg("value"), py::arg("locale") = "", py::arg("index") = py::none())
      .def("filter_range", &PyCatalog::FilterRange, py::arg("entity_type"), py::arg("attribute"),
           py::arg("low") = py::none(), py::arg("high") = py::none(), py::arg("locale") = "",
           py::arg("index") = py::none())
      .def("sort_by", &PyCatalog::SortBy, py::arg("entity_type"), py::arg("attribute"),
           py::arg("descending") = false, py::arg("locale") = "", py::arg("index") = py::none())
      .def("facet_members", &PyCatalog::FacetMembers, py::arg("entity_type"), py::arg("reference"),
           py::arg("pk"), py::arg("index") = py::none())
      .def("with_locale", &PyCatalog::WithLocale, py::arg("entity_type"), py::arg("locale"),
           py::arg("index") = py::none())
      .def("children", &PyCatalog::Children, py::arg("entity_type"), py::arg("parent"),
           py::arg("scope") = "live")
      .def("hierarchy_level", &PyCatalog::HierarchyLevel, py::arg("entity_type"), py::arg("level"),
           py::arg("scope") = "live")
      .def("prices_for_sale", &PyCatalog::PricesForSale, py::arg("entity_type"), py::arg("price_lists"),
           py::arg("currency"), py::arg("low") = py::none(), py::arg("high") = py::none(),
           py::arg("with_tax") = true, py::arg("index") = py::none())
      .def("index_statistics", &PyCatalog::IndexStatistics);

  py::class_<PyEngine>(m, "Engine")
      .def(py::init<const std::string&, const std::string&>(), py::arg("data_dir"),
           py::arg("compress") = "none")
      .def("catalog_names", &PyEngine::CatalogNames)
      .def("create_catalog", &PyEngine::CreateCatalog, py::arg("name"), py::arg("schema_from"))
      .def("catalog", &PyEngine::GetCatalog, py::arg("name"))
      .def("delete_catalog", &PyEngine::DeleteCatalog, py::arg("name"))
      .def("close", &PyEngine::Close);

  py::class_<PyServer>(m, "Server")
      .def(py::init<const std::string&, const std::string&, const std::string&>(), py::arg("data_dir"),
           py::arg("listen") = "127.0.0.1:0", py::arg("compress") = "none")
      .def_property_readonly("port", &PyServer::port)
      .def("shutdown", &PyServer::Shutdown);
}

}  // namespace
}  // namespace warmup::python

PYBIND11_MODULE(_warmup, m) { warmup::python::DefineModule(m); }
