#include "rpc/paging.h"

#include <doctest/doctest.h>

namespace warmup::rpc {
namespace {

pb::GrpcQueryResponse Answer(int32_t page_number, bool has_next) {
  pb::GrpcQueryResponse answer;
  answer.mutable_recordpage()->mutable_paginatedlist()->set_pagenumber(page_number);
  answer.mutable_recordpage()->set_hasnext(has_next);
  return answer;
}

TEST_CASE("a page answered as asked: use it, and continue while hasNext says so") {
  CHECK(JudgePage(Answer(3, true), 3).has_entities);
  CHECK_FALSE(JudgePage(Answer(3, true), 3).last);
  CHECK(JudgePage(Answer(4, false), 4).last);
}

TEST_CASE(
    "the first page answered for a later one ends the read (regression: a shrunk collection was read "
    "forever)") {
  // evitaDB's answer to a page past the last: page 1, which has a next page.
  const PageVerdict verdict = JudgePage(Answer(1, true), 5);
  CHECK_FALSE(verdict.has_entities);
  CHECK(verdict.last);
}

}  // namespace
}  // namespace warmup::rpc
