// The setup fields' table: what a report writes of a run's configuration
// reads back as the setup a comparison holds runs to, for reports written
// now and for reports written before the fields existed.
#include "report/setup_fields.h"

#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "common/run_reports.h"
#include "common/status_matchers.h"
#include "common/temp_dir.h"
#include "warmup/run_record.h"

namespace warmup {
namespace {

using nlohmann::json;
using testing::WriteRunReport;

TEST_CASE("setup fields: a configuration set on purpose reads back as its setup, field by field") {
  testing::TempDir dir;
  auto run = ReadRunRecord(WriteRunReport(dir.path(), "r1", 10, 500, [](RunResult& r) {
    r.config.target_kind = "embedded";
    r.config.records = RecordStorage{RecordCompression::kDeflate, RecordWrites::kBackground};
    r.config.max_per_collection = 7;
    r.config.source_read_ahead = true;
    r.config.collections = {"Product", "Brand"};
    r.config.dataset_provenance = {{"generator.scale", "0.25"}, {"generator.seed", "3"}};
  }));
  REQUIRE_OK(run);
  CHECK(run->setup.at("target kind") == "embedded");
  CHECK(run->setup.at("compression") == "deflate");
  CHECK(run->setup.at("record writes") == "background");
  CHECK(run->setup.at("max per collection") == "7");
  CHECK(run->setup.at("source read") == "ahead, on a second thread");
  CHECK(run->setup.at("collections") == "Product Brand");
  CHECK(run->setup.at("dataset scale") == "0.25");
  // Each table entry, and only they, besides the dataset and the host.
  CHECK(run->setup.size() == report::SetupFields().size() + 2);
}

TEST_CASE(
    "setup fields: a report before the configuration was recorded reads each field's documented default") {
  // warmup-run/6 had no config: the target kind is the first word of the
  // target's description, a subset of collections is said as such, the read
  // was inline, and the rest was not recorded.
  const json report = {{"target", "remote 127.0.0.1:5555 (catalog x)"}, {"collection_subset", true}};
  report::Setup setup;
  for (const report::SetupField& field : report::SetupFields()) {
    setup[field.label] = field.read(nullptr, report, setup);
  }
  CHECK(setup == report::Setup{{"target kind", "remote"},
                               {"compression", "not recorded"},
                               {"record writes", "not recorded"},
                               {"max per collection", "not recorded"},
                               {"source read", "inline"},
                               {"collections", "a subset"},
                               {"dataset scale", "not recorded"}});
}

TEST_CASE(
    "setup fields: a report before record_writes read its records as written inline when it said how it "
    "compressed") {
  auto read = [](const json& config) {
    report::Setup setup;
    for (const report::SetupField& field : report::SetupFields()) {
      setup[field.label] = field.read(&config, json::object(), setup);
    }
    return setup.at("record writes");
  };
  const json older = {
      {"max_per_collection", 0}, {"collections", json::array()}, {"dataset_provenance", json::object()}};
  json zstd = older;
  zstd["compression"] = "zstd";
  json null_target = older;
  null_target["compression"] = "n/a";
  CHECK(read(zstd) == "inline");
  CHECK(read(null_target) == "n/a");
  CHECK(read(older) == "not recorded");
}

TEST_CASE("setup fields: every field's label is found, and nothing else is") {
  for (const report::SetupField& field : report::SetupFields()) {
    CHECK(report::FindSetupField(field.label) == &field);
  }
  CHECK(report::FindSetupField("host") == nullptr);
  CHECK(report::FindSetupField("dataset") == nullptr);
}

}  // namespace
}  // namespace warmup
