#include "warmup/catalog_admin.h"

#include <doctest/doctest.h>

#include "common/temp_dir.h"
#include "server/test_server.h"

namespace warmup {
namespace {

using testing::TempDir;

TEST_CASE("MeasureRoundTrips: one sample per call asked, the warm-up calls not among them") {
  TempDir dir;
  auto server = testing::StartServer(dir / "data");
  auto stats = MeasureRoundTrips(testing::Address(*server), 25, 5);
  REQUIRE_MESSAGE(stats.ok(), stats.status().ToString());
  CHECK(stats->count == 25);
  CHECK(stats->median_us > 0);
  CHECK(stats->median_us <= stats->max_us);
  CHECK(MeasureRoundTrips(testing::Address(*server), 0).status().code() == StatusCode::kInvalidArgument);
  server->Shutdown();
}

}  // namespace
}  // namespace warmup
