#include "common/human_figures.h"

#include <doctest/doctest.h>

namespace warmup::cli {
namespace {

TEST_CASE("WithThousands groups digits by three, the sign in front") {
  CHECK(WithThousands(0) == "0");
  CHECK(WithThousands(999) == "999");
  CHECK(WithThousands(1000) == "1,000");
  CHECK(WithThousands(1234567) == "1,234,567");
  CHECK(WithThousands(-1000) == "-1,000");
}

TEST_CASE("Duration rounds to seconds and names the two largest units") {
  CHECK(Duration(42.4) == "42 s");
  CHECK(Duration(59.6) == "1 min 00 s");
  CHECK(Duration(185) == "3 min 05 s");
  CHECK(Duration(3720) == "1 h 02 min");
  CHECK(Duration(-5) == "0 s");
}

TEST_CASE("Percent has one decimal, and a whole of zero is 0.0 %") {
  CHECK(Percent(1, 8) == "12.5 %");
  CHECK(Percent(3, 3) == "100.0 %");
  CHECK(Percent(5, 0) == "0.0 %");
}

TEST_CASE("Latency picks microseconds, milliseconds or seconds by size") {
  CHECK(Latency(850'999) == "850 us");  // truncated, not rounded, below a millisecond
  CHECK(Latency(2'940'000) == "2.9 ms");
  CHECK(Latency(4'000'000'000) == "4.00 s");
}

TEST_CASE("StallTime keeps tenths under ten seconds and reads as Duration above") {
  CHECK(StallTime(0.84) == "0.8 s");
  CHECK(StallTime(9.94) == "9.9 s");
  CHECK(StallTime(75) == "1 min 15 s");
}

}  // namespace
}  // namespace warmup::cli
