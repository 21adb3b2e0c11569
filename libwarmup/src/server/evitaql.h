// A parser for the subset of EvitaQL that reading a catalog needs. Internal.
//
//   query(
//     collection(?),
//     filterBy(entityPrimaryKeyInSet(?), scope(?)), optional, either or both;
//                                                  scope takes one scope array
//                                                  or one scope per ?
//     orderBy(entityPrimaryKeyNatural(?)),         optional, ascending only
//     require(page(?, ?), entityFetch(...))        optional
//   )
//
// entityFetch takes any of attributeContentAll(), hierarchyContent(),
// associatedDataContentAll(), priceContentAll(),
// referenceContentAllWithAttributes(), dataInLocalesAll(). Values are `?`
// placeholders bound in order to the positional parameters (evitaDB's safe
// mode forbids literals). Anything else is refused, naming the constraint.
#ifndef WARMUP_SRC_SERVER_EVITAQL_H_
#define WARMUP_SRC_SERVER_EVITAQL_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "GrpcQueryParam.pb.h"
#include "codec/pb.h"
#include "warmup/schema.h"
#include "warmup/status.h"

namespace warmup::server {

struct EntityQuery {
  std::string collection;
  std::optional<std::vector<int32_t>> primary_keys;  // entityPrimaryKeyInSet
  int32_t page_number = 1;                           // 1-based
  int32_t page_size = 20;                            // evitaDB's default page
  bool fetch = false;                                // entityFetch(...) present
  // scope(...): the scopes asked for; empty = LIVE only, as evitaDB answers
  // a query that names none.
  std::vector<Scope> scopes;
};

// Errors: kInvalidArgument naming the unsupported constraint, a syntax error
// with its offset, or a parameter of the wrong kind or count.
StatusOr<EntityQuery> ParseEntityQuery(std::string_view query,
                                       const std::vector<pb::GrpcQueryParam>& parameters);

}  // namespace warmup::server

#endif  // WARMUP_SRC_SERVER_EVITAQL_H_
