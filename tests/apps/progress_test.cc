#include "common/progress.h"
#include "warmup/run_result.h"

#include <doctest/doctest.h>
#include <poll.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace warmup::cli {
namespace {

// What a reporter wrote, read back from its memory stream.
class Captured {
 public:
  Captured() : file_(open_memstream(&data_, &size_)) {}
  ~Captured() {
    if (file_ != nullptr) std::fclose(file_);
    std::free(data_);
  }
  std::FILE* file() { return file_; }
  std::string text() {
    std::fflush(file_);
    return std::string(data_, size_);
  }

 private:
  char* data_ = nullptr;
  size_t size_ = 0;
  std::FILE* file_;
};

// A clock the test sets by hand, in milliseconds from an arbitrary origin;
// safe to read from the reporter's ticker thread.
class FakeClock {
 public:
  std::function<std::chrono::steady_clock::time_point()> Source() {
    return [this] { return std::chrono::steady_clock::time_point(std::chrono::milliseconds(ms_.load())); };
  }
  void Set(int64_t ms) { ms_.store(ms); }

 private:
  std::atomic<int64_t> ms_{0};
};

// Plain lines every `interval_seconds` on `clock`, drawn only when the test calls Tick().
ProgressOptions Plain(double interval_seconds, FakeClock& clock) {
  ProgressOptions options;
  options.live = false;
  options.interval_seconds = interval_seconds;
  options.now = clock.Source();
  options.ticker = false;
  return options;
}

UpsertSample Sample(int32_t collection, int64_t upsert_us, int32_t primary_key = 0) {
  UpsertSample s;
  s.collection = collection;
  s.primary_key = primary_key;
  s.upsert_ns = upsert_us * 1000;
  return s;
}

CollectionResult Finished(const std::string& type, int64_t copied, double wall_seconds) {
  CollectionResult c;
  c.entity_type = type;
  c.copied = copied;
  c.wall_seconds = wall_seconds;
  return c;
}

// The plain lines in `text` that are status lines, without their "  progress: " prefix.
std::vector<std::string> ProgressLines(const std::string& text) {
  std::vector<std::string> lines;
  const std::string prefix = "  progress: ";
  for (size_t at = text.find(prefix); at != std::string::npos; at = text.find(prefix, at + 1)) {
    const size_t end = text.find('\n', at);
    lines.push_back(text.substr(at + prefix.size(), end - at - prefix.size()));
  }
  return lines;
}

TEST_CASE(
    "ProgressReporter, plain: lines at the interval with n / N of the collection and the catalog, rate, "
    "percentiles and time left, a line per collection and for goLive, no escape codes") {
  FakeClock clock;
  Captured out;
  ProgressReporter reporter(out.file(), Plain(1, clock));
  reporter.OnRunStart({"s", "t", "c", "c_1", {"Brand", "Product"}, {2, 4}});  // no bytes: by counts
  reporter.OnCollectionStart(0);
  clock.Set(500);
  reporter.OnUpsert(Sample(0, 100));
  reporter.Tick();  // 0.5 s after the run's start: not due
  clock.Set(1000);
  reporter.Tick();
  // 1 entity in 1 s; the rest: Brand's 1 at 1/s, then Product's 4 at the run's 1/s: 5 s.
  clock.Set(1500);
  reporter.OnUpsert(Sample(0, 300));
  reporter.OnCollectionEnd(Finished("Brand", 2, 0.5), 0.5, 2);
  reporter.Tick();  // between collections: nothing
  reporter.OnCollectionStart(1);
  clock.Set(1800);
  reporter.OnUpsert(Sample(1, 2500));
  clock.Set(2000);
  reporter.Tick();
  // Product's rate since its start at 1.5 s: 1 in 0.5 s, 2/s; its 3 left: 1.5 s, "2 s".
  // The interval's upserts: 300 us and 2.5 ms, p50 the first (rank 1 of 2), p99 the second.
  reporter.OnGoLiveStart();
  clock.Set(2500);
  reporter.Tick();  // 0.5 s after goLive's first line: not due
  clock.Set(3000);
  reporter.Tick();
  clock.Set(3200);
  reporter.OnGoLiveProgress(40);
  reporter.OnGoLiveEnd(GoLiveOutcome::kCompleted, 1.25);
  const std::string text = out.text();
  CHECK(ProgressLines(text) == std::vector<std::string>{
                                   "Brand 1 / 2 (50.0 %), catalog 1 / 6 entities (16.7 %), 1.0 entities/s, "
                                   "upsert p50 100 us p99 100 us, "
                                   "1 s elapsed, about 5 s left",
                                   "Product 1 / 4 (25.0 %), catalog 3 / 6 entities (50.0 %), 2.0 entities/s, "
                                   "upsert p50 300 us p99 2.5 "
                                   "ms, 2 s elapsed, about 2 s left",
                                   "goLive: 0.0 s elapsed (the catalog is going ALIVE)",
                                   "goLive: 1.0 s elapsed (the catalog is going ALIVE)",
                                   "goLive: 1.2 s elapsed, the server says 40 % (the catalog is going ALIVE)",
                               });
  CHECK(text.find(
            "\n  copied          2 Brand                in      0.5 s (250000.00 us/entity)  |  cumulative  "
            "          2 entities,      0.5 s\n") != std::string::npos);
  CHECK(text.find("  goLive -> ALIVE in 1.250 s\n") != std::string::npos);
  CHECK(text.find('\x1b') == std::string::npos);
  CHECK(text.find('\r') == std::string::npos);
}

TEST_CASE(
    "ProgressReporter: upsert p50 and p99 are the nearest ranks of the interval's upserts, not the run's") {
  FakeClock clock;
  Captured out;
  ProgressReporter reporter(out.file(), Plain(10, clock));
  reporter.OnRunStart({"s", "t", "c", "c_1", {"Product"}, {1000}});
  reporter.OnCollectionStart(0);
  // 200 upserts of i * i us, i = 1..200, out of order (37 is prime to 200): rank 100 (p50) is
  // 100 * 100 us = 10.0 ms, rank ceil(0.99 * 200) = 198 (p99) is 198 * 198 us = 39,204 us = 39.2 ms;
  // ranks 99, 101, 197, 199 and 200 would show 9.8, 10.2, 38.8, 39.6 and 40.0 ms.
  for (int k = 0; k < 200; ++k) {
    clock.Set(10 * (k + 1));
    const int64_t i = (k * 37) % 200 + 1;
    reporter.OnUpsert(Sample(0, i * i, static_cast<int32_t>(k + 1)));
  }
  clock.Set(10'000);
  reporter.Tick();
  // The next interval: 3, 1, 4 and 2 ms. Rank 2 of 4 (p50) is 2 ms, rank 4 (p99) 4 ms; with the
  // first interval's 200 still counted, p50 would be rank 102 of 204, 98 * 98 us = 9.6 ms.
  const int64_t next[] = {3000, 1000, 4000, 2000};
  for (int k = 0; k < 4; ++k) {
    clock.Set(11'000 + 1000 * k);
    reporter.OnUpsert(Sample(0, next[k], 201 + k));
  }
  clock.Set(20'000);
  reporter.Tick();
  // Rates: 200 in the 10 s since the start, 20/s, 800 left: 40 s; then 4 in the 10 s since the
  // point taken at 10 s (the newest at least 5 s old), 0.4/s, 796 left: 1990 s.
  CHECK(ProgressLines(out.text()) == std::vector<std::string>{
                                         "Product 200 / 1,000 (20.0 %), catalog 200 / 1,000 entities (20.0 "
                                         "%), 20 entities/s, upsert p50 10.0 "
                                         "ms p99 39.2 ms, 10 s elapsed, about 40 s left",
                                         "Product 204 / 1,000 (20.4 %), catalog 204 / 1,000 entities (20.4 "
                                         "%), 0.4 entities/s, upsert p50 2.0 "
                                         "ms p99 4.0 ms, 20 s elapsed, about 33 min 10 s left",
                                     });
}

// Brand (100 entities, 1 MB) in the first second; Product (500, 9 MB): one upsert of 2 ms every
// 100 ms from 1.1 s to 6.0 s (50), one of 1 ms every 50 ms to 9.0 s (60), one of 500 us every 25 ms to
// 11.0 s (80); then would come Stock (300, 10 MB) and Tag (empty). The ticker's calls come after each
// of Product's upserts; a line is due every 5.5 s: at 5.5 s and 11.0 s. Returns what was written.
std::string ThreeMegabytesOfTwenty(const std::vector<int64_t>& stored_bytes) {
  FakeClock clock;
  Captured out;
  ProgressReporter reporter(out.file(), Plain(5.5, clock));
  RunStart start{"s", "t", "c", "c_1", {"Brand", "Product", "Stock", "Tag"}, {100, 500, 300, 0}};
  start.stored_bytes = stored_bytes;
  reporter.OnRunStart(start);
  reporter.OnCollectionStart(0);
  for (int k = 1; k <= 100; ++k) {
    clock.Set(10 * k);
    reporter.OnUpsert(Sample(0, 10, k));
  }
  reporter.OnCollectionEnd(Finished("Brand", 100, 1.0), 1.0, 100);
  reporter.OnCollectionStart(1);
  for (int k = 1; k <= 50; ++k) {
    clock.Set(1000 + 100 * k);
    reporter.OnUpsert(Sample(1, 2000, k));
    reporter.Tick();
  }
  for (int k = 1; k <= 60; ++k) {
    clock.Set(6000 + 50 * k);
    reporter.OnUpsert(Sample(1, 1000, 50 + k));
    reporter.Tick();
  }
  for (int k = 1; k <= 80; ++k) {
    clock.Set(9000 + 25 * k);
    reporter.OnUpsert(Sample(1, 500, 110 + k));
    reporter.Tick();
  }
  return out.text();
}

TEST_CASE("regression: the catalog's percent and the time left counted entities, not work") {
  // At 11.0 s: Product 190 of 500 (38 %); the catalog 290 of 900 entities, but by bytes
  // 1 MB + 38 % of 9 MB = 4.42 of 20 MB, 22.1 % (by entities 32.2 %). The rate: 140 upserts since the
  // point at 6.0 s, the newest at least 5 s old: 28/s (over 1 s it would be 40/s, over all of
  // Product 19/s). Time left: Product's 310 at 28/s, 11.07 s, plus Stock's 10 MB at the run's
  // 4.42 MB / 11 s, 24.89 s: 35.96 s (by entities, 300 at 290 / 11 s, 11.38 s: 22 s in all). The
  // interval since 5.5 s: 80 upserts of 500 us, 60 of 1 ms, 5 of 2 ms; p50 is rank 73 of 145, 500 us,
  // p99 rank 144, 2 ms.
  // By bytes and by entities the two disagree by more than a quarter: both, as a range.
  const std::vector<std::string> lines =
      ProgressLines(ThreeMegabytesOfTwenty({1'000'000, 9'000'000, 10'000'000, 0}));
  REQUIRE(lines.size() == 2);
  CHECK(lines[1] ==
        "Product 190 / 500 (38.0 %), catalog 290 / 900 entities, 22.1 % of the bytes, 28 entities/s, "
        "upsert p50 500 us p99 2.0 ms, 11 s elapsed, 22 s to 36 s left");
}

// Issue 49: against evitaDB the line guessed 10 min 37 s for a load that took 74 s. senesi's small
// collections come first, and a cold JVM spends milliseconds on each of their entities, bytes or
// not; Products (94 % of the bytes) then cost evitaDB less per byte. The rate in bytes of the first
// collections, applied to the Products, overstated the rest 5x; by entities it understates it.
TEST_CASE("regression: the time left before a heavy collection starts is a range, by entities and by bytes") {
  // Brand: 100 entities, 10 kB; Product: 100 entities, 990 kB. Brand's upserts complete every 50 ms; at
  // 4.0 s, 80 are done: 20/s, its 20 left take 1 s. Product by entities: 100 at the run's 80 / 4 s,
  // 5 s; by bytes: 990 kB at the run's 8 kB / 4 s, 495 s. 1 + 5 = 6 s to 1 + 495 = 496 s, "8 min 16 s".
  FakeClock clock;
  Captured out;
  ProgressReporter reporter(out.file(), Plain(4.0, clock));
  RunStart start{"s", "t", "c", "c_1", {"Brand", "Product"}, {100, 100}};
  start.stored_bytes = {10'000, 990'000};
  reporter.OnRunStart(start);
  reporter.OnCollectionStart(0);
  for (int k = 1; k <= 80; ++k) {
    clock.Set(int64_t{50} * k);
    reporter.OnUpsert(Sample(0, 50'000, k));
    reporter.Tick();
  }
  const std::vector<std::string> lines = ProgressLines(out.text());
  REQUIRE(lines.size() == 1);
  CHECK_MESSAGE(
      lines[0].starts_with("Brand 80 / 100 (80.0 %), catalog 80 / 200 entities, 0.8 % of the bytes, "
                           "20 entities/s, "),
      lines[0]);
  CHECK_MESSAGE(lines[0].ends_with(", 4 s elapsed, 6 s to 8 min 16 s left"), lines[0]);
}

TEST_CASE("ProgressReporter: by entity counts when a collection's bytes are unknown") {
  // The same run; Product's bytes unknown (0), or no bytes at all: 290 of 900 is 32.2 %, and the time
  // left is Product's 11.07 s plus Stock's 300 entities at the run's 290 / 11 s, 11.38 s: 22.45 s.
  const std::string expected =
      "Product 190 / 500 (38.0 %), catalog 290 / 900 entities (32.2 %), 28 entities/s, "
      "upsert p50 500 us p99 2.0 ms, 11 s elapsed, about 22 s left";
  std::vector<std::string> lines = ProgressLines(ThreeMegabytesOfTwenty({1'000'000, 0, 10'000'000, 0}));
  REQUIRE(lines.size() == 2);
  CHECK(lines[1] == expected);
  lines = ProgressLines(ThreeMegabytesOfTwenty({}));
  REQUIRE(lines.size() == 2);
  CHECK(lines[1] == expected);
}

TEST_CASE("regression: progress went silent while no upsert completed") {
  // Product (1,188 entities, 5 MB), lines every second: 215 upserts of 5 ms, one every 10 ms (pk 1..215,
  // the last at 2.15 s), then none, with the ticker's calls every 250 ms up to 14.15 s.
  FakeClock clock;
  Captured out;
  ProgressReporter reporter(out.file(), Plain(1, clock));
  RunStart start{"s", "t", "c", "c_1", {"Product"}, {1188}};
  start.stored_bytes = {5'000'000};
  reporter.OnRunStart(start);
  reporter.OnCollectionStart(0);
  for (int k = 1; k <= 215; ++k) {
    clock.Set(10 * k);
    reporter.OnUpsert(Sample(0, 5000, k));
    reporter.Tick();
  }
  for (int64_t t = 2400; t <= 14'150; t += 250) {
    clock.Set(t);
    reporter.Tick();
  }
  const std::vector<std::string> lines = ProgressLines(out.text());
  // Lines at 1.0 and 2.0 s while upserts completed, then one a second from 3.15 s to 14.15 s: 12 more.
  REQUIRE(lines.size() == 14);
  // At 3.15 s nothing has completed for exactly the interval, 1.0 s, not longer: no word of it yet.
  CHECK(lines[2].find("no upsert") == std::string::npos);
  // At 4.15 s, 2.0 s. 215 of 1,188 is 18.1 %.
  CHECK(lines[3].rfind("Product 215 / 1,188 (18.1 %), no upsert completed for 2.0 s; waiting on Product "
                       "after pk 215 (216 of "
                       "1,188); catalog 215 / 1,188 entities, 18.1 % of the bytes, ",
                       0) == 0);
  // At 14.15 s, 12.0 s: no upsert since the point at 9.15 s, the rate is 0 and the time left unknown; the
  // percentiles are the last interval's that had upserts (2.01 s to 2.15 s, all 5 ms).
  CHECK(
      lines[13] ==
      "Product 215 / 1,188 (18.1 %), no upsert completed for 12 s; waiting on Product after pk 215 (216 of "
      "1,188); "
      "catalog 215 / 1,188 entities, 18.1 % of the bytes, 0.0 entities/s, upsert p50 5.0 ms p99 5.0 ms, 14 s "
      "elapsed, ? left");
}

// Reads one line from `fd`, waiting at most 10 s for each part of it (a bound on a hang, not a timing
// assertion); "" when nothing came.
std::string ReadLine(int fd) {
  std::string line;
  char c = 0;
  while (line.empty() || line.back() != '\n') {
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, 10'000) != 1 || ::read(fd, &c, 1) != 1) return "";
    line += c;
  }
  return line;
}

TEST_CASE("regression: plain lines come from a thread of the reporter's own while no upsert completes") {
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  std::FILE* write_end = ::fdopen(fds[1], "w");
  REQUIRE(write_end != nullptr);
  FakeClock clock;
  {
    ProgressOptions options = Plain(1, clock);
    options.ticker = true;  // the real thread, on the fake clock
    ProgressReporter reporter(write_end, options);
    reporter.OnRunStart({"s", "t", "c", "c_1", {"Brand", "Product"}, {10, 1188}});
    reporter.OnCollectionStart(0);
    for (int k = 1; k <= 10; ++k) {  // the clock stays under the first line's time, 1 s
      clock.Set(50 * k);
      reporter.OnUpsert(Sample(0, 100, k));
    }
    reporter.OnCollectionEnd(Finished("Brand", 10, 0.5), 0.5, 10);
    CHECK(ReadLine(fds[0]).rfind("  copied         10 Brand", 0) == 0);
    reporter.OnCollectionStart(1);
    clock.Set(3500);  // and no upsert: the thread's next tick writes a line, the test none
    // 3.0 s since Product started with nothing done; 10 of 1,198 is 0.8 %; 3.5 s elapsed rounds to 4 s.
    CHECK(ReadLine(fds[0]) ==
          "  progress: Product 0 / 1,188 (0.0 %), no upsert completed for 3.0 s; waiting on Product's first "
          "entity "
          "(1 of 1,188); catalog 10 / 1,198 entities (0.8 %), 0.0 entities/s, upsert p50 100 us p99 100 us, "
          "4 s "
          "elapsed, ? left\n");
    reporter.OnCollectionEnd(Finished("Product", 0, 3.0), 3.5, 10);  // stops the thread
  }
  std::fclose(write_end);
  // Then only Product's line: the clock did not move, so no second status line was due.
  CHECK(ReadLine(fds[0]).rfind("  copied          0 Product", 0) == 0);
  CHECK(ReadLine(fds[0]).empty());
  ::close(fds[0]);

  // A reporter destroyed in the middle of a collection stops its thread.
  Captured out;
  ProgressOptions options = Plain(1, clock);
  options.ticker = true;
  auto reporter = std::make_unique<ProgressReporter>(out.file(), options);
  reporter->OnRunStart({"s", "t", "c", "c_1", {"Product"}, {10}});
  reporter->OnCollectionStart(0);
  reporter.reset();
  CHECK(out.text().empty());
}

TEST_CASE(
    "ProgressReporter, live: one line redrawn in place, cut to the width, also while no upsert completes, "
    "finished lines stay") {
  FakeClock clock;
  Captured out;
  ProgressOptions options = Plain(1, clock);
  options.live = true;
  options.width = 30;
  ProgressReporter reporter(out.file(), options);
  reporter.OnRunStart({"s", "t", "c", "c_1", {"Product"}, {1000}});
  reporter.OnCollectionStart(0);
  for (int i = 0; i < 9; ++i) reporter.OnUpsert(Sample(0, 50, i + 1));
  clock.Set(100);
  reporter.Tick();  // 100 ms: under the redraw interval
  clock.Set(300);
  reporter.OnUpsert(Sample(0, 50, 10));
  reporter.Tick();  // 300 ms: a redraw
  clock.Set(400);
  reporter.Tick();  // 100 ms after it: none
  clock.Set(550);
  reporter.Tick();  // 250 ms after it, and no upsert since: a redraw all the same
  clock.Set(2000);  // 1.7 s since the last upsert, longer than the interval (1 s)
  CHECK(reporter.StatusLine().rfind("Product 10 / 1,000 (1.0 %), no upsert completed for 1.7 s; waiting on "
                                    "Product after pk 10 (11 of 1,000); "
                                    "catalog 10 / 1,000 entities (1.0 %), ",
                                    0) == 0);
  reporter.OnCollectionEnd(Finished("Product", 10, 2), 2, 10);
  const std::string text = out.text();
  // Two redraws, cut to 30 columns and the rest of the line erased; then the collection's line, which stays.
  CHECK(text.rfind(
            "\rProduct 10 / 1,000 (1.0 %), ca\x1b[K\rProduct 10 / 1,000 (1.0 %), ca\x1b[K\r  copied         "
            "10 Product",
            0) == 0);
  CHECK(text.find("\x1b[K\n") != std::string::npos);
  CHECK(text.back() == '\n');
}

}  // namespace
}  // namespace warmup::cli
