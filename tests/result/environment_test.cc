// The environment a run records: the build line names the allocator the
// process runs on, since a load spends much of its time allocating.
#include "warmup/environment.h"

#include <doctest/doctest.h>

#include <cstdlib>
#include <string>

#include "warmup/version.h"

namespace warmup::result_test {
namespace {

TEST_CASE("the environment's build line is the build's summary and the allocator the process runs on") {
  const Environment env = DescribeEnvironment();
  const std::string summary = DescribeBuild().Summary();
  REQUIRE(env.build_details.rfind(summary, 0) == 0);
  // The test binary links no tcmalloc; a preload would bring it.
  const char* preload = std::getenv("LD_PRELOAD");
  const bool preloaded = preload != nullptr && std::string(preload).find("tcmalloc") != std::string::npos;
  CHECK(env.build_details.substr(summary.size()) ==
        (preloaded ? ", malloc: tcmalloc" : ", malloc: the C library's (or a sanitizer's)"));
}

}  // namespace
}  // namespace warmup::result_test
