#include "common/progress.h"

#include <doctest/doctest.h>

#include <cstdio>
#include <string>
#include <thread>

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

UpsertSample Sample(int32_t collection, int64_t upsert_us) {
  UpsertSample s;
  s.collection = collection;
  s.upsert_ns = upsert_us * 1000;
  return s;
}

TEST_CASE("WithThousands and Duration") {
  CHECK(WithThousands(0) == "0");
  CHECK(WithThousands(999) == "999");
  CHECK(WithThousands(1234567) == "1,234,567");
  CHECK(WithThousands(-1000) == "-1,000");
  CHECK(Duration(42.4) == "42 s");
  CHECK(Duration(185) == "3 min 05 s");
  CHECK(Duration(3720) == "1 h 02 min");
  CHECK(Duration(-5) == "0 s");
}

TEST_CASE(
    "ProgressReporter, plain: periodic lines with n / N of the collection and the catalog, rate, "
    "percentiles, a line per collection and for goLive, no escape codes") {
  Captured out;
  ProgressOptions options;
  options.live = false;
  options.interval_seconds = 0;  // a line after every upsert, so the test sees them
  ProgressReporter reporter(out.file(), options);
  reporter.OnRunStart({"s", "t", "c", "c_1", {"Brand", "Product"}, {2, 4}});
  reporter.OnCollectionStart(0);
  reporter.OnUpsert(Sample(0, 100));
  reporter.OnUpsert(Sample(0, 300));
  CollectionResult brand;
  brand.entity_type = "Brand";
  brand.copied = 2;
  brand.wall_seconds = 0.5;
  reporter.OnCollectionEnd(brand, 0.5, 2);
  reporter.OnCollectionStart(1);
  reporter.OnUpsert(Sample(1, 2500));
  reporter.OnGoLiveStart();
  reporter.OnGoLiveProgress(40);
  reporter.OnGoLiveEnd(GoLiveOutcome::kCompleted, 1.25);
  const std::string text = out.text();
  CHECK(text.find("  progress: Brand 1 / 2 (50.0 %), catalog 1 / 6 (16.7 %), ") != std::string::npos);
  CHECK(text.find("entities/s, upsert p50 100 us p99 100 us, ") != std::string::npos);
  CHECK(text.find("  progress: Product 1 / 4 (25.0 %), catalog 3 / 6 (50.0 %)") != std::string::npos);
  CHECK(text.find("upsert p50 2.5 ms p99 2.5 ms") != std::string::npos);
  CHECK(text.find(" left\n") != std::string::npos);
  CHECK(text.find("  copied          2 Brand                in      0.5 s") != std::string::npos);
  CHECK(text.find("  progress: goLive: 0.0 s elapsed (the catalog is going ALIVE)\n") != std::string::npos);
  CHECK(text.find("elapsed, the server says 40 % (the catalog is going ALIVE)\n") != std::string::npos);
  CHECK(text.find("  goLive -> ALIVE in 1.250 s\n") != std::string::npos);
  CHECK(text.find('\x1b') == std::string::npos);
  CHECK(text.find('\r') == std::string::npos);
}

TEST_CASE("ProgressReporter, live: one line redrawn in place, cut to the width, finished lines stay") {
  Captured out;
  ProgressOptions options;
  options.live = true;
  options.width = 30;
  ProgressReporter reporter(out.file(), options);
  reporter.OnRunStart({"s", "t", "c", "c_1", {"Product"}, {1000}});
  reporter.OnCollectionStart(0);
  for (int i = 0; i < 9; ++i) reporter.OnUpsert(Sample(0, 50));
  std::this_thread::sleep_for(
      std::chrono::milliseconds(300));  // past the redraw interval: the next upsert redraws
  reporter.OnUpsert(Sample(0, 50));
  CHECK(reporter.StatusLine().rfind("Product 10 / 1,000 (1.0 %)", 0) == 0);
  CollectionResult product;
  product.entity_type = "Product";
  product.copied = 10;
  reporter.OnCollectionEnd(product, 1, 10);
  const std::string text = out.text();
  // One redraw, cut to 30 columns and the rest of the line erased; then the collection's line, which stays.
  CHECK(text.rfind("\rProduct 10 / 1,000 (1.0 %), ca\x1b[K\r  copied         10 Product", 0) == 0);
  CHECK(text.find("\x1b[K\n") != std::string::npos);
  CHECK(text.back() == '\n');
}

}  // namespace
}  // namespace warmup::cli
