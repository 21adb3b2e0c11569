// warmup ab's flags: its own, then reindex's (run_options.cc), less what ab
// sets for each run.
#include <sstream>
#include <tuple>

#include "common/option_parsing.h"
#include "common/options.h"

namespace warmup::cli {

StatusOr<AbCommand> ParseAb(const std::vector<std::string>& args) {
  AbCommand cmd;
  std::string a_args, b_args, order;
  po::options_description o("ab's options (every other flag is reindex's: warmup reindex --help)");
  o.add_options()("help", "show this help")("a", po::value(&cmd.a_binary),
                                            "arm A: the warmup binary whose serve is started")(
      "b", po::value(&cmd.b_binary), "arm B: the same, of the other build")(
      "a-command", po::value(&cmd.a_command),
      "arm A as a server command instead (evitaDB's JVM; placeholders as reindex --server-command)")(
      "b-command", po::value(&cmd.b_command), "arm B as a server command instead")(
      "a-args", po::value(&a_args), "more serve flags for arm A, one string split at spaces")(
      "b-args", po::value(&b_args), "more serve flags for arm B, e.g. \"--inject-upsert-delay-us 50\"")(
      "runs", po::value(&cmd.runs)->default_value(cmd.runs),
      "measured runs per arm, after one discarded warm-up run each (3 decide a large change by Welch's t on "
      "their logarithms; from 9 the rank test decides, without a model of their spread)")(
      "sequential", po::bool_switch(&cmd.sequential),
      "run pair by pair and stop as soon as the primary metric is decided (a look after each pair from the "
      "third, each at alpha over the number of looks); --runs is then the most per arm")(
      "order", po::value(&order)->default_value("abab"),
      "abab (A, B, A, B, ...) | random (a seeded shuffle, --seed)")(
      "out", po::value(&cmd.out_dir)->default_value(cmd.out_dir),
      "directory for every run's reports and the comparison; absent or empty")(
      "keep-work", po::bool_switch(&cmd.keep_work), "keep every run's work directory (OUT/work/LABEL)")(
      "noise-from", po::value(&cmd.noise_files)->multitoken(),
      "A/A run reports (4 or more) that set each metric's noise threshold")(
      "html", po::value(&cmd.html_out), "also write the comparison as a self-contained page here")(
      "seed", po::value(&cmd.order_seed)->default_value(1), "seed of --order random and of the bootstrap");
  std::string test_name;
  o.add(VerdictGroup(&cmd.compare, &test_name));
  const std::string usage =
      "usage: warmup ab --a WARMUP_A --b WARMUP_B [--runs N] [--order abab|random] [--out DIR]\n"
      "                 [--a-args \"...\"] [--b-args \"...\"] (--pristine-dir DIR | --source URL) "
      "[reindex's flags]\n"
      "Interleaved reindex runs of two server builds, each on a fresh server and data directory, then\n"
      "warmup compare on them. Exit 0: no regression, 3: a regression, 4: inconclusive, 1: error.";
  po::variables_map vm;
  std::vector<std::string> rest;
  try {
    auto parsed = po::command_line_parser(args).options(o).style(kStyle).allow_unregistered().run();
    po::store(parsed, vm);
    if (vm.count("help")) {
      std::ostringstream text;
      text << usage << "\n\n" << o;
      cmd.help = text.str();
      return cmd;
    }
    po::notify(vm);
    rest = po::collect_unrecognized(parsed.options, po::include_positional);
  } catch (const po::error& e) {
    return InvalidArgumentError(std::string(e.what()) + " (see --help)");
  }
  for (const std::string& token : rest) {
    for (const char* flag :
         {"--address", "--server-binary", "--server-args", "--server-command", "--work-dir", "--run",
          "--report-json", "--per-entity-csv", "--hold-open-seconds"}) {
      if (token == flag || token.starts_with(std::string(flag) + "=")) {
        return InvalidArgumentError(
            std::string(flag) + " is set by warmup ab for each run; leave it out (the reports go to --out)");
      }
    }
  }
  for (const std::string& token : rest) {
    for (const char* flag : {"--warmup-runs", "--warmup-until-stable", "--warmup-metric"}) {
      if (token == flag || token.starts_with(std::string(flag) + "=")) {
        return InvalidArgumentError(std::string(flag) +
                                    ": warmup ab makes one warm-up run per arm before its --runs, each on a "
                                    "fresh server");
      }
    }
  }
  // --server-xmx fills {xmx} of the arms' commands (--a-command, --b-command):
  // taken here, since reindex's own would want a --server-command.
  std::string xmx;
  for (size_t i = 0; i < rest.size(); ++i) {
    if (rest[i] == "--server-xmx" && i + 1 < rest.size()) {
      xmx = rest[i + 1];
      rest.erase(rest.begin() + static_cast<std::ptrdiff_t>(i),
                 rest.begin() + static_cast<std::ptrdiff_t>(i) + 2);
      break;
    }
    if (rest[i].starts_with("--server-xmx=")) {
      xmx = rest[i].substr(std::string("--server-xmx=").size());
      rest.erase(rest.begin() + static_cast<std::ptrdiff_t>(i));
      break;
    }
  }
  auto reindex = ParseReindex(rest);
  if (!reindex.ok()) return reindex.status();
  cmd.reindex = std::move(reindex).value();
  auto* started = std::get_if<StartedServerTargetSpec>(&cmd.reindex.target);
  if (started == nullptr) {
    return InvalidArgumentError("warmup ab compares two servers it starts: --target embedded is for reindex");
  }
  if (!xmx.empty()) {
    if (cmd.a_command.empty() && cmd.b_command.empty()) {
      return InvalidArgumentError(
          "--server-xmx has no effect without --a-command or --b-command; leave it out");
    }
    started->server.xmx = xmx;
  }
  cmd.reindex.command_line = CommandLine({"warmup", "ab"}, args);
  if (order != "abab" && order != "random") {
    return InvalidArgumentError("--order must be abab or random, not '" + order + "'");
  }
  cmd.random_order = order == "random";
  if (auto s = CheckRange("runs", cmd.runs, cmd.sequential ? 3 : 2, 1000); !s.ok()) {
    return cmd.sequential ? s.WithContext("--sequential looks from the third pair on") : s;
  }
  if (auto s = CheckVerdictOptions(test_name, &cmd.compare); !s.ok()) return s;
  cmd.compare.seed = cmd.order_seed;
  cmd.a_args = SplitAtSpaces(a_args);
  cmd.b_args = SplitAtSpaces(b_args);
  for (const auto& [arm, binary, command, extra] :
       {std::tuple{"a", &cmd.a_binary, &cmd.a_command, &cmd.a_args},
        std::tuple{"b", &cmd.b_binary, &cmd.b_command, &cmd.b_args}}) {
    const std::string name = arm;
    if (binary->empty() == command->empty()) {
      return InvalidArgumentError("give arm " + name + " as --" + name + " WARMUP or --" + name +
                                  "-command 'CMD', one of them");
    }
    if (!command->empty() && !extra->empty()) {
      return InvalidArgumentError("--" + name + "-args adds warmup serve flags; with --" + name +
                                  "-command write them into the command");
    }
    if (auto s = RequireXmx(*command, started->server.xmx, "--" + name + "-command", "--server-xmx");
        !s.ok()) {
      return s;
    }
  }
  for (const char* name : {"a", "b", "a-command", "b-command"}) {
    if (!vm[name].empty() && vm[name].as<std::string>().empty()) {
      return InvalidArgumentError(std::string("--") + name + " needs a value, not an empty one");
    }
  }
  if (cmd.out_dir.empty()) return InvalidArgumentError("--out needs a value, not an empty one");
  cmd.reindex.report.progress_lines = false;
  return cmd;
}

}  // namespace warmup::cli
