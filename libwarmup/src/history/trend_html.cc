// `warmup history trend --html`: the history's series as one page
// (RenderHistoryChangesHtml in warmup/change_points.h), on the skeleton every
// warmup page shares (report/html_page.h).
#include "report/html_page.h"
#include "warmup/change_points.h"

namespace warmup {
namespace history {
// trend.js, beside this file, made into this array at build time
// (cmake/embed_file.cmake, libwarmup/CMakeLists.txt): per series a section;
// per metric the change points as a table and the runs as a chart: a point
// per run in the order taken, each segment's mean as a line over its runs,
// each change point a marked line between the last run before it and the
// first after.
extern const char kTrendJs[];
}  // namespace history
namespace {

// The verdict, in the HTML itself: red for a regression at the newest
// change point (exit 3), amber when no series could be searched (exit 4).
std::string Banner(const HistoryChanges& changes, const std::string& verdict) {
  const int exit_code = changes.ExitCode();
  const std::string colour = exit_code == kCompareRegression     ? "red"
                             : exit_code == kCompareInconclusive ? "amber"
                                                                 : "green";
  return "<div id=\"verdict\" class=\"banner " + colour + "\" data-exit-code=\"" + std::to_string(exit_code) +
         "\">\n<p class=\"verdict\">" + report::HtmlEscaped(verdict) + "</p>\n</div>\n";
}

}  // namespace

std::string RenderHistoryChangesHtml(const HistoryChanges& changes) {
  size_t runs = 0;
  for (const SeriesChanges& s : changes.series) runs += s.runs;
  return report::HtmlPage("warmup history: " + std::to_string(runs) + " runs in " +
                              std::to_string(changes.series.size()) + " series",
                          Banner(changes, changes.Verdict()), RenderHistoryChangesJson(changes),
                          history::kTrendJs);
}

}  // namespace warmup
