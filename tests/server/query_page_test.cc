#include "server/query_page.h"

#include <doctest/doctest.h>

namespace warmup::server {
namespace {

void CheckPage(const QueryPage& page, int64_t number, int64_t last, int64_t begin, int64_t end) {
  CHECK(page.number == number);
  CHECK(page.last == last);
  CHECK(page.begin == begin);
  CHECK(page.end == end);
}

TEST_CASE("a query's page: 45 records in pages of 20 are pages 1..3, the last one short") {
  CheckPage(PageOf(45, 20, 1), 1, 3, 0, 20);
  CheckPage(PageOf(45, 20, 2), 2, 3, 20, 40);
  CheckPage(PageOf(45, 20, 3), 3, 3, 40, 45);
}

TEST_CASE("a query's page beyond the last answers with the first, as evitaDB's does") {
  CheckPage(PageOf(45, 20, 4), 1, 3, 0, 20);
  CheckPage(PageOf(40, 20, 3), 1, 2, 0, 20);  // 40 fill exactly two pages
}

TEST_CASE("an empty result is one empty page, and so is a page size of zero") {
  CheckPage(PageOf(0, 20, 1), 1, 1, 0, 0);
  CheckPage(PageOf(0, 20, 2), 1, 1, 0, 0);
  CheckPage(PageOf(45, 0, 1), 1, 1, 0, 0);
}

}  // namespace
}  // namespace warmup::server
