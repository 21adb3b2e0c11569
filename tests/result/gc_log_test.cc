#include "warmup/gc_log.h"

#include <doctest/doctest.h>

#include <fstream>
#include <string>
#include <vector>

#include "common/temp_dir.h"

namespace warmup {
namespace {

TEST_CASE("ParseGcLogText: G1 and Parallel pauses by kind, -Xlog:gc*'s other lines not counted") {
  const GcFigures gc = ParseGcLogText(
      "[0.003s][info][gc] Using G1\n"
      "[0.048s][info][gc] GC(0) Pause Young (Normal) (G1 Evacuation Pause) 6M->1M(64M) 1.700ms\n"
      "[0.050s][info][gc,start    ] GC(1) Pause Young (Concurrent Start) (G1 Humongous Allocation)\n"
      "[0.051s][info][gc,phases   ] GC(1)   Evacuate Collection Set: 0.5ms\n"
      "[0.052s][info][gc          ] GC(1) Pause Young (Concurrent Start) (G1 Humongous Allocation) "
      "9M->2M(64M) "
      "1.300ms\n"
      "[0.060s][info][gc          ] GC(2) Concurrent Mark Cycle 5.000ms\n"
      "[0.061s][info][gc          ] GC(2) Pause Remark 3M->3M(64M) 0.500ms\n"
      "[0.062s][info][gc          ] GC(2) Pause Cleanup 3M->3M(64M) 0.100ms\n"
      "[0.119s][info][gc] GC(6) Pause Full (System.gc()) 18M->1M(10M) 4.175ms\r\n"
      "[1.000s][info][gc] GC(7) Pause Young (Allocation Failure) 25M->1M(245M) 2.225ms\n"
      "[1.100s][info][gc] GC(8) Pause Full (Ergonomics) 10M->5M(100M) 10.000ms\n"
      "garbage that is not a log line\n"
      "[1.200s][info][gc] GC(9) Pause Young (Normal) no duration\n");
  CHECK(gc.young_collections == 3);
  CHECK(gc.full_collections == 2);
  CHECK(gc.other_pauses == 2);  // Remark and Cleanup; the concurrent cycle is no pause
  CHECK(gc.pause_seconds == doctest::Approx((1.7 + 1.3 + 0.5 + 0.1 + 4.175 + 2.225 + 10.0) / 1000));
  CHECK(gc.log.empty());
  const GcFigures none = ParseGcLogText("");
  CHECK(none.young_collections + none.full_collections + none.other_pauses == 0);
}

// Replaces the tags (the last leading [..] group) of each line with `tags`.
std::string WithTags(const std::vector<std::string>& lines, const std::string& tags) {
  std::string text;
  for (const std::string& line : lines) {
    const size_t close = line.find("] GC(");
    const size_t open = line.rfind('[', close);
    text += line.substr(0, open + 1) + tags + line.substr(close) + "\n";
  }
  return text;
}

TEST_CASE("ParseGcLogText: pauses with a duration under tags other than exactly gc are not counted") {
  // Each line has "Pause " and ends in a duration in ms, as a [gc] summary line does: only its tags differ.
  // ZGC's pauses under -Xlog:gc* (JDK 17, as the JVM writes them), and the start, phase and sub-tag lines of
  // G1, Parallel and Serial under -Xlog:gc* given a duration, so that only the tag can keep them out.
  const std::vector<std::string> others = {
      "[0.412s][info][gc,phases   ] GC(0) Pause Mark Start 0.011ms",
      "[0.431s][info][gc,phases   ] GC(0) Pause Mark End 0.015ms",
      "[0.433s][info][gc,phases   ] GC(0) Pause Relocate Start 0.008ms",
      "[2.345s][info][gc,phases   ] GC(3) Pause Young (Normal) (G1 Evacuation Pause) 1.234ms",
      "[2.340s][info][gc,start    ] GC(3) Pause Young (Normal) (G1 Evacuation Pause) 2.000ms",
      "[2.350s][info][gc,start    ] GC(4) Pause Full (System.gc()) 18M->1M(10M) 4.175ms",
      "[2.360s][info][gc,start] GC(5) Pause Remark 3M->3M(64M) 0.500ms",
      "[2.370s][debug][gc,phases,start] GC(6) Pause Young (Allocation Failure) 25M->1M(245M) 2.225ms",
      "[2.380s][info][gc,heap     ] GC(7) Pause Full (Ergonomics) 10M->5M(100M) 10.000ms",
      "[2.390s][info][gc,cpu      ] GC(8) Pause Young (Normal) 6M->1M(64M) 1.700ms",
      "[2.400s][info][safepoint   ] GC(9) Pause Cleanup 3M->3M(64M) 0.100ms",
  };
  REQUIRE(others.size() >= 10);
  // Each of them would count if its tag were [gc]: 4 young, 2 full and 5 other pauses.
  const GcFigures as_gc = ParseGcLogText(WithTags(others, "gc          "));
  REQUIRE(as_gc.young_collections + as_gc.full_collections + as_gc.other_pauses ==
          static_cast<int64_t>(others.size()));
  CHECK(as_gc.young_collections == 4);
  CHECK(as_gc.full_collections == 2);
  CHECK(as_gc.other_pauses == 5);
  // As written, among one real [gc] summary line, none of them counts.
  std::string text;
  for (const std::string& line : others) text += line + "\n";
  text +=
      "[2.410s][info][gc          ] GC(3) Pause Young (Normal) (G1 Evacuation Pause) 25M->3M(256M) 3.000ms\n";
  const GcFigures gc = ParseGcLogText(text);
  CHECK(gc.young_collections == 1);
  CHECK(gc.full_collections == 0);
  CHECK(gc.other_pauses == 0);
  CHECK(gc.pause_seconds == doctest::Approx(0.003));
}

TEST_CASE("ReadGcLog: the file's figures and its path, and a missing log says what to add") {
  testing::TempDir dir;
  const std::string path = dir.path() + "/gc.log";
  std::ofstream(path) << "[0.119s][info][gc] GC(6) Pause Full (System.gc()) 18M->1M(10M) 4.000ms\n";
  auto gc = ReadGcLog(path);
  REQUIRE(gc.ok());
  CHECK(gc->full_collections == 1);
  CHECK(gc->log == path);
  auto missing = ReadGcLog(dir.path() + "/none.log");
  CHECK(missing.status().code() == StatusCode::kNotFound);
  CHECK(missing.status().message().find("-Xlog:gc:file={gclog}") != std::string::npos);
}

}  // namespace
}  // namespace warmup
