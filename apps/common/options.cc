#include "common/options.h"

#include <boost/program_options.hpp>
#include <sstream>

namespace warmup::cli {
namespace {

namespace po = boost::program_options;

// Parses `args` against `visible` (+ `positional`), turning every Boost error
// into a Status that names the option.
StatusOr<po::variables_map> Parse(const std::vector<std::string>& args,
                                  const po::options_description& visible,
                                  const po::positional_options_description& positional,
                                  const std::string& usage) {
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(args).options(visible).positional(positional).run(), vm);
    if (vm.count("help")) {
      std::ostringstream help;
      help << usage << "\n\n" << visible;
      return Status(StatusCode::kCancelled, help.str());
    }
    po::notify(vm);
  } catch (const po::error& e) {
    return InvalidArgumentError(std::string(e.what()) + " (see --help)");
  }
  return vm;
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
  auto vm = Parse(args, o, {},
                  "usage: warmup generate --out DIR [--profile P] [--scale S] [--seed N] [--zip FILE]");
  if (!vm.ok()) return vm.status();
  if (compression != "none" && compression != "zstd") {
    return InvalidArgumentError("--compress must be none or zstd, not '" + compression + "'");
  }
  cmd.write.compression = compression == "zstd" ? SnapshotCompression::kZstd : SnapshotCompression::kNone;
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
  auto vm = Parse(args, o, p, "usage: warmup inspect SNAPSHOT [--json]");
  if (!vm.ok()) return vm.status();
  return cmd;
}

StatusOr<UnpackCommand> ParseUnpack(const std::vector<std::string>& args) {
  UnpackCommand cmd;
  po::options_description o("options");
  o.add_options()("help", "show this help")("zip", po::value(&cmd.zip_path)->required(), "the export")(
      "dir", po::value(&cmd.out_dir)->required(), "parent directory; the snapshot goes to DIR/<catalog>/");
  po::positional_options_description p;
  p.add("zip", 1).add("dir", 1);
  auto vm = Parse(args, o, p, "usage: warmup unpack EXPORT.zip DIR");
  if (!vm.ok()) return vm.status();
  return cmd;
}

}  // namespace warmup::cli
