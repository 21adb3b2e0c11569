// The flags of a run: warmup load, warmup reindex and warmup-profile (and
// warmup ab, through reindex's). Each is made of option groups (source,
// target, TLS, copy, report, the started server, the profiler); a group
// declares its options and checks its own values, and a command is the
// groups it has, so that one flag means one thing wherever it appears and
// --help lists only what a command accepts.
#include "common/option_parsing.h"
#include "common/options.h"
#include "common/run_option_groups.h"

namespace warmup::cli {
namespace {

constexpr const char* kSourceUsage =
    "(--pristine-dir DIR [--catalog NAME] | --source grpc://HOST:PORT/CATALOG)";

std::string UsageOf(RunVerb verb) {
  switch (verb) {
    case RunVerb::kLoad:
      return std::string("usage: warmup load ") + kSourceUsage + " [--target embedded|remote|null] ...";
    case RunVerb::kReindex:
      return std::string("usage: warmup reindex ") + kSourceUsage + " [--target remote|embedded] ...";
    case RunVerb::kProfile:
      return std::string("usage: warmup-profile ") + kSourceUsage +
             " [--collections A,B] [--profiler none|cpu|heap|perf --profile-out P] ...\n"
             "An embedded load with a profiler window around the load alone; reports allocations per upsert "
             "per collection and the write path's share of CPU.";
  }
  return {};
}

// The run command `verb`'s groups over `args`; `profiler` is warmup-profile's.
StatusOr<LoadCommand> ParseRun(const std::vector<std::string>& args, RunVerb verb,
                               ProfilerOptions* profiler = nullptr) {
  LoadCommand cmd;
  ClientTlsOptions tls;
  std::string profiler_kind;
  SourceGroup source{cmd.source};
  TargetGroup target{cmd.target, verb};
  CopyGroup copy{cmd.copy};
  ReportGroup report{cmd.report, /*with_history=*/verb != RunVerb::kProfile};
  StartedServerGroup server{cmd.target};
  RepeatGroup repeat{cmd.repeat};
  po::options_description visible;
  visible.add_options()("help", "show this help");
  // warmup-profile's only connection is a grpcs:// source: no --tls switch.
  visible.add(source.Options())
      .add(target.Options())
      .add(ClientTlsGroup(&tls, verb == RunVerb::kProfile ? TlsBy::kSource : TlsBy::kSwitchOrSource))
      .add(copy.Options())
      .add(report.Options());
  if (verb == RunVerb::kReindex) visible.add(server.Options());
  if (verb != RunVerb::kProfile) visible.add(repeat.Options());
  if (verb == RunVerb::kProfile) visible.add(ProfilerGroup(&profiler_kind, profiler, /*serve=*/false));
  po::options_description hidden;
  hidden.add(target.Hidden()).add(copy.Hidden());
  auto vm = Parse(args, visible, {}, UsageOf(verb), &cmd.help, hidden);
  if (!vm.ok()) return vm.status();
  if (!cmd.help.empty()) return cmd;
  if (verb == RunVerb::kProfile) {
    if (auto s = FinishProfiler(profiler_kind, profiler); !s.ok()) return s;
  }
  if (auto s = copy.Finish(*vm); !s.ok()) return s;
  if (auto s = target.Finish(*vm, cmd.copy.verify); !s.ok()) return s;
  if (verb == RunVerb::kReindex) {
    if (auto s = server.Finish(*vm); !s.ok()) return s;
  }
  if (auto s = report.Finish(); !s.ok()) return s;
  if (verb != RunVerb::kProfile) {
    if (auto s = repeat.Finish(*vm, cmd); !s.ok()) return s;
  }
  if (auto s = source.Finish(*vm, tls); !s.ok()) return s;
  const auto* live = std::get_if<LiveSourceSpec>(&cmd.source);
  const bool live_tls = live != nullptr && live->tls.enabled;
  if (verb == RunVerb::kProfile && !live_tls &&
      !CheckClientTls(TlsFor(tls, /*enabled=*/false, /*keep_settings=*/true)).ok()) {
    return InvalidArgumentError(
        "TLS settings (--ca-cert, --fetch-server-cert, --client-cert, --client-key, --tls-server-name) "
        "given, "
        "but warmup-profile connects only to a grpcs:// --source: write grpcs:// there, or leave them out");
  }
  if (auto s = CheckClientTls(TlsFor(tls, tls.enabled || live_tls, /*keep_settings=*/true)); !s.ok()) {
    return s;
  }
  if (auto* remote = std::get_if<RemoteTargetSpec>(&cmd.target)) remote->tls = TlsFor(tls, tls.enabled);
  return cmd;
}

}  // namespace

StatusOr<LoadCommand> ParseLoad(const std::vector<std::string>& args) {
  auto cmd = ParseRun(args, RunVerb::kLoad);
  if (cmd.ok()) cmd->command_line = CommandLine({"warmup", "load"}, args);
  return cmd;
}

StatusOr<LoadCommand> ParseReindex(const std::vector<std::string>& args) {
  auto cmd = ParseRun(args, RunVerb::kReindex);
  if (cmd.ok()) cmd->command_line = CommandLine({"warmup", "reindex"}, args);
  return cmd;
}

StatusOr<ProfileCommand> ParseProfile(const std::vector<std::string>& args) {
  ProfileCommand cmd;
  auto load = ParseRun(args, RunVerb::kProfile, &cmd.profiler);
  if (!load.ok()) return load.status();
  static_cast<LoadCommand&>(cmd) = std::move(load).value();
  cmd.command_line = CommandLine({"warmup-profile"}, args);
  return cmd;
}

}  // namespace warmup::cli
