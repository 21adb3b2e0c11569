#include "warmup/html_report.h"

#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "warmup/report.h"

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
