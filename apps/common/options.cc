#include "common/options.h"

#include <algorithm>
#include <boost/program_options.hpp>
#include <filesystem>
#include <sstream>

namespace warmup::cli {
namespace {

namespace po = boost::program_options;

// Parses `args` against `visible` (+ `positional`), turning every Boost error
// into a Status that names the option. With --help, `*help` gets the usage
// and the option descriptions, and nothing else is checked.
StatusOr<po::variables_map> Parse(const std::vector<std::string>& args,
                                  const po::options_description& visible,
                                  const po::positional_options_description& positional,
                                  const std::string& usage, std::string* help) {
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(args).options(visible).positional(positional).run(), vm);
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
  return vm;
}

// Splits grpc://HOST:PORT/CATALOG into {HOST:PORT, CATALOG}.
StatusOr<std::pair<std::string, std::string>> ParseGrpcUrl(const std::string& url,
                                                           const std::string& option) {
  const std::string scheme = "grpc://";
  const size_t slash = url.find('/', scheme.size());
  if (url.rfind(scheme, 0) != 0 || slash == std::string::npos || slash == scheme.size() ||
      slash + 1 == url.size() || url.find(':', scheme.size()) > slash) {
    return InvalidArgumentError(option + " must look like grpc://HOST:PORT/CATALOG, not '" + url + "'");
  }
  return std::make_pair(url.substr(scheme.size(), slash - scheme.size()), url.substr(slash + 1));
}

Status ParseCompression(const std::string& compression, SnapshotWriteOptions& write) {
  if (compression != "none" && compression != "zstd") {
    return InvalidArgumentError("--compress must be none or zstd, not '" + compression + "'");
  }
  write.compression = compression == "zstd" ? SnapshotCompression::kZstd : SnapshotCompression::kNone;
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
      "compress", po::value(&compression)->default_value("none"), "entity files: none | zstd")(
      "zip", po::value(&zip), "also write the snapshot as an export zip to this path");
  auto vm =
      Parse(args, o, {}, "usage: warmup generate --out DIR [--profile P] [--scale S] [--seed N] [--zip FILE]",
            &cmd.help);
  if (!vm.ok()) return vm.status();
  if (!cmd.help.empty()) return cmd;
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

StatusOr<LoadCommand> ParseLoadOrReindex(const std::vector<std::string>& args, bool reindex) {
  LoadCommand cmd;
  std::string pristine_dir;
  std::string catalog;
  std::string source;
  std::string collections;
  po::options_description o("options");
  o.add_options()("help", "show this help")("pristine-dir", po::value(&pristine_dir),
                                            "parent of the <catalog>/ snapshot (or an export zip)")(
      "catalog", po::value(&catalog), "source catalog (default: the only snapshot in --pristine-dir)")(
      "source", po::value(&source), "read a live catalog instead: grpc://HOST:PORT/CATALOG")(
      reindex ? "target-mode" : "target",
      po::value(&cmd.target)->default_value(reindex ? "remote" : "embedded"),
      reindex ? "remote (start warmup serve, or use --address) | embedded" : "embedded | remote | null")(
      "target-catalog", po::value(&cmd.copy.target_catalog), "catalog to create (default <catalog>_<4 hex>)")(
      "max-per-collection", po::value(&cmd.copy.max_per_collection)->default_value(0),
      "cap per collection, 0 = all")("collections", po::value(&collections),
                                     "comma-separated subset of collections")(
      "per-entity-csv", po::value(&cmd.per_entity_csv), "one CSV row per upsert")(
      "report-json", po::value(&cmd.report_json), "write the report as JSON here")(
      "hold-open-seconds", po::value(&cmd.hold_open_seconds)->default_value(0),
      "stay alive after the report")("skip-verify", po::bool_switch(&cmd.copy.skip_verify),
                                     "do not compare counts (exit 0, said in the report)")(
      "run", po::value(&cmd.copy.run_label)->default_value("run"), "run label")(
      "keep-target", po::bool_switch(&cmd.copy.keep_target), "keep the target catalog when the run fails")(
      "work-dir", po::value(&cmd.work_dir)->default_value("warmup-work"),
      "embedded target's data directory; wiped only when absent, empty or carrying warmup's marker")(
      "compress", po::bool_switch(&cmd.compress),
      "embedded target: zstd-compress records (storage.compress)")(
      "address", po::value(&cmd.address)->default_value("127.0.0.1:5555"), "remote target: host:port")(
      "golive-timeout", po::value(&cmd.golive_timeout_seconds)->default_value(0),
      "remote target: client-side goLive limit in seconds (0 = none)");
  if (reindex) {
    o.add_options()("server-binary", po::value(&cmd.server_binary),
                    "the warmup binary whose serve to start (default: this one), e.g. another build")(
        "server-start-timeout", po::value(&cmd.server_start_timeout_seconds)->default_value(60),
        "seconds the started server may take to be ready")(
        "server-stop-grace", po::value(&cmd.server_stop_grace_seconds)->default_value(10),
        "seconds the server may take to exit after SIGTERM before it is killed");
  }
  auto vm = Parse(args, o, {},
                  reindex ? "usage: warmup reindex (--pristine-dir DIR [--catalog NAME] | --source "
                            "grpc://HOST:PORT/CATALOG) [--target-mode remote|embedded] ..."
                          : "usage: warmup load (--pristine-dir DIR [--catalog NAME] | --source "
                            "grpc://HOST:PORT/CATALOG) [--target embedded|remote|null] ...",
                  &cmd.help);
  if (!vm.ok()) return vm.status();
  if (!cmd.help.empty()) return cmd;
  if (reindex) {
    if (cmd.target != "remote" && cmd.target != "embedded") {
      return InvalidArgumentError("--target-mode must be remote or embedded, not '" + cmd.target + "'");
    }
    cmd.start_server = cmd.target == "remote" && vm->count("address") > 0 && (*vm)["address"].defaulted();
    if (cmd.server_start_timeout_seconds < 1)
      return InvalidArgumentError("--server-start-timeout must be at least 1");
    if (cmd.server_stop_grace_seconds < 0)
      return InvalidArgumentError("--server-stop-grace must not be negative");
  }
  if (cmd.target != "embedded" && cmd.target != "null" && cmd.target != "remote") {
    return InvalidArgumentError("--target must be embedded, remote or null, not '" + cmd.target + "'");
  }
  for (size_t start = 0; start < collections.size();) {
    const size_t end = std::min(collections.find(',', start), collections.size());
    if (end > start) cmd.copy.collections.push_back(collections.substr(start, end - start));
    start = end + 1;
  }
  namespace fs = std::filesystem;
  if (pristine_dir.empty() == source.empty()) {
    return InvalidArgumentError("give exactly one of --pristine-dir and --source");
  }
  if (!source.empty()) {
    if (!catalog.empty()) {
      return InvalidArgumentError("--catalog goes with --pristine-dir; --source names its own");
    }
    auto parsed = ParseGrpcUrl(source, "--source");
    if (!parsed.ok()) return parsed.status();
    cmd.grpc_address = parsed->first;
    cmd.grpc_catalog = parsed->second;
    return cmd;
  }
  if (!catalog.empty()) {
    cmd.snapshot_path = (fs::path(pristine_dir) / catalog).string();
  } else if (fs::is_regular_file(pristine_dir)) {
    cmd.snapshot_path = pristine_dir;  // an export zip
  } else {
    std::vector<std::string> found;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(pristine_dir, ec)) {
      if (fs::exists(entry.path() / "manifest.json")) found.push_back(entry.path().string());
    }
    if (found.size() != 1) {
      return InvalidArgumentError("--catalog is needed: " + pristine_dir + " holds " +
                                  std::to_string(found.size()) + " snapshots");
    }
    cmd.snapshot_path = found.front();
  }
  return cmd;
}

}  // namespace

StatusOr<LoadCommand> ParseLoad(const std::vector<std::string>& args) {
  return ParseLoadOrReindex(args, false);
}
StatusOr<LoadCommand> ParseReindex(const std::vector<std::string>& args) {
  return ParseLoadOrReindex(args, true);
}

StatusOr<ExportCommand> ParseExport(const std::vector<std::string>& args) {
  ExportCommand cmd;
  std::string source;
  std::string compression;
  std::string zip;
  po::options_description o("options");
  o.add_options()("help", "show this help")("source", po::value(&source),
                                            "the live catalog: grpc://HOST:PORT/CATALOG")(
      "address", po::value(&cmd.address), "or the server's HOST:PORT ...")("catalog", po::value(&cmd.catalog),
                                                                           "... and the catalog's name")(
      "out", po::value(&cmd.out_dir)->required(), "parent directory; the snapshot goes to OUT/<catalog>/")(
      "compress", po::value(&compression)->default_value("none"), "entity files: none | zstd")(
      "zip", po::value(&zip), "also write an export zip here")(
      "page-size", po::value(&cmd.source.page_size)->default_value(cmd.source.page_size),
      "entities per Query page")(
      "call-timeout",
      po::value(&cmd.source.call_timeout_seconds)->default_value(cmd.source.call_timeout_seconds),
      "deadline of each call, seconds");
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
    cmd.address = parsed->first;
    cmd.catalog = parsed->second;
  } else if (cmd.address.empty() || cmd.catalog.empty()) {
    return InvalidArgumentError(cmd.address.empty() ? "--catalog needs --address HOST:PORT"
                                                    : "--address needs --catalog NAME");
  }
  if (auto s = ParseCompression(compression, cmd.write); !s.ok()) return s;
  if (!zip.empty()) cmd.zip_path = zip;
  if (cmd.source.page_size < 1) return InvalidArgumentError("--page-size must be at least 1");
  if (cmd.source.call_timeout_seconds < 1) return InvalidArgumentError("--call-timeout must be at least 1");
  return cmd;
}

StatusOr<ServeCommand> ParseServe(const std::vector<std::string>& args) {
  ServeCommand cmd;
  std::vector<std::string> faults;
  po::options_description o("options");
  o.add_options()("help", "show this help")("data-dir", po::value(&cmd.data_dir)->required(),
                                            "the engine's data directory")(
      "listen", po::value(&cmd.listen)->default_value("127.0.0.1:5555"),
      "host:port (loopback unless told otherwise)")("compress", po::bool_switch(&cmd.compress),
                                                    "zstd-compress records (storage.compress)")(
      "reset-data", po::bool_switch(&cmd.reset_data),
      "wipe the data directory first; only a marker-owned one")(
      "session-idle-seconds", po::value(&cmd.session_idle_seconds)->default_value(0),
      "close sessions idle this long (evitaDB's closeSessionsAfterSecondsOfInactivity; 0 = never)")(
      "golive-delay-ms", po::value(&cmd.golive_delay_ms)->default_value(0),
      "testing aid: wait this long before each goLive starts")(
      "ready-fd", po::value(&cmd.ready_fd)->default_value(-1),
      "once listening, write {\"pid\": P, \"port\": N} to this file descriptor and close it")(
      "inject-fault", po::value(&faults)->composing(),
      "testing aid: METHOD[@N] fails every call of the RPC METHOD after its first N (default 0) with "
      "UNAVAILABLE; repeatable");
  auto vm =
      Parse(args, o, {},
            "usage: warmup serve --data-dir DIR [--listen HOST:PORT] [--compress] [--reset-data]", &cmd.help);
  if (!vm.ok()) return vm.status();
  if (!cmd.help.empty()) return cmd;
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
  if (cmd.golive_delay_ms < 0) return InvalidArgumentError("--golive-delay-ms must not be negative");
  return cmd;
}

}  // namespace warmup::cli
