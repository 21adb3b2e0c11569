#include "warmup/server_process.h"

#include <doctest/doctest.h>

#include <fstream>
#include <string>

#include "common/temp_dir.h"

namespace warmup {
namespace {

// A log as evitaDB's server wrote it here when a schema with a LONG_RANGE
// associated data was defined over gRPC (its logger's line, the exception,
// the frames), shortened by hand.
constexpr const char* kEvitaLog =
    "12:00:01.100 INFO  i.e.s.EvitaServer - Server started\n"
    "12:00:05.200 ERROR i.e.e.g.s.i.GlobalExceptionHandlerInterceptor - Internal error occurred during "
    "processing of gRPC call: No enum constant GrpcEvitaDataType.LONG_RANGE\n"
    "java.lang.IllegalArgumentException: No enum constant "
    "io.evitadb.externalApi.grpc.generated.GrpcEvitaDataType.LONG_RANGE\n"
    "\tat java.base/java.lang.Enum.valueOf(Enum.java:273)\n"
    "\tat io.evitadb.externalApi.grpc.dataType.EvitaDataTypesConverter.toEvitaDataType(X.java:525)\n"
    "Caused by: java.lang.IllegalStateException: wrapped\n"
    "\t... 12 more\n"
    "12:00:06.000 INFO  i.e.c.Evita - nothing wrong here\n";

TEST_CASE("LastErrorLines: the logger's error line and the exceptions under it, not the frames") {
  testing::TempDir dir;
  const std::string path = dir / "server.log";
  std::ofstream(path) << kEvitaLog;
  const auto lines = LastErrorLines(path);
  REQUIRE(lines.size() == 3);
  CHECK(lines[0].find("ERROR i.e.e.g.s.i.GlobalExceptionHandlerInterceptor") != std::string::npos);
  CHECK(lines[1] ==
        "java.lang.IllegalArgumentException: No enum constant "
        "io.evitadb.externalApi.grpc.generated.GrpcEvitaDataType.LONG_RANGE");
  CHECK(lines[2] == "Caused by: java.lang.IllegalStateException: wrapped");
  const auto last = LastErrorLines(path, 1);  // the newest only
  REQUIRE(last.size() == 1);
  CHECK(last[0] == lines[2]);
}

TEST_CASE("LastErrorLines: no log, or a log without errors, says nothing") {
  testing::TempDir dir;
  CHECK(LastErrorLines(dir / "absent.log").empty());
  const std::string path = dir / "quiet.log";
  std::ofstream(path) << "12:00:01 INFO started\nsome text mentioning an exception in passing\n";
  CHECK(LastErrorLines(path).empty());
}

TEST_CASE("LogEndsWith: those lines under whose log it is, one to a line, and nothing without them") {
  testing::TempDir dir;
  const std::string path = dir / "server.log";
  std::ofstream(path) << "12:00:00 INFO started\n12:00:01 ERROR i.e.c.Evita - Catalog tiny is corrupted!\n"
                         "java.lang.IllegalStateException: broken\n\tat io.evitadb.X.y(X.java:1)\n";
  CHECK(LogEndsWith("the source server's", path) ==
        "the source server's log " + path +
            " ends with:\n  12:00:01 ERROR i.e.c.Evita - Catalog tiny is corrupted!\n"
            "  java.lang.IllegalStateException: broken");
  CHECK(LogEndsWith("the server's", dir / "absent.log").empty());
}

}  // namespace
}  // namespace warmup
