// The part of evitaDB's system API a TLS client needs: GET /system/server.crt
// answers the server's certificate over plain HTTP, so that a client can
// trust a certificate it was not given (warmup's --fetch-server-cert, evitaDB's
// useGeneratedCertificate). Everything else is 404. Internal: includes no
// Boost header, so server.cc stays light.
#ifndef WARMUP_SRC_SERVER_SYSTEM_ENDPOINT_H_
#define WARMUP_SRC_SERVER_SYSTEM_ENDPOINT_H_

#include <memory>
#include <string>

#include "warmup/status.h"

namespace warmup {

class SystemEndpoint {
 public:
  // Listens on `listen` (host:port, port 0 = a free one) on a thread of its
  // own. Errors: kInvalidArgument for an address CheckHostPort refuses;
  // kUnavailable when it cannot be bound.
  static StatusOr<std::unique_ptr<SystemEndpoint>> Start(const std::string& listen,
                                                         std::string certificate_pem);
  // Stops listening and joins the thread.
  virtual ~SystemEndpoint() = default;
  virtual int port() const = 0;
};

}  // namespace warmup

#endif  // WARMUP_SRC_SERVER_SYSTEM_ENDPOINT_H_
