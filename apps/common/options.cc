// The parsers of the commands that are not runs: generate, inspect, unpack,
// export, compare and catalogs (run_options.cc has load, reindex and
// warmup-profile; serve_options.cc and ab_options.cc the two largest).
#include "common/options.h"

#include "common/option_parsing.h"

namespace warmup::cli {

StatusOr<GenerateCommand> ParseGenerate(const std::vector<std::string>& args) {
  GenerateCommand cmd;
  std::string compression = "none";
  std::string zip;
  po::options_description o("options");
  o.add_options()("help", "show this help")(
      "profile", po::value(&cmd.generator.profile)->default_value("senesi"), GeneratorProfilesHelp().c_str())(
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
  if (auto s = CheckGeneratorProfile(cmd.generator.profile); !s.ok()) return s;
  if (!(cmd.generator.scale > 0 && cmd.generator.scale <= 1000)) {  // also false for NaN
    return InvalidArgumentError("--scale must be more than 0 and at most 1000, not " +
                                std::to_string(cmd.generator.scale));
  }
  if (!cmd.generator.catalog_name.empty()) {
    if (auto s = CheckName(cmd.generator.catalog_name, "--catalog"); !s.ok()) return s;
  }
  if (auto s = ParseSnapshotCompression(compression, cmd.write); !s.ok()) return s;
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
  o.add_options()("help", "show this help")(
      "zip", po::value(&cmd.zip_path)->required(),
      "the export, or a server's backup zip (evitaDB's FullBackupCatalog)")(
      "dir", po::value(&cmd.out_dir)->required(),
      "parent directory; the snapshot (or the backup's catalog folder) goes to DIR/<catalog>/")(
      "catalog", po::value(&cmd.catalog),
      "of a backup zip holding several catalog folders, the one to unpack");
  po::positional_options_description p;
  p.add("zip", 1).add("dir", 1);
  auto vm = Parse(args, o, p, "usage: warmup unpack EXPORT.zip|BACKUP.zip DIR [--catalog C]", &cmd.help);
  if (!vm.ok()) return vm.status();
  if (!cmd.help.empty()) return cmd;
  return cmd;
}

SpecNames CliSpecNames() {
  SpecNames names;
  names.source_dir = "--pristine-dir";
  names.work_dir = "--work-dir";
  names.per_entity_csv = "--per-entity-csv";
  names.catalog = "--catalog";
  names.source_server = "--source-server-command '...'";
  names.allow_not_alive = "--allow-not-alive";
  names.upsert_timeout = "--upsert-timeout";
  return names;
}

StatusOr<ExportCommand> ParseExport(const std::vector<std::string>& args) {
  ExportCommand cmd;
  std::string source;
  std::string compression;
  std::string zip;
  ClientTlsOptions tls;
  cmd.source.allow_not_alive_named = CliSpecNames().allow_not_alive;  // a catalog's refusal names the flag
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
      "export a catalog that is not ALIVE (a load under way or kept, or one its server is still opening: "
      "perhaps not whole); the manifest records its state")(
      "pristine-dir", po::value(&cmd.folder.folder),
      "or a server's own catalog folder's parent (evitaDB's storage) or its backup zip, with "
      "--source-server-command")(
      "source-server-command", po::value(&cmd.folder.server.command),
      "start this command on a copy of the folder and export the catalog through it (placeholders {port} "
      "{data} {run} {gclog} {xmx})")("source-server-xmx", po::value(&cmd.folder.server.xmx),
                                     "the source server command's {xmx}")(
      "source-server-start-timeout", po::value(&cmd.folder.server.start_timeout_seconds)->default_value(300),
      "seconds the source server may take to start and open the catalog ALIVE")(
      "source-work-dir", po::value(&cmd.folder.work_dir)->default_value(kDefaultSourceWorkDir),
      "the source server's work directory: the folder's copy, its log and GC log");
  o.add(ClientTlsGroup(&tls, TlsBy::kSwitchOrSource));
  auto vm = Parse(
      args, o, {},
      "usage: warmup export (--source grpc://HOST:PORT/CATALOG | --address HOST:PORT --catalog NAME |\n"
      "                      --pristine-dir DIR [--catalog NAME] --source-server-command CMD) --out DIR "
      "[--zip FILE]",
      &cmd.help);
  if (!vm.ok()) return vm.status();
  if (!cmd.help.empty()) return cmd;
  if (!cmd.folder.folder.empty() || !cmd.folder.server.command.empty()) {
    if (cmd.folder.folder.empty() || cmd.folder.server.command.empty()) {
      return InvalidArgumentError(
          "--pristine-dir and --source-server-command go together: the catalog folder and the server that "
          "reads it "
          "(a warmup snapshot needs no export)");
    }
    if (!source.empty() || !cmd.address.empty() || tls.enabled) {
      return InvalidArgumentError(
          "--pristine-dir reads a catalog folder through a server warmup starts; "
          "--source and --address read one already running: give one of them");
    }
    if (auto s = CheckRange("source-server-start-timeout", cmd.folder.server.start_timeout_seconds, 1,
                            kDaySeconds);
        !s.ok()) {
      return s;
    }
    if (auto s = RequireXmx(cmd.folder.server.command, cmd.folder.server.xmx, "--source-server-command",
                            "--source-server-xmx");
        !s.ok()) {
      return s;
    }
    cmd.folder.catalog = cmd.catalog;
    if (!cmd.catalog.empty()) {
      if (auto s = CheckName(cmd.catalog, "--catalog"); !s.ok()) return s;
    }
    if (auto s = ParseSnapshotCompression(compression, cmd.write); !s.ok()) return s;
    if (!zip.empty()) cmd.zip_path = zip;
    if (auto s = CheckRange("page-size", cmd.source.page_size, 1, 100000); !s.ok()) return s;
    if (auto s = CheckRange("call-timeout", cmd.source.call_timeout_seconds, 1, kDaySeconds); !s.ok()) {
      return s;
    }
    return cmd;
  }
  if (auto s = RefuseIgnored(*vm, {"source-server-xmx", "source-server-start-timeout", "source-work-dir"},
                             "without --source-server-command");
      !s.ok()) {
    return s;
  }
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
  if (auto s = ParseSnapshotCompression(compression, cmd.write); !s.ok()) return s;
  if (!zip.empty()) cmd.zip_path = zip;
  if (auto s = CheckRange("page-size", cmd.source.page_size, 1, 100000); !s.ok()) return s;
  if (auto s = CheckRange("call-timeout", cmd.source.call_timeout_seconds, 1, kDaySeconds); !s.ok()) return s;
  if (auto s = CheckName(cmd.catalog, "--catalog"); !s.ok()) return s;
  return cmd;
}

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
      "seed", po::value(&cmd.options.seed)->default_value(1),
      "the bootstrap's seed: the same runs give the same intervals");
  std::string test_name;
  o.add(VerdictGroup(&cmd.options, &test_name));
  po::positional_options_description positional;
  positional.add("a", -1);
  auto vm = Parse(
      args, o, positional,
      "usage: warmup compare A.json... --vs B.json... [--metric M] [--noise-from AA.json...] [--json F]\n"
      "Per metric: medians, the ratio B/A with its interval and test (Welch's t on the runs' logarithms\n"
      "below 9 runs an arm, the Mann-Whitney U test from 9), the Hodges-Lehmann shift, and a verdict;\n"
      "the primary metric's decides. Exit 0: no regression, 3: a regression, 4: inconclusive, 1: error.",
      &cmd.help);
  if (!vm.ok()) return vm.status();
  if (!cmd.help.empty()) return cmd;
  if (cmd.a_files.empty()) return InvalidArgumentError("name arm A's run reports before --vs");
  if (auto s = CheckVerdictOptions(test_name, &cmd.options); !s.ok()) return s;
  return cmd;
}

StatusOr<CatalogsCommand> ParseCatalogs(const std::vector<std::string>& args) {
  CatalogsCommand cmd;
  po::options_description o("options");
  o.add_options()("help", "show this help")("address", po::value(&cmd.address)->default_value(cmd.address),
                                            "the server, HOST:PORT")(
      "delete", po::value(&cmd.delete_names)->composing(),
      "delete this catalog and every session open on it; repeatable")(
      "backup", po::value(&cmd.backup_name),
      "ask the server for a full backup of this catalog (evitaDB's FullBackupCatalog: a zip of its folder) "
      "and fetch it into --out, for a source server warmup starts to read (docs/evitadb.md)")(
      "out", po::value(&cmd.backup_out), "with --backup: the zip to write, a new file")(
      "backup-timeout", po::value(&cmd.backup_timeout_seconds)->default_value(cmd.backup_timeout_seconds),
      "with --backup: seconds the backup and its download may take")(
      "call-timeout",
      po::value(&cmd.admin.call_timeout_seconds)->default_value(cmd.admin.call_timeout_seconds),
      "deadline of each call, seconds");
  o.add(ClientTlsGroup(&cmd.admin.tls, TlsBy::kSwitch));  // catalogs has no --source
  auto vm =
      Parse(args, o, {},
            "usage: warmup catalogs [--address HOST:PORT] [--delete NAME ... | --backup NAME --out FILE]",
            &cmd.help);
  if (!vm.ok()) return vm.status();
  if (!cmd.help.empty()) return cmd;
  if (auto s = CheckHostPort(cmd.address, AddressUse::kDial); !s.ok()) return s.WithContext("--address");
  if (auto s = CheckRange("call-timeout", cmd.admin.call_timeout_seconds, 1, kDaySeconds); !s.ok()) return s;
  if (auto s = CheckClientTls(cmd.admin.tls); !s.ok()) return s;
  for (const std::string& name : cmd.delete_names) {
    if (auto s = CheckName(name, "--delete"); !s.ok()) return s;
  }
  if (!cmd.backup_name.empty()) {
    if (auto s = CheckName(cmd.backup_name, "--backup"); !s.ok()) return s;
    if (cmd.backup_out.empty()) return InvalidArgumentError("--backup needs --out FILE, the zip to write");
    if (!cmd.delete_names.empty()) return InvalidArgumentError("--backup and --delete are separate calls");
    if (auto s = CheckRange("backup-timeout", cmd.backup_timeout_seconds, 1, kDaySeconds); !s.ok()) return s;
  } else if (!cmd.backup_out.empty()) {
    return InvalidArgumentError("--out is where --backup writes its zip: name the catalog with --backup");
  }
  return cmd;
}

}  // namespace warmup::cli
