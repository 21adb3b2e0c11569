#include "warmup/html_report.h"

#include <doctest/doctest.h>

#include <cctype>
#include <string>

#include <nlohmann/json.hpp>

#include "warmup/report.h"
#include "warmup/run_result.h"

namespace warmup {
namespace {

// The text of <script id="warmup-data" type="application/json">.
std::string PageData(const std::string& page) {
  const std::string open = "<script type=\"application/json\" id=\"warmup-data\">";
  const size_t start = page.find(open);
  REQUIRE(start != std::string::npos);
  const size_t end = page.find("</script>", start);
  REQUIRE(end != std::string::npos);
  return page.substr(start + open.size(), end - start - open.size());
}

TEST_CASE("RenderRunHtml: Chart.js inlined, the run's JSON as the data, nothing that ends the script early") {
  RunResult r;
  r.run_label = "lbl";
  r.source_catalog = "cat</script><!--";  // a name that would end the data element if written as is
  r.started_at = "2026-12-02T00:00:00Z";
  CollectionResult c;
  c.entity_type = "Brand";
  r.collections.push_back(c);
  const std::string page = RenderRunHtml(r);
  CHECK(page.rfind("<!DOCTYPE html>", 0) == 0);
  CHECK(page.find("Chart.js v") != std::string::npos);  // the library's banner: inlined, not fetched
  CHECK(page.find("http://") == std::string::npos);
  CHECK(page.find("src=") == std::string::npos);  // no external script
  CHECK(page.find("<title>warmup run lbl: cat&lt;/script&gt;&lt;!--") != std::string::npos);
  const std::string data = PageData(page);
  CHECK(data.find('<') == std::string::npos);
  CHECK(nlohmann::json::parse(data) == nlohmann::json::parse(RenderJsonReport(r)));
}

// The page's verdict banner: <div id="verdict" ...>...</div>, which must come
// before the content the script draws (so that it is the first thing read,
// and shows even when the script does not run).
std::string Banner(const std::string& page) {
  const size_t start = page.find("<div id=\"verdict\"");
  REQUIRE(start != std::string::npos);
  CHECK(start > page.find("<body>"));
  CHECK(start < page.find("<div id=\"content\">"));
  const size_t end = page.find("</div>", start);
  REQUIRE(end != std::string::npos);
  return page.substr(start, end + 6 - start);
}

std::string Lower(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// A load stopped by SIGINT in Product, 760 of its 1,188 entities copied, Tag
// never reached (docs/measurement.md: exit 1, "do not quote").
RunResult InterruptedRun() {
  RunResult r;
  r.run_label = "cut";
  r.source_catalog = "senesi";
  r.started_at = "2026-12-02T00:00:00Z";
  CollectionResult brand;
  brand.entity_type = "Brand";
  brand.source_count = brand.expected_count = brand.copied = 19;
  CollectionResult product;
  product.entity_type = "Product";
  product.source_count = product.expected_count = 1188;
  product.copied = 760;
  CollectionResult tag;
  tag.entity_type = "Tag";
  tag.source_count = tag.expected_count = 85;
  tag.reached = false;
  r.collections = {brand, product, tag};
  r.abort_reason = AbortReason::kInterrupted;
  r.abort_error = "interrupted by SIGINT after 760 <of> 1,188 Product entities @TITLE@";
  r.golive = GoLiveOutcome::kNotAttempted;
  r.verification = Verification::kNotReached;
  r.target_drop = TargetDrop::kDropped;
  return r;
}

RunResult VerifiedRun() {
  RunResult r;
  r.run_label = "good";
  CollectionResult brand;
  brand.entity_type = "Brand";
  brand.source_count = brand.expected_count = brand.copied = 19;
  brand.target_count = 19;
  r.collections = {brand};
  r.golive = GoLiveOutcome::kCompleted;
  r.golive_seconds = 0.25;
  r.verification = Verification::kVerified;
  return r;
}

TEST_CASE(
    "RenderRunHtml: an interrupted run opens with a red banner: INTERRUPTED, do not quote, exit 1, why") {
  const RunResult r = InterruptedRun();
  const std::string page = RenderRunHtml(r);
  const nlohmann::json doc = nlohmann::json::parse(PageData(page));
  REQUIRE(doc["exit_code"] == 1);  // what the banner must say, from the data
  REQUIRE(doc["abort_reason"] == "interrupted");
  const std::string banner = Banner(page);
  CAPTURE(banner);
  CHECK(Contains(banner, "class=\"banner red\""));
  CHECK(Contains(banner, "data-exit-code=\"1\""));
  CHECK(Contains(banner, doc["verdict"].get<std::string>()));
  CHECK(Contains(banner, "INTERRUPTED"));
  CHECK(Contains(Lower(banner), "do not quote these figures"));
  CHECK(Contains(banner, "(exit 1)"));
  CHECK(Contains(banner, "abort reason interrupted"));
  // The abort error as text, escaped, and never taken for a marker of the page's template.
  CHECK(Contains(banner, "interrupted by SIGINT after 760 &lt;of&gt; 1,188 Product entities @TITLE@"));
  CHECK(Contains(banner, "779 of 1,292 entities copied"));  // 19 + 760 of 19 + 1,188 + 85
  CHECK(Contains(banner, "goLive not attempted"));
  CHECK(Contains(banner, "the partial target catalog was dropped"));
}

// Seen against evitaDB: a content mismatch after a goLive that completed
// was reported as "the partial target catalog was dropped".
TEST_CASE("regression: a run that went ALIVE and then failed content verification is not called partial") {
  RunResult r = VerifiedRun();
  r.verify_mode = VerifyMode::kContent;
  r.verification = Verification::kContentDiffers;
  r.content_compared = 19;
  r.content_differences = 1;
  r.target_drop = TargetDrop::kDropped;
  REQUIRE(r.ExitCode() == 1);
  CHECK(TargetDropNote(r) == "; the target catalog was dropped");
  CHECK(TargetDropNote(InterruptedRun()) == "; the partial target catalog was dropped");
  const std::string banner = Banner(RenderRunHtml(r));
  CAPTURE(banner);
  CHECK(Contains(banner, "; the target catalog was dropped"));
  CHECK(!Contains(banner, "partial"));
}

TEST_CASE("RenderRunHtml: the banner is green without 'do not quote' for exit 0, amber with it for exit 2") {
  RunResult r = VerifiedRun();
  std::string banner = Banner(RenderRunHtml(r));
  CAPTURE(banner);
  CHECK(Contains(banner, "class=\"banner green\""));
  CHECK(Contains(banner, "data-exit-code=\"0\""));
  CHECK(Contains(banner,
                 nlohmann::json::parse(RenderJsonReport(r))["verdict"].get<std::string>() + " (exit 0)"));
  CHECK_FALSE(Contains(Lower(banner), "do not quote"));

  r.verification = Verification::kUnknown;  // the figures stand, completeness unproven
  REQUIRE(nlohmann::json::parse(RenderJsonReport(r))["exit_code"] == 2);
  banner = Banner(RenderRunHtml(r));
  CHECK(Contains(banner, "class=\"banner amber\""));
  CHECK(Contains(banner, "(exit 2)"));
  CHECK(Contains(Lower(banner), "do not quote these figures"));
}

TEST_CASE("RenderRunHtml: the banner carries 'do not quote', the output error and every note, escaped") {
  RunResult r = VerifiedRun();
  r.output_error = "--report-json out.json: <disk full>";
  r.notes = {"kept the catalog cut_1 & its data", "second note"};
  const std::string banner = Banner(RenderRunHtml(r));
  CAPTURE(banner);
  CHECK(Contains(banner, "class=\"banner red\""));
  // The verdict sentence of this failure does not say it; the banner must.
  CHECK_FALSE(Contains(Lower(nlohmann::json::parse(RenderJsonReport(r))["verdict"].get<std::string>()),
                       "do not quote"));
  CHECK(Contains(Lower(banner), "do not quote these figures"));
  CHECK(Contains(banner, "OUTPUT FAILED: --report-json out.json: &lt;disk full&gt;"));
  CHECK(Contains(banner, "note: kept the catalog cut_1 &amp; its data"));
  CHECK(Contains(banner, "note: second note"));
}

TEST_CASE("RenderComparisonHtml: the banner says the verdict and the exit code, with the warnings") {
  Comparison c;
  c.a_files = {"a1.json", "a2.json"};
  c.b_files = {"b1.json", "b2.json"};
  c.warnings = {"fewer than 9 runs per arm (2 and 2): <unreliable>"};
  MetricComparison m;
  m.metric = "total_seconds";
  m.unit = "s";
  m.a = {1, 2};
  m.b = {3, 4};
  m.decidable = false;
  m.verdict = Verdict::kInconclusive;
  c.metrics.push_back(m);
  std::string banner = Banner(RenderComparisonHtml(c));
  CAPTURE(banner);
  nlohmann::json doc = nlohmann::json::parse(RenderComparisonJson(c));
  REQUIRE(doc["exit_code"] == 4);
  CHECK(Contains(banner, "class=\"banner amber\""));
  CHECK(Contains(banner, "data-verdict=\"inconclusive\""));
  CHECK(Contains(banner, "INCONCLUSIVE (exit 4)"));
  CHECK(Contains(banner, "WARNING: fewer than 9 runs per arm (2 and 2): &lt;unreliable&gt;"));

  c.metrics[0].decidable = true;
  c.metrics[0].verdict = Verdict::kRegressed;
  banner = Banner(RenderComparisonHtml(c));
  CHECK(Contains(banner, "class=\"banner red\""));
  CHECK(Contains(banner, "REGRESSED (exit 3): total_seconds"));

  c.metrics[0].verdict = Verdict::kNoChange;
  banner = Banner(RenderComparisonHtml(c));
  CHECK(Contains(banner, "class=\"banner green\""));
  CHECK(Contains(banner, "no regression (exit 0)"));
}

TEST_CASE("RenderComparisonHtml: the comparison's JSON as the data") {
  Comparison c;
  c.a_files = {"a1.json", "a2.json"};
  c.b_files = {"b1.json", "b2.json"};
  MetricComparison m;
  m.metric = "total_seconds";
  m.unit = "s";
  m.a = {1, 2};
  m.b = {3, 4};
  c.metrics.push_back(m);
  const std::string page = RenderComparisonHtml(c);
  CHECK(page.find("<title>warmup compare: B against A, 2 and 2 runs</title>") != std::string::npos);
  CHECK(nlohmann::json::parse(PageData(page)) == nlohmann::json::parse(RenderComparisonJson(c)));
}

}  // namespace
}  // namespace warmup
