#include "common/options.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <sstream>
#include <variant>

#include "common/status_matchers.h"
#include "common/temp_dir.h"

namespace warmup::cli {
namespace {

// The spec of kind T that `spec` holds. Another kind fails the check at once
// (a default spec is returned, so that the row's own check goes on), lest a
// check of a default field pass for the wrong kind.
template <typename T, typename... Kinds>
const T& As(const std::variant<Kinds...>& spec) {
  static const T kOtherKind{};
  const T* held = std::get_if<T>(&spec);
  if (held == nullptr) FAIL_CHECK("the spec holds another kind (alternative " << spec.index() << ")");
  return held != nullptr ? *held : kOtherKind;
}

// What an embedded target or a started server stores its records with
// (nullopt for the kinds that say nothing of it).
std::optional<RecordCompression> CompressionOf(const TargetSpec& target) {
  if (const auto* embedded = std::get_if<EmbeddedTargetSpec>(&target)) return embedded->compression;
  if (const auto* started = std::get_if<StartedServerTargetSpec>(&target)) return started->compression;
  return std::nullopt;
}
bool RecordsInline(const TargetSpec& target) {
  if (const auto* embedded = std::get_if<EmbeddedTargetSpec>(&target)) return embedded->records_inline;
  if (const auto* started = std::get_if<StartedServerTargetSpec>(&target)) return started->records_inline;
  return false;
}
// A remote target's deadlines, or a started server's.
const ClientDeadlines& DeadlinesOf(const TargetSpec& target) {
  return std::holds_alternative<RemoteTargetSpec>(target) ? As<RemoteTargetSpec>(target).deadlines
                                                          : As<StartedServerTargetSpec>(target).deadlines;
}
bool WorkDirIs(const TargetSpec& target, const std::string& dir) {
  const std::string* work_dir = WorkDirOf(target);
  return work_dir != nullptr && *work_dir == dir;
}

TEST_CASE("bad command lines name the option") {
  CHECK(ParseLoad({"--catalog", "x"}).status().message().find("pristine-dir") != std::string::npos);
  CHECK(ParseLoad({"--pristine-dir", "/d", "--catalog", "x", "--target", "ftp"}).status().message() ==
        "--target must be embedded, remote or null, not 'ftp'");
  // The library's kinds a command line cannot make: a started server is
  // reindex's own, an open target a library caller's CatalogTarget.
  for (const char* library_only : {"open", "started-server"}) {
    CHECK(
        ParseLoad({"--pristine-dir", "/d", "--catalog", "x", "--target", library_only}).status().message() ==
        std::string("--target must be embedded, remote or null, not '") + library_only + "'");
  }
  CHECK(ParseLoad({"--pristine-dir", "/d", "--catalog", "x", "--frobnicate"})
            .status()
            .message()
            .find("frobnicate") != std::string::npos);
  CHECK(ParseGenerate({"--out", "/x", "--compress", "lz4"}).status().message() ==
        "--compress must be none or zstd, not 'lz4'");
  auto help = ParseGenerate({"--help"});  // help is a value: nothing else is required
  REQUIRE_OK(help);
  CHECK(help->help.find("usage: warmup generate") == 0);
  CHECK(help->help.find("--profile") != std::string::npos);
  CHECK(ParseGenerate({"--out", "/x"})->help.empty());
}

TEST_CASE("--source and export take grpc://HOST:PORT/CATALOG") {
  auto load = ParseLoad({"--source", "grpc://db.local:5555/senesi", "--target", "null"});
  REQUIRE_OK(load);
  CHECK(As<LiveSourceSpec>(load->source).address == "db.local:5555");
  CHECK(As<LiveSourceSpec>(load->source).catalog == "senesi");
  CHECK(std::holds_alternative<LiveSourceSpec>(load->source));
  CHECK(ParseLoad({"--source", "grpc://h:1/c", "--pristine-dir", "/d"}).status().message() ==
        "give exactly one of --pristine-dir and --source");
  CHECK(ParseLoad({"--target", "null"}).status().message() ==
        "give exactly one of --pristine-dir and --source");
  CHECK(ParseLoad({"--source", "grpc://h:1/c", "--catalog", "d"}).status().message() ==
        "--catalog goes with --pristine-dir; --source names its own");
  for (const char* bad : {"http://h:1/c", "grpc://h:1/", "grpc://h:1", "grpc:///c", "grpc://h/c"}) {
    CAPTURE(bad);
    CHECK(ParseReindex({"--source", bad}).status().message() ==
          std::string("--source must look like grpc://HOST:PORT/CATALOG (grpcs:// for TLS), not '") + bad +
              "'");
  }
  auto exp = ParseExport({"--source", "grpc://127.0.0.1:5555/senesi", "--out", "/x", "--zip", "/x.zip",
                          "--page-size", "50", "--compress", "zstd"});
  REQUIRE_OK(exp);
  CHECK(exp->address == "127.0.0.1:5555");
  CHECK(exp->catalog == "senesi");
  CHECK(exp->out_dir == "/x");
  CHECK(exp->zip_path == "/x.zip");
  CHECK(exp->source.page_size == 50);
  CHECK(exp->write.compression == SnapshotCompression::kZstd);
  CHECK(ParseExport({"--source", "grpc://h:1/c", "--out", "/x", "--page-size", "0"}).status().message() ==
        "--page-size must be from 1 to 100000, not 0");
  auto spelled_out = ParseExport({"--address", "db:5555", "--catalog", "senesi", "--out", "/x"});
  REQUIRE_OK(spelled_out);
  CHECK(spelled_out->address == "db:5555");
  CHECK(spelled_out->catalog == "senesi");
  CHECK(ParseExport({"--out", "/x"}).status().message() ==
        "give either --source grpc://HOST:PORT/CATALOG or --address and --catalog");
  CHECK(ParseExport({"--source", "grpc://h:1/c", "--catalog", "c", "--out", "/x"}).status().message() ==
        "give either --source grpc://HOST:PORT/CATALOG or --address and --catalog");
  CHECK(ParseExport({"--catalog", "c", "--out", "/x"}).status().message() ==
        "--catalog needs --address HOST:PORT");
  CHECK(ParseExport({"--address", "h:1", "--out", "/x"}).status().message() ==
        "--address needs --catalog NAME");
}

// The flags a parser documents: every "--name" that starts a line of its --help.
template <typename Parser>
std::set<std::string> DocumentedFlags(Parser parse) {
  auto help = parse({"--help"});
  REQUIRE_OK(help);
  REQUIRE_FALSE(help->help.empty());
  std::set<std::string> flags;
  std::istringstream lines(help->help);
  const std::regex flag("^\\s+--([a-z0-9-]+)");
  std::smatch m;
  for (std::string line; std::getline(lines, line);) {
    if (std::regex_search(line, m, flag)) flags.insert(m[1]);
  }
  REQUIRE(flags.size() >= 2);
  return flags;
}

// One row per flag: a command line that uses it, and what the parsed command
// must then hold. Every documented flag needs a row (a new flag without one
// fails here), and every row's flag must be documented.
template <typename Command>
using FlagTable =
    std::map<std::string, std::pair<std::vector<std::string>, std::function<bool(const Command&)>>>;

// A documented flag that this command always refuses (warmup-profile lists
// load's target flags but profiles the embedded engine only): a command line
// with it, and the start of the error.
using RefusedFlags = std::map<std::string, std::pair<std::vector<std::string>, std::string>>;

template <typename Command, typename Parser>
void CheckEveryFlag(Parser parse, const FlagTable<Command>& table, const RefusedFlags& refused = {}) {
  const std::set<std::string> documented = DocumentedFlags(parse);
  for (const std::string& flag : documented) {
    CAPTURE(flag);
    if (flag == "help") continue;  // --help: see DocumentedFlags
    if (auto no = refused.find(flag); no != refused.end()) {
      REQUIRE_MESSAGE(!table.contains(flag), "--", flag, " has a row and is refused");
      CHECK_MESSAGE(parse(no->second.first).status().message().find(no->second.second) == 0,
                    parse(no->second.first).status().ToString());
      continue;
    }
    auto row = table.find(flag);
    REQUIRE_MESSAGE(row != table.end(), "--", flag, " is documented but has no row in this test");
    auto cmd = parse(row->second.first);
    REQUIRE_MESSAGE(cmd.ok(), cmd.status().ToString());
    CHECK_MESSAGE(row->second.second(*cmd), "--", flag, " did not reach the command");
  }
  for (const auto& row : table) {
    CHECK_MESSAGE(documented.contains(row.first), "--", row.first, " is not documented");
  }
  for (const auto& row : refused) {
    CHECK_MESSAGE(documented.contains(row.first), "--", row.first, " is not documented");
  }
}

using Args = std::vector<std::string>;

// The rows of the TLS group, shared by every command that dials a server:
// `tls_on` is a command line with one TLS connection, `tls` reads that
// connection's settings from the parsed command.
template <typename Command>
void AddTlsRows(FlagTable<Command>& table, const Args& tls_on,
                std::function<const ClientTlsOptions&(const Command&)> tls) {
  auto with = [&](Args extra) {
    Args args = tls_on;
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
  };
  table["ca-cert"] = {with({"--ca-cert", "ca.pem"}),
                      [tls](const Command& c) { return tls(c).enabled && tls(c).ca_cert_file == "ca.pem"; }};
  table["fetch-server-cert"] = {with({"--fetch-server-cert", "db:5557"}), [tls](const Command& c) {
                                  return tls(c).fetch_server_cert_from == "db:5557";
                                }};
  table["client-cert"] = {with({"--client-cert", "c.pem", "--client-key", "k.pem"}),
                          [tls](const Command& c) { return tls(c).client_cert_file == "c.pem"; }};
  table["client-key"] = {with({"--client-cert", "c.pem", "--client-key", "k.pem"}),
                         [tls](const Command& c) { return tls(c).client_key_file == "k.pem"; }};
  table["tls-server-name"] = {with({"--tls-server-name", "db.example"}),
                              [tls](const Command& c) { return tls(c).server_name == "db.example"; }};
}

// The source server's flags (SourceGroup: --source-server-command and what
// goes with it), the same in every command that reads a source; `with` adds
// the command's own required flags.
template <typename Command>
void AddSourceServerRows(FlagTable<Command>& table, const std::function<Args(Args)>& with) {
  table["source-server-command"] = {
      with({"--source-server-command", "java {port} {data}"}), [](const Command& c) {
        return As<ServerFolderSourceSpec>(c.source).server.command == "java {port} {data}";
      }};
  table["source-server-xmx"] = {
      with({"--source-server-command", "j {xmx}", "--source-server-xmx", "4g"}),
      [](const Command& c) { return As<ServerFolderSourceSpec>(c.source).server.xmx == "4g"; }};
  table["source-server-start-timeout"] = {
      with({"--source-server-command", "j", "--source-server-start-timeout", "77"}), [](const Command& c) {
        return As<ServerFolderSourceSpec>(c.source).server.start_timeout_seconds == 77;
      }};
  table["source-work-dir"] = {
      with({"--source-server-command", "j", "--source-work-dir", "/sw"}),
      [](const Command& c) { return As<ServerFolderSourceSpec>(c.source).work_dir == "/sw"; }};
}

TEST_CASE(
    "load and reindex: every documented flag is parsed into the command, table-driven (regression: "
    "--compress "
    "was not registered)") {
  const Args base = {"--pristine-dir", "/data", "--catalog", "senesi"};
  auto with = [&](Args extra) {
    Args args = base;
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
  };
  FlagTable<LoadCommand> common = {
      {"pristine-dir",
       {base, [](const LoadCommand& c) { return As<SnapshotSourceSpec>(c.source).dir == "/data"; }}},
      {"catalog",
       {with({}), [](const LoadCommand& c) { return As<SnapshotSourceSpec>(c.source).catalog == "senesi"; }}},
      {"source",
       {{"--source", "grpc://db:5555/live"},
        [](const LoadCommand& c) {
          return As<LiveSourceSpec>(c.source).address == "db:5555" &&
                 As<LiveSourceSpec>(c.source).catalog == "live";
        }}},
      {"target-catalog",
       {with({"--target-catalog", "copy"}),
        [](const LoadCommand& c) { return c.copy.target_catalog == "copy"; }}},
      {"max-per-collection",
       {with({"--max-per-collection", "200"}),
        [](const LoadCommand& c) { return c.copy.max_per_collection == 200; }}},
      {"no-read-ahead", {with({"--no-read-ahead"}), [](const LoadCommand& c) { return !c.copy.read_ahead; }}},
      {"collections",
       {with({"--collections", "Product,,Brand"}),
        [](const LoadCommand& c) {
          return c.copy.collections == std::vector<std::string>{"Product", "Brand"};
        }}},
      {"per-entity-csv",
       {with({"--per-entity-csv", "rows.csv"}),
        [](const LoadCommand& c) { return c.report.per_entity_csv == "rows.csv"; }}},
      {"report-json",
       {with({"--report-json", "run.json"}),
        [](const LoadCommand& c) { return c.report.report_json == "run.json"; }}},
      {"hold-open-seconds",
       {with({"--hold-open-seconds", "5"}),
        [](const LoadCommand& c) { return c.report.hold_open_seconds == 5; }}},
      {"verify",
       {with({"--verify", "content"}),
        [](const LoadCommand& c) { return c.copy.verify == VerifyMode::kContent; }}},
      {"run", {with({"--run", "smoke"}), [](const LoadCommand& c) { return c.copy.run_label == "smoke"; }}},
      {"keep-target", {with({"--keep-target"}), [](const LoadCommand& c) { return c.copy.keep_target; }}},
      {"prewarm-source",
       {with({"--prewarm-source"}),
        [](const LoadCommand& c) {
          return As<SnapshotSourceSpec>(c.source).cache == SourceCacheStep::kPrewarm;
        }}},
      {"allow-not-alive",
       {{"--source", "grpc://db:5555/live", "--allow-not-alive"},
        [](const LoadCommand& c) { return As<LiveSourceSpec>(c.source).allow_not_alive; }}},
      {"html",
       {with({"--html", "run.html"}), [](const LoadCommand& c) { return c.report.html == "run.html"; }}},
      {"progress-interval",
       {with({"--progress-interval", "2.5"}),
        [](const LoadCommand& c) { return c.report.progress_interval_seconds == 2.5; }}},
      {"quiet", {with({"--quiet"}), [](const LoadCommand& c) { return c.report.quiet; }}},
      {"drop-source-cache",
       {with({"--drop-source-cache"}),
        [](const LoadCommand& c) {
          return As<SnapshotSourceSpec>(c.source).cache == SourceCacheStep::kDrop;
        }}},
      {"work-dir",
       {with({"--work-dir", "/w"}), [](const LoadCommand& c) { return WorkDirIs(c.target, "/w"); }}},
      {"compress",
       {with({"--compress", "deflate"}),
        [](const LoadCommand& c) { return CompressionOf(c.target) == RecordCompression::kDeflate; }}},
      {"records-inline",
       {with({"--records-inline"}), [](const LoadCommand& c) { return RecordsInline(c.target); }}},
      {"address",
       {with({"--target", "remote", "--address", "10.0.0.9:7777"}),
        [](const LoadCommand& c) { return As<RemoteTargetSpec>(c.target).address == "10.0.0.9:7777"; }}},
      {"golive-timeout",
       {with({"--target", "remote", "--golive-timeout", "42"}),
        [](const LoadCommand& c) { return DeadlinesOf(c.target).golive_timeout_seconds == 42; }}},
      {"upsert-timeout",
       {with({"--target", "remote", "--upsert-timeout", "7200"}),
        [](const LoadCommand& c) { return DeadlinesOf(c.target).upsert_timeout_seconds == 7200; }}},
      {"server-pid",
       {with({"--target", "remote", "--address", "10.0.0.9:7777", "--server-pid", "4242"}),
        [](const LoadCommand& c) { return As<RemoteTargetSpec>(c.target).server_pid == 4242; }}},
      {"server-gc-log",
       {with({"--target", "remote", "--address", "10.0.0.9:7777", "--server-pid", "4242", "--server-gc-log",
              "/j/gc.log"}),
        [](const LoadCommand& c) { return As<RemoteTargetSpec>(c.target).server_gc_log == "/j/gc.log"; }}},
      {"runs",
       {with({"--runs", "5"}),
        [](const LoadCommand& c) {
          return c.repeat.repeated && c.repeat.runs == 5 && c.repeat.warmup_runs == 0;
        }}},
      {"warmup-runs",
       {with({"--warmup-runs", "2"}),
        [](const LoadCommand& c) {
          return c.repeat.repeated && c.repeat.runs == 1 && c.repeat.warmup_runs == 2;
        }}},
      {"out",
       {with({"--runs", "3", "--out", "/series"}),
        [](const LoadCommand& c) { return c.repeat.out_dir == "/series"; }}},
      {"warmup-until-stable",
       {with({"--target", "embedded", "--warmup-until-stable", "6"}),
        [](const LoadCommand& c) {
          // Without --warmup-runs, the most warm-up runs is 20.
          return c.repeat.repeated && c.repeat.warmup_until_stable == 6 && c.repeat.warmup_runs == 20 &&
                 c.repeat.warmup_metric == "total_seconds";
        }}},
      {"warmup-metric",
       {with({"--target", "embedded", "--warmup-until-stable", "5", "--warmup-metric",
              "upsert_mean_us:Product"}),
        [](const LoadCommand& c) { return c.repeat.warmup_metric == "upsert_mean_us:Product"; }}},
      {"history",
       {with({"--history=/h.sqlite"}), [](const LoadCommand& c) { return c.report.history == "/h.sqlite"; }}},
  };
  AddSourceServerRows<LoadCommand>(common, with);
  FlagTable<LoadCommand> load = common;
  load["target"] = {with({"--target", "null"}),
                    [](const LoadCommand& c) { return KindOf(c.target) == TargetKind::kNull; }};
  load["tls"] = {with({"--target", "remote", "--tls"}), [](const LoadCommand& c) {
                   return As<RemoteTargetSpec>(c.target).tls.enabled &&
                          std::holds_alternative<SnapshotSourceSpec>(c.source);  // no source TLS
                 }};
  AddTlsRows<LoadCommand>(
      load, with({"--target", "remote", "--tls"}),
      [](const LoadCommand& c) -> const ClientTlsOptions& { return As<RemoteTargetSpec>(c.target).tls; });
  CheckEveryFlag<LoadCommand>(ParseLoad, load);

  FlagTable<LoadCommand> reindex = common;
  reindex["target"] = {with({"--target", "embedded"}),
                       [](const LoadCommand& c) { return KindOf(c.target) == TargetKind::kEmbedded; }};
  reindex["server-binary"] = {with({"--server-binary", "/opt/b/warmup"}), [](const LoadCommand& c) {
                                return As<StartedServerTargetSpec>(c.target).server.binary ==
                                           "/opt/b/warmup" &&
                                       KindOf(c.target) == TargetKind::kStartedServer;
                              }};
  reindex["server-start-timeout"] = {
      with({"--server-start-timeout", "7"}), [](const LoadCommand& c) {
        return As<StartedServerTargetSpec>(c.target).server.start_timeout_seconds == 7;
      }};
  reindex["server-stop-grace"] = {with({"--server-stop-grace", "3"}), [](const LoadCommand& c) {
                                    return As<StartedServerTargetSpec>(c.target).server.stop_grace_seconds ==
                                           3;
                                  }};
  reindex["server-command"] = {with({"--server-command", "evita {port}"}), [](const LoadCommand& c) {
                                 return As<StartedServerTargetSpec>(c.target).server.command ==
                                            "evita {port}" &&
                                        KindOf(c.target) == TargetKind::kStartedServer;
                               }};
  reindex["server-xmx"] = {with({"--server-command", "x", "--server-xmx", "8g"}), [](const LoadCommand& c) {
                             return As<StartedServerTargetSpec>(c.target).server.xmx == "8g";
                           }};
  // One flag alone needs the = form: Boost takes "--compress" for an option, not a value.
  reindex["server-args"] = {with({"--server-args=--compress"}), [](const LoadCommand& c) {
                              return As<StartedServerTargetSpec>(c.target).server.extra_args ==
                                     std::vector<std::string>{"--compress"};
                            }};
  // --address names a running server: reindex starts none.
  reindex["address"] = {with({"--address", "127.0.0.1:7777"}), [](const LoadCommand& c) {
                          return As<RemoteTargetSpec>(c.target).address == "127.0.0.1:7777" &&
                                 KindOf(c.target) != TargetKind::kStartedServer;
                        }};
  reindex["tls"] = {with({"--address", "127.0.0.1:7777", "--tls"}),
                    [](const LoadCommand& c) { return As<RemoteTargetSpec>(c.target).tls.enabled; }};
  AddTlsRows<LoadCommand>(
      reindex, with({"--address", "127.0.0.1:7777", "--tls"}),
      [](const LoadCommand& c) -> const ClientTlsOptions& { return As<RemoteTargetSpec>(c.target).tls; });
  CheckEveryFlag<LoadCommand>(ParseReindex, reindex);
  CHECK(KindOf(ParseReindex(base)->target) == TargetKind::kStartedServer);
  CHECK(ParseReindex(with({"--target", "null"})).status().message() ==
        "--target must be remote or embedded, not 'null'");
  // The older spelling is still read, and is not documented.
  CHECK(KindOf(ParseReindex(with({"--target-mode", "embedded"}))->target) == TargetKind::kEmbedded);
  CHECK(ParseReindex(with({"--target-mode", "null"})).status().message() ==
        "--target must be remote or embedded, not 'null'");
  CHECK(ParseReindex(with({"--target-mode", "remote", "--target", "embedded"})).status().message() ==
        "give --target or --target-mode, not both");
  CHECK(ParseLoad(with({"--target-mode", "null"})).status().message().find("target-mode") !=
        std::string::npos);
  // --skip-verify is the older spelling of --verify none.
  CHECK(ParseLoad(with({"--skip-verify"}))->copy.verify == VerifyMode::kNone);
  CHECK(ParseLoad(with({}))->copy.verify == VerifyMode::kCounts);
  CHECK(ParseLoad(with({"--skip-verify", "--verify", "content"})).status().message() ==
        "give --verify or --skip-verify, not both");
  CHECK(ParseLoad(with({"--verify", "digests"})).status().message() ==
        "--verify must be counts, content or none, not 'digests'");
  CHECK(ParseLoad(with({"--target", "null", "--verify", "content"})).status().message() ==
        "--verify content reads the catalog back, and --target null keeps nothing to read");
}

TEST_CASE("generate, inspect, unpack, export and serve: every documented flag is parsed (table-driven)") {
  CheckEveryFlag<GenerateCommand>(
      ParseGenerate,
      {{"out", {{"--out", "/x"}, [](const GenerateCommand& c) { return c.out_dir == "/x"; }}},
       {"profile",
        {{"--out", "/x", "--profile", "tiny"},
         [](const GenerateCommand& c) { return c.generator.profile == "tiny"; }}},
       {"scale",
        {{"--out", "/x", "--scale", "0.25"},
         [](const GenerateCommand& c) { return c.generator.scale == 0.25; }}},
       {"seed",
        {{"--out", "/x", "--seed", "77"}, [](const GenerateCommand& c) { return c.generator.seed == 77; }}},
       {"catalog",
        {{"--out", "/x", "--catalog", "mine"},
         [](const GenerateCommand& c) { return c.generator.catalog_name == "mine"; }}},
       {"compress",
        {{"--out", "/x", "--compress", "zstd"},
         [](const GenerateCommand& c) { return c.write.compression == SnapshotCompression::kZstd; }}},
       {"zip", {{"--out", "/x", "--zip", "/x.zip"}, [](const GenerateCommand& c) {
                  return c.zip_path == "/x.zip";
                }}}});
  CHECK_FALSE(ParseGenerate({"--out", "/x"})->zip_path.has_value());

  CheckEveryFlag<InspectCommand>(
      ParseInspect,
      {{"snapshot", {{"--snapshot", "/s"}, [](const InspectCommand& c) { return c.path == "/s"; }}},
       {"json", {{"/s", "--json"}, [](const InspectCommand& c) { return c.json && c.path == "/s"; }}}});
  CHECK(ParseInspect({}).status().message().find("snapshot") != std::string::npos);

  CheckEveryFlag<UnpackCommand>(
      ParseUnpack,
      {{"zip", {{"e.zip", "d"}, [](const UnpackCommand& c) { return c.zip_path == "e.zip"; }}},
       {"dir", {{"--zip", "e.zip", "--dir", "d"}, [](const UnpackCommand& c) { return c.out_dir == "d"; }}},
       {"catalog",
        {{"b.zip", "d", "--catalog", "c"}, [](const UnpackCommand& c) { return c.catalog == "c"; }}}});
  CHECK(ParseUnpack({"e.zip"}).status().message().find("dir") != std::string::npos);

  const Args src = {"--source", "grpc://h:1/c", "--out", "/x"};
  auto exp = [&](Args extra) {
    Args args = src;
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
  };
  FlagTable<ExportCommand> export_flags = {
      {"source", {src, [](const ExportCommand& c) { return c.address == "h:1" && c.catalog == "c"; }}},
      {"address",
       {{"--address", "h:2", "--catalog", "d", "--out", "/x"},
        [](const ExportCommand& c) { return c.address == "h:2"; }}},
      {"catalog",
       {{"--address", "h:2", "--catalog", "d", "--out", "/x"},
        [](const ExportCommand& c) { return c.catalog == "d"; }}},
      {"out", {src, [](const ExportCommand& c) { return c.out_dir == "/x"; }}},
      {"compress",
       {exp({"--compress", "zstd"}),
        [](const ExportCommand& c) { return c.write.compression == SnapshotCompression::kZstd; }}},
      {"zip", {exp({"--zip", "/x.zip"}), [](const ExportCommand& c) { return c.zip_path == "/x.zip"; }}},
      {"page-size",
       {exp({"--page-size", "9"}), [](const ExportCommand& c) { return c.source.page_size == 9; }}},
      {"call-timeout",
       {exp({"--call-timeout", "17"}),
        [](const ExportCommand& c) { return c.source.call_timeout_seconds == 17; }}},
      {"allow-not-alive",
       {exp({"--allow-not-alive"}), [](const ExportCommand& c) { return c.source.allow_not_alive; }}},
      {"pristine-dir",
       {{"--pristine-dir", "/p", "--source-server-command", "j", "--out", "/x"},
        [](const ExportCommand& c) { return c.folder.folder == "/p" && c.address.empty(); }}},
      {"source-server-command",
       {{"--pristine-dir", "/p", "--catalog", "c", "--source-server-command", "j {port}", "--out", "/x"},
        [](const ExportCommand& c) {
          return c.folder.server.command == "j {port}" && c.folder.catalog == "c";
        }}},
      {"source-server-xmx",
       {{"--pristine-dir", "/p", "--source-server-command", "j", "--source-server-xmx", "2g", "--out", "/x"},
        [](const ExportCommand& c) { return c.folder.server.xmx == "2g"; }}},
      {"source-server-start-timeout",
       {{"--pristine-dir", "/p", "--source-server-command", "j", "--source-server-start-timeout", "9",
         "--out", "/x"},
        [](const ExportCommand& c) { return c.folder.server.start_timeout_seconds == 9; }}},
      {"source-work-dir",
       {{"--pristine-dir", "/p", "--source-server-command", "j", "--source-work-dir", "/sw", "--out", "/x"},
        [](const ExportCommand& c) { return c.folder.work_dir == "/sw"; }}}};
  const Args tls_export = {"--address", "h:2", "--catalog", "d", "--out", "/x", "--tls"};
  export_flags["tls"] = {tls_export, [](const ExportCommand& c) { return c.source.tls.enabled; }};
  AddTlsRows<ExportCommand>(export_flags, tls_export,
                            [](const ExportCommand& c) -> const ClientTlsOptions& { return c.source.tls; });
  CheckEveryFlag<ExportCommand>(ParseExport, export_flags);
  CHECK(ParseExport(exp({"--call-timeout", "0"})).status().message() ==
        "--call-timeout must be from 1 to 86400, not 0");

  const Args data = {"--data-dir", "/d"};
  auto serve = [&](Args extra) {
    Args args = data;
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
  };
  CheckEveryFlag<ServeCommand>(
      ParseServe,
      {{"data-dir", {data, [](const ServeCommand& c) { return c.server.data_dir == "/d"; }}},
       {"listen",
        {serve({"--listen", "127.0.0.1:0"}),
         [](const ServeCommand& c) { return c.server.listen == "127.0.0.1:0"; }}},
       {"compress",
        {serve({"--compress", "deflate"}),
         [](const ServeCommand& c) { return c.server.engine.compression == RecordCompression::kDeflate; }}},
       {"reset-data", {serve({"--reset-data"}), [](const ServeCommand& c) { return c.reset_data; }}},
       {"records-inline",
        {serve({"--records-inline"}),
         [](const ServeCommand& c) { return !c.server.engine.background_records; }}},
       {"allow-remote-clients",
        {serve({"--listen", "0.0.0.0:5555", "--allow-remote-clients"}),
         [](const ServeCommand& c) { return c.allow_remote_clients && c.server.listen == "0.0.0.0:5555"; }}},
       {"session-idle-seconds",
        {serve({"--session-idle-seconds", "30"}),
         [](const ServeCommand& c) { return c.server.session_idle_seconds == 30; }}},
       {"ready-fd", {serve({"--ready-fd", "5"}), [](const ServeCommand& c) { return c.ready_fd == 5; }}},
       {"orphaned-session-grace-seconds",
        {serve({"--orphaned-session-grace-seconds", "0"}),
         [](const ServeCommand& c) { return c.server.orphaned_session_grace_seconds == 0; }}},
       {"tls-cert",
        {serve({"--tls-cert", "s.pem", "--tls-key", "s.key"}),
         [](const ServeCommand& c) { return c.server.tls.cert_file == "s.pem"; }}},
       {"tls-key",
        {serve({"--tls-cert", "s.pem", "--tls-key", "s.key"}),
         [](const ServeCommand& c) { return c.server.tls.key_file == "s.key"; }}},
       {"client-ca",
        {serve({"--tls-cert", "s.pem", "--tls-key", "s.key", "--client-ca", "ca.pem"}),
         [](const ServeCommand& c) { return c.server.tls.client_ca_file == "ca.pem"; }}},
       {"system-listen",
        {serve({"--tls-cert", "s.pem", "--tls-key", "s.key", "--system-listen", "127.0.0.1:0"}),
         [](const ServeCommand& c) { return c.server.system_listen == "127.0.0.1:0"; }}},
       {"upsert-delay-ms",
        {serve({"--upsert-delay-ms", "20"}),
         [](const ServeCommand& c) { return c.server.upsert_delay_ms == 20; }}},
       {"golive-delay-ms",
        {serve({"--golive-delay-ms", "250"}),
         [](const ServeCommand& c) { return c.server.golive_delay_ms == 250; }}},
       {"inject-upsert-delay-us",
        {serve({"--inject-upsert-delay-us", "50"}),
         [](const ServeCommand& c) { return c.server.inject_upsert_delay_us == 50; }}},
       {"profiler",
        {serve({"--profiler", "cpu", "--profile-out", "p.prof"}),
         [](const ServeCommand& c) { return c.profiler.kind == ProfilerKind::kCpu; }}},
       {"profile-out",
        {serve({"--profiler", "cpu", "--profile-out", "p.prof"}),
         [](const ServeCommand& c) { return c.profiler.out == "p.prof"; }}},
       {"profile-golive",
        {serve({"--profiler", "cpu", "--profile-out", "p.prof", "--profile-golive"}),
         [](const ServeCommand& c) { return c.profiler.golive; }}},
       {"inject-fault",
        {serve({"--inject-fault", "UpsertEntity@5", "--inject-fault", "GoLiveAndClose", "--inject-fault",
                "Query@2:crash"}),
         [](const ServeCommand& c) {
           return c.server.faults.size() == 3 && c.server.faults[0].method == "UpsertEntity" &&
                  c.server.faults[0].after_calls == 5 && !c.server.faults[0].crash &&
                  c.server.faults[1].method == "GoLiveAndClose" && c.server.faults[1].after_calls == 0 &&
                  c.server.faults[2].method == "Query" && c.server.faults[2].after_calls == 2 &&
                  c.server.faults[2].crash;
         }}}});
  FlagTable<CatalogsCommand> catalogs = {
      {"address", {{"--address", "h:9"}, [](const CatalogsCommand& c) { return c.address == "h:9"; }}},
      {"delete",
       {{"--delete", "a", "--delete", "b"},
        [](const CatalogsCommand& c) {
          return c.delete_names == std::vector<std::string>{"a", "b"};
        }}},
      {"call-timeout",
       {{"--call-timeout", "5"}, [](const CatalogsCommand& c) { return c.admin.call_timeout_seconds == 5; }}},
      {"backup",
       {{"--backup", "senesi", "--out", "b.zip"},
        [](const CatalogsCommand& c) { return c.backup_name == "senesi" && c.delete_names.empty(); }}},
      {"out",
       {{"--backup", "s", "--out", "b.zip"},
        [](const CatalogsCommand& c) { return c.backup_out == "b.zip"; }}},
      {"backup-timeout",
       {{"--backup", "s", "--out", "b.zip", "--backup-timeout", "90"},
        [](const CatalogsCommand& c) { return c.backup_timeout_seconds == 90; }}},
      {"tls", {{"--tls"}, [](const CatalogsCommand& c) { return c.admin.tls.enabled; }}}};
  AddTlsRows<CatalogsCommand>(
      catalogs, {"--tls"}, [](const CatalogsCommand& c) -> const ClientTlsOptions& { return c.admin.tls; });
  CheckEveryFlag<CatalogsCommand>(ParseCatalogs, catalogs);
  CHECK(ParseCatalogs({"--delete", "../x"}).status().message().find("--delete '../x' has a character") == 0);
  CHECK(ParseCatalogs({"--backup", "s"}).status().message() == "--backup needs --out FILE, the zip to write");
  CHECK(ParseCatalogs({"--out", "b.zip"}).status().message() ==
        "--out is where --backup writes its zip: name the catalog with --backup");
  CHECK(ParseCatalogs({"--backup", "s", "--out", "b", "--delete", "t"}).status().message() ==
        "--backup and --delete are separate calls");
  for (const char* bad : {"UpsertEntity@", "UpsertEntity@x", "UpsertEntity@-1", "UpsertEntity@1:crush"}) {
    CAPTURE(bad);
    CHECK(ParseServe(serve({"--inject-fault", bad})).status().message() ==
          std::string("--inject-fault must look like METHOD, METHOD@N or METHOD@N:crash, not '") + bad + "'");
  }
}

TEST_CASE(
    "TLS flags: grpcs:// turns TLS on for the source, --tls for --address, and a flag with no TLS "
    "connection to act on is refused") {
  auto source_only =
      ParseLoad({"--source", "grpcs://db:5556/live", "--target", "null", "--ca-cert", "ca.pem"});
  REQUIRE_OK(source_only);
  CHECK(As<LiveSourceSpec>(source_only->source).tls.enabled);
  CHECK(As<LiveSourceSpec>(source_only->source).tls.ca_cert_file == "ca.pem");
  CHECK(std::holds_alternative<NullTargetSpec>(source_only->target));  // a null target has no TLS to turn on
  auto both = ParseLoad({"--source", "grpcs://db:5556/live", "--target", "remote", "--tls"});
  REQUIRE_OK(both);
  CHECK((As<LiveSourceSpec>(both->source).tls.enabled && As<RemoteTargetSpec>(both->target).tls.enabled));
  auto target_only = ParseLoad({"--source", "grpc://db:5556/live", "--target", "remote", "--tls"});
  REQUIRE_OK(target_only);
  CHECK((!As<LiveSourceSpec>(target_only->source).tls.enabled &&
         As<RemoteTargetSpec>(target_only->target).tls.enabled));
  // Plaintext keeps the flags as the TLS settings' names: a TLS-only server's refusal advises in them.
  CHECK(As<LiveSourceSpec>(target_only->source).tls.names.enable ==
        "add --tls, or write grpcs:// in --source");
  CHECK(As<LiveSourceSpec>(target_only->source).tls.names.ca_cert == "--ca-cert");

  const std::string no_tls =
      "TLS settings (--ca-cert, --fetch-server-cert, --client-cert, --client-key, --tls-server-name) given, "
      "but "
      "no connection uses TLS: add --tls, or write grpcs:// in --source";
  CHECK(ParseLoad({"--pristine-dir", "/d", "--target", "remote", "--ca-cert", "ca.pem"}).status().message() ==
        no_tls);
  // Regression: catalogs, which has no --source, was told to write grpcs:// in it.
  CHECK(
      ParseCatalogs({"--client-cert", "c.pem", "--client-key", "k.pem"}).status().message() ==
      "TLS settings (--ca-cert, --fetch-server-cert, --client-cert, --client-key, --tls-server-name) given, "
      "but no connection uses TLS: add --tls");
  CHECK(ParseLoad({"--pristine-dir", "/d", "--tls"}).status().message() ==
        "--tls has no effect with --target embedded; leave it out");
  CHECK(ParseReindex({"--pristine-dir", "/d", "--tls"})
            .status()
            .message()
            .find("--tls has no effect with the server "
                  "reindex starts") == 0);
  CHECK(ParseExport({"--source", "grpc://h:1/c", "--out", "/x", "--tls"}).status().message() ==
        "--tls goes with --address; with --source write grpcs://");
  auto exported = ParseExport({"--source", "grpcs://h:1/c", "--out", "/x", "--fetch-server-cert", "h:5557"});
  REQUIRE_OK(exported);
  CHECK(exported->source.tls.enabled);
  CHECK(ParseCatalogs({"--tls", "--ca-cert", "a", "--fetch-server-cert", "h:5557"}).status().message() ==
        "give --ca-cert or --fetch-server-cert, not both: each says whom to trust");
  CHECK(ParseCatalogs({"--tls", "--client-key", "k.pem"}).status().message() ==
        "--client-key needs --client-cert");

  CHECK(ParseServe({"--data-dir", "/d", "--tls-cert", "s.pem"}).status().message() ==
        "--tls-cert needs --tls-key");
  CHECK(ParseServe({"--data-dir", "/d", "--client-ca", "ca.pem"}).status().message() ==
        "--client-ca needs --tls-cert and --tls-key");
  CHECK(ParseServe({"--data-dir", "/d", "--system-listen", "127.0.0.1:5557"}).status().message() ==
        "--system-listen serves the server's certificate: it needs --tls-cert");
  CHECK(
      ParseServe({"--data-dir", "/d", "--tls-cert", "s", "--tls-key", "k", "--system-listen", "0.0.0.0:5557"})
          .status()
          .message()
          .find("--system-listen 0.0.0.0:5557 is reachable from other machines") == 0);
}

TEST_CASE("addresses are checked when parsed: --listen, --address, --source, export's --address") {
  CHECK(ParseServe({"--data-dir", "/d", "--listen", "127.0.0.1:abc"})
            .status()
            .message()
            .find("--listen: address '127.0.0.1:abc': the port 'abc' is not a number") == 0);
  CHECK(ParseServe({"--data-dir", "/d", "--listen", "0.0.0.0:5555"}).status().message() ==
        "--listen 0.0.0.0:5555 is reachable from other machines, and the server has no authentication; add "
        "--allow-remote-clients if that is meant");
  CHECK(ParseServe({"--data-dir", "/d", "--listen", "127.0.0.1:0"}).ok());
  CHECK(ParseLoad({"--pristine-dir", "/d", "--target", "remote", "--address", "127.0.0.1:99999"})
            .status()
            .message()
            .find("--address: address '127.0.0.1:99999': port 99999 is out of range") == 0);
  CHECK(ParseReindex({"--pristine-dir", "/d", "--address", "127.0.0.1:0"})
            .status()
            .message()
            .find("--address: address '127.0.0.1:0': port 0 is out of range") == 0);
  CHECK(
      ParseLoad({"--source", "grpc://db:70000/c"}).status().message().find("--source: address 'db:70000'") ==
      0);
  CHECK(ParseExport({"--address", "db", "--catalog", "c", "--out", "/x"})
            .status()
            .message()
            .find("--address: address 'db': no port") == 0);
}

TEST_CASE("numbers are checked for range and overflow, names for what a name may be, empty values refused") {
  const Args base = {"--pristine-dir", "/d"};
  auto load = [&](Args extra) {
    Args args = base;
    args.insert(args.end(), extra.begin(), extra.end());
    return ParseLoad(args).status().message();
  };
  CHECK(load({"--max-per-collection", "-1"}) ==
        "--max-per-collection must be from 0 to 9223372036854775807, not -1");
  CHECK(load({"--hold-open-seconds", "-5"}) == "--hold-open-seconds must be from 0 to 86400, not -5");
  CHECK(load({"--target", "remote", "--golive-timeout", "-1"}) ==
        "--golive-timeout must be from 0 to 604800, not -1");
  CHECK(load({"--max-per-collection", "99999999999999999999"}).find("max-per-collection") !=
        std::string::npos);
  CHECK(load({"--hold-open-seconds", "99999999999"}).find("hold-open-seconds") != std::string::npos);
  CHECK(load({"--work-dir", ""}) == "--work-dir needs a value, not an empty one");
  CHECK(load({"--report-json", ""}) == "--report-json needs a value, not an empty one");
  CHECK(load({"--report-json="}).find("--report-json") != std::string::npos);  // Boost's own words
  CHECK(ParseLoad({"--pristine-dir", ""}).status().message() ==
        "--pristine-dir needs a value, not an empty one");
  CHECK(load({"--target-catalog", "a/b"})
            .find("--target-catalog 'a/b' has a character that is not allowed ('/')") == 0);
  CHECK(load({"--target-catalog", ".."}).find("--target-catalog '..' is not a name") == 0);
  CHECK(load({"--target-catalog", std::string(300, 'x')})
            .find("--target-catalog is too long: 300 characters (letters, digits, '.', '_', '-'; at most 255 "
                  "characters)") == 0);
  CHECK(load({"--run", "my run"}).find("--run 'my run' has a character that is not allowed (byte 0x20)") ==
        0);
  CHECK(load({"--catalog", "../etc"}).find("--catalog '../etc' has a character") == 0);
  CHECK(ParseGenerate({"--out", "/x", "--scale", "0"}).status().message() ==
        "--scale must be more than 0 and at most 1000, not 0.000000");
  CHECK(ParseGenerate({"--out", "/x", "--scale", "nan"}).status().message().find("--scale must be") == 0);
  CHECK(ParseServe({"--data-dir", "/d", "--session-idle-seconds", "-1"}).status().message() ==
        "--session-idle-seconds must be from 0 to 604800, not -1");
  CHECK(ParseServe({"--data-dir", ""}).status().message() == "--data-dir needs a value, not an empty one");
}

TEST_CASE("an option that would have no effect in its mode is refused, naming the mode") {
  const Args base = {"--pristine-dir", "/d"};
  auto with = [&](Args extra) {
    Args args = base;
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
  };
  CHECK(ParseLoad(with({"--target", "null", "--work-dir", "/w"})).status().message() ==
        "--work-dir has no effect with --target null; leave it out");
  CHECK(ParseLoad(with({"--target", "null", "--compress", "zstd"})).status().message() ==
        "--compress has no effect with --target null; leave it out");
  CHECK(ParseLoad(with({"--target", "null", "--records-inline"})).status().message() ==
        "--records-inline has no effect with --target null; leave it out");
  CHECK(ParseLoad(with({"--target", "remote", "--records-inline"})).status().message() ==
        "--records-inline has no effect with a remote target that is already running; leave it out");
  CHECK(ParseLoad(with({"--address", "127.0.0.1:7777"})).status().message() ==
        "--address has no effect with --target embedded; leave it out");
  CHECK(ParseLoad(with({"--golive-timeout", "5"})).status().message() ==
        "--golive-timeout has no effect with --target embedded; leave it out");
  CHECK(ParseLoad(with({"--target", "remote", "--compress"})).status().message() ==
        "--compress has no effect with a remote target that is already running; leave it out");
  CHECK(ParseReindex(with({"--address", "127.0.0.1:7777", "--server-binary", "/b"})).status().message() ==
        "--server-binary has no effect with --address: reindex starts no server; leave it out");
  CHECK(ParseReindex(with({"--address", "127.0.0.1:7777", "--work-dir", "/w"})).status().message() ==
        "--work-dir has no effect with a remote target that is already running; leave it out");
  CHECK(ParseReindex(with({"--target", "embedded", "--server-stop-grace", "3"})).status().message() ==
        "--server-stop-grace has no effect with --target embedded; leave it out");
  // What each mode uses is accepted.
  CHECK(ParseLoad(with({"--target", "null"})).ok());
  CHECK(ParseLoad(with({"--work-dir", "/w", "--compress", "zstd"})).ok());
  CHECK(ParseReindex(with({"--work-dir", "/w", "--compress", "zstd", "--server-binary", "/b"})).ok());
}

// A parser of `base` plus extra arguments that answers with `get` of the
// command: whether it compresses, here.
template <typename Parse, typename Get>
std::function<StatusOr<bool>(const Args&)> CompressionOf(Parse parse, Args base, Get get) {
  return [=](const Args& extra) -> StatusOr<bool> {
    Args args = base;
    args.insert(args.end(), extra.begin(), extra.end());
    auto c = parse(args);
    if (!c.ok()) return c.status();
    return get(*c);
  };
}

TEST_CASE(
    "--compress means none|zstd in every command, deflate too for engine records, and the bare older "
    "spelling is zstd") {
  auto zstd = [](const auto& c) { return c.write.compression == SnapshotCompression::kZstd; };
  auto records = [](RecordCompression wanted) {
    return [wanted](const LoadCommand& c) { return CompressionOf(c.target) == wanted; };
  };
  struct Command {
    std::string name;
    std::function<StatusOr<bool>(const Args&)> is_zstd;
    std::function<StatusOr<bool>(const Args&)> is_deflate;  // empty: snapshots know no deflate
  };
  auto serve_is = [](RecordCompression wanted) {
    return CompressionOf(ParseServe, {"--data-dir", "/d"},
                         [wanted](const ServeCommand& c) { return c.server.engine.compression == wanted; });
  };
  const std::vector<Command> commands = {
      {"load", CompressionOf(ParseLoad, {"--pristine-dir", "/d"}, records(RecordCompression::kZstd)),
       CompressionOf(ParseLoad, {"--pristine-dir", "/d"}, records(RecordCompression::kDeflate))},
      {"reindex", CompressionOf(ParseReindex, {"--pristine-dir", "/d"}, records(RecordCompression::kZstd)),
       CompressionOf(ParseReindex, {"--pristine-dir", "/d"}, records(RecordCompression::kDeflate))},
      {"serve", serve_is(RecordCompression::kZstd), serve_is(RecordCompression::kDeflate)},
      {"generate", CompressionOf(ParseGenerate, {"--out", "/x"}, zstd), nullptr},
      {"export", CompressionOf(ParseExport, {"--source", "grpc://h:1/c", "--out", "/x"}, zstd), nullptr},
  };
  for (const auto& command : commands) {
    const auto& parse = command.is_zstd;
    CAPTURE(command.name);
    CHECK(*parse({}) == false);
    CHECK(*parse({"--compress", "none"}) == false);
    CHECK(*parse({"--compress", "zstd"}) == true);
    CHECK(*parse({"--compress=zstd"}) == true);
    CHECK(*parse({"--compress"}) == true);
    CHECK_FALSE(parse({"--compress", "--compress=none"}).ok());  // given twice
    if (command.is_deflate) {
      CHECK(*command.is_deflate({"--compress", "deflate"}) == true);
      CHECK(*command.is_deflate({"--compress"}) == false);
      CHECK(parse({"--compress", "lz4"}).status().message() ==
            "--compress must be none, zstd or deflate, not 'lz4'");
    } else {
      CHECK(parse({"--compress", "lz4"}).status().message() == "--compress must be none or zstd, not 'lz4'");
      CHECK_FALSE(parse({"--compress", "deflate"}).ok());
    }
  }
}

TEST_CASE("the parser looks at no file: --pristine-dir is resolved when the load runs (FindSnapshot)") {
  auto parsed = ParseLoad({"--pristine-dir", "/no/such/dir"});
  REQUIRE_OK(parsed);
  CHECK(As<SnapshotSourceSpec>(parsed->source).dir == "/no/such/dir");
  CHECK(std::holds_alternative<SnapshotSourceSpec>(parsed->source));
  CHECK(As<SnapshotSourceSpec>(parsed->source).catalog.empty());
}

TEST_CASE("warmup-profile and serve --profiler: the profiler, its output, and what goes with what") {
  auto cpu = ParseProfile({"--pristine-dir", "/d", "--profiler", "cpu", "--profile-out", "/tmp/p.prof",
                           "--collections", "Product", "--compress", "deflate"});
  REQUIRE_OK(cpu);
  CHECK(cpu->profiler.kind == ProfilerKind::kCpu);
  CHECK(cpu->profiler.out == "/tmp/p.prof");
  CHECK(KindOf(cpu->target) == TargetKind::kEmbedded);
  CHECK(cpu->copy.collections == std::vector<std::string>{"Product"});
  CHECK(CompressionOf(cpu->target) == RecordCompression::kDeflate);
  auto none = ParseProfile({"--pristine-dir", "/d"});
  REQUIRE_OK(none);
  CHECK(none->profiler.kind == ProfilerKind::kNone);
  CHECK(ParseProfile({"--pristine-dir", "/d", "--profiler", "cpu"}).status().message() ==
        "--profiler cpu needs --profile-out");
  CHECK(ParseProfile({"--pristine-dir", "/d", "--profiler", "gprof", "--profile-out", "p"})
            .status()
            .message() == "--profiler must be none, cpu, heap or perf, not 'gprof'");
  CHECK(ParseProfile({"--pristine-dir", "/d", "--profile-out", "p"}).status().message() ==
        "--profile-out and --profile-golive need --profiler cpu, heap or perf");
  CHECK(ParseProfile({"--pristine-dir", "/d", "--target", "remote"})
            .status()
            .message()
            .find("warmup-profile profiles the embedded engine") == 0);
  CHECK(ParseProfile({"--help"})->help.find("usage: warmup-profile") == 0);
  // Its only connection is a grpcs:// source, so that is the advice (it has no --tls to add).
  const std::string tls_advice =
      ParseProfile({"--pristine-dir", "/d", "--ca-cert", "ca.pem"}).status().message();
  CHECK(tls_advice.find("warmup-profile connects only to a grpcs:// --source") != std::string::npos);
  CHECK(tls_advice.find("--tls,") == std::string::npos);
  REQUIRE_OK(ParseProfile({"--source", "grpcs://127.0.0.1:5555/c", "--ca-cert", "ca.pem"}));
  CHECK_FALSE(ParseProfile({"--pristine-dir", "/d", "--profile-golive"}).ok());  // serve's flag only

  auto serve =
      ParseServe({"--data-dir", "/d", "--profiler", "perf", "--profile-out", "/p", "--profile-golive"});
  REQUIRE_OK(serve);
  CHECK(serve->profiler.kind == ProfilerKind::kPerf);
  CHECK(serve->profiler.golive);
  CHECK(ParseServe({"--data-dir", "/d", "--profile-golive"}).status().message() ==
        "--profile-out and --profile-golive need --profiler cpu, heap or perf");
  CHECK(ParseServe({"--data-dir", "/d"})->profiler.kind == ProfilerKind::kNone);
}

}  // namespace
}  // namespace warmup::cli

namespace warmup::cli {
namespace {

TEST_CASE("reindex --server-args, and the source cache flags") {
  auto reindex =
      ParseReindex({"--pristine-dir", "/d", "--server-args", "--inject-upsert-delay-us 50  --compress"});
  REQUIRE_OK(reindex);
  CHECK(As<StartedServerTargetSpec>(reindex->target).server.extra_args ==
        std::vector<std::string>{"--inject-upsert-delay-us", "50", "--compress"});
  CHECK(ParseReindex({"--pristine-dir", "/d", "--address", "127.0.0.1:5555", "--server-args", "x"})
            .status()
            .message()
            .find("--server-args has no effect with --address") == 0);
  auto warm = ParseLoad({"--pristine-dir", "/d", "--prewarm-source"});
  REQUIRE_OK(warm);
  CHECK(As<SnapshotSourceSpec>(warm->source).cache == SourceCacheStep::kPrewarm);
  CHECK(ParseLoad({"--pristine-dir", "/d", "--progress-interval", "0"})
            .status()
            .message()
            .find("--progress-interval must be from 0.1 to 86400 seconds") == 0);
  CHECK(ParseLoad({"--pristine-dir", "/d", "--prewarm-source", "--drop-source-cache"}).status().message() ==
        "give --prewarm-source or --drop-source-cache, not both");
  CHECK(ParseLoad({"--source", "grpc://h:1/c", "--drop-source-cache"}).status().message() ==
        "--drop-source-cache has no effect with --source: a live catalog's page cache is its server's; leave "
        "it "
        "out");
}

TEST_CASE("flags are never guessed from an abbreviation (regression: ab's --run was taken for --runs)") {
  CHECK(ParseAb({"--a", "/a", "--b", "/b", "--pristine-dir", "/d", "--run", "x"})
            .status()
            .message()
            .find("--run is set by warmup ab for each run") == 0);
  CHECK(
      ParseLoad({"--pristine-dir", "/d", "--max-per", "3"}).status().message().find("unrecognised option") !=
      std::string::npos);
}

TEST_CASE(
    "bench: sittings by scale or one snapshot, each flag checked, a generator flag without one refused") {
  auto defaults = ParseBench({});
  REQUIRE_OK(defaults);
  CHECK(defaults->scales == std::vector<std::string>{"0.1"});
  CHECK(defaults->generator.profile == "senesi");
  // issue 52: records as evitaDB writes them unless asked otherwise.
  CHECK(defaults->compression == "deflate");
  CHECK(defaults->records_inline);
  CHECK(defaults->remote);
  CHECK(defaults->out_dir == "warmup-bench");
  CHECK(defaults->disk_probes == 3);
  auto scales = ParseBench({"--scales", "0.1,1.0,2", "--profile", "tiny", "--no-remote", "--disk-mib", "0",
                            "--evitadb-command", "run {port}", "--evitadb-xmx", "8g", "--require-targets"});
  REQUIRE_OK(scales);
  CHECK(scales->scales ==
        std::vector<std::string>{"0.1", "1.0", "2"});  // the user's spelling, for the labels
  CHECK(scales->generator.profile == "tiny");
  CHECK_FALSE(scales->remote);
  CHECK(scales->disk_mib == 0);
  auto probes = ParseBench({"--disk-probes", "5"});
  REQUIRE_OK(probes);
  CHECK(probes->disk_probes == 5);
  for (const char* bad : {"0", "21"}) {
    CAPTURE(bad);
    CHECK(ParseBench({"--disk-probes", bad}).status().message().find("--disk-probes") != std::string::npos);
  }
  CHECK(scales->evitadb_command == "run {port}");
  CHECK(scales->evitadb_xmx == "8g");
  // Regression: a {xmx} without its value was refused only when the sitting's
  // run was made, after the disk probe and the runs before it, in reindex's flags.
  CHECK(ParseBench({"--evitadb-command", "run -Xmx{xmx}"}).status().message() ==
        "--evitadb-command 'run -Xmx{xmx}' has {xmx}, and nothing gives it a value: give --evitadb-xmx");
  CHECK(
      ParseBench({"--pristine-dir", "/p", "--source-server-command", "java -Xmx{xmx}"}).status().message() ==
      "--source-server-command 'java -Xmx{xmx}' has {xmx}, and nothing gives it a value: give "
      "--source-server-xmx");
  CHECK(scales->require_targets);
  auto snapshot = ParseBench({"--pristine-dir", "/d", "--catalog", "c"});
  REQUIRE_OK(snapshot);
  CHECK(snapshot->scales.empty());
  CHECK(snapshot->pristine_dir == "/d");
  for (const char* bad : {"0.1,,1", "abc", "0", "0.1x", "1,", "-1", "1001", "nan"}) {
    CAPTURE(bad);
    auto refused = ParseBench({"--scales", bad});
    CHECK(refused.status().code() == StatusCode::kInvalidArgument);
    CHECK(refused.status().message().find("--scales") != std::string::npos);
  }
  CHECK(ParseBench({"--scales", "1,1"}).status().message() == "--scales names 1 twice");
  CHECK(ParseBench({"--pristine-dir", "/d", "--scales", "1"}).status().message().find("--scales") !=
        std::string::npos);
  CHECK(ParseBench({"--catalog", "c"}).status().message() ==
        "--catalog names a snapshot in --pristine-dir; give both");
  CHECK(ParseBench({"--evitadb-xmx", "8g"}).status().message() ==
        "--evitadb-xmx fills {xmx} of --evitadb-command; give both");
  // A server's catalog folder or backup zip, exported once through a source server.
  auto source =
      ParseBench({"--pristine-dir", "/b.zip", "--source-server-command", "java {port}", "--source-server-xmx",
                  "4g", "--source-server-start-timeout", "60", "--keep-datasets"});
  REQUIRE_OK(source);
  CHECK(source->source_server.command == "java {port}");
  CHECK(source->source_server.xmx == "4g");
  CHECK(source->source_server.start_timeout_seconds == 60);
  CHECK(source->keep_datasets);
  CHECK(
      ParseBench({"--source-server-command", "j"}).status().message() ==
      "--source-server-command reads the server's catalog folder or backup zip in --pristine-dir; give both");
  CHECK(ParseBench({"--pristine-dir", "/d", "--source-server-xmx", "4g"})
            .status()
            .message()
            .find("--source-server-xmx") != std::string::npos);
  CHECK(ParseBench({"--pristine-dir", "/d", "--keep-datasets"}).status().message().find("--keep-datasets") !=
        std::string::npos);
  CHECK(ParseBench({"--compress", "lz4"}).status().code() == StatusCode::kInvalidArgument);
  auto background = ParseBench({"--records-background", "--compress", "none"});
  REQUIRE_OK(background);
  CHECK_FALSE(background->records_inline);
  CHECK(background->compression == "none");
  auto said_inline = ParseBench({"--records-inline"});  // the default, said
  REQUIRE_OK(said_inline);
  CHECK(said_inline->records_inline);
  CHECK(ParseBench({"--records-inline", "--records-background"}).status().message() ==
        "--records-inline and --records-background say opposite things; give one");
  CHECK(ParseBench({"--rtt-calls", "5"}).status().code() == StatusCode::kInvalidArgument);
  CHECK(ParseBench({"--profile", "bogus"}).status().code() == StatusCode::kInvalidArgument);
}

TEST_CASE("ab: its own flags, reindex's after them, and what it sets per run refused") {
  auto ab = ParseAb({"--a",
                     "/a/warmup",
                     "--b",
                     "/b/warmup",
                     "--runs",
                     "5",
                     "--order",
                     "random",
                     "--seed",
                     "9",
                     "--b-args",
                     "--inject-upsert-delay-us 50",
                     "--pristine-dir",
                     "/d",
                     "--verify",
                     "none",
                     "--out",
                     "/o",
                     "--alpha",
                     "0.01"});
  REQUIRE_OK(ab);
  CHECK(ab->a_binary == "/a/warmup");
  CHECK(ab->b_binary == "/b/warmup");
  CHECK(ab->runs == 5);
  CHECK(ab->random_order);
  CHECK(ab->order_seed == 9);
  CHECK(ab->compare.seed == 9);
  CHECK(ab->compare.alpha == 0.01);
  CHECK(ab->a_args.empty());
  CHECK(ab->b_args == std::vector<std::string>{"--inject-upsert-delay-us", "50"});
  CHECK(ab->out_dir == "/o");
  CHECK(As<SnapshotSourceSpec>(ab->reindex.source).dir == "/d");
  CHECK(ab->reindex.copy.verify == VerifyMode::kNone);
  CHECK(KindOf(ab->reindex.target) == TargetKind::kStartedServer);
  CHECK_FALSE(ab->reindex.report.progress_lines);

  CHECK(ParseAb({"--b", "/b", "--pristine-dir", "/d"}).status().message() ==
        "give arm a as --a WARMUP or --a-command 'CMD', one of them");
  CHECK(ParseAb({"--a", "/a", "--b", "/b", "--pristine-dir", "/d", "--order", "zigzag"}).status().message() ==
        "--order must be abab or random, not 'zigzag'");
  CHECK(ParseAb({"--a", "/a", "--b", "/b", "--pristine-dir", "/d", "--runs", "1"}).status().message() ==
        "--runs must be from 2 to 1000, not 1");
  CHECK(ParseAb({"--a", "/a", "--b", "/b", "--pristine-dir", "/d", "--target", "embedded"})
            .status()
            .message()
            .find("warmup ab compares two servers it starts") == 0);
  for (const char* flag : {"--work-dir", "--run", "--report-json", "--server-binary", "--address"}) {
    CHECK_MESSAGE(ParseAb({"--a", "/a", "--b", "/b", "--pristine-dir", "/d", flag, "x"})
                          .status()
                          .message()
                          .find(std::string(flag) + " is set by warmup ab for each run") == 0,
                  flag);
  }
  CHECK(ParseAb({"--a", "/a", "--b", "/b", "--pristine-dir", "/d", "--frobnicate"})
            .status()
            .message()
            .find("frobnicate") != std::string::npos);
  CHECK(ParseAb({"--help"})->help.find("usage: warmup ab") == 0);
  CHECK(ParseCompare({"a.json", "--vs", "b.json", "--alpha", "0.5"})
            .status()
            .message()
            .find("--alpha must be") == 0);
}

}  // namespace
}  // namespace warmup::cli

namespace warmup::cli {
namespace {

TEST_CASE("reindex --server-command and ab --a-command: parsed, and what would be ignored refused") {
  auto reindex = ParseReindex(
      {"--pristine-dir", "/d", "--server-command", "java -Xmx{xmx} -jar e.jar", "--server-xmx", "8g"});
  REQUIRE_OK(reindex);
  CHECK(As<StartedServerTargetSpec>(reindex->target).server.command == "java -Xmx{xmx} -jar e.jar");
  CHECK(As<StartedServerTargetSpec>(reindex->target).server.xmx == "8g");
  CHECK(KindOf(reindex->target) == TargetKind::kStartedServer);
  // {xmx} without a value: refused here, naming the flags (the library would say so only at the start).
  CHECK(ParseReindex({"--pristine-dir", "/d", "--server-command", "java -Xmx{xmx} -jar e.jar"})
            .status()
            .message() ==
        "--server-command 'java -Xmx{xmx} -jar e.jar' has {xmx}, and nothing gives it a value: give "
        "--server-xmx, "
        "or SERVER_XMX to the wrappers");
  CHECK(
      ParseLoad({"--pristine-dir", "/d", "--source-server-command", "j {xmx}"}).status().message() ==
      "--source-server-command 'j {xmx}' has {xmx}, and nothing gives it a value: give --source-server-xmx");
  CHECK(ParseReindex({"--pristine-dir", "/d", "--server-command", "x", "--server-binary", "/b"})
            .status()
            .message()
            .find("--server-binary has no effect with --server-command") == 0);
  CHECK(ParseReindex({"--pristine-dir", "/d", "--server-command", "x", "--compress", "zstd"})
            .status()
            .message()
            .find("--compress has no effect with --server-command") == 0);
  CHECK(ParseReindex({"--pristine-dir", "/d", "--server-xmx", "8g"})
            .status()
            .message()
            .find("--server-xmx has no effect without --server-command") == 0);
  CHECK(ParseReindex({"--pristine-dir", "/d", "--address", "127.0.0.1:5555", "--server-command", "x"})
            .status()
            .message()
            .find("--server-command has no effect with --address") == 0);

  auto ab = ParseAb({"--a-command", "run-a {port}", "--b", "/b/warmup", "--pristine-dir", "/d"});
  REQUIRE_OK(ab);
  CHECK(ab->a_command == "run-a {port}");
  CHECK(ab->a_binary.empty());
  CHECK(ab->b_binary == "/b/warmup");
  CHECK(ParseAb({"--a", "/a", "--a-command", "x", "--b", "/b", "--pristine-dir", "/d"}).status().message() ==
        "give arm a as --a WARMUP or --a-command 'CMD', one of them");
  CHECK(ParseAb({"--a", "/a", "--pristine-dir", "/d"}).status().message() ==
        "give arm b as --b WARMUP or --b-command 'CMD', one of them");
  CHECK(ParseAb({"--a-command", "x", "--a-args", "--compress", "--b", "/b", "--pristine-dir", "/d"})
            .status()
            .message()
            .find("--a-args adds warmup serve flags") == 0);
  CHECK(ParseAb({"--a", "/a", "--b", "/b", "--pristine-dir", "/d", "--server-command=x"})
            .status()
            .message()
            .find("--server-command is set by warmup ab for each run") == 0);
}

TEST_CASE("load, reindex, ab and warmup-profile keep the command line as given, for the report") {
  const Args args = {"--pristine-dir", "/data", "--compress", "zstd"};
  CHECK(ParseLoad(args)->command_line ==
        Args{"warmup", "load", "--pristine-dir", "/data", "--compress", "zstd"});
  CHECK(ParseReindex(args)->command_line ==
        Args{"warmup", "reindex", "--pristine-dir", "/data", "--compress", "zstd"});
  CHECK(ParseProfile({"--pristine-dir", "/data"})->command_line ==
        Args{"warmup-profile", "--pristine-dir", "/data"});
  CHECK(ParseAb({"--a", "/a", "--b", "/b", "--pristine-dir", "/data"})->reindex.command_line ==
        Args{"warmup", "ab", "--a", "/a", "--b", "/b", "--pristine-dir", "/data"});
  // --allow-not-alive is about a live source only.
  CHECK(ParseLoad({"--pristine-dir", "/data", "--allow-not-alive"})
            .status()
            .message()
            .find("--allow-not-alive") != std::string::npos);
}

TEST_CASE("compare: every documented flag is parsed into the command (table-driven)") {
  const Args base = {"a1.json", "a2.json", "--vs", "b1.json", "b2.json"};
  auto with = [&](Args extra) {
    Args args = base;
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
  };
  const CompareOptions defaults;
  CheckEveryFlag<CompareCommand>(
      ParseCompare,
      {{"a",
        {{"--a", "x1.json", "x2.json", "--vs", "b1.json"},
         [](const CompareCommand& c) {
           return c.a_files == Args{"x1.json", "x2.json"};
         }}},
       {"vs",
        {base,
         [](const CompareCommand& c) {
           return c.a_files == Args{"a1.json", "a2.json"} && c.b_files == Args{"b1.json", "b2.json"};
         }}},
       {"noise-from",
        {with({"--noise-from", "n1.json", "n2.json", "n3.json", "n4.json"}),
         [](const CompareCommand& c) {
           return c.noise_files == Args{"n1.json", "n2.json", "n3.json", "n4.json"} &&
                  c.b_files == Args{"b1.json", "b2.json"};
         }}},
       {"json",
        {with({"--json", "cmp.json"}), [](const CompareCommand& c) { return c.json_out == "cmp.json"; }}},
       {"html",
        {with({"--html", "cmp.html"}), [](const CompareCommand& c) { return c.html_out == "cmp.html"; }}},
       {"resamples",
        {with({"--resamples", "20000"}),
         [](const CompareCommand& c) { return c.options.resamples == 20000; }}},
       {"seed", {with({"--seed", "42"}), [](const CompareCommand& c) { return c.options.seed == 42; }}},
       {"force", {with({"--force"}), [](const CompareCommand& c) { return c.options.force; }}},
       {"alpha",
        {with({"--alpha", "0.01"}), [](const CompareCommand& c) { return c.options.alpha == 0.01; }}},
       {"metric",
        {with({"--metric", "upsert_mean_us:Product"}),
         [](const CompareCommand& c) { return c.options.primary_metric == "upsert_mean_us:Product"; }}},
       {"test", {with({"--test", "rank"}), [](const CompareCommand& c) {
                   return c.options.test == RunsTest::kRank;
                 }}}});
  // What the flags leave alone is the documented default (docs/comparing.md).
  auto plain = ParseCompare(base);
  REQUIRE_OK(plain);
  CHECK(plain->options.resamples == 10'000);
  CHECK(plain->options.alpha == 0.05);
  CHECK(plain->options.primary_metric == "total_seconds");
  CHECK(plain->options.test == RunsTest::kAuto);
  const Status unknown_test = ParseCompare(with({"--test", "t"})).status();
  CHECK(unknown_test.message() == "--test: no test is named t: auto, rank or log-welch");
  CHECK(plain->options.seed == defaults.seed);
  CHECK_FALSE(plain->options.force);
  CHECK(plain->noise_files.empty());
}

TEST_CASE(
    "ab: every documented flag of its own is parsed (table-driven), and every reindex flag is passed on or "
    "refused") {
  const Args base = {"--a", "/a/warmup", "--b", "/b/warmup", "--pristine-dir", "/d"};
  auto with = [&](Args extra) {
    Args args = base;
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
  };
  CheckEveryFlag<AbCommand>(
      ParseAb,
      {{"a", {base, [](const AbCommand& c) { return c.a_binary == "/a/warmup" && c.a_command.empty(); }}},
       {"b", {base, [](const AbCommand& c) { return c.b_binary == "/b/warmup" && c.b_command.empty(); }}},
       {"a-command",
        {{"--a-command", "run-a {port}", "--b", "/b", "--pristine-dir", "/d"},
         [](const AbCommand& c) { return c.a_command == "run-a {port}" && c.a_binary.empty(); }}},
       {"b-command",
        {{"--a", "/a", "--b-command", "run-b {port}", "--pristine-dir", "/d"},
         [](const AbCommand& c) { return c.b_command == "run-b {port}" && c.b_binary.empty(); }}},
       {"a-args",
        {with({"--a-args", "--inject-upsert-delay-us 20"}),
         [](const AbCommand& c) {
           return c.a_args == Args{"--inject-upsert-delay-us", "20"} && c.b_args.empty();
         }}},
       {"b-args",
        {with({"--b-args", "--inject-upsert-delay-us 30"}),
         [](const AbCommand& c) {
           return c.b_args == Args{"--inject-upsert-delay-us", "30"} && c.a_args.empty();
         }}},
       {"runs", {with({"--runs", "4"}), [](const AbCommand& c) { return c.runs == 4; }}},
       {"order", {with({"--order", "random"}), [](const AbCommand& c) { return c.random_order; }}},
       // One seed for the order and the bootstrap.
       {"seed",
        {with({"--seed", "77"}),
         [](const AbCommand& c) { return c.order_seed == 77 && c.compare.seed == 77; }}},
       {"out", {with({"--out", "/o"}), [](const AbCommand& c) { return c.out_dir == "/o"; }}},
       {"keep-work", {with({"--keep-work"}), [](const AbCommand& c) { return c.keep_work; }}},
       {"noise-from",
        {with({"--noise-from", "aa/a01.json", "aa/b01.json", "aa/a02.json", "aa/b02.json"}),
         [](const AbCommand& c) {
           return c.noise_files == Args{"aa/a01.json", "aa/b01.json", "aa/a02.json", "aa/b02.json"};
         }}},
       // ab's own page, the comparison's: no run writes one.
       {"html",
        {with({"--html", "ab.html"}),
         [](const AbCommand& c) { return c.html_out == "ab.html" && c.reindex.report.html.empty(); }}},
       {"resamples",
        {with({"--resamples", "20000"}), [](const AbCommand& c) { return c.compare.resamples == 20000; }}},
       {"force", {with({"--force"}), [](const AbCommand& c) { return c.compare.force; }}},
       {"alpha", {with({"--alpha", "0.01"}), [](const AbCommand& c) { return c.compare.alpha == 0.01; }}},
       {"metric",
        {with({"--metric", "upsert_median_us:Media"}),
         [](const AbCommand& c) { return c.compare.primary_metric == "upsert_median_us:Media"; }}},
       {"test",
        {with({"--test", "log-welch"}),
         [](const AbCommand& c) { return c.compare.test == RunsTest::kLogWelch; }}},
       {"sequential", {with({"--sequential"}), [](const AbCommand& c) { return c.sequential; }}}});
  auto plain = ParseAb(base);
  REQUIRE_OK(plain);
  CHECK(plain->runs == 9);
  CHECK_FALSE(plain->random_order);
  CHECK_FALSE(plain->keep_work);
  CHECK_FALSE(plain->compare.force);
  CHECK(plain->compare.resamples == 10'000);
  CHECK(plain->compare.alpha == 0.05);
  CHECK(plain->compare.primary_metric == "total_seconds");
  CHECK(plain->compare.test == RunsTest::kAuto);
  CHECK_FALSE(plain->sequential);
  // A sequential ab looks from the third pair: fewer runs could never look.
  const Status too_few = ParseAb(with({"--sequential", "--runs", "2"})).status();
  CHECK(too_few.message() ==
        "--sequential looks from the third pair on: --runs must be from 3 to 1000, not 2");
  // A metric no report has is refused before any run is made.
  CHECK(
      ParseAb(with({"--metric", "speed"})).status().message().starts_with("--metric speed is not a metric"));

  // ab's --help lists only its own flags; every other is reindex's, which each run is given
  // (docs/comparing.md). Each flag reindex documents either reaches the runs' reindex command, or is
  // refused: ab sets it per run, or the server ab starts has no use for it.
  const Args grpcs = {"--a", "/a", "--b", "/b", "--source", "grpcs://db:5556/live"};
  auto over_tls = [&](Args extra) {
    Args args = grpcs;
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
  };
  using Reaches = std::function<bool(const LoadCommand&)>;
  std::map<std::string, std::pair<Args, Reaches>> passed = {
      {"pristine-dir",
       {base, [](const LoadCommand& c) { return As<SnapshotSourceSpec>(c.source).dir == "/d"; }}},
      {"catalog",
       {with({"--catalog", "senesi"}),
        [](const LoadCommand& c) { return As<SnapshotSourceSpec>(c.source).catalog == "senesi"; }}},
      {"source",
       {{"--a", "/a", "--b", "/b", "--source", "grpc://db:5555/live"},
        [](const LoadCommand& c) {
          return As<LiveSourceSpec>(c.source).address == "db:5555" &&
                 As<LiveSourceSpec>(c.source).catalog == "live";
        }}},
      {"prewarm-source",
       {with({"--prewarm-source"}),
        [](const LoadCommand& c) {
          return As<SnapshotSourceSpec>(c.source).cache == SourceCacheStep::kPrewarm;
        }}},
      {"drop-source-cache",
       {with({"--drop-source-cache"}),
        [](const LoadCommand& c) {
          return As<SnapshotSourceSpec>(c.source).cache == SourceCacheStep::kDrop;
        }}},
      {"allow-not-alive",
       {{"--a", "/a", "--b", "/b", "--source", "grpc://db:5555/live", "--allow-not-alive"},
        [](const LoadCommand& c) { return As<LiveSourceSpec>(c.source).allow_not_alive; }}},
      {"target",
       {with({"--target", "remote"}),
        [](const LoadCommand& c) { return KindOf(c.target) == TargetKind::kStartedServer; }}},
      {"golive-timeout",
       {with({"--golive-timeout", "42"}),
        [](const LoadCommand& c) { return DeadlinesOf(c.target).golive_timeout_seconds == 42; }}},
      {"upsert-timeout",
       {with({"--upsert-timeout", "90"}),
        [](const LoadCommand& c) { return DeadlinesOf(c.target).upsert_timeout_seconds == 90; }}},
      {"compress",
       {with({"--compress", "zstd"}),
        [](const LoadCommand& c) { return CompressionOf(c.target) == RecordCompression::kZstd; }}},
      {"records-inline",
       {with({"--records-inline"}), [](const LoadCommand& c) { return RecordsInline(c.target); }}},
      {"ca-cert",
       {over_tls({"--ca-cert", "ca.pem"}),
        [](const LoadCommand& c) { return As<LiveSourceSpec>(c.source).tls.ca_cert_file == "ca.pem"; }}},
      {"fetch-server-cert",
       {over_tls({"--fetch-server-cert", "db:5557"}),
        [](const LoadCommand& c) {
          return As<LiveSourceSpec>(c.source).tls.fetch_server_cert_from == "db:5557";
        }}},
      {"client-cert",
       {over_tls({"--client-cert", "c.pem", "--client-key", "k.pem"}),
        [](const LoadCommand& c) { return As<LiveSourceSpec>(c.source).tls.client_cert_file == "c.pem"; }}},
      {"client-key",
       {over_tls({"--client-cert", "c.pem", "--client-key", "k.pem"}),
        [](const LoadCommand& c) { return As<LiveSourceSpec>(c.source).tls.client_key_file == "k.pem"; }}},
      {"tls-server-name",
       {over_tls({"--tls-server-name", "db.example"}),
        [](const LoadCommand& c) { return As<LiveSourceSpec>(c.source).tls.server_name == "db.example"; }}},
      {"target-catalog",
       {with({"--target-catalog", "copy"}),
        [](const LoadCommand& c) { return c.copy.target_catalog == "copy"; }}},
      {"collections",
       {with({"--collections", "Product,Brand"}),
        [](const LoadCommand& c) {
          return c.copy.collections == Args{"Product", "Brand"};
        }}},
      {"max-per-collection",
       {with({"--max-per-collection", "50"}),
        [](const LoadCommand& c) { return c.copy.max_per_collection == 50; }}},
      {"verify",
       {with({"--verify", "content"}),
        [](const LoadCommand& c) { return c.copy.verify == VerifyMode::kContent; }}},
      {"keep-target", {with({"--keep-target"}), [](const LoadCommand& c) { return c.copy.keep_target; }}},
      {"no-read-ahead", {with({"--no-read-ahead"}), [](const LoadCommand& c) { return !c.copy.read_ahead; }}},
      {"progress-interval",
       {with({"--progress-interval", "2.5"}),
        [](const LoadCommand& c) { return c.report.progress_interval_seconds == 2.5; }}},
      {"quiet", {with({"--quiet"}), [](const LoadCommand& c) { return c.report.quiet; }}},
      {"server-start-timeout",
       {with({"--server-start-timeout", "300"}),
        [](const LoadCommand& c) {
          return As<StartedServerTargetSpec>(c.target).server.start_timeout_seconds == 300;
        }}},
      {"server-stop-grace",
       {with({"--server-stop-grace", "3"}),
        [](const LoadCommand& c) {
          return As<StartedServerTargetSpec>(c.target).server.stop_grace_seconds == 3;
        }}},
      {"history",
       {with({"--history=/h.sqlite"}), [](const LoadCommand& c) { return c.report.history == "/h.sqlite"; }}},
  };
  const std::string per_run = "is set by warmup ab for each run";
  const std::map<std::string, std::pair<Args, std::string>> refused = {
      {"address", {with({"--address", "127.0.0.1:7777"}), "--address " + per_run}},
      {"server-binary", {with({"--server-binary", "/c/warmup"}), "--server-binary " + per_run}},
      {"server-args", {with({"--server-args=--compress"}), "--server-args " + per_run}},
      {"server-command", {with({"--server-command", "x {port}"}), "--server-command " + per_run}},
      {"work-dir", {with({"--work-dir", "/w"}), "--work-dir " + per_run}},
      {"run", {with({"--run", "x"}), "--run " + per_run}},
      {"report-json", {with({"--report-json", "r.json"}), "--report-json " + per_run}},
      {"per-entity-csv", {with({"--per-entity-csv", "r.csv"}), "--per-entity-csv " + per_run}},
      {"hold-open-seconds", {with({"--hold-open-seconds", "5"}), "--hold-open-seconds " + per_run}},
      {"warmup-runs",
       {with({"--warmup-runs", "2"}), "--warmup-runs: warmup ab makes one warm-up run per arm"}},
      {"warmup-until-stable",
       {with({"--warmup-until-stable", "5"}),
        "--warmup-until-stable: warmup ab makes one warm-up run per arm"}},
      {"warmup-metric",
       {with({"--warmup-metric", "total_seconds"}),
        "--warmup-metric: warmup ab makes one warm-up run per arm"}},
      // The server each run starts is plaintext, on loopback.
      {"tls", {with({"--tls"}), "--tls has no effect with the server reindex starts"}},
      {"server-pid",
       {with({"--server-pid", "42"}), "--server-pid has no effect with the server reindex starts"}},
      {"server-gc-log",
       {with({"--server-gc-log", "/g"}), "--server-gc-log has no effect with the server reindex starts"}},
      // {xmx} is for the arms' commands: without one it would be lost.
      {"server-xmx",
       {with({"--server-xmx", "8g"}), "--server-xmx has no effect without --a-command or --b-command"}},
  };
  AddSourceServerRows<LoadCommand>(passed, with);
  int checked = 0;
  for (const std::string& flag : DocumentedFlags(ParseReindex)) {
    CAPTURE(flag);
    if (flag == "help") continue;
    if (flag == "html" || flag == "runs" || flag == "out") {  // ab's own take these: see the table above
      ++checked;
      continue;
    }
    if (auto no = refused.find(flag); no != refused.end()) {
      auto ab = ParseAb(no->second.first);
      CHECK_MESSAGE(ab.status().message().find(no->second.second) == 0, ab.status().ToString());
      ++checked;
      continue;
    }
    auto row = passed.find(flag);
    REQUIRE_MESSAGE(row != passed.end(), "reindex's --", flag, " has no row for ab: passed on, or refused?");
    auto ab = ParseAb(row->second.first);
    REQUIRE_MESSAGE(ab.ok(), ab.status().ToString());
    CHECK_MESSAGE(row->second.second(ab->reindex), "reindex's --", flag, " did not reach ab's runs");
    ++checked;
  }
  CHECK(checked == static_cast<int>(passed.size() + refused.size()) + 3);  // --html, --runs, --out
}

TEST_CASE("history record, show, changes and trend: every documented flag is parsed (table-driven)") {
  using H = HistoryCommand;
  auto action = [](const char* name) {
    return [name](const Args& args) {
      Args all = {name};
      all.insert(all.end(), args.begin(), args.end());
      return ParseHistory(all);
    };
  };
  CheckEveryFlag<H>(action("record"), {{"reports",
                                        {{"a.json", "dir"},
                                         [](const H& c) {
                                           return c.reports == Args{"a.json", "dir"};
                                         }}},
                                       {"history", {{"a.json", "--history", "/h.sqlite"}, [](const H& c) {
                                                      return c.location == "/h.sqlite";
                                                    }}}});
  FlagTable<H> show = {
      {"history",
       {{"--history", "postgresql://db/x"}, [](const H& c) { return c.location == "postgresql://db/x"; }}},
      {"host", {{"--host", "vm"}, [](const H& c) { return c.query.host == "vm"; }}},
      {"dataset", {{"--dataset", "f7"}, [](const H& c) { return c.query.dataset == "f7"; }}},
      {"all-runs", {{"--all-runs"}, [](const H& c) { return c.query.all_runs; }}},
      {"metric", {{"--metric", "golive_seconds"}, [](const H& c) { return c.metric == "golive_seconds"; }}},
  };
  CheckEveryFlag<H>(action("show"), show);
  FlagTable<H> changes = show;
  changes["metric"] = {{"--metric", "a", "--metric", "b"}, [](const H& c) {
                         return c.changes.metrics == Args{"a", "b"};
                       }};
  changes["all-runs"] = {{"--all-runs"}, [](const H& c) { return c.changes.count_unverified; }};
  changes["threshold"] = {{"--threshold", "5"}, [](const H& c) { return c.changes.threshold == 0.05; }};
  changes["alpha"] = {{"--alpha", "0.01"}, [](const H& c) { return c.changes.detection.alpha == 0.01; }};
  changes["min-segment"] = {{"--min-segment", "4"},
                            [](const H& c) { return c.changes.detection.min_segment == 4; }};
  changes["permutations"] = {{"--permutations", "999"},
                             [](const H& c) { return c.changes.detection.permutations == 999; }};
  changes["seed"] = {{"--seed", "7"}, [](const H& c) { return c.changes.detection.seed == 7; }};
  changes["json"] = {{"--json", "c.json"}, [](const H& c) { return c.json_out == "c.json"; }};
  CheckEveryFlag<H>(action("changes"), changes);
  FlagTable<H> trend;
  for (const auto& [flag, row] : changes) {
    Args args = row.first;
    args.insert(args.end(), {"--html", "t.html"});
    trend[flag] = {args, row.second};
  }
  trend["html"] = {{"--html", "t.html"}, [](const H& c) { return c.html_out == "t.html"; }};
  CheckEveryFlag<H>(action("trend"), trend);

  CHECK(ParseHistory({}).status().message() ==
        "warmup history needs an action: record, show, changes or trend");
  CHECK(ParseHistory({"trend"}).status().message() == "warmup history trend needs --html FILE");
  CHECK(ParseHistory({"record"}).status().message().find("needs run reports") != std::string::npos);
  CHECK(ParseHistory({"changes", "--min-segment", "1"}).status().message().find("--min-segment") == 0);
  CHECK(ParseHistory({"changes", "--threshold", "-1"}).status().message().find("--threshold") == 0);
  CHECK(ParseHistory({"show", "--threshold", "5"}).status().code() ==
        StatusCode::kInvalidArgument);  // changes' flag
}

TEST_CASE(
    "warmup-profile: every documented flag is parsed (table-driven), and only the embedded target's are "
    "listed") {
  const Args base = {"--pristine-dir", "/data", "--catalog", "senesi"};
  auto with = [&](Args extra) {
    Args args = base;
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
  };
  using P = ProfileCommand;
  FlagTable<P> table = {
      {"pristine-dir", {base, [](const P& c) { return As<SnapshotSourceSpec>(c.source).dir == "/data"; }}},
      {"catalog", {base, [](const P& c) { return As<SnapshotSourceSpec>(c.source).catalog == "senesi"; }}},
      {"source",
       {{"--source", "grpc://db:5555/live"},
        [](const P& c) {
          return As<LiveSourceSpec>(c.source).address == "db:5555" &&
                 As<LiveSourceSpec>(c.source).catalog == "live";
        }}},
      {"prewarm-source",
       {with({"--prewarm-source"}),
        [](const P& c) { return As<SnapshotSourceSpec>(c.source).cache == SourceCacheStep::kPrewarm; }}},
      {"drop-source-cache",
       {with({"--drop-source-cache"}),
        [](const P& c) { return As<SnapshotSourceSpec>(c.source).cache == SourceCacheStep::kDrop; }}},
      {"allow-not-alive",
       {{"--source", "grpc://db:5555/live", "--allow-not-alive"},
        [](const P& c) { return As<LiveSourceSpec>(c.source).allow_not_alive; }}},
      {"work-dir", {with({"--work-dir", "/w"}), [](const P& c) { return WorkDirIs(c.target, "/w"); }}},
      {"compress",
       {with({"--compress", "deflate"}),
        [](const P& c) { return CompressionOf(c.target) == RecordCompression::kDeflate; }}},
      {"target-catalog",
       {with({"--target-catalog", "copy"}), [](const P& c) { return c.copy.target_catalog == "copy"; }}},
      {"collections",
       {with({"--collections", "Product"}),
        [](const P& c) { return c.copy.collections == Args{"Product"}; }}},
      {"max-per-collection",
       {with({"--max-per-collection", "200"}), [](const P& c) { return c.copy.max_per_collection == 200; }}},
      {"verify", {with({"--verify", "none"}), [](const P& c) { return c.copy.verify == VerifyMode::kNone; }}},
      {"keep-target", {with({"--keep-target"}), [](const P& c) { return c.copy.keep_target; }}},
      {"no-read-ahead", {with({"--no-read-ahead"}), [](const P& c) { return !c.copy.read_ahead; }}},
      {"records-inline", {with({"--records-inline"}), [](const P& c) { return RecordsInline(c.target); }}},
      {"run", {with({"--run", "prof"}), [](const P& c) { return c.copy.run_label == "prof"; }}},
      {"report-json",
       {with({"--report-json", "p.json"}), [](const P& c) { return c.report.report_json == "p.json"; }}},
      {"per-entity-csv",
       {with({"--per-entity-csv", "p.csv"}), [](const P& c) { return c.report.per_entity_csv == "p.csv"; }}},
      {"html", {with({"--html", "p.html"}), [](const P& c) { return c.report.html == "p.html"; }}},
      {"hold-open-seconds",
       {with({"--hold-open-seconds", "5"}), [](const P& c) { return c.report.hold_open_seconds == 5; }}},
      {"progress-interval",
       {with({"--progress-interval", "2.5"}),
        [](const P& c) { return c.report.progress_interval_seconds == 2.5; }}},
      {"quiet", {with({"--quiet"}), [](const P& c) { return c.report.quiet; }}},
      {"profiler",
       {with({"--profiler", "heap", "--profile-out", "/p/heap"}),
        [](const P& c) { return c.profiler.kind == ProfilerKind::kHeap; }}},
      {"profile-out",
       {with({"--profiler", "cpu", "--profile-out", "/p/cpu.prof"}),
        [](const P& c) { return c.profiler.out == "/p/cpu.prof"; }}},
  };
  // The TLS files go with a grpcs:// source: the embedded target has no connection.
  AddTlsRows<P>(table, {"--source", "grpcs://db:5556/live"},
                [](const P& c) -> const ClientTlsOptions& { return As<LiveSourceSpec>(c.source).tls; });
  AddSourceServerRows<P>(table, with);
  CheckEveryFlag<P>(ParseProfile, table);
  // The other targets' flags are not warmup-profile's: not listed, and refused as unknown.
  const std::set<std::string> documented = DocumentedFlags(ParseProfile);
  for (const char* flag :
       {"address", "golive-timeout", "upsert-timeout", "tls", "target", "server-binary", "history", "runs"}) {
    CAPTURE(flag);
    CHECK_FALSE(documented.contains(flag));
  }
  for (const Args& other : {with({"--address", "127.0.0.1:7777"}), with({"--golive-timeout", "5"}),
                            with({"--upsert-timeout", "5"}), with({"--tls"})}) {
    CAPTURE(other.back());
    CHECK(ParseProfile(other).status().message().find("unrecognised option") == 0);
  }
  // --target is still understood, to say where another target's run belongs.
  REQUIRE_OK(ParseProfile(with({"--target", "embedded"})));
  CHECK(ParseProfile(with({"--target", "null"}))
            .status()
            .message()
            .find("warmup-profile profiles the embedded engine; --target null is for warmup load") == 0);
}

TEST_CASE("regression: ab refused --server-xmx, so an arm's command could never have its {xmx}") {
  auto ab = ParseAb({"--a-command", "java -Xmx{xmx} -jar a.jar", "--b-command", "java -Xmx{xmx} -jar b.jar",
                     "--pristine-dir", "/d", "--server-xmx", "8g"});
  REQUIRE_OK(ab);
  CHECK(As<StartedServerTargetSpec>(ab->reindex.target).server.xmx == "8g");
  auto spelled = ParseAb({"--a-command", "x {port}", "--b", "/b", "--pristine-dir", "/d", "--server-xmx=2g"});
  REQUIRE_OK(spelled);
  CHECK(As<StartedServerTargetSpec>(spelled->reindex.target).server.xmx == "2g");
  // Without it, an arm's {xmx} is refused here, naming the flags.
  CHECK(ParseAb({"--a-command", "java -Xmx{xmx} -jar a.jar", "--b", "/b", "--pristine-dir", "/d"})
            .status()
            .message() ==
        "--a-command 'java -Xmx{xmx} -jar a.jar' has {xmx}, and nothing gives it a value: give --server-xmx");
}

}  // namespace
}  // namespace warmup::cli
