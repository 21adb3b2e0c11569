#include "rpc/paging.h"

namespace warmup::rpc {

PageVerdict JudgePage(const pb::GrpcQueryResponse& answer, int32_t asked) {
  if (answer.recordpage().paginatedlist().pagenumber() != asked) return {false, true};
  return {true, !answer.recordpage().hasnext()};
}

}  // namespace warmup::rpc
