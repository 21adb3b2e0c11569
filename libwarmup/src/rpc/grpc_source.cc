// The gRPC CatalogSource: evitaDB's Query API, read side.
#include "warmup/grpc_source.h"

#include <grpcpp/grpcpp.h>

#include <chrono>
#include <future>

#include "GrpcEvitaAPI.grpc.pb.h"
#include "GrpcEvitaSessionAPI.grpc.pb.h"
#include "codec/entity_convert.h"
#include "codec/pb.h"
#include "codec/schema_convert.h"
#include "rpc/client.h"
#include "rpc/paging.h"

namespace warmup {
namespace {

// What a real evitaDB needs to send complex associated data as structured objects.
constexpr const char* kClientVersion = "2026.2.3";

// The full-content page query, evitaDB's entityFetchAll() spelled out.
constexpr const char* kPageQuery =
    "query(collection(?), orderBy(entityPrimaryKeyNatural(?)), require(page(?, ?), entityFetch("
    "attributeContentAll(), hierarchyContent(), associatedDataContentAll(), priceContentAll(), "
    "referenceContentAllWithAttributes(), dataInLocalesAll())))";

using rpc::FromGrpc;

class Connection {
 public:
  Connection(const std::string& address, const GrpcSourceOptions& options) : options_(options) {
    auto channel = rpc::OpenChannel(address);
    evita = pb::EvitaService::NewStub(channel);
    session = pb::EvitaSessionService::NewStub(channel);
  }
  std::unique_ptr<::grpc::ClientContext> Context() const {
    auto context = std::make_unique<::grpc::ClientContext>();
    context->set_deadline(std::chrono::system_clock::now() +
                          std::chrono::seconds(options_.call_timeout_seconds));
    context->AddMetadata("clientversion", kClientVersion);
    if (!session_id.empty()) context->AddMetadata("sessionid", session_id);
    return context;
  }
  std::unique_ptr<pb::EvitaService::Stub> evita;
  std::unique_ptr<pb::EvitaSessionService::Stub> session;
  std::string session_id;

 private:
  GrpcSourceOptions options_;
};

class GrpcStream : public EntityStream {
 public:
  GrpcStream(const Connection& connection, const EntitySchema& schema, int64_t expected, int page_size)
      : connection_(connection),
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
    RemoveReflectedReferences(schema_, *entity);
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
    request.add_positionalqueryparams()->set_orderdirectionvalue(pb::ASC);
    request.add_positionalqueryparams()->set_integervalue(page_number);
    request.add_positionalqueryparams()->set_integervalue(page_size_);
    auto context = connection_.Context();
    Fetched fetched;
    fetched.status =
        FromGrpc(connection_.session->Query(context.get(), request, &fetched.page), "Query of " + type_);
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
  GrpcSource(std::string address, std::string catalog, GrpcSourceOptions options)
      : address_(std::move(address)),
        catalog_(std::move(catalog)),
        options_(options),
        connection_(address_, options_) {}

  Status Open() {
    pb::GrpcEvitaSessionRequest request;
    request.set_catalogname(catalog_);
    pb::GrpcEvitaSessionResponse response;
    {
      auto context = connection_.Context();
      ::grpc::Status status = connection_.evita->CreateReadOnlySession(context.get(), request, &response);
      if (status.error_code() == ::grpc::StatusCode::NOT_FOUND) {
        return NotFoundError("catalog " + catalog_ + " does not exist on " + address_);
      }
      if (Status s = FromGrpc(status, "CreateReadOnlySession on " + address_); !s.ok()) return s;
    }
    connection_.session_id = response.sessionid();
    pb::GrpcCatalogSchemaResponse catalog_schema;
    {
      pb::GrpcGetCatalogSchemaRequest schema_request;
      auto context = connection_.Context();
      if (Status s =
              FromGrpc(connection_.session->GetCatalogSchema(context.get(), schema_request, &catalog_schema),
                       "GetCatalogSchema");
          !s.ok()) {
        return s;
      }
    }
    pb::GrpcEntityTypesResponse types;
    {
      auto context = connection_.Context();
      if (Status s = FromGrpc(
              connection_.session->GetAllEntityTypes(context.get(), google::protobuf::Empty(), &types),
              "GetAllEntityTypes");
          !s.ok()) {
        return s;
      }
    }
    std::vector<pb::GrpcEntitySchema> entities;
    for (const std::string& type : types.entitytypes()) {
      pb::GrpcEntitySchemaRequest schema_request;
      schema_request.set_entitytype(type);
      pb::GrpcEntitySchemaResponse schema_response;
      auto context = connection_.Context();
      if (Status s =
              FromGrpc(connection_.session->GetEntitySchema(context.get(), schema_request, &schema_response),
                       "GetEntitySchema of " + type);
          !s.ok()) {
        return s;
      }
      entities.push_back(schema_response.entityschema());
    }
    auto schema = codec::CatalogSchemaFromProto(catalog_schema.catalogschema(), entities);
    if (!schema.ok()) return schema.status().WithContext("schema of " + catalog_ + " on " + address_);
    schema_ = std::move(schema).value();
    for (const auto& [type, e] : schema_.entities) {
      pb::GrpcEntityCollectionSizeRequest size_request;
      size_request.set_entitytype(type);
      pb::GrpcEntityCollectionSizeResponse size;
      auto context = connection_.Context();
      if (Status s =
              FromGrpc(connection_.session->GetEntityCollectionSize(context.get(), size_request, &size),
                       "GetEntityCollectionSize of " + type);
          !s.ok()) {
        return s;
      }
      collections_.push_back({type, size.size(), 0});
    }
    return OkStatus();
  }

  const CatalogSchema& schema() const override { return schema_; }
  const std::vector<CollectionInfo>& collections() const override { return collections_; }
  StatusOr<std::unique_ptr<EntityStream>> OpenCollection(const std::string& entity_type) override {
    const CollectionInfo* info = FindCollection(*this, entity_type);
    if (info == nullptr) {
      return NotFoundError("catalog " + catalog_ + " on " + address_ + " has no collection " + entity_type);
    }
    return std::unique_ptr<EntityStream>(new GrpcStream(connection_, schema_.entities.at(entity_type),
                                                        info->expected_count, options_.page_size));
  }
  std::string Describe() const override {
    return "evitaDB gRPC " + address_ + " catalog " + catalog_ + " (pages of " +
           std::to_string(options_.page_size) + ")";
  }
  std::string Fingerprint() const override {
    std::string counts;
    for (const auto& c : collections_) counts += c.entity_type + ":" + std::to_string(c.expected_count) + ",";
    return "grpc-" + catalog_ + "-" + std::to_string(std::hash<std::string>{}(counts)&0xFFFFFFFF);
  }

 private:
  std::string address_;
  std::string catalog_;
  GrpcSourceOptions options_;
  Connection connection_;
  CatalogSchema schema_;
  std::vector<CollectionInfo> collections_;
};

}  // namespace

StatusOr<std::unique_ptr<CatalogSource>> OpenGrpcSource(const std::string& address,
                                                        const std::string& catalog,
                                                        const GrpcSourceOptions& options) {
  if (options.page_size < 1) return InvalidArgumentError("page size must be positive");
  auto source = std::make_unique<GrpcSource>(address, catalog, options);
  if (Status s = source->Open(); !s.ok()) return s;
  return std::unique_ptr<CatalogSource>(std::move(source));
}

}  // namespace warmup
