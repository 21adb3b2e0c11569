// The gRPC CatalogSource: evitaDB's Query API, read side.
#include "warmup/grpc_source.h"

#include <grpcpp/grpcpp.h>

#include <chrono>
#include <cstdio>
#include <future>

#include "base/crc32c.h"
#include "codec/entity_convert.h"
#include "codec/pb.h"
#include "codec/schema_convert.h"
#include "rpc/client.h"
#include "rpc/grpc_source_client.h"
#include "rpc/paging.h"
#include "warmup/host_port.h"

namespace warmup {
namespace {

// The full-content page query, evitaDB's entityFetchAll() spelled out, over
// both scopes: a query that names none gets LIVE entities only
// (EvitaRequest.getScopes, Scope.DEFAULT_SCOPES), while
// GetEntityCollectionSize counts archived ones too. The scopes go as one
// `?` (a scope array): evitaDB's Query parses in safe mode, which refuses
// the literals LIVE and ARCHIVED.
constexpr const char* kPageQuery =
    "query(collection(?), filterBy(scope(?)), orderBy(entityPrimaryKeyNatural(?)), require(page(?, ?), "
    "entityFetch("
    "attributeContentAll(), hierarchyContent(), associatedDataContentAll(), priceContentAll(), "
    "referenceContentAllWithAttributes(), dataInLocalesAll())))";

// The client and the read-only session every call of a source runs in.
struct Connection {
  rpc::EvitaClient client;
  std::string session_id;
};

class GrpcStream : public EntityStream {
 public:
  GrpcStream(const Connection& connection, const EntitySchema& schema, int64_t expected, int page_size,
             std::map<std::string, int64_t>* omitted)
      : connection_(connection),
        omitted_(omitted),
        schema_(schema),
        type_(schema.name),
        expected_(expected),
        page_size_(page_size) {}

  StatusOr<bool> Next(Entity* entity) override {
    if (index_ >= page_.recordpage().sealedentities_size()) {
      if (done_) {
        if (delivered_ != expected_) {
          return DataLossError("collection " + type_ + ": the server returned " + std::to_string(delivered_) +
                               " entities, it counted " + std::to_string(expected_) +
                               " (changed while read?)");
        }
        return false;
      }
      if (Status s = TakePage(); !s.ok()) return s;
      if (page_.recordpage().sealedentities_size() == 0) return Next(entity);
    }
    auto parsed = codec::EntityFromProto(page_.recordpage().sealedentities(index_++));
    if (!parsed.ok()) {
      return parsed.status().WithContext("collection " + type_ + " page " + std::to_string(page_number_));
    }
    *entity = std::move(parsed).value();
    RemoveReflectedReferences(schema_, *entity, omitted_);
    ++delivered_;
    return true;
  }

 private:
  struct Fetched {
    Status status;
    pb::GrpcQueryResponse page;
  };

  // One Query call; safe to run on another thread (reads only immutable members).
  Fetched Fetch(int32_t page_number) const {
    pb::GrpcQueryRequest request;
    request.set_query(kPageQuery);
    request.add_positionalqueryparams()->set_stringvalue(type_);
    auto* scopes = request.add_positionalqueryparams()->mutable_scopearrayvalue();
    scopes->add_value(pb::SCOPE_LIVE);
    scopes->add_value(pb::SCOPE_ARCHIVED);
    request.add_positionalqueryparams()->set_orderdirectionvalue(pb::ASC);
    request.add_positionalqueryparams()->set_integervalue(page_number);
    request.add_positionalqueryparams()->set_integervalue(page_size_);
    Fetched fetched;
    fetched.status = connection_.client.Call("Query of " + type_, connection_.session_id, [&](auto* context) {
      return connection_.client.session().Query(context, request, &fetched.page);
    });
    return fetched;
  }

  // Makes the next page current, then asks for the one after it in the
  // background, so that the server prepares page k+1 while page k is parsed.
  Status TakePage() {
    ++page_number_;
    Fetched fetched = next_.valid() ? next_.get() : Fetch(page_number_);
    if (!fetched.status.ok()) return fetched.status;
    page_ = std::move(fetched.page);
    index_ = 0;
    const rpc::PageVerdict verdict = rpc::JudgePage(page_, page_number_);
    if (!verdict.has_entities) page_.mutable_recordpage()->clear_sealedentities();
    done_ = verdict.last;
    if (!done_) next_ = std::async(std::launch::async, &GrpcStream::Fetch, this, page_number_ + 1);
    return OkStatus();
  }

  const Connection& connection_;
  std::map<std::string, int64_t>* omitted_;  // the source's OmittedValues
  const EntitySchema& schema_;
  std::string type_;
  int64_t expected_;
  int page_size_;
  pb::GrpcQueryResponse page_;
  int index_ = 0;
  int32_t page_number_ = 0;
  int64_t delivered_ = 0;
  bool done_ = false;
  // The page after page_, in flight; declared last so that it is destroyed
  // (waited for) before the members Fetch reads.
  std::future<Fetched> next_;
};

class GrpcSource : public CatalogSource {
 public:
  GrpcSource(rpc::EvitaClient client, std::string catalog, GrpcSourceOptions options)
      : address_(client.address()),
        catalog_(std::move(catalog)),
        options_(std::move(options)),
        connection_{std::move(client), ""} {}
  // Its read-only session is closed when the source is done, as evitaDB's
  // client does, rather than left to the server's idle timeout.
  ~GrpcSource() override {
    if (!connection_.session_id.empty()) (void)connection_.client.CloseSession(connection_.session_id);
  }

  Status Open() {
    if (Status s = CheckState(); !s.ok()) return s;
    auto session = connection_.client.OpenSession(catalog_, /*read_write=*/false);
    if (!session.ok()) return session.status();
    connection_.session_id = *session;
    const rpc::EvitaClient& client = connection_.client;
    const std::string& id = connection_.session_id;
    pb::GrpcCatalogSchemaResponse catalog_schema;
    if (Status s = client.Call("GetCatalogSchema", id,
                               [&](auto* context) {
                                 return client.session().GetCatalogSchema(
                                     context, pb::GrpcGetCatalogSchemaRequest(), &catalog_schema);
                               });
        !s.ok()) {
      return s;
    }
    pb::GrpcEntityTypesResponse types;
    if (Status s = client.Call("GetAllEntityTypes", id,
                               [&](auto* context) {
                                 return client.session().GetAllEntityTypes(context, google::protobuf::Empty(),
                                                                           &types);
                               });
        !s.ok()) {
      return s;
    }
    std::vector<pb::GrpcEntitySchema> entities;
    for (const std::string& type : types.entitytypes()) {
      pb::GrpcEntitySchemaRequest request;
      request.set_entitytype(type);
      pb::GrpcEntitySchemaResponse response;
      if (Status s = client.Call(
              "GetEntitySchema of " + type, id,
              [&](auto* context) { return client.session().GetEntitySchema(context, request, &response); });
          !s.ok()) {
        return s;
      }
      entities.push_back(response.entityschema());
    }
    auto schema = codec::CatalogSchemaFromProto(catalog_schema.catalogschema(), entities);
    if (!schema.ok()) return schema.status().WithContext("schema of " + catalog_ + " on " + address_);
    schema_ = std::move(schema).value();
    for (const auto& [type, e] : schema_.entities) {
      pb::GrpcEntityCollectionSizeRequest request;
      request.set_entitytype(type);
      pb::GrpcEntityCollectionSizeResponse size;
      if (Status s = client.Call("GetEntityCollectionSize of " + type, id,
                                 [&](auto* context) {
                                   return client.session().GetEntityCollectionSize(context, request, &size);
                                 });
          !s.ok()) {
        return s;
      }
      collections_.push_back({type, size.size(), 0});
    }
    return OkStatus();
  }

  const CatalogSchema& schema() const override { return schema_; }
  const std::vector<CollectionInfo>& collections() const override { return collections_; }
  std::map<std::string, std::string> Provenance() const override {
    return {{"source.server", address_}, {"source.catalog_state", state_}};
  }
  StatusOr<std::unique_ptr<EntityStream>> OpenCollection(const std::string& entity_type) override {
    const CollectionInfo* info = FindCollection(*this, entity_type);
    if (info == nullptr) {
      return NotFoundError("catalog " + catalog_ + " on " + address_ + " has no collection " + entity_type);
    }
    return std::unique_ptr<EntityStream>(new GrpcStream(connection_, schema_.entities.at(entity_type),
                                                        info->expected_count, options_.page_size, &omitted_));
  }
  std::map<std::string, int64_t> OmittedValues() const override { return omitted_; }
  std::string Describe() const override {
    return "evitaDB gRPC " + address_ + " catalog " + catalog_ + " (" + connection_.client.transport() +
           ", pages of " + std::to_string(options_.page_size) + ")";
  }
  // A shape fingerprint: the catalog's name, its schema versions and its
  // collections' counts, hashed with CRC-32C (stable across builds, unlike
  // std::hash). Reading every entity to hash content would cost an export;
  // equal shapes are necessary for equal content, not sufficient.
  std::string Fingerprint() const override {
    std::string shape = "catalog=" + catalog_ + ";version=" + std::to_string(schema_.version) + ";";
    for (const auto& [type, entity] : schema_.entities)
      shape += type + "@" + std::to_string(entity.version) + ";";
    for (const auto& c : collections_) shape += c.entity_type + "=" + std::to_string(c.expected_count) + ";";
    char hex[9];
    std::snprintf(hex, sizeof(hex), "%08x", Crc32c(shape.data(), shape.size()));
    return std::string("shape-") + hex;
  }

 private:
  // A catalog that is not ALIVE holds whatever a load had reached when it
  // was read (a load under way, or a failed one kept): not a snapshot of
  // anything, unless asked for on purpose.
  Status CheckState() {
    const rpc::EvitaClient& client = connection_.client;
    pb::GrpcGetCatalogStateRequest request;
    request.set_catalogname(catalog_);
    pb::GrpcGetCatalogStateResponse response;
    if (Status s = client.Call(
            "GetCatalogState", "",
            [&](auto* context) { return client.evita().GetCatalogState(context, request, &response); });
        !s.ok()) {
      return s;
    }
    if (!response.has_catalogstate())
      return NotFoundError("catalog " + catalog_ + " does not exist on " + address_);
    state_ = pb::GrpcCatalogState_Name(response.catalogstate());
    if (response.catalogstate() != pb::ALIVE && !options_.allow_not_alive) {
      return FailedPreconditionError("catalog " + catalog_ + " on " + address_ + " is " + state_ +
                                     ", not ALIVE: " + WhatNotAliveHolds(state_) +
                                     "; read it once it is ALIVE, or on purpose with " +
                                     options_.allow_not_alive_named);
    }
    return OkStatus();
  }

  std::string address_;
  std::string catalog_;
  std::string state_;
  GrpcSourceOptions options_;
  Connection connection_;
  CatalogSchema schema_;
  std::vector<CollectionInfo> collections_;
  std::map<std::string, int64_t> omitted_;
};

}  // namespace

namespace rpc {
StatusOr<std::unique_ptr<CatalogSource>> OpenGrpcSourceWith(EvitaClient client, const std::string& catalog,
                                                            const GrpcSourceOptions& options) {
  if (options.page_size < 1) return InvalidArgumentError("page size must be positive");
  auto source = std::make_unique<GrpcSource>(std::move(client), catalog, options);
  if (Status s = source->Open(); !s.ok()) return s;
  return std::unique_ptr<CatalogSource>(std::move(source));
}
}  // namespace rpc

StatusOr<std::unique_ptr<CatalogSource>> OpenGrpcSource(const std::string& address,
                                                        const std::string& catalog,
                                                        const GrpcSourceOptions& options) {
  auto client = rpc::EvitaClient::Connect(address, options.tls, options.call_timeout_seconds);
  if (!client.ok()) return client.status().WithContext("gRPC source");
  return rpc::OpenGrpcSourceWith(*std::move(client), catalog, options);
}

}  // namespace warmup
