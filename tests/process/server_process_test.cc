// ServerProcess::Attach: a server warmup did not start, named by its pid.
#include "warmup/server_process.h"

#include <unistd.h>

#include <doctest/doctest.h>

#include <fstream>
#include <string>

#include "common/status_matchers.h"
#include "common/temp_dir.h"

namespace warmup {
namespace {

constexpr const char* kYoungPause =
    "[0.048s][info][gc] GC(0) Pause Young (Normal) (G1 Evacuation Pause) 6M->1M(64M) 1.700ms\n";

TEST_CASE("Attach: sampled, never signalled, and only the GC log written after it counts") {
  testing::TempDir dir;
  const std::string gc_log = dir / "gc.log";
  std::ofstream(gc_log) << kYoungPause << kYoungPause;  // before the run: not this run's
  // This process stands in for the server: it must be left running.
  auto attached = ServerProcess::Attach(::getpid(), "127.0.0.1:5555", gc_log);
  REQUIRE_OK(attached);
  std::ofstream(gc_log, std::ios::app) << kYoungPause;  // during the run
  auto sample = (*attached)->SampleNow();
  REQUIRE_OK(sample);
  CHECK(sample->rss_bytes > 0);
  CHECK(sample->cpu_seconds >= 0);  // counted from the attach
  const ServerFigures figures = (*attached)->Stop();
  CHECK(figures.attached);
  CHECK(figures.pid == ::getpid());
  CHECK(figures.usage_sampled);
  CHECK(figures.usage.peak_rss_bytes > 0);
  CHECK(figures.ended.find("left running") == 0);
  REQUIRE(figures.gc.has_value());
  CHECK(figures.gc->young_collections == 1);
}

TEST_CASE("Attach: no such process, or no such GC log, is refused naming it") {
  testing::TempDir dir;
  auto none = ServerProcess::Attach(0, "127.0.0.1:5555", "");
  CHECK(none.status().code() == StatusCode::kNotFound);
  auto no_log = ServerProcess::Attach(::getpid(), "127.0.0.1:5555", dir / "absent.log");
  CHECK(no_log.status().code() == StatusCode::kNotFound);
  CHECK(no_log.status().message().find("absent.log") != std::string::npos);
  auto without_log = ServerProcess::Attach(::getpid(), "127.0.0.1:5555", "");
  REQUIRE_OK(without_log);
  const ServerFigures figures = (*without_log)->Stop();
  CHECK_FALSE(figures.gc.has_value());
  // In the library's words: the figures go into reports whatever frontend started the run.
  CHECK(figures.gc_unavailable == "no GC log: none was given with the pid");
}

}  // namespace
}  // namespace warmup
