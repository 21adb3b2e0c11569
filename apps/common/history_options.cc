// warmup history's flags: the action first, then its own.
#include "common/option_parsing.h"
#include "common/options.h"

namespace warmup::cli {

StatusOr<HistoryCommand> ParseHistory(const std::vector<std::string>& args) {
  HistoryCommand cmd;
  const std::string usage =
      "usage: warmup history record REPORT.json|DIR... [--history LOC]\n"
      "       warmup history show [--metric M] [--host H] [--dataset D] [--all-runs] [--history LOC]\n"
      "       warmup history changes [--metric M]... [--host H] [--dataset D] [--threshold R] [--alpha A]\n"
      "                              [--min-segment N] [--permutations N] [--seed S] [--json F]\n"
      "                              [--all-runs] [--history LOC]\n"
      "       warmup history trend --html F [changes' flags]\n"
      "The runs warmup remembers (docs/history.md): record run reports, list a series, find change points\n"
      "(E-divisive means). LOC is a SQLite file or a postgresql:// URL; without --history, $WARMUP_HISTORY,\n"
      "else " +
      DefaultHistoryLocation() +
      ".\nchanges (and trend, which draws it as a page) exits 3 when the newest change point of a series is\n"
      "a regression, 4 when no series has enough runs to look, 0 otherwise; 1 on an error.";
  const std::string action = args.empty() ? "" : args.front();
  if (action == "--help" || action == "help") {
    cmd.help = usage;
    return cmd;
  }
  if (action == "record") {
    cmd.action = HistoryCommand::Action::kRecord;
  } else if (action == "show") {
    cmd.action = HistoryCommand::Action::kShow;
  } else if (action == "changes") {
    cmd.action = HistoryCommand::Action::kChanges;
  } else if (action == "trend") {
    cmd.action = HistoryCommand::Action::kTrend;
  } else {
    return InvalidArgumentError("warmup history needs an action: record, show, changes or trend" +
                                (action.empty() ? std::string() : ", not '" + action + "'"));
  }
  std::vector<std::string> metrics;
  double threshold_percent = 0;
  po::options_description o("options");
  o.add_options()("help", "show this help")("history", po::value(&cmd.location),
                                            "the store: a SQLite file or a postgresql:// URL");
  if (cmd.action == HistoryCommand::Action::kRecord) {
    o.add_options()("reports", po::value(&cmd.reports)->multitoken(),
                    "run reports (--report-json files), or directories of them (the positional arguments)");
  } else {
    o.add_options()("host", po::value(&cmd.query.host), "only hosts whose description contains this")(
        "dataset", po::value(&cmd.query.dataset), "only datasets whose fingerprint starts with this")(
        "all-runs", po::bool_switch(&cmd.query.all_runs),
        "show: failed and unverified runs too; changes: unverified runs (exit 2) counted too (failed runs "
        "never)");
  }
  if (cmd.action == HistoryCommand::Action::kShow) {
    o.add_options()("metric", po::value(&cmd.metric)->default_value(cmd.metric), "the metric listed");
  }
  const bool changes =
      cmd.action == HistoryCommand::Action::kChanges || cmd.action == HistoryCommand::Action::kTrend;
  if (cmd.action == HistoryCommand::Action::kTrend) {
    o.add_options()("html", po::value(&cmd.html_out), "write the page here (required)");
  }
  if (changes) {
    ChangePointOptions& d = cmd.changes.detection;
    o.add_options()("metric", po::value(&metrics)->composing(),
                    "a metric to search, repeatable (default: TOTAL, net load, goLive, the Product mean, the "
                    "server's CPU per entity and peak RSS)")(
        "threshold", po::value(&threshold_percent)->default_value(0),
        "percent worse beyond which a change is a regression (0: twice each series' own noise, at least 1)")(
        "alpha", po::value(&d.alpha)->default_value(d.alpha, "0.05"),
        "significance of a change point, for all the metrics of a series together")(
        "min-segment", po::value(&d.min_segment)->default_value(d.min_segment),
        "runs on each side of a change point, at least")(
        "permutations", po::value(&d.permutations)->default_value(d.permutations),
        "permutations of the significance test")(
        "seed", po::value(&d.seed)->default_value(d.seed),
        "the permutations' seed: the same history gives the same answer")("json", po::value(&cmd.json_out),
                                                                          "write every figure as JSON here");
  }
  po::positional_options_description positional;
  if (cmd.action == HistoryCommand::Action::kRecord) positional.add("reports", -1);
  auto vm = Parse(std::vector<std::string>(args.begin() + 1, args.end()), o, positional, usage, &cmd.help);
  if (!vm.ok()) return vm.status();
  if (!cmd.help.empty()) return cmd;
  if (cmd.location.empty()) cmd.location = DefaultHistoryLocation();
  if (cmd.action == HistoryCommand::Action::kRecord && cmd.reports.empty()) {
    return InvalidArgumentError("warmup history record needs run reports (or directories of them)");
  }
  if (cmd.action == HistoryCommand::Action::kTrend && cmd.html_out.empty()) {
    return InvalidArgumentError("warmup history trend needs --html FILE");
  }
  if (changes) {
    cmd.changes.metrics = metrics;
    cmd.changes.count_unverified = cmd.query.all_runs;
    if (!(threshold_percent >= 0 && threshold_percent < 1000)) {
      return InvalidArgumentError("--threshold must be a percentage from 0 (the series' noise) to 1000");
    }
    cmd.changes.threshold = threshold_percent / 100;
    if (auto s = CheckAlpha(cmd.changes.detection.alpha); !s.ok()) return s;
    if (auto s = CheckRange("min-segment", cmd.changes.detection.min_segment, 2, 1000); !s.ok()) return s;
    if (auto s = CheckRange("permutations", cmd.changes.detection.permutations, 99, 1'000'000); !s.ok()) {
      return s;
    }
  }
  return cmd;
}

}  // namespace warmup::cli
