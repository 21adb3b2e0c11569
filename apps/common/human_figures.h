// How the progress lines spell figures for a person: thousands separated,
// durations in the unit that reads best, latencies from microseconds to
// seconds. Only for display: reports keep the exact numbers.
#ifndef WARMUP_APPS_COMMON_HUMAN_FIGURES_H_
#define WARMUP_APPS_COMMON_HUMAN_FIGURES_H_

#include <cstdint>
#include <string>

namespace warmup::cli {

// "1,234,567", "-1,000".
std::string WithThousands(int64_t value);
// Rounded to whole seconds: "42 s", "3 min 05 s", "1 h 02 min"; "0 s" below zero.
std::string Duration(double seconds);
// `part` of `whole` as "12.5 %", "0.0 %" when `whole` is not positive.
std::string Percent(double part, double whole);
// Nanoseconds as "850 us" (truncated), "2.9 ms" or "4.00 s".
std::string Latency(int64_t ns);
// "0.8 s" under ten seconds (a stall is worth its tenths there), Duration's text above.
std::string StallTime(double seconds);

}  // namespace warmup::cli

#endif  // WARMUP_APPS_COMMON_HUMAN_FIGURES_H_
