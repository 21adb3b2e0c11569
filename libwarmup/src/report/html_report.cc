#include "warmup/html_report.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "report/html_page.h"
#include "warmup/report.h"
#include "warmup/run_result.h"

namespace warmup {
namespace report {
// Each generated at build time from a file by cmake/embed_file.cmake
// (libwarmup/CMakeLists.txt): the pages' style and scripts live in html/ as
// CSS and JavaScript files, and each page carries them byte for byte.
extern const char kChartJs[];  // Debian's chart.min.js
extern const char kPageCss[];  // html/page.css: the style of every page
// html/common.js: the helpers every page's script uses: sections, tables,
// charts, and a plugin that draws dashed vertical lines (collection starts,
// goLive) on a time axis. What a chart drew (its axis range, its series and
// markers) is written on its canvas as data-* attributes, so a script can
// check the page against its data.
extern const char kCommonJs[];
extern const char kRunJs[];         // html/run.js: a run's page
extern const char kComparisonJs[];  // html/comparison.js: a comparison's page
}  // namespace report
namespace {

// The page's skeleton around those files: before the style (kPageCss) ...
constexpr const char* kHead = R"html(<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>@TITLE@</title>
<style>
)html";

// ... after Chart.js: the banner, the error trap, the data block ...
constexpr const char* kAfterChartJs = R"html(
</script>
</head>
<body>
<h1>@TITLE@</h1>
@BANNER@<pre id="errors"></pre>
<div id="content"></div>
<script>
window.addEventListener('error', (e) => {
  document.getElementById('errors').textContent += 'script error: ' + e.message + '\n';
  document.body.dataset.rendered = 'error';
});
</script>
<script type="application/json" id="warmup-data">)html";

// ... and after the page's own script: the mark that it drew.
constexpr const char* kTail = R"html(
document.body.dataset.charts = String(charts);
if (document.body.dataset.rendered !== 'error') document.body.dataset.rendered = 'ok';
</script>
</body>
</html>
)html";

std::string Escaped(const std::string& text) {
  std::string out;
  for (const char ch : text) {
    switch (ch) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += ch;
    }
  }
  return out;
}

// `text` with each "@NAME@" marker of `values` replaced, in one pass over
// `text`: what is put in is never searched again (a name or an error message
// may hold "@TITLE@").
std::string Filled(const std::string& text, const std::vector<std::pair<std::string, std::string>>& values) {
  std::string out;
  size_t at = 0;
  while (at < text.size()) {
    size_t next = std::string::npos;
    const std::pair<std::string, std::string>* found = nullptr;
    for (const auto& value : values) {
      const size_t pos = text.find(value.first, at);
      if (pos < next) {
        next = pos;
        found = &value;
      }
    }
    if (found == nullptr) break;
    out.append(text, at, next - at);
    out += found->second;
    at = next + found->first.size();
  }
  if (at < text.size()) out.append(text, at, std::string::npos);
  return out;
}

std::string Seconds(double s) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.3f s", s);
  return buf;
}

// 386369 -> "386,369", as the text report writes counts.
std::string Grouped(int64_t n) {
  std::string digits = std::to_string(n < 0 ? -n : n);
  for (int i = static_cast<int>(digits.size()) - 3; i > 0; i -= 3) digits.insert(static_cast<size_t>(i), ",");
  return (n < 0 ? "-" : "") + digits;
}

std::string Paragraph(const std::string& cls, const std::string& text) {
  return "<p class=\"" + cls + "\">" + Escaped(text) + "</p>\n";
}

// The run's verdict, first on the page and in its HTML rather than drawn by
// the script, so that even a page whose script fails says whether its
// figures may be quoted: red for a failed run (exit 1), amber for figures
// whose completeness is unproven (exit 2), green for a run that stands.
std::string RunBanner(const RunResult& r) {
  const int exit_code = r.ExitCode();
  const std::string colour = exit_code == 0 ? "green" : exit_code == 2 ? "amber" : "red";
  std::string out = "<div id=\"verdict\" class=\"banner " + colour + "\" data-exit-code=\"" +
                    std::to_string(exit_code) + "\" data-abort-reason=\"" + AbortReasonName(r.abort_reason) +
                    "\">\n";
  out += Paragraph("verdict", RunVerdict(r) + " (exit " + std::to_string(exit_code) + ")");
  if (exit_code == 2) {
    out += Paragraph(
        "quote",
        "Do not quote these figures as a complete run: they stand, but whether every entity arrived is "
        "unknown (exit 2)");
  } else if (exit_code != 0) {
    out += Paragraph("quote",
                     "Do not quote these figures: the run failed (exit " + std::to_string(exit_code) + ")");
  }
  if (r.abort_reason != AbortReason::kNone || !r.abort_error.empty()) {
    const char* why = r.abort_reason == AbortReason::kEntityRejected ? "an entity was rejected"
                      : r.abort_reason == AbortReason::kTargetFailed ? "the target failed, not the entity"
                      : r.abort_reason == AbortReason::kSourceFailed ? "the source failed"
                      : r.abort_reason == AbortReason::kInterrupted  ? "interrupted"
                      : r.abort_reason == AbortReason::kOutputFailed ? "an output could not be written"
                                                                     : "no reason recorded";
    out += Paragraph("abort",
                     "ABORTED (" + std::string(why) + "; abort reason " + AbortReasonName(r.abort_reason) +
                         "): " + (r.abort_error.empty() ? std::string("no error recorded") : r.abort_error));
  }
  std::string golive;
  switch (r.golive) {
    case GoLiveOutcome::kCompleted:
      golive = "goLive completed in " + Seconds(r.golive_seconds);
      break;
    case GoLiveOutcome::kFailed:
      golive = "goLive FAILED after " + Seconds(r.golive_seconds) + " (time to failure): " + r.golive_error;
      break;
    case GoLiveOutcome::kNotAttempted:
      golive = "goLive not attempted";
      break;
  }
  const std::string drop = TargetDropNote(r);
  out += Paragraph("outcome", Grouped(r.copied()) + " of " + Grouped(r.expected()) + " entities copied; " +
                                  golive + "; verification " + VerificationVerdict(r.verification) + drop);
  if (!r.output_error.empty()) out += Paragraph("output-error", "OUTPUT FAILED: " + r.output_error);
  for (const std::string& note : r.notes) out += Paragraph("run-note", "note: " + note);
  return out + "</div>\n";
}

// The comparison's verdict, in the page's HTML like the run's: red for a
// regression (exit 3), amber when the runs cannot decide (exit 4), green for
// no regression (exit 0); then the warnings.
std::string ComparisonBanner(const Comparison& c) {
  const int exit_code = c.ExitCode();
  std::string colour = "green";
  std::string verdict = "no regression";
  std::string text = VerdictSentence(c);
  std::string regressed, improved;
  for (const MetricComparison& m : c.metrics) {
    if (m.verdict == Verdict::kRegressed && !m.primary) {
      regressed += (regressed.empty() ? "" : ", ") + m.metric;
    }
    if (m.verdict == Verdict::kImproved) improved += (improved.empty() ? "" : ", ") + m.metric;
  }
  if (exit_code == kCompareRegression) {
    colour = "red";
    verdict = "regressed";
  } else if (exit_code == kCompareInconclusive) {
    colour = "amber";
    verdict = "inconclusive";
  }
  if (!regressed.empty()) text += "; secondary, not deciding: " + regressed + " regressed";
  if (!improved.empty()) text += "; improved: " + improved;
  std::string out = "<div id=\"verdict\" class=\"banner " + colour + "\" data-exit-code=\"" +
                    std::to_string(exit_code) + "\" data-verdict=\"" + verdict + "\">\n";
  out += Paragraph("verdict", text);
  if (c.sequential) out += Paragraph("sequential", SequentialSentence(c));
  for (const std::string& w : c.warnings) out += Paragraph("warning", "WARNING: " + w);
  return out + "</div>\n";
}

// The page around `json` (inside a script element, where "</" or "<!--"
// could end or confuse it: every "<" is written as \u003c, the same string to
// a JSON parser, and outside strings JSON has none) and `page_js`; `banner`
// is HTML, escaped by its maker.
std::string Page(const std::string& title, const std::string& banner, const std::string& json,
                 const char* page_js) {
  const std::string escaped_title = Escaped(title);
  std::string out = Filled(kHead, {{"@TITLE@", escaped_title}});
  out += report::kPageCss;
  out += "</style>\n<script>\n";
  out += report::kChartJs;
  out += Filled(kAfterChartJs, {{"@TITLE@", escaped_title}, {"@BANNER@", banner}});
  for (const char ch : json) {
    if (ch == '<') {
      out += "\\u003c";
    } else {
      out += ch;
    }
  }
  // The data block ends; the script is the common helpers, then the page's own.
  out += "</script>\n<script>\n";
  out += report::kCommonJs;
  out += "\n";
  out += page_js;
  out += kTail;
  return out;
}

}  // namespace

std::string RenderRunHtml(const RunResult& result) {
  return Page(
      "warmup run " + result.run_label + ": " + result.source_catalog + " (" + result.started_at + ")",
      RunBanner(result), RenderJsonReport(result), report::kRunJs);
}

namespace report {

std::string HtmlPage(const std::string& title, const std::string& banner_html, const std::string& json,
                     const char* page_js) {
  return Page(title, banner_html, json, page_js);
}

std::string HtmlEscaped(const std::string& text) { return Escaped(text); }

}  // namespace report

std::string RenderComparisonHtml(const Comparison& comparison) {
  return Page("warmup compare: B against A, " + std::to_string(comparison.a_files.size()) + " and " +
                  std::to_string(comparison.b_files.size()) + " runs",
              ComparisonBanner(comparison), RenderComparisonJson(comparison), report::kComparisonJs);
}

}  // namespace warmup
