#include "warmup/readiness_line.h"

#include <doctest/doctest.h>

#include <string>

namespace warmup {
namespace {

TEST_CASE("the readiness line is one JSON object on one line, every field named") {
  const std::string line =
      FormatReadinessLine({.pid = 4242, .port = 5556, .system_port = 0, .build = "warmup 1.2"});
  CHECK(line == "{\"pid\":4242,\"port\":5556,\"system_port\":0,\"build\":\"warmup 1.2\"}\n");
}

TEST_CASE("a build with quotes, backslashes and a newline stays one line and reads back whole") {
  const std::string build = "warmup \"dev\" C:\\tree\nsecond line";
  const std::string line = FormatReadinessLine({.pid = 7, .port = 1, .system_port = 65535, .build = build});
  CHECK(line.find('\n') == line.size() - 1);
  auto read = ParseReadinessLine(line);
  REQUIRE(read.ok());
  CHECK(read->pid == 7);
  CHECK(read->port == 1);
  CHECK(read->system_port == 65535);
  CHECK(read->build == build);
}

TEST_CASE("a line a stub server writes by hand (pid and port only) reads with the rest empty") {
  auto read = ParseReadinessLine("{\"pid\": 31, \"port\": 40000}\n");
  REQUIRE(read.ok());
  CHECK(read->pid == 31);
  CHECK(read->port == 40000);
  CHECK(read->system_port == 0);
  CHECK(read->build.empty());
}

TEST_CASE("a readiness line that cannot be used is refused, naming what is wrong") {
  const struct {
    const char* line;
    const char* says;
  } cases[] = {
      {"", "not a JSON object"},
      {"ready", "not a JSON object"},
      {"[5556]", "not a JSON object"},
      {"{\"pid\": 3}", "no \"port\""},
      {"{\"port\": \"5556\"}", "\"port\" is not an integer"},
      {"{\"port\": 0}", "\"port\" is 0, not in 1..65535"},
      {"{\"port\": 65536}", "\"port\" is 65536, not in 1..65535"},
      {"{\"port\": 5556, \"system_port\": -1}", "\"system_port\" is -1, not in 0..65535"},
      {"{\"port\": 5556, \"pid\": 0}", "\"pid\" is not a process id: 0"},
      {"{\"port\": 5556, \"pid\": 1.5}", "\"pid\" is not a process id: 1.5"},
      {"{\"port\": 5556, \"build\": 3}", "\"build\" is not a string"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.line);
    auto read = ParseReadinessLine(c.line);
    REQUIRE_FALSE(read.ok());
    CHECK(read.status().code() == StatusCode::kInvalidArgument);
    CHECK(read.status().message() == c.says);
  }
}

}  // namespace
}  // namespace warmup
