// The skeleton every HTML page of warmup's shares (html_report.h says what
// a page promises): the style, Chart.js inlined, the error trap, the data
// block, the common helpers (sections, tables, charts, the markers plugin),
// then the page's own script. Internal; for the report and history floors.
#ifndef WARMUP_SRC_REPORT_HTML_PAGE_H_
#define WARMUP_SRC_REPORT_HTML_PAGE_H_

#include <string>

namespace warmup::report {

// A whole page titled `title` (escaped here), with `banner_html` (already
// HTML) first, `json` as its data block (made safe to embed here) and
// `page_js` run after the common helpers.
std::string HtmlPage(const std::string& title, const std::string& banner_html, const std::string& json,
                     const char* page_js);

// `text` with &, <, > and " escaped for HTML.
std::string HtmlEscaped(const std::string& text);

}  // namespace warmup::report

#endif  // WARMUP_SRC_REPORT_HTML_PAGE_H_
