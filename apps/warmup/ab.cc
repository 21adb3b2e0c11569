// warmup ab: is server build B faster than build A? Interleaved reindex runs
// of the two (one discarded warm-up run each first), every run on a fresh
// server and data directory, every report kept, then warmup compare on them;
// or, --sequential, pair by pair until the verdict is decided.
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
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

// --sequential: the measured runs pair by pair, A and B in each (in a
// seeded random order within the pair with --order random), up to `runs`
// pairs; the comparison looks after each pair from this one.
constexpr size_t kFirstLook = 3;

std::vector<PlannedRun> PlanPair(int pair, bool random_order, std::mt19937_64& rng) {
  char number[16];
  std::snprintf(number, sizeof(number), "%02d", pair);
  std::vector<PlannedRun> runs = {{'a', std::string("a") + number}, {'b', std::string("b") + number}};
  if (random_order && rng() % 2 == 1) std::swap(runs[0], runs[1]);
  return runs;
}

// Whether a sequential comparison may stop: its primary metric regressed or
// improved, or its interval lies within 1 +- the noise threshold (no change
// beyond the noise, shown rather than merely not found).
bool Decided(const warmup::Comparison& c) {
  const warmup::MetricComparison& m = c.primary();
  if (m.verdict == warmup::Verdict::kRegressed || m.verdict == warmup::Verdict::kImproved) return true;
  return m.decidable && m.ratio_ci.low >= 1 - m.noise_threshold && m.ratio_ci.high <= 1 + m.noise_threshold;
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
  const EmptyOutDirGuard out_guard(out);
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

  std::vector<std::string> a_files, b_files;
  size_t made = 0;
  // One run of the plan; an exit status when ab must end (a failure, an
  // interrupt), after which nothing else is run.
  auto run_one = [&](const PlannedRun& planned, const std::string& of) -> std::optional<int> {
    if (signals.received() != 0) {
      remove_work();
      std::cerr << "warmup ab: interrupted before run " << planned.label << "; the reports so far are in "
                << out.string() << "\n";
      return kExitFailed;
    }
    warmup::cli::LoadCommand run = cmd->reindex;
    auto& started = std::get<warmup::StartedServerTargetSpec>(run.target);  // ab's parser made it so
    started.server.binary = planned.arm == 'a' ? cmd->a_binary : cmd->b_binary;
    started.server.extra_args = planned.arm == 'a' ? cmd->a_args : cmd->b_args;
    started.server.command = planned.arm == 'a' ? cmd->a_command : cmd->b_command;
    // A directory of its own per run: a build's server leaves nothing that
    // the next run, of another build, would find.
    started.work_dir = (work / planned.label).string();
    run.copy.run_label = planned.label;
    auto result = RunCommand(run, "ab", signals);
    KeepOrRemoveWork("ab", planned.label, started.work_dir, out / (planned.label + "-work"),
                     !result.ok() || result->ExitCode() == kExitFailed, cmd->keep_work);
    if (!result.ok()) {
      remove_work();
      return FailToRun(result.status().WithContext("warmup ab, run " + planned.label));
    }
    const fs::path json = out / (planned.label + ".json");
    for (const auto& [path, text] :
         {std::pair{json, warmup::RenderJsonReport(*result)},
          std::pair{out / (planned.label + ".txt"), warmup::RenderTextReport(*result)}}) {
      if (auto s = WriteFile(path, text); !s.ok()) {
        remove_work();
        return FailWith(s);
      }
    }
    if (!planned.warm_up) {
      if (auto s = RecordInHistory(history->get(), *result); !s.ok()) {
        remove_work();
        return FailWith(s);
      }
    }
    std::fprintf(stderr, "warmup ab: run %2zu of %s  %-8s %c%s  %s\n", ++made, of.c_str(),
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
    return std::nullopt;
  };

  std::optional<warmup::StatusOr<warmup::Comparison>> comparison;
  if (!cmd->sequential) {
    const std::vector<PlannedRun> plan = Plan(cmd->runs, cmd->random_order, cmd->order_seed);
    for (const PlannedRun& planned : plan) {
      if (auto stop = run_one(planned, std::to_string(plan.size()))) return *stop;
    }
  } else {
    // Every look may stop ab on a verdict, so each is tested at alpha over
    // the number of looks (Bonferroni): the chance that any look calls a
    // change that is not there stays at most alpha, however the runs fall.
    warmup::CompareOptions per_look = cmd->compare;
    const size_t looks = static_cast<size_t>(cmd->runs) - kFirstLook + 1;
    per_look.alpha = cmd->compare.alpha / static_cast<double>(looks);
    const std::string of = "at most " + std::to_string(2 + 2 * cmd->runs);
    for (const PlannedRun& warm_up : {PlannedRun{'a', "a-warmup", true}, PlannedRun{'b', "b-warmup", true}}) {
      if (auto stop = run_one(warm_up, of)) return *stop;
    }
    std::mt19937_64 rng(cmd->order_seed);
    warmup::SequentialLooks sequential{0, looks, static_cast<size_t>(cmd->runs), cmd->compare.alpha, false};
    for (int pair = 1; pair <= cmd->runs; ++pair) {
      for (const PlannedRun& planned : PlanPair(pair, cmd->random_order, rng)) {
        if (auto stop = run_one(planned, of)) return *stop;
      }
      if (a_files.size() < kFirstLook) continue;
      ++sequential.look;
      comparison = warmup::CompareRuns(a_files, b_files, cmd->noise_files, per_look);
      if (!comparison->ok()) break;
      sequential.stopped_early = Decided(**comparison) && pair < cmd->runs;
      std::fprintf(stderr, "warmup ab: look %zu of %zu after %d runs an arm: %s\n", sequential.look, looks,
                   pair, warmup::VerdictSentence(**comparison).c_str());
      if (Decided(**comparison)) break;
    }
    if (comparison && comparison->ok()) (*comparison)->sequential = sequential;
  }
  remove_work();

  if (!comparison) comparison = warmup::CompareRuns(a_files, b_files, cmd->noise_files, cmd->compare);
  if (!comparison->ok()) return FailWith(comparison->status());
  const warmup::Comparison& compared = **comparison;
  if (auto s = WriteFile(out / "compare.json", warmup::RenderComparisonJson(compared)); !s.ok()) {
    return FailWith(s);
  }
  if (!cmd->html_out.empty()) {
    if (auto s = WriteFile(cmd->html_out, warmup::RenderComparisonHtml(compared)); !s.ok()) {
      return FailWith(s);
    }
  }
  for (const auto& [arm, binary, command, extra] :
       {std::tuple{"A", &cmd->a_binary, &cmd->a_command, &cmd->a_args},
        std::tuple{"B", &cmd->b_binary, &cmd->b_command, &cmd->b_args}}) {
    std::cout << arm << ": " << (command->empty() ? *binary : "command " + *command)
              << (extra->empty() ? "" : " serve +");
    for (const auto& arg : *extra) std::cout << " " << arg;
    std::cout << "\n";
  }
  std::cout << warmup::RenderComparisonText(compared) << "runs and comparison: " << out.string() << "\n";
  return compared.ExitCode();
}
