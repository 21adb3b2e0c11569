#include "common/option_parsing.h"

#include <algorithm>
#include <sstream>

#include "warmup/compare.h"
#include "warmup/generator.h"
#include "warmup/run_record.h"

namespace warmup::cli {
namespace {

// A bare `--compress` (the older boolean spelling) as `--compress=zstd`, and
// `--compress X` as `--compress=X`, so that one option means one thing in
// every command.
std::vector<std::string> SpellCompressOut(const std::vector<std::string>& args) {
  std::vector<std::string> out;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] != "--compress") {
      out.push_back(args[i]);
    } else if (i + 1 < args.size() && !args[i + 1].starts_with("-")) {
      out.push_back("--compress=" + args[++i]);
    } else {
      out.push_back("--compress=zstd");
    }
  }
  return out;
}

std::string ProfilesJoinedBy(const std::string& separator) {
  std::string joined;
  for (const std::string& profile : GeneratorProfiles()) {
    joined += (joined.empty() ? "" : separator) + profile;
  }
  return joined;
}

}  // namespace

StatusOr<po::variables_map> Parse(const std::vector<std::string>& args,
                                  const po::options_description& visible,
                                  const po::positional_options_description& positional,
                                  const std::string& usage, std::string* help,
                                  const po::options_description& hidden) {
  po::variables_map vm;
  po::options_description all;
  all.add(visible).add(hidden);
  try {
    po::store(po::command_line_parser(SpellCompressOut(args))
                  .options(all)
                  .positional(positional)
                  .style(kStyle)
                  .run(),
              vm);
    if (vm.count("help")) {
      std::ostringstream text;
      text << usage << "\n\n" << visible;
      *help = text.str();
      return vm;
    }
    po::notify(vm);
  } catch (const po::error& e) {
    return InvalidArgumentError(std::string(e.what()) + " (see --help)");
  }
  // An empty value is a mistake (an unset shell variable), never "the default".
  for (const auto& [name, value] : vm) {
    if (value.defaulted()) continue;
    if (const auto* text = boost::any_cast<std::string>(&value.value()); text != nullptr && text->empty()) {
      return InvalidArgumentError("--" + name + " needs a value, not an empty one");
    }
  }
  return vm;
}

bool Given(const po::variables_map& vm, const char* flag) {
  return vm.count(flag) > 0 && !vm[flag].defaulted();
}

Status RefuseIgnored(const po::variables_map& vm, std::initializer_list<const char*> flags,
                     const std::string& mode) {
  for (const char* flag : flags) {
    if (Given(vm, flag)) {
      return InvalidArgumentError(std::string("--") + flag + " has no effect " + mode + "; leave it out");
    }
  }
  return OkStatus();
}

Status RequireXmx(const std::string& command, const std::string& xmx, const std::string& command_flag,
                  const std::string& xmx_advice) {
  if (command.find("{xmx}") == std::string::npos || !xmx.empty()) return OkStatus();
  return InvalidArgumentError(command_flag + " '" + command +
                              "' has {xmx}, and nothing gives it a value: give " + xmx_advice);
}

std::vector<std::string> SplitAtSpaces(const std::string& text) {
  std::vector<std::string> words;
  std::istringstream in(text);
  for (std::string word; in >> word;) words.push_back(word);
  return words;
}

Status CheckRange(const char* flag, int64_t value, int64_t low, int64_t high) {
  if (value >= low && value <= high) return OkStatus();
  return InvalidArgumentError(std::string("--") + flag + " must be from " + std::to_string(low) + " to " +
                              std::to_string(high) + ", not " + std::to_string(value));
}

StatusOr<GrpcUrl> ParseGrpcUrl(const std::string& url, const std::string& option) {
  GrpcUrl parsed;
  parsed.tls = url.starts_with("grpcs://");
  const std::string scheme = parsed.tls ? "grpcs://" : "grpc://";
  const size_t slash = url.find('/', scheme.size());
  if (!url.starts_with(scheme) || slash == std::string::npos || slash == scheme.size() ||
      slash + 1 == url.size() || url.find(':', scheme.size()) > slash) {
    return InvalidArgumentError(
        option + " must look like grpc://HOST:PORT/CATALOG (grpcs:// for TLS), not '" + url + "'");
  }
  parsed.address = url.substr(scheme.size(), slash - scheme.size());
  if (auto s = CheckHostPort(parsed.address, AddressUse::kDial); !s.ok()) return s.WithContext(option);
  parsed.catalog = url.substr(slash + 1);
  return parsed;
}

po::options_description ClientTlsGroup(ClientTlsOptions* tls, TlsBy by) {
  // What TLS errors call the settings: the flags below, and the ways to TLS
  // this command has.
  const bool with_switch = by != TlsBy::kSource;
  tls->names = {by == TlsBy::kSwitch   ? "add --tls"
                : by == TlsBy::kSource ? "write grpcs:// in --source"
                                       : "add --tls, or write grpcs:// in --source",
                "--ca-cert",
                "--fetch-server-cert",
                "--client-cert",
                "--client-key",
                "--tls-server-name"};
  po::options_description group("TLS (evitaDB serves gRPC over TLS only, unless configured otherwise)");
  if (with_switch) {
    group.add_options()("tls", po::bool_switch(&tls->enabled), "connect to --address over TLS");
  }
  group.add_options()(
      "ca-cert", po::value(&tls->ca_cert_file),
      "PEM: the CA (or the server's self-signed certificate) to trust; default: the system's")(
      "fetch-server-cert", po::value(&tls->fetch_server_cert_from),
      "HOST:PORT of evitaDB's system API (its shared port, 5555, by default): trust the certificate it "
      "serves at /system/server.crt, "
      "fetched over plain HTTP (trust on first use)")("client-cert", po::value(&tls->client_cert_file),
                                                      "mTLS: this client's certificate (PEM)")(
      "client-key", po::value(&tls->client_key_file), "mTLS: its private key (PEM)")(
      "tls-server-name", po::value(&tls->server_name),
      "the name the server's certificate must carry (default: the host dialled)");
  return group;
}

ClientTlsOptions TlsFor(const ClientTlsOptions& tls, bool enabled, bool keep_settings) {
  if (!enabled && !keep_settings) {
    ClientTlsOptions off;
    off.names = tls.names;  // a plaintext call that meets a TLS server still advises in the flags
    return off;
  }
  ClientTlsOptions out = tls;
  out.enabled = enabled;
  return out;
}

StatusOr<RecordCompression> ParseRecordCompression(const std::string& compression) {
  if (auto named = RecordCompressionNamed(compression)) return *named;
  return InvalidArgumentError("--compress must be none, zstd or deflate, not '" + compression + "'");
}

std::string GeneratorProfilesHelp() { return ProfilesJoinedBy(" | "); }

Status ParseSnapshotCompression(const std::string& compression, SnapshotWriteOptions& write) {
  if (compression != "none" && compression != "zstd") {
    return InvalidArgumentError("--compress must be none or zstd, not '" + compression + "'");
  }
  write.compression = compression == "zstd" ? SnapshotCompression::kZstd : SnapshotCompression::kNone;
  return OkStatus();
}

Status CheckGeneratorProfile(const std::string& profile) {
  const auto profiles = GeneratorProfiles();
  if (std::find(profiles.begin(), profiles.end(), profile) != profiles.end()) return OkStatus();
  return InvalidArgumentError("--profile must be one of " + ProfilesJoinedBy(", ") + ", not '" + profile +
                              "'");
}

Status CheckAlpha(double alpha) {
  if (alpha > 0 && alpha <= 0.2) return OkStatus();
  return InvalidArgumentError("--alpha must be above 0 and at most 0.2, not " + std::to_string(alpha));
}

po::options_description VerdictGroup(CompareOptions* options, std::string* test_name) {
  po::options_description group("verdict");
  const std::string metric_help =
      "the primary metric, declared before the runs: its verdict alone decides the exit status, tested "
      "at alpha; the others are shown as secondary (" +
      RunMetricNames() + ")";
  group.add_options()("metric", po::value(&options->primary_metric)->default_value(options->primary_metric),
                      metric_help.c_str())(
      "test", po::value(test_name)->default_value(RunsTestName(options->test)),
      "the test of each metric: auto (Welch's t on the runs' logarithms while an arm has fewer than 9 runs, "
      "the Mann-Whitney rank test from 9) | log-welch | rank")(
      "alpha", po::value(&options->alpha)->default_value(options->alpha, "0.05"),
      "significance level of a verdict (the primary metric's p, a secondary's Holm-adjusted p)")(
      "resamples", po::value(&options->resamples)->default_value(options->resamples),
      "bootstrap resamples of the rank test's interval (1,000 or more)")(
      "force", po::bool_switch(&options->force), "compare runs of different datasets or hosts anyway");
  return group;
}

Status CheckRunMetric(const char* flag, const std::string& metric) {
  if (IsRunMetricName(metric)) return OkStatus();
  return InvalidArgumentError(std::string(flag) + " " + metric +
                              " is not a metric of a run report: " + RunMetricNames());
}

Status CheckVerdictOptions(const std::string& test_name, CompareOptions* options) {
  if (auto s = CheckRange("resamples", options->resamples, 1000, 10'000'000); !s.ok()) return s;
  if (auto s = CheckAlpha(options->alpha); !s.ok()) return s;
  if (auto s = CheckRunMetric("--metric", options->primary_metric); !s.ok()) return s;
  auto test = RunsTestNamed(test_name);
  if (!test.ok()) return test.status().WithContext("--test");
  options->test = *test;
  return OkStatus();
}

std::vector<std::string> CommandLine(std::vector<std::string> tool, const std::vector<std::string>& args) {
  tool.insert(tool.end(), args.begin(), args.end());
  return tool;
}

po::options_description ProfilerGroup(std::string* kind_name, ProfilerOptions* profiler, bool serve) {
  po::options_description group("profiler");
  group.add_options()("profiler", po::value(kind_name)->default_value("none"),
                      serve
                          ? "none | cpu | heap | perf: a window from a warming-up catalog's first upsert to "
                            "the start of its goLive"
                          : "none | cpu (gperftools) | heap (gperftools) | perf (perf record -g): a window "
                            "around the load only")("profile-out", po::value(&profiler->out),
                                                    "the profile's file (heap: its prefix)");
  if (serve) {
    group.add_options()("profile-golive", po::bool_switch(&profiler->golive),
                        "a second window over goLive, into --profile-out's path + .golive");
  }
  return group;
}

Status FinishProfiler(const std::string& kind_name, ProfilerOptions* profiler) {
  auto kind = ParseProfilerKind(kind_name);
  if (!kind.ok()) return kind.status();
  profiler->kind = *kind;
  if (profiler->kind != ProfilerKind::kNone && profiler->out.empty()) {
    return InvalidArgumentError("--profiler " + kind_name + " needs --profile-out");
  }
  if (profiler->kind == ProfilerKind::kNone && (!profiler->out.empty() || profiler->golive)) {
    return InvalidArgumentError("--profile-out and --profile-golive need --profiler cpu, heap or perf");
  }
  return OkStatus();
}

}  // namespace warmup::cli
