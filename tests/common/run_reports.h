// Run reports with figures set on purpose, written by the real JSON writer:
// what the tests of summaries, histories and change points read.
#ifndef WARMUP_TESTS_COMMON_RUN_REPORTS_H_
#define WARMUP_TESTS_COMMON_RUN_REPORTS_H_

#include <filesystem>
#include <fstream>
#include <functional>
#include <string>

#include "warmup/report.h"
#include "warmup/run_result.h"

namespace warmup::testing {

// A verified embedded run of dataset "f1" on host "host": TOTAL `total` s
// (load total - 1, of it source read 0.25; goLive 1), 100 Brands at 20 us,
// 100 Products at `product_us`; `adjust` changes anything before it is
// written to DIR/LABEL.json, whose path is returned.
inline std::string WriteRunReport(const std::filesystem::path& dir, const std::string& label, double total,
                                  double product_us, const std::function<void(RunResult&)>& adjust = {}) {
  RunResult r;
  r.config.target_kind = "embedded";
  r.config.records = RecordStorage{RecordCompression::kNone, RecordWrites::kInline};
  r.run_label = label;
  r.started_at = "2026-12-04T10:00:00Z";
  r.dataset_fingerprint = "f1";
  r.environment.hostname = "host";
  r.environment.cpu_model = "cpu";
  r.environment.cores = 2;
  r.environment.build_details = "0.1.0 (aaaaaaaaaaaa), GNU 12.2.0, RelWithDebInfo";
  for (const char* type : {"Brand", "Product"}) {
    CollectionResult c;
    c.entity_type = type;
    c.source_count = c.expected_count = c.copied = c.target_count.emplace(100);
    c.upsert.count = 100;
    c.upsert.median_us = c.upsert.mean_us = std::string(type) == "Product" ? product_us : 20;
    r.collections.push_back(c);
  }
  r.load_wall_seconds = total - 1;
  r.source_read_seconds = 0.25;
  r.golive = GoLiveOutcome::kCompleted;
  r.golive_seconds = 1;
  r.verify_mode = VerifyMode::kCounts;
  r.verification = Verification::kVerified;
  if (adjust) adjust(r);
  const std::string path = (dir / (label + ".json")).string();
  std::ofstream(path) << RenderJsonReport(r);
  return path;
}

}  // namespace warmup::testing

#endif  // WARMUP_TESTS_COMMON_RUN_REPORTS_H_
