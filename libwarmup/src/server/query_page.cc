#include "server/query_page.h"

#include <algorithm>

namespace warmup::server {

QueryPage PageOf(int64_t total, int64_t size, int64_t requested) {
  QueryPage page;
  page.last = size > 0 ? std::max<int64_t>(1, (total + size - 1) / size) : 1;
  page.number = requested > page.last ? 1 : requested;
  page.begin = (page.number - 1) * size;
  page.end = std::min(total, page.begin + size);
  return page;
}

}  // namespace warmup::server
