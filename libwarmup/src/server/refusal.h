// How the server words a refusal of the caller's request. Internal to server/.
#ifndef WARMUP_SRC_SERVER_REFUSAL_H_
#define WARMUP_SRC_SERVER_REFUSAL_H_

#include <string>
#include <string_view>

#include "warmup/status.h"

namespace warmup::server {

// A refusal worded as evitaDB's server words it: the exception class it would
// throw (`domain`, e.g. "CatalogNotFoundException") leads the message, and the
// services send it as INVALID_ARGUMENT with that class in the error's details.
inline Status Refusal(std::string_view domain, const std::string& message) {
  return InvalidArgumentError(std::string(domain) + ": " + message);
}

}  // namespace warmup::server

#endif  // WARMUP_SRC_SERVER_REFUSAL_H_
