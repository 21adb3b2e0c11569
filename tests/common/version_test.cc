#include "warmup/version.h"

#include <sys/utsname.h>
#include <unistd.h>

#include <doctest/doctest.h>

#include <regex>

#include "warmup/environment.h"

namespace warmup {
namespace {

TEST_CASE(
    "Version is the project's version, then the commit when known, and the protocol names its package") {
  const std::string version = Version();
  CHECK(version.rfind(WARMUP_PROJECT_VERSION, 0) == 0);
  CHECK_MESSAGE(std::regex_match(version, std::regex(R"(\d+\.\d+\.\d+( \([0-9a-f]{7,40}\+?\))?)")), version);
  CHECK(ProtocolDescription().find("io.evitadb.externalApi.grpc.generated") != std::string::npos);
}

TEST_CASE("DescribeBuild says which build this is: version, commit, compiler, build type, flags") {
  const BuildInfo info = DescribeBuild();
  CHECK(info.version == WARMUP_PROJECT_VERSION);
  CHECK_MESSAGE(std::regex_match(info.commit, std::regex("([0-9a-f]{12})?")), info.commit);
  CHECK((info.compiler.rfind("GNU ", 0) == 0 || info.compiler.rfind("Clang ", 0) == 0));
  const std::string summary = info.Summary();
  CHECK(summary.rfind(info.version, 0) == 0);
  CHECK(summary.find(info.compiler) != std::string::npos);
  CHECK(summary.find(info.build_type.empty() ? "no build type" : info.build_type) != std::string::npos);
  CHECK(Version().find(info.commit) != std::string::npos);
}

TEST_CASE("DescribeEnvironment reports this machine: host, cores, memory limit, kernel, build") {
  const Environment env = DescribeEnvironment();
  char host[256] = {};
  REQUIRE(::gethostname(host, sizeof(host) - 1) == 0);
  CHECK(env.hostname == host);
  CHECK(env.cores == static_cast<int>(::sysconf(_SC_NPROCESSORS_ONLN)));
  CHECK(env.memory_limit_bytes > 0);
  const int64_t physical = static_cast<int64_t>(::sysconf(_SC_PHYS_PAGES)) * ::sysconf(_SC_PAGE_SIZE);
  CHECK(env.memory_limit_bytes <= std::max<int64_t>(physical, env.memory_limit_bytes));
  struct utsname uts {};
  REQUIRE(::uname(&uts) == 0);
  CHECK(env.kernel == uts.release);
  CHECK(env.build == Version());
  CHECK_FALSE(env.cpu_model.empty());
}

}  // namespace
}  // namespace warmup
