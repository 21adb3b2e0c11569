// How a reader interprets evitaDB's answer to a Query page. Internal.
#ifndef WARMUP_SRC_RPC_PAGING_H_
#define WARMUP_SRC_RPC_PAGING_H_

#include <cstdint>

#include "GrpcEvitaSessionAPI.pb.h"
#include "codec/pb.h"

namespace warmup::rpc {

struct PageVerdict {
  bool has_entities;  // the answer is the page asked for: use its entities
  bool last;          // no page should be asked for after this one
};

// evitaDB answers a page past the last one with the first page, so an answer
// whose page number is not `asked` means the collection ended (it shrank
// while being read): nothing to use, and nothing more to ask for.
PageVerdict JudgePage(const pb::GrpcQueryResponse& answer, int32_t asked);

}  // namespace warmup::rpc

#endif  // WARMUP_SRC_RPC_PAGING_H_
