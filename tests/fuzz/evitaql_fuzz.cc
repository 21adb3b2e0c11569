// Fuzz target: the EvitaQL subset the server parses. The input is a
// serialized GrpcQueryRequest (query and positional parameters) when it
// parses as one, else the query text itself with no parameters.
#include <cstdint>
#include <string>
#include <vector>

#include "GrpcEvitaSessionAPI.pb.h"
#include "codec/pb.h"
#include "server/evitaql.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  warmup::pb::GrpcQueryRequest request;
  std::vector<warmup::pb::GrpcQueryParam> parameters;
  std::string query;
  if (request.ParseFromArray(data, static_cast<int>(size))) {
    query = request.query();
    parameters.assign(request.positionalqueryparams().begin(), request.positionalqueryparams().end());
  } else {
    query.assign(reinterpret_cast<const char*>(data), size);
  }
  (void)warmup::server::ParseEntityQuery(query, parameters);
  return 0;
}
