#include "codec/error_details.h"

#include <algorithm>
#include <array>

#include "warmup_rpc_status.pb.h"

namespace warmup::codec {
namespace {

constexpr std::string_view kErrorInfoType = "type.googleapis.com/google.rpc.ErrorInfo";

// evitaDB's exception classes (io.evitadb.api.exception and
// io.evitadb.exception) that refuse the caller's session or catalog.
constexpr std::array<std::string_view, 14> kSessionOrCatalogRefusals = {
    "CatalogBeingUpgradedException",
    "CatalogGoingLiveException",
    "CatalogInactiveException",
    "CatalogIsReadOnlyException",
    "CatalogNotAliveException",
    "CatalogNotFoundException",
    "CatalogTransitioningException",
    "CollectionNotFoundException",
    "ConcurrentInitializationException",
    "ConcurrentSessionAccessException",
    "InstanceTerminatedException",
    "ReadOnlyException",
    "SessionBusyException",
    "SessionNotFoundException",
};

}  // namespace

std::string EncodeErrorDetails(int code, std::string_view message, std::string_view domain) {
  rpcstatus::ErrorInfo info;
  info.set_reason(std::string(message));
  info.set_domain(std::string(domain));
  rpcstatus::RpcStatus status;
  status.set_code(code);
  status.set_message(std::string(message));
  auto* any = status.add_details();
  any->set_type_url(std::string(kErrorInfoType));
  any->set_value(info.SerializeAsString());
  return status.SerializeAsString();
}

ErrorInfoFields ReadErrorInfo(std::string_view details) {
  rpcstatus::RpcStatus status;
  if (details.empty() || !status.ParseFromArray(details.data(), static_cast<int>(details.size()))) return {};
  for (const auto& any : status.details()) {
    rpcstatus::ErrorInfo info;
    if (any.type_url() == kErrorInfoType && info.ParseFromString(any.value())) {
      return {info.domain(), info.reason()};
    }
  }
  return {};
}

std::string ErrorDomain(std::string_view details) { return ReadErrorInfo(details).domain; }

bool IsSessionOrCatalogRefusal(std::string_view domain) {
  return std::ranges::find(kSessionOrCatalogRefusals, domain) != kSessionOrCatalogRefusals.end();
}

bool IsCatalogNotFound(std::string_view domain) {
  return domain == "CatalogNotFoundException" || domain == "CatalogMissingException";
}

}  // namespace warmup::codec
