#include "common/options.h"

#include <algorithm>
#include <boost/program_options.hpp>
#include <range/v3/range/conversion.hpp>
#include <range/v3/range/primitives.hpp>
#include <range/v3/view/filter.hpp>
#include <range/v3/view/split.hpp>
#include <sstream>
#include <tuple>

namespace warmup::cli {
namespace {

namespace po = boost::program_options;

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

// Boost's default style without guessing: an abbreviation is not taken for
// a flag it happens to begin (`--run` is not `--runs`).
constexpr int kStyle = po::command_line_style::default_style & ~po::command_line_style::allow_guessing;

// Parses `args` against `visible` and `hidden` (older spellings, left out of
// the help) and `positional`, turning every Boost error into a Status that
// names the option. With --help, `*help` gets the usage and the visible
// option descriptions, and nothing else is checked.
StatusOr<po::variables_map> Parse(const std::vector<std::string>& args,
                                  const po::options_description& visible,
                                  const po::positional_options_description& positional,
                                  const std::string& usage, std::string* help,
                                  const po::options_description& hidden = po::options_description()) {
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

// kInvalidArgument for the first of `flags` given on the command line: in
// this mode it would change nothing, and a flag that silently does nothing
// makes a run mean something else than its user thinks.
Status RefuseIgnored(const po::variables_map& vm, std::initializer_list<const char*> flags,
                     const std::string& mode) {
  for (const char* flag : flags) {
    if (vm.count(flag) > 0 && !vm[flag].defaulted()) {
      return InvalidArgumentError(std::string("--") + flag + " has no effect " + mode + "; leave it out");
    }
  }
  return OkStatus();
}

// "a b  c" -> {"a", "b", "c"}.
std::vector<std::string> SplitAtSpaces(const std::string& text) {
  std::vector<std::string> words;
  std::istringstream in(text);
  for (std::string word; in >> word;) words.push_back(word);
  return words;
}

constexpr int64_t kDaySeconds = int64_t{24} * 3600;
constexpr int64_t kWeekSeconds = 7 * kDaySeconds;

// kInvalidArgument naming `flag` unless `low` <= `value` <= `high`.
Status CheckRange(const char* flag, int64_t value, int64_t low, int64_t high) {
  if (value >= low && value <= high) return OkStatus();
  return InvalidArgumentError(std::string("--") + flag + " must be from " + std::to_string(low) + " to " +
                              std::to_string(high) + ", not " + std::to_string(value));
}

// A live catalog as --source names it.
struct GrpcUrl {
  std::string address;  // HOST:PORT
  std::string catalog;
  bool tls = false;  // grpcs://
};

// Parses grpc://HOST:PORT/CATALOG or grpcs://HOST:PORT/CATALOG.
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

// The TLS group of every command that dials a server: --tls turns it on for
// the connection to --address (grpcs:// does for --source); the files apply
// to every TLS connection the command makes.
po::options_description ClientTlsGroup(ClientTlsOptions* tls, bool with_switch) {
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

// The TLS group's settings for one connection, on when `enabled`; off, they
// are dropped unless `keep_settings` (for CheckClientTls to refuse them).
ClientTlsOptions TlsFor(const ClientTlsOptions& tls, bool enabled, bool keep_settings = false) {
  if (!enabled && !keep_settings) return {};
  ClientTlsOptions out = tls;
  out.enabled = enabled;
  return out;
}

constexpr const char* kCompressHelp = "none | zstd (a bare --compress is zstd)";

// --compress none|zstd: true for zstd.
StatusOr<bool> ParseCompression(const std::string& compression) {
  if (compression != "none" && compression != "zstd") {
    return InvalidArgumentError("--compress must be none or zstd, not '" + compression + "'");
  }
  return compression == "zstd";
}

constexpr const char* kRecordCompressHelp =
    "none | zstd | deflate (raw deflate at level 3, evitaDB's codec; a bare --compress is zstd)";

// --compress for engine records.
StatusOr<RecordCompression> ParseRecordCompression(const std::string& compression) {
  if (compression == "none") return RecordCompression::kNone;
  if (compression == "zstd") return RecordCompression::kZstd;
  if (compression == "deflate") return RecordCompression::kDeflate;
  return InvalidArgumentError("--compress must be none, zstd or deflate, not '" + compression + "'");
}

Status ParseCompression(const std::string& compression, SnapshotWriteOptions& write) {
  auto zstd = ParseCompression(compression);
  if (!zstd.ok()) return zstd.status();
  write.compression = *zstd ? SnapshotCompression::kZstd : SnapshotCompression::kNone;
  return OkStatus();
}

}  // namespace

StatusOr<GenerateCommand> ParseGenerate(const std::vector<std::string>& args) {
  GenerateCommand cmd;
  std::string compression = "none";
  std::string zip;
  po::options_description o("options");
  o.add_options()("help", "show this help")(
      "profile", po::value(&cmd.generator.profile)->default_value("senesi"), "senesi | tiny")(
      "scale", po::value(&cmd.generator.scale)->default_value(1.0), "multiplies every collection's size")(
      "seed", po::value(&cmd.generator.seed)->default_value(1), "the same seed gives the same bytes")(
      "out", po::value(&cmd.out_dir)->required(), "parent directory; the snapshot goes to OUT/<catalog>/")(
      "catalog", po::value(&cmd.generator.catalog_name), "catalog name (default: the profile's name)")(
      "compress", po::value(&compression)->default_value("none"),
      (std::string("entity files: ") + kCompressHelp).c_str())(
      "zip", po::value(&zip), "also write the snapshot as an export zip to this path");
  auto vm =
      Parse(args, o, {}, "usage: warmup generate --out DIR [--profile P] [--scale S] [--seed N] [--zip FILE]",
            &cmd.help);
  if (!vm.ok()) return vm.status();
  if (!cmd.help.empty()) return cmd;
  if (const auto profiles = GeneratorProfiles();
      std::find(profiles.begin(), profiles.end(), cmd.generator.profile) == profiles.end()) {
    std::string known;
    for (const auto& p : profiles) known += (known.empty() ? "" : ", ") + p;
    return InvalidArgumentError("--profile must be one of " + known + ", not '" + cmd.generator.profile +
                                "'");
  }
  if (!(cmd.generator.scale > 0 && cmd.generator.scale <= 1000)) {  // also false for NaN
    return InvalidArgumentError("--scale must be more than 0 and at most 1000, not " +
                                std::to_string(cmd.generator.scale));
  }
  if (!cmd.generator.catalog_name.empty()) {
    if (auto s = CheckName(cmd.generator.catalog_name, "--catalog"); !s.ok()) return s;
  }
  if (auto s = ParseCompression(compression, cmd.write); !s.ok()) return s;
  if (!zip.empty()) cmd.zip_path = zip;
  return cmd;
}

StatusOr<InspectCommand> ParseInspect(const std::vector<std::string>& args) {
  InspectCommand cmd;
  po::options_description o("options");
  o.add_options()("help", "show this help")("json", po::bool_switch(&cmd.json), "print JSON")(
      "snapshot", po::value(&cmd.path)->required(), "snapshot directory or export zip");
  po::positional_options_description p;
  p.add("snapshot", 1);
  auto vm = Parse(args, o, p, "usage: warmup inspect SNAPSHOT [--json]", &cmd.help);
  if (!vm.ok()) return vm.status();
  if (!cmd.help.empty()) return cmd;
  return cmd;
}

StatusOr<UnpackCommand> ParseUnpack(const std::vector<std::string>& args) {
  UnpackCommand cmd;
  po::options_description o("options");
  o.add_options()("help", "show this help")("zip", po::value(&cmd.zip_path)->required(), "the export")(
      "dir", po::value(&cmd.out_dir)->required(), "parent directory; the snapshot goes to DIR/<catalog>/");
  po::positional_options_description p;
  p.add("zip", 1).add("dir", 1);
  auto vm = Parse(args, o, p, "usage: warmup unpack EXPORT.zip DIR", &cmd.help);
  if (!vm.ok()) return vm.status();
  if (!cmd.help.empty()) return cmd;
  return cmd;
}

namespace {

// The options of the profiler group (--profiler, --profile-out, and for
// serve --profile-golive) into `*kind_name` and `*out`.
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

// Fills `profiler` from the parsed group. Errors: kInvalidArgument naming the flag.
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

// load, reindex, and with `profiler` set warmup-profile (embedded only, and
// the profiler group).
StatusOr<LoadCommand> ParseLoadOrReindex(const std::vector<std::string>& args, bool reindex,
                                         ProfilerOptions* profiler = nullptr) {
  LoadCommand cmd;
  std::string profiler_kind;
  std::string source_url;
  std::string collections;
  std::string compression;
  std::string target_kind;    // --target, before it becomes TargetSpec::kind
  bool start_server = false;  // reindex: --target remote without --address
  std::string target_mode;    // reindex's older spelling of --target
  std::string server_args;
  std::string verify;
  bool skip_verify = false;  // the older spelling of --verify none
  ClientTlsOptions tls;
  po::options_description general;
  general.add_options()("help", "show this help");
  po::options_description source("source: --pristine-dir [--catalog], or --source");
  source.add_options()("pristine-dir", po::value(&cmd.source.pristine_dir),
                       "parent of the <catalog>/ snapshot (or an export zip)")(
      "catalog", po::value(&cmd.source.catalog), "the snapshot (default: the only one in --pristine-dir)")(
      "source", po::value(&source_url),
      "read a live catalog instead: grpc://HOST:PORT/CATALOG (grpcs:// over TLS)")(
      "prewarm-source", po::bool_switch(&cmd.source.prewarm),
      "read the whole snapshot into the page cache before the run (a warm source)")(
      "drop-source-cache", po::bool_switch(&cmd.source.drop_cache),
      "drop the snapshot from the page cache before the run (a cold source)")(
      "allow-not-alive", po::bool_switch(&cmd.source.allow_not_alive),
      "with --source: read a catalog that is not ALIVE (only what a load had reached)");
  po::options_description target("target");
  target.add_options()(
      "target", po::value(&target_kind)->default_value(reindex ? "remote" : "embedded"),
      reindex ? "remote (start warmup serve, or use --address) | embedded" : "embedded | remote | null")(
      "address", po::value(&cmd.target.address)->default_value(cmd.target.address),
      "remote target: host:port")(
      "upsert-timeout", po::value(&cmd.target.upsert_timeout_seconds)->default_value(3600),
      "remote target: seconds one upsert may take before the load aborts (a server in WARM_UP may stall)")(
      "golive-timeout", po::value(&cmd.target.golive_timeout_seconds)->default_value(0),
      "remote target: client-side goLive limit in seconds (0 = none)")(
      "work-dir", po::value(&cmd.target.work_dir)->default_value(cmd.target.work_dir),
      reindex
          ? "the embedded target's directory, or the started server's (WORK/data) beside its log; used only "
            "when absent, empty or carrying warmup's marker, and only what warmup made there is cleared; no "
            "source or output may lie inside it"
          : "the embedded target's directory; used only when absent, empty or carrying warmup's marker, and "
            "only what warmup made there is cleared; no source or output may lie inside it")(
      "compress", po::value(&compression)->default_value("none"),
      (std::string("records (storage.compress): ") + kRecordCompressHelp).c_str());
  po::options_description copy("copy");
  copy.add_options()("target-catalog", po::value(&cmd.copy.target_catalog),
                     "catalog to create (default <catalog>_<4 hex>)")(
      "collections", po::value(&collections), "comma-separated subset of collections")(
      "max-per-collection", po::value(&cmd.copy.max_per_collection)->default_value(0),
      "cap per collection, 0 = all")("verify", po::value(&verify)->default_value("counts"),
                                     "after goLive: counts | content (counts, then every entity read back "
                                     "and compared by digest; untimed) | "
                                     "none (exit 0, said in the report)")(
      "keep-target", po::bool_switch(&cmd.copy.keep_target), "keep the target catalog when the run fails")(
      "run", po::value(&cmd.copy.run_label)->default_value("run"), "run label");
  po::options_description report("report");
  report.add_options()("report-json", po::value(&cmd.report.report_json), "write the report as JSON here")(
      "per-entity-csv", po::value(&cmd.report.per_entity_csv), "one CSV row per upsert")(
      "html", po::value(&cmd.report.html),
      "write the run as one self-contained page (time per collection, latency CDFs, throughput and server "
      "RSS over time, the fingerprint)")("hold-open-seconds",
                                         po::value(&cmd.report.hold_open_seconds)->default_value(0),
                                         "stay alive after the report")(
      "progress-interval", po::value(&cmd.report.progress_interval_seconds)->default_value(10, "10"),
      "seconds between progress lines when stderr is not a terminal (a terminal gets one live line)")(
      "quiet", po::bool_switch(&cmd.report.quiet), "no progress, only the report");
  po::options_description visible;
  visible.add(general).add(source).add(target).add(ClientTlsGroup(&tls, true)).add(copy).add(report);
  if (profiler != nullptr) visible.add(ProfilerGroup(&profiler_kind, profiler, false));
  po::options_description hidden;
  hidden.add_options()("skip-verify", po::bool_switch(&skip_verify), "older spelling of --verify none");
  if (reindex) {
    po::options_description server("started server");
    server.add_options()("server-binary", po::value(&cmd.server.binary),
                         "the warmup binary whose serve to start (default: this one), e.g. another build")(
        "server-start-timeout", po::value(&cmd.server.start_timeout_seconds)->default_value(60),
        "seconds the started server may take to be ready")(
        "server-stop-grace", po::value(&cmd.server.stop_grace_seconds)->default_value(10),
        "seconds the server may take to exit after SIGTERM before it is killed")(
        "server-command", po::value(&cmd.server.command),
        "start this command instead of a warmup serve (evitaDB's JVM): /bin/sh -c with {port} (picked "
        "here), {data}, {run}, {gclog}, {xmx} replaced; ready when IsReady/ServerStatus say so "
        "(docs/evitadb.md)")("server-xmx", po::value(&cmd.server.xmx), "the server command's {xmx}, e.g. 8g")(
        "server-args", po::value(&server_args),
        "more flags for the started serve, one string split at spaces, e.g. \"--inject-upsert-delay-us 50\" "
        "(a single flag as --server-args=--compress)");
    visible.add(server);
    hidden.add_options()("target-mode", po::value(&target_mode), "older spelling of --target");
  }
  const char* usage = profiler != nullptr
                          ? "usage: warmup-profile (--pristine-dir DIR [--catalog NAME] | --source "
                            "grpc://HOST:PORT/CATALOG) [--collections A,B] [--profiler none|cpu|heap|perf "
                            "--profile-out P] ...\n"
                            "An embedded load with a profiler window around the load alone; reports "
                            "allocations per upsert per collection and the write path's share of CPU."
                      : reindex ? "usage: warmup reindex (--pristine-dir DIR [--catalog NAME] | --source "
                                  "grpc://HOST:PORT/CATALOG) [--target remote|embedded] ..."
                                : "usage: warmup load (--pristine-dir DIR [--catalog NAME] | --source "
                                  "grpc://HOST:PORT/CATALOG) [--target embedded|remote|null] ...";
  auto vm = Parse(args, visible, {}, usage, &cmd.help, hidden);
  if (!vm.ok()) return vm.status();
  if (!cmd.help.empty()) return cmd;
  if (profiler != nullptr) {
    if (target_kind != "embedded") {
      return InvalidArgumentError("warmup-profile profiles the embedded engine; --target " + target_kind +
                                  " is for warmup load (warmup serve --profiler profiles a server)");
    }
    if (auto s = FinishProfiler(profiler_kind, profiler); !s.ok()) return s;
  }
  if (!target_mode.empty()) {
    if (!(*vm)["target"].defaulted()) return InvalidArgumentError("give --target or --target-mode, not both");
    target_kind = target_mode;
  }
  if (skip_verify) {
    if (!(*vm)["verify"].defaulted()) return InvalidArgumentError("give --verify or --skip-verify, not both");
    verify = "none";
  }
  if (verify == "none" || verify == "counts" || verify == "content") {
    cmd.copy.verify = verify == "none"     ? VerifyMode::kNone
                      : verify == "counts" ? VerifyMode::kCounts
                                           : VerifyMode::kContent;
  } else {
    return InvalidArgumentError("--verify must be counts, content or none, not '" + verify + "'");
  }
  if (reindex) {
    if (target_kind != "remote" && target_kind != "embedded") {
      return InvalidArgumentError("--target must be remote or embedded, not '" + target_kind + "'");
    }
    start_server = target_kind == "remote" && (*vm)["address"].defaulted();
    if (auto s = CheckRange("server-start-timeout", cmd.server.start_timeout_seconds, 1, 3600); !s.ok()) {
      return s;
    }
    if (auto s = CheckRange("server-stop-grace", cmd.server.stop_grace_seconds, 0, 3600); !s.ok()) return s;
    cmd.server.extra_args = SplitAtSpaces(server_args);
    if (!cmd.server.command.empty()) {
      if (auto s = RefuseIgnored(*vm, {"server-binary", "server-args", "compress"},
                                 "with --server-command: the command says how its server runs");
          !s.ok()) {
        return s;
      }
    } else if (auto s = RefuseIgnored(*vm, {"server-xmx"}, "without --server-command"); !s.ok()) {
      return s;
    }
  } else if (target_kind != "embedded" && target_kind != "null" && target_kind != "remote") {
    return InvalidArgumentError("--target must be embedded, remote or null, not '" + target_kind + "'");
  }
  const std::string kind = "with --target " + target_kind;
  if (target_kind == "null" && cmd.copy.verify == VerifyMode::kContent) {
    return InvalidArgumentError(
        "--verify content reads the catalog back, and --target null keeps nothing to read");
  }
  if (target_kind == "null") {
    if (auto s = RefuseIgnored(
            *vm, {"work-dir", "compress", "address", "golive-timeout", "upsert-timeout", "tls"}, kind);
        !s.ok()) {
      return s;
    }
  } else if (target_kind == "embedded") {
    if (auto s = RefuseIgnored(*vm, {"address", "golive-timeout", "upsert-timeout", "tls"}, kind); !s.ok()) {
      return s;
    }
    if (auto s = RefuseIgnored(*vm,
                               {"server-binary", "server-start-timeout", "server-stop-grace", "server-args",
                                "server-command", "server-xmx"},
                               kind);
        !s.ok()) {
      return s;
    }
  } else if (!reindex || !start_server) {  // remote, a server that is not ours
    if (auto s = RefuseIgnored(*vm, {"work-dir", "compress"}, "with a remote target that is already running");
        !s.ok()) {
      return s;
    }
    if (auto s = RefuseIgnored(*vm,
                               {"server-binary", "server-start-timeout", "server-stop-grace", "server-args",
                                "server-command", "server-xmx"},
                               "with --address: reindex starts no server");
        !s.ok()) {
      return s;
    }
  } else if (auto s = RefuseIgnored(*vm, {"tls"},
                                    "with the server reindex starts (plaintext, on loopback); a TLS server "
                                    "goes with --address");
             !s.ok()) {
    return s;
  }
  if (auto s = CheckRange("max-per-collection", cmd.copy.max_per_collection, 0, INT64_MAX); !s.ok()) return s;
  if (auto s = CheckRange("upsert-timeout", cmd.target.upsert_timeout_seconds, 1, kDaySeconds); !s.ok()) {
    return s;
  }
  if (auto s = CheckRange("golive-timeout", cmd.target.golive_timeout_seconds, 0, kWeekSeconds); !s.ok()) {
    return s;
  }
  if (auto s = CheckRange("hold-open-seconds", cmd.report.hold_open_seconds, 0, kDaySeconds); !s.ok())
    return s;
  if (!(cmd.report.progress_interval_seconds >= 0.1 && cmd.report.progress_interval_seconds <= kDaySeconds)) {
    return InvalidArgumentError("--progress-interval must be from 0.1 to 86400 seconds, not " +
                                std::to_string(cmd.report.progress_interval_seconds));
  }
  if (auto s = CheckName(cmd.copy.run_label, "--run"); !s.ok()) return s;
  if (!cmd.copy.target_catalog.empty()) {
    if (auto s = CheckName(cmd.copy.target_catalog, "--target-catalog"); !s.ok()) return s;
  }
  if (!cmd.source.catalog.empty()) {
    if (auto s = CheckName(cmd.source.catalog, "--catalog"); !s.ok()) return s;
  }
  auto records = ParseRecordCompression(compression);
  if (!records.ok()) return records.status();
  cmd.target.compression = *records;
  if (auto s = CheckHostPort(cmd.target.address, AddressUse::kDial); !s.ok())
    return s.WithContext("--address");
  cmd.copy.collections = collections | ranges::views::split(',') |
                         ranges::views::filter([](auto&& name) { return !ranges::empty(name); }) |
                         ranges::to<std::vector<std::string>>();
  if (cmd.source.pristine_dir.empty() == source_url.empty()) {
    return InvalidArgumentError("give exactly one of --pristine-dir and --source");
  }
  if (cmd.source.prewarm && cmd.source.drop_cache) {
    return InvalidArgumentError("give --prewarm-source or --drop-source-cache, not both");
  }
  if (source_url.empty()) {
    if (auto s = RefuseIgnored(*vm, {"allow-not-alive"}, "without --source"); !s.ok()) return s;
  } else {
    if (auto s = RefuseIgnored(*vm, {"prewarm-source", "drop-source-cache"},
                               "with --source: a live catalog's page cache is its server's");
        !s.ok()) {
      return s;
    }
    if (!cmd.source.catalog.empty()) {
      return InvalidArgumentError("--catalog goes with --pristine-dir; --source names its own");
    }
    auto parsed = ParseGrpcUrl(source_url, "--source");
    if (!parsed.ok()) return parsed.status();
    cmd.source.grpc_address = parsed->address;
    cmd.source.grpc_catalog = parsed->catalog;
    cmd.source.tls = TlsFor(tls, parsed->tls);
  }
  if (auto s = CheckClientTls(TlsFor(tls, tls.enabled || cmd.source.tls.enabled, /*keep_settings=*/true));
      !s.ok()) {
    return s;
  }
  cmd.target.tls = TlsFor(tls, tls.enabled);
  cmd.target.kind = start_server ? TargetKind::kStartedServer : *ParseTargetKind(target_kind);
  return cmd;
}

}  // namespace

// `tool` and `args` as one command line, for the report.
std::vector<std::string> CommandLine(std::vector<std::string> tool, const std::vector<std::string>& args) {
  tool.insert(tool.end(), args.begin(), args.end());
  return tool;
}

StatusOr<LoadCommand> ParseLoad(const std::vector<std::string>& args) {
  auto cmd = ParseLoadOrReindex(args, false);
  if (cmd.ok()) cmd->command_line = CommandLine({"warmup", "load"}, args);
  return cmd;
}
StatusOr<ProfileCommand> ParseProfile(const std::vector<std::string>& args) {
  ProfileCommand cmd;
  auto load = ParseLoadOrReindex(args, /*reindex=*/false, &cmd.profiler);
  if (!load.ok()) return load.status();
  static_cast<LoadCommand&>(cmd) = std::move(load).value();
  cmd.command_line = CommandLine({"warmup-profile"}, args);
  return cmd;
}
StatusOr<LoadCommand> ParseReindex(const std::vector<std::string>& args) {
  auto cmd = ParseLoadOrReindex(args, true);
  if (cmd.ok()) cmd->command_line = CommandLine({"warmup", "reindex"}, args);
  return cmd;
}

StatusOr<ExportCommand> ParseExport(const std::vector<std::string>& args) {
  ExportCommand cmd;
  std::string source;
  std::string compression;
  std::string zip;
  ClientTlsOptions tls;
  po::options_description o("options");
  o.add_options()("help", "show this help")("source", po::value(&source),
                                            "the live catalog: grpc://HOST:PORT/CATALOG (grpcs:// over TLS)")(
      "address", po::value(&cmd.address), "or the server's HOST:PORT ...")("catalog", po::value(&cmd.catalog),
                                                                           "... and the catalog's name")(
      "out", po::value(&cmd.out_dir)->required(), "parent directory; the snapshot goes to OUT/<catalog>/")(
      "compress", po::value(&compression)->default_value("none"),
      (std::string("entity files: ") + kCompressHelp).c_str())("zip", po::value(&zip),
                                                               "also write an export zip here")(
      "page-size", po::value(&cmd.source.page_size)->default_value(cmd.source.page_size),
      "entities per Query page")(
      "call-timeout",
      po::value(&cmd.source.call_timeout_seconds)->default_value(cmd.source.call_timeout_seconds),
      "deadline of each call, seconds")(
      "allow-not-alive", po::bool_switch(&cmd.source.allow_not_alive),
      "export a catalog that is not ALIVE (still warming up: only what a load had reached); the manifest "
      "records its state");
  o.add(ClientTlsGroup(&tls, true));
  auto vm =
      Parse(args, o, {},
            "usage: warmup export (--source grpc://HOST:PORT/CATALOG | --address HOST:PORT --catalog NAME) "
            "--out DIR [--zip FILE]",
            &cmd.help);
  if (!vm.ok()) return vm.status();
  if (!cmd.help.empty()) return cmd;
  if (source.empty() == (cmd.address.empty() && cmd.catalog.empty())) {
    return InvalidArgumentError("give either --source grpc://HOST:PORT/CATALOG or --address and --catalog");
  }
  if (!source.empty()) {
    auto parsed = ParseGrpcUrl(source, "--source");
    if (!parsed.ok()) return parsed.status();
    if (tls.enabled) return InvalidArgumentError("--tls goes with --address; with --source write grpcs://");
    cmd.address = parsed->address;
    cmd.catalog = parsed->catalog;
    tls.enabled = parsed->tls;
  } else if (cmd.address.empty() || cmd.catalog.empty()) {
    return InvalidArgumentError(cmd.address.empty() ? "--catalog needs --address HOST:PORT"
                                                    : "--address needs --catalog NAME");
  } else if (auto s = CheckHostPort(cmd.address, AddressUse::kDial); !s.ok()) {
    return s.WithContext("--address");
  }
  cmd.source.tls = TlsFor(tls, tls.enabled, /*keep_settings=*/true);
  if (auto s = CheckClientTls(cmd.source.tls); !s.ok()) return s;
  if (auto s = ParseCompression(compression, cmd.write); !s.ok()) return s;
  if (!zip.empty()) cmd.zip_path = zip;
  if (auto s = CheckRange("page-size", cmd.source.page_size, 1, 100000); !s.ok()) return s;
  if (auto s = CheckRange("call-timeout", cmd.source.call_timeout_seconds, 1, kDaySeconds); !s.ok()) return s;
  if (auto s = CheckName(cmd.catalog, "--catalog"); !s.ok()) return s;
  return cmd;
}

StatusOr<ServeCommand> ParseServe(const std::vector<std::string>& args) {
  ServeCommand cmd;
  std::vector<std::string> faults;
  std::string compression;
  po::options_description o("options");
  o.add_options()("help", "show this help")("data-dir", po::value(&cmd.data_dir)->required(),
                                            "the engine's data directory")(
      "listen", po::value(&cmd.listen)->default_value("127.0.0.1:5555"),
      "host:port; port 0 picks a free one")(
      "allow-remote-clients", po::bool_switch(&cmd.allow_remote_clients),
      "let --listen be an address other machines reach (no authentication: anyone can drop catalogs)")(
      "compress", po::value(&compression)->default_value("none"),
      (std::string("records (storage.compress): ") + kRecordCompressHelp).c_str())(
      "reset-data", po::bool_switch(&cmd.reset_data),
      "clear the data directory first of the catalogs warmup made there (only a marker-owned one)")(
      "session-idle-seconds", po::value(&cmd.session_idle_seconds)->default_value(cmd.session_idle_seconds),
      "close sessions idle this long, seconds (evitaDB's closeSessionsAfterSecondsOfInactivity, 60 as it "
      "ships; 0 = never)")(
      "orphaned-session-grace-seconds",
      po::value(&cmd.orphaned_session_grace_seconds)->default_value(cmd.orphaned_session_grace_seconds),
      "close a session this long after its client's connection is gone (a killed loader); 0 = never")(
      "upsert-delay-ms", po::value(&cmd.upsert_delay_ms)->default_value(0),
      "testing aid: wait this long before each upsert")(
      "golive-delay-ms", po::value(&cmd.golive_delay_ms)->default_value(0),
      "testing aid: wait this long before each goLive starts")(
      "inject-upsert-delay-us", po::value(&cmd.inject_upsert_delay_us)->default_value(0),
      "simulate a slower build: every upsert spends this many more microseconds (busy) inside the "
      "measured server time, to check that a comparison finds a known change")(
      "tls-cert", po::value(&cmd.tls.cert_file), "serve gRPC over TLS with this certificate chain (PEM)")(
      "tls-key", po::value(&cmd.tls.key_file), "... and its private key (PEM)")(
      "client-ca", po::value(&cmd.tls.client_ca_file),
      "mTLS: clients must present a certificate this CA (PEM) signed")(
      "system-listen", po::value(&cmd.system_listen),
      "host:port of a plain-HTTP endpoint serving /system/server.crt, as evitaDB's system API does")(
      "ready-fd", po::value(&cmd.ready_fd)->default_value(-1),
      "once listening, write {\"pid\": P, \"port\": N, \"system_port\": S (0 = none)} to this file "
      "descriptor and close it")(
      "inject-fault", po::value(&faults)->composing(),
      "testing aid: METHOD[@N] fails every call of the RPC METHOD after its first N (default 0) with "
      "UNAVAILABLE; repeatable");
  std::string profiler_kind;
  o.add(ProfilerGroup(&profiler_kind, &cmd.profiler, true));
  auto vm = Parse(args, o, {},
                  "usage: warmup serve --data-dir DIR [--listen HOST:PORT] [--compress zstd] [--reset-data]",
                  &cmd.help);
  if (!vm.ok()) return vm.status();
  if (!cmd.help.empty()) return cmd;
  auto records = ParseRecordCompression(compression);
  if (!records.ok()) return records.status();
  cmd.compression = *records;
  if (auto s = FinishProfiler(profiler_kind, &cmd.profiler); !s.ok()) return s;
  if (auto s = CheckHostPort(cmd.listen, AddressUse::kListen); !s.ok()) return s.WithContext("--listen");
  if (!IsLoopback(cmd.listen) && !cmd.allow_remote_clients) {
    return InvalidArgumentError("--listen " + cmd.listen +
                                " is reachable from other machines, and the server has no authentication; "
                                "add --allow-remote-clients if that is meant");
  }
  for (const std::string& fault : faults) {
    const size_t at = fault.find('@');
    ServerOptions::InjectedFault parsed{fault.substr(0, at), 0};
    if (at != std::string::npos) {
      const std::string count = fault.substr(at + 1);
      if (count.empty() || count.find_first_not_of("0123456789") != std::string::npos || count.size() > 12) {
        return InvalidArgumentError("--inject-fault must look like METHOD or METHOD@N, not '" + fault + "'");
      }
      parsed.after_calls = std::stoll(count);
    }
    const auto& known = InjectableMethods();
    if (std::find(known.begin(), known.end(), parsed.method) == known.end()) {
      std::string list;
      for (const auto& m : known) list += (list.empty() ? "" : ", ") + m;
      return InvalidArgumentError("--inject-fault: no RPC '" + parsed.method + "' to fail (known: " + list +
                                  ")");
    }
    cmd.faults.push_back(parsed);
  }
  if (auto s = CheckServerTls(cmd.tls); !s.ok()) return s;
  if (!cmd.system_listen.empty()) {
    if (cmd.tls.cert_file.empty()) {
      return InvalidArgumentError("--system-listen serves the server's certificate: it needs --tls-cert");
    }
    if (auto s = CheckHostPort(cmd.system_listen, AddressUse::kListen); !s.ok()) {
      return s.WithContext("--system-listen");
    }
    if (!IsLoopback(cmd.system_listen) && !cmd.allow_remote_clients) {
      return InvalidArgumentError(
          "--system-listen " + cmd.system_listen +
          " is reachable from other machines; add --allow-remote-clients if that is meant");
    }
  }
  if (auto s = CheckRange("golive-delay-ms", cmd.golive_delay_ms, 0, 600000); !s.ok()) return s;
  if (auto s = CheckRange("upsert-delay-ms", cmd.upsert_delay_ms, 0, 60000); !s.ok()) return s;
  if (auto s = CheckRange("inject-upsert-delay-us", cmd.inject_upsert_delay_us, 0, 1'000'000); !s.ok())
    return s;
  if (auto s = CheckRange("session-idle-seconds", cmd.session_idle_seconds, 0, kWeekSeconds); !s.ok()) {
    return s;
  }
  if (auto s =
          CheckRange("orphaned-session-grace-seconds", cmd.orphaned_session_grace_seconds, 0, kDaySeconds);
      !s.ok()) {
    return s;
  }
  return cmd;
}

namespace {
Status CheckAlpha(double alpha) {
  if (alpha > 0 && alpha <= 0.2) return OkStatus();
  return InvalidArgumentError("--alpha must be above 0 and at most 0.2, not " + std::to_string(alpha));
}
}  // namespace

StatusOr<CompareCommand> ParseCompare(const std::vector<std::string>& args) {
  CompareCommand cmd;
  po::options_description o("options");
  o.add_options()("help", "show this help")("a", po::value(&cmd.a_files)->multitoken(),
                                            "arm A's run reports (the positional arguments)")(
      "vs", po::value(&cmd.b_files)->multitoken()->required(), "arm B's run reports (--report-json files)")(
      "noise-from", po::value(&cmd.noise_files)->multitoken(),
      "A/A run reports (one build, 4 or more): each metric's noise threshold")(
      "json", po::value(&cmd.json_out), "write every figure as JSON here")(
      "html", po::value(&cmd.html_out), "write the comparison as one self-contained page here")(
      "resamples", po::value(&cmd.options.resamples)->default_value(cmd.options.resamples),
      "bootstrap resamples (10,000 or more)")("seed", po::value(&cmd.options.seed)->default_value(1),
                                              "the bootstrap's seed: the same runs give the same intervals")(
      "force", po::bool_switch(&cmd.options.force), "compare runs of different datasets or hosts")(
      "alpha", po::value(&cmd.options.alpha)->default_value(cmd.options.alpha, "0.05"),
      "significance level of a verdict, for the Holm-adjusted p");
  po::positional_options_description positional;
  positional.add("a", -1);
  auto vm = Parse(args, o, positional,
                  "usage: warmup compare A.json... --vs B.json... [--noise-from AA.json...] [--json F]\n"
                  "Per metric: medians, the ratio B/A with a bootstrap 95 % interval, the Mann-Whitney U "
                  "test,\nthe Hodges-Lehmann shift, and a verdict. Exit 0: no regression, 3: a regression, "
                  "4: inconclusive (too few runs for any verdict), 1: error.",
                  &cmd.help);
  if (!vm.ok()) return vm.status();
  if (!cmd.help.empty()) return cmd;
  if (cmd.a_files.empty()) return InvalidArgumentError("name arm A's run reports before --vs");
  if (auto s = CheckRange("resamples", cmd.options.resamples, 1000, 10'000'000); !s.ok()) return s;
  if (auto s = CheckAlpha(cmd.options.alpha); !s.ok()) return s;
  return cmd;
}

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
      "measured runs per arm (9 or more for a verdict you can trust), after one discarded warm-up run each")(
      "order", po::value(&order)->default_value("abab"),
      "abab (A, B, A, B, ...) | random (a seeded shuffle, --seed)")(
      "seed", po::value(&cmd.order_seed)->default_value(1), "seed of --order random and of the bootstrap")(
      "out", po::value(&cmd.out_dir)->default_value(cmd.out_dir),
      "directory for every run's reports and the comparison; absent or empty")(
      "keep-work", po::bool_switch(&cmd.keep_work), "keep every run's work directory (OUT/work/LABEL)")(
      "noise-from", po::value(&cmd.noise_files)->multitoken(),
      "A/A run reports (4 or more) that set each metric's noise threshold")(
      "html", po::value(&cmd.html_out), "also write the comparison as a self-contained page here")(
      "resamples", po::value(&cmd.compare.resamples)->default_value(cmd.compare.resamples),
      "bootstrap resamples (10,000 or more)")("force", po::bool_switch(&cmd.compare.force),
                                              "compare even if the runs' datasets or hosts differ")(
      "alpha", po::value(&cmd.compare.alpha)->default_value(cmd.compare.alpha, "0.05"),
      "significance level of a verdict, for the Holm-adjusted p");
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
  if (!xmx.empty()) {
    if (cmd.a_command.empty() && cmd.b_command.empty()) {
      return InvalidArgumentError(
          "--server-xmx has no effect without --a-command or --b-command; leave it out");
    }
    cmd.reindex.server.xmx = xmx;
  }
  cmd.reindex.command_line = CommandLine({"warmup", "ab"}, args);
  if (cmd.reindex.target.kind != TargetKind::kStartedServer) {
    return InvalidArgumentError("warmup ab compares two servers it starts: --target embedded is for reindex");
  }
  if (order != "abab" && order != "random") {
    return InvalidArgumentError("--order must be abab or random, not '" + order + "'");
  }
  cmd.random_order = order == "random";
  if (auto s = CheckRange("runs", cmd.runs, 2, 1000); !s.ok()) return s;
  if (auto s = CheckRange("resamples", cmd.compare.resamples, 1000, 10'000'000); !s.ok()) return s;
  if (auto s = CheckAlpha(cmd.compare.alpha); !s.ok()) return s;
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

StatusOr<CatalogsCommand> ParseCatalogs(const std::vector<std::string>& args) {
  CatalogsCommand cmd;
  po::options_description o("options");
  o.add_options()("help", "show this help")("address", po::value(&cmd.address)->default_value(cmd.address),
                                            "the server, HOST:PORT")(
      "delete", po::value(&cmd.delete_names)->composing(),
      "delete this catalog and every session open on it; repeatable")(
      "call-timeout",
      po::value(&cmd.admin.call_timeout_seconds)->default_value(cmd.admin.call_timeout_seconds),
      "deadline of each call, seconds");
  o.add(ClientTlsGroup(&cmd.admin.tls, true));
  auto vm = Parse(args, o, {}, "usage: warmup catalogs [--address HOST:PORT] [--delete NAME ...]", &cmd.help);
  if (!vm.ok()) return vm.status();
  if (!cmd.help.empty()) return cmd;
  if (auto s = CheckHostPort(cmd.address, AddressUse::kDial); !s.ok()) return s.WithContext("--address");
  if (auto s = CheckRange("call-timeout", cmd.admin.call_timeout_seconds, 1, kDaySeconds); !s.ok()) return s;
  if (auto s = CheckClientTls(cmd.admin.tls); !s.ok()) return s;
  for (const std::string& name : cmd.delete_names) {
    if (auto s = CheckName(name, "--delete"); !s.ok()) return s;
  }
  return cmd;
}

}  // namespace warmup::cli
