// Which page of a query's result a server answers, as evitaDB's paging does.
// Internal to server/.
#ifndef WARMUP_SRC_SERVER_QUERY_PAGE_H_
#define WARMUP_SRC_SERVER_QUERY_PAGE_H_

#include <cstdint>

namespace warmup::server {

struct QueryPage {
  int64_t number = 1;  // the page answered, 1-based
  int64_t last = 1;    // the last page; 1 when the result is empty
  int64_t begin = 0;   // the index of its first record in the result
  int64_t end = 0;     // one past its last record
};

// The page `requested` (1-based) of `total` records in pages of `size`. Like
// evitaDB, a page beyond the last answers with the first; a size of zero or
// less makes one empty page.
QueryPage PageOf(int64_t total, int64_t size, int64_t requested);

}  // namespace warmup::server

#endif  // WARMUP_SRC_SERVER_QUERY_PAGE_H_
