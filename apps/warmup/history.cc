// warmup history: the runs warmup remembers. record puts run reports into
// the store, show lists a series, changes finds its change points and exits
// 3 when the newest is a regression, trend draws them as a page
// (docs/history.md).
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>

#include "common/options.h"
#include "common/run_command.h"
#include "warmup/change_points.h"
#include "warmup/history.h"

namespace {

namespace fs = std::filesystem;

// The run reports a record argument names: a file as it is; a directory's
// *.json files by name, but the warm-up runs of --runs and ab
// (LABEL-warmupN.json, a-warmup.json) and what is not a run report.
std::vector<std::string> ReportsIn(const std::string& path, std::vector<std::string>& skipped) {
  std::error_code ec;
  if (!fs::is_directory(path, ec)) return {path};
  std::vector<std::string> files;
  for (const auto& entry : fs::directory_iterator(path, ec)) {
    if (entry.path().extension() != ".json") continue;
    const std::string name = entry.path().filename().string();
    if (name.find("-warmup") != std::string::npos) {
      skipped.push_back(entry.path().string() + " (a warm-up run)");
      continue;
    }
    std::ifstream in(entry.path(), std::ios::binary);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (text.find("\"warmup-run/") ==
        std::string::npos) {  // a run report's schema; not a summary's (warmup-runs/)
      skipped.push_back(entry.path().string() + " (not a run report)");
      continue;
    }
    files.push_back(entry.path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

int Record(warmup::History& history, const warmup::cli::HistoryCommand& cmd) {
  std::vector<std::string> skipped, files;
  for (const std::string& path : cmd.reports) {
    for (const std::string& file : ReportsIn(path, skipped)) files.push_back(file);
  }
  int recorded = 0, known = 0;
  for (const std::string& file : files) {
    auto result = warmup::RecordReportFile(history, file);
    if (!result.ok()) {
      std::cerr << "warmup: " << result.status().ToString() << "\n";
      std::cout << "recorded " << recorded << ", already there " << known << "; stopped at " << file << "\n";
      return kExitFailed;
    }
    (*result ? recorded : known) += 1;
    std::cout << (*result ? "recorded       " : "already there  ") << file << "\n";
  }
  for (const std::string& s : skipped) std::cout << "not recorded   " << s << "\n";
  std::cout << "recorded " << recorded << ", already there " << known << " (" << history.Describe() << ")\n";
  return 0;
}

int Show(const std::vector<warmup::HistoryRun>& runs, const warmup::cli::HistoryCommand& cmd) {
  std::vector<std::string> order;
  std::map<std::string, std::vector<const warmup::HistoryRun*>> series;
  for (const warmup::HistoryRun& r : runs) {
    if (!series.contains(r.series)) order.push_back(r.series);
    series[r.series].push_back(&r);
  }
  for (size_t i = 0; i < order.size(); ++i) {
    const std::vector<const warmup::HistoryRun*>& points = series[order[i]];
    // The server (binary, serve flags, heap) varies along a series as the build does: shown when it does.
    const bool servers_differ = std::any_of(points.begin(), points.end(), [&](const warmup::HistoryRun* r) {
      return r->record.server != points.front()->record.server;
    });
    std::cout << "series " << i + 1 << ": " << order[i] << "\n";
    std::printf("  %-20s %-16s %-28s %4s %14s%s\n", "started", "run", "build", "exit", cmd.metric.c_str(),
                servers_differ ? "  server" : "");
    for (const warmup::HistoryRun* r : points) {
      auto it = r->record.metrics.find(cmd.metric);
      char value[32] = "-";
      if (it != r->record.metrics.end()) {
        std::snprintf(value, sizeof(value), "%.4g %s", it->second.value, it->second.unit.c_str());
      }
      const std::string server = servers_differ ? "  " + r->record.server : "";
      std::printf("  %-20s %-16s %-28s %4d %14s%s%s\n", r->record.started_at.c_str(),
                  r->record.run_label.c_str(), r->record.build.c_str(), r->record.exit_code, value,
                  server.c_str(),
                  r->record.exit_code == 1   ? ("  FAILED: " + r->record.failure).c_str()
                  : r->record.exit_code == 2 ? "  NOT VERIFIED"
                                             : "");
    }
  }
  if (order.empty()) std::cout << "no runs recorded that match\n";
  return 0;
}

}  // namespace

int History(const std::vector<std::string>& args) {
  auto cmd = warmup::cli::ParseHistory(args);
  if (auto stop = StopAfterParse(cmd)) return *stop;
  if (auto s = warmup::CheckOutputFile("--json", cmd->json_out, true); !s.ok()) return FailWith(s);
  if (auto s = warmup::CheckOutputFile("--html", cmd->html_out, true); !s.ok()) return FailWith(s);
  auto history = warmup::History::Open(cmd->location);
  if (!history.ok()) return FailWith(history.status());
  if (cmd->action == warmup::cli::HistoryCommand::Action::kRecord) return Record(**history, *cmd);
  warmup::HistoryQuery query = cmd->query;
  if (cmd->action != warmup::cli::HistoryCommand::Action::kShow) {
    query.all_runs = true;  // FindHistoryChanges counts those that do not count, and leaves them out
  }
  auto runs = (*history)->Runs(query);
  if (!runs.ok()) return FailWith(runs.status());
  if (cmd->action == warmup::cli::HistoryCommand::Action::kShow) return Show(*runs, *cmd);
  const warmup::HistoryChanges changes = warmup::FindHistoryChanges(*runs, cmd->changes);
  if (!cmd->json_out.empty()) {
    if (auto s = WriteFile(cmd->json_out, warmup::RenderHistoryChangesJson(changes)); !s.ok()) {
      return FailWith(s);
    }
  }
  if (!cmd->html_out.empty()) {
    if (auto s = WriteFile(cmd->html_out, warmup::RenderHistoryChangesHtml(changes)); !s.ok()) {
      return FailWith(s);
    }
  }
  std::cout << warmup::RenderHistoryChangesText(changes);
  if (!cmd->html_out.empty()) std::cout << "wrote " << cmd->html_out << "\n";
  return changes.ExitCode();
}
