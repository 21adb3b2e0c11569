// warmup ab: is server build B faster than build A? Interleaved reindex runs
// of the two (one discarded warm-up run each first), every run on a fresh
// server and data directory, every report kept, then warmup compare on them.
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "common/run_command.h"
#include "warmup/compare.h"
#include "warmup/html_report.h"
#include "warmup/report.h"
#include "warmup/run_result.h"

namespace {

namespace fs = std::filesystem;

struct PlannedRun {
  char arm;           // 'a' or 'b'
  std::string label;  // "a01", or "a-warmup" for the discarded first run
  bool warm_up = false;
};

// Warm-up runs A then B, then `runs` of each: A B A B ..., or shuffled with
// `seed` (Fisher-Yates over a standard generator, so a seed means the same
// order on every build).
std::vector<PlannedRun> Plan(int runs, bool random_order, uint64_t seed) {
  std::vector<PlannedRun> measured;
  for (int i = 1; i <= runs; ++i) {
    char number[16];
    std::snprintf(number, sizeof(number), "%02d", i);
    measured.push_back({'a', std::string("a") + number});
    measured.push_back({'b', std::string("b") + number});
  }
  if (random_order) {
    std::mt19937_64 rng(seed);
    for (size_t i = measured.size() - 1; i > 0; --i) std::swap(measured[i], measured[rng() % (i + 1)]);
  }
  std::vector<PlannedRun> plan = {{'a', "a-warmup", true}, {'b', "b-warmup", true}};
  plan.insert(plan.end(), measured.begin(), measured.end());
  return plan;
}

}  // namespace

int Ab(const std::vector<std::string>& args) {
  auto cmd = warmup::cli::ParseAb(args);
  if (auto stop = StopAfterParse(cmd)) return *stop;
  for (const auto& [flag, binary] : {std::pair{"--a", cmd->a_binary}, std::pair{"--b", cmd->b_binary}}) {
    if (!binary.empty() && ::access(binary.c_str(), X_OK) != 0) {
      return FailWith(warmup::FailedPreconditionError(std::string(flag) + " " + binary +
                                                      " is not an executable file; nothing was run"));
    }
  }
  if (auto s = warmup::CheckOutputFile("--html", cmd->html_out, true); !s.ok()) return FailWith(s);
  auto history = OpenHistory(cmd->reindex);
  if (!history.ok()) return FailWith(history.status());
  const fs::path out = cmd->out_dir;
  if (auto s = PrepareOutDir(out, "warmup ab keeps each comparison's runs apart"); !s.ok())
    return FailWith(s);

  // OUT/work holds each run's work directory, made by ab and removed after
  // the run unless --keep-work, and so is OUT/work itself at the end, when
  // the runs failed or were interrupted too: nothing stays that no one needs.
  const fs::path work = out / "work";
  std::error_code ec;
  auto remove_work = [&] {
    if (!cmd->keep_work) fs::remove_all(work, ec);
  };
  // One watcher for every run: an interrupt during a run stops that run (its
  // server after the grace), one between runs ends ab before the next, and
  // OUT/work is removed either way.
  warmup::cli::SignalWatcher signals("ab", true);

  const std::vector<PlannedRun> plan = Plan(cmd->runs, cmd->random_order, cmd->order_seed);
  std::vector<std::string> a_files, b_files;
  for (size_t i = 0; i < plan.size(); ++i) {
    const PlannedRun& planned = plan[i];
    if (signals.received() != 0) {
      remove_work();
      std::cerr << "warmup ab: interrupted before run " << planned.label << "; the reports so far are in "
                << out.string() << "\n";
      return kExitFailed;
    }
    warmup::cli::LoadCommand run = cmd->reindex;
    run.server.binary = planned.arm == 'a' ? cmd->a_binary : cmd->b_binary;
    run.server.extra_args = planned.arm == 'a' ? cmd->a_args : cmd->b_args;
    run.server.command = planned.arm == 'a' ? cmd->a_command : cmd->b_command;
    // A directory of its own per run: a build's server leaves nothing that
    // the next run, of another build, would find.
    run.target.work_dir = (work / planned.label).string();
    run.copy.run_label = planned.label;
    auto result = RunCommand(run, "ab", signals);
    // A failed run's work directory (its server's log and data) is the
    // evidence of what went wrong: kept beside its report, out of OUT/work.
    const fs::path kept = out / (planned.label + "-work");
    const bool failed = !result.ok() || result->ExitCode() == kExitFailed;
    if (failed && fs::exists(run.target.work_dir, ec)) {
      fs::rename(run.target.work_dir, kept, ec);
      if (!ec) {
        std::cerr << "warmup ab: run " << planned.label << " failed; its work directory is kept in "
                  << kept.string() << "\n";
      }
    }
    if (!result.ok()) {
      remove_work();
      return FailToRun(result.status().WithContext("warmup ab, run " + planned.label));
    }
    if (!cmd->keep_work) fs::remove_all(run.target.work_dir, ec);
    const fs::path json = out / (planned.label + ".json");
    if (auto s = WriteFile(json, warmup::RenderJsonReport(*result)); !s.ok()) {
      remove_work();
      return FailWith(s);
    }
    if (auto s = WriteFile(out / (planned.label + ".txt"), warmup::RenderTextReport(*result)); !s.ok()) {
      remove_work();
      return FailWith(s);
    }
    if (!planned.warm_up) {
      if (auto s = RecordInHistory(history->get(), *result); !s.ok()) {
        remove_work();
        return FailWith(s);
      }
    }
    std::fprintf(stderr, "warmup ab: run %2zu of %zu  %-8s %c%s  %s\n", i + 1, plan.size(),
                 planned.label.c_str(), planned.arm == 'a' ? 'A' : 'B',
                 planned.warm_up ? " (warm-up, not compared)" : "", RunLine(*result).c_str());
    if (signals.received() != 0) {
      remove_work();
      std::cerr << "warmup ab: interrupted during run " << planned.label << "; the reports so far are in "
                << out.string() << "\n";
      return kExitFailed;
    }
    if (result->ExitCode() != 0) {
      remove_work();
      return FailWith(warmup::FailedPreconditionError("run " + planned.label + " failed (exit " +
                                                      std::to_string(result->ExitCode()) + "); see " +
                                                      (out / (planned.label + ".txt")).string()));
    }
    if (!planned.warm_up) (planned.arm == 'a' ? a_files : b_files).push_back(json.string());
  }
  remove_work();

  auto comparison = warmup::CompareRuns(a_files, b_files, cmd->noise_files, cmd->compare);
  if (!comparison.ok()) return FailWith(comparison.status());
  if (auto s = WriteFile(out / "compare.json", warmup::RenderComparisonJson(*comparison)); !s.ok()) {
    return FailWith(s);
  }
  if (!cmd->html_out.empty()) {
    if (auto s = WriteFile(cmd->html_out, warmup::RenderComparisonHtml(*comparison)); !s.ok())
      return FailWith(s);
  }
  for (const auto& [arm, binary, command, extra] :
       {std::tuple{"A", &cmd->a_binary, &cmd->a_command, &cmd->a_args},
        std::tuple{"B", &cmd->b_binary, &cmd->b_command, &cmd->b_args}}) {
    std::cout << arm << ": " << (command->empty() ? *binary : "command " + *command)
              << (extra->empty() ? "" : " serve +");
    for (const auto& arg : *extra) std::cout << " " << arg;
    std::cout << "\n";
  }
  std::cout << warmup::RenderComparisonText(*comparison) << "runs and comparison: " << out.string() << "\n";
  return comparison->ExitCode();
}
