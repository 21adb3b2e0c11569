#include "common/options.h"

#include <doctest/doctest.h>

#include "common/temp_dir.h"

namespace warmup::cli {
namespace {

TEST_CASE("load accepts every documented flag (regression: --compress was not registered)") {
  auto cmd = ParseLoad({"--pristine-dir",
                        "/data",
                        "--catalog",
                        "senesi",
                        "--target",
                        "embedded",
                        "--target-catalog",
                        "copy",
                        "--max-per-collection",
                        "200",
                        "--collections",
                        "Product,Brand",
                        "--per-entity-csv",
                        "rows.csv",
                        "--report-json",
                        "run.json",
                        "--hold-open-seconds",
                        "5",
                        "--skip-verify",
                        "--run",
                        "smoke",
                        "--keep-target",
                        "--work-dir",
                        "/work",
                        "--compress"});
  REQUIRE_MESSAGE(cmd.ok(), cmd.status().ToString());
  CHECK(cmd->snapshot_path == "/data/senesi");
  CHECK(cmd->target == "embedded");
  CHECK(cmd->copy.target_catalog == "copy");
  CHECK(cmd->copy.max_per_collection == 200);
  CHECK(cmd->copy.collections == std::vector<std::string>{"Product", "Brand"});
  CHECK(cmd->copy.per_entity_csv == "rows.csv");
  CHECK(cmd->report_json == "run.json");
  CHECK(cmd->copy.hold_open_seconds == 5);
  CHECK(cmd->copy.skip_verify);
  CHECK(cmd->copy.run_label == "smoke");
  CHECK(cmd->copy.keep_target);
  CHECK(cmd->work_dir == "/work");
  CHECK(cmd->compress);
}

TEST_CASE("bad command lines name the option") {
  CHECK(ParseLoad({"--catalog", "x"}).status().message().find("pristine-dir") != std::string::npos);
  CHECK(ParseLoad({"--pristine-dir", "/d", "--catalog", "x", "--target", "ftp"}).status().message() ==
        "--target must be embedded, remote or null, not 'ftp'");
  CHECK(ParseLoad({"--pristine-dir", "/d", "--catalog", "x", "--frobnicate"})
            .status()
            .message()
            .find("frobnicate") != std::string::npos);
  CHECK(ParseGenerate({"--out", "/x", "--compress", "lz4"}).status().message() ==
        "--compress must be none or zstd, not 'lz4'");
  CHECK(ParseGenerate({"--help"}).status().code() == StatusCode::kCancelled);
}

TEST_CASE("--source and export take grpc://HOST:PORT/CATALOG") {
  auto load = ParseLoad({"--source", "grpc://db.local:5555/senesi", "--target", "null"});
  REQUIRE(load.ok());
  CHECK(load->grpc_address == "db.local:5555");
  CHECK(load->grpc_catalog == "senesi");
  CHECK(load->snapshot_path.empty());
  CHECK(ParseLoad({"--source", "grpc://h:1/c", "--pristine-dir", "/d"}).status().message() ==
        "give exactly one of --pristine-dir and --source");
  CHECK(ParseLoad({"--target", "null"}).status().message() ==
        "give exactly one of --pristine-dir and --source");
  CHECK(ParseLoad({"--source", "grpc://h:1/c", "--catalog", "d"}).status().message() ==
        "--catalog goes with --pristine-dir; --source names its own");
  for (const char* bad : {"http://h:1/c", "grpc://h:1/", "grpc://h:1", "grpc:///c", "grpc://h/c"}) {
    CAPTURE(bad);
    CHECK(ParseReindex({"--source", bad}).status().message() ==
          std::string("--source must look like grpc://HOST:PORT/CATALOG, not '") + bad + "'");
  }
  auto exp = ParseExport({"--source", "grpc://127.0.0.1:5555/senesi", "--out", "/x", "--zip", "/x.zip",
                          "--page-size", "50", "--compress", "zstd"});
  REQUIRE(exp.ok());
  CHECK(exp->address == "127.0.0.1:5555");
  CHECK(exp->catalog == "senesi");
  CHECK(exp->out_dir == "/x");
  CHECK(exp->zip_path == "/x.zip");
  CHECK(exp->source.page_size == 50);
  CHECK(exp->write.compression == SnapshotCompression::kZstd);
  CHECK(ParseExport({"--source", "grpc://h:1/c", "--out", "/x", "--page-size", "0"}).status().message() ==
        "--page-size must be at least 1");
  auto spelled_out = ParseExport({"--address", "db:5555", "--catalog", "senesi", "--out", "/x"});
  REQUIRE(spelled_out.ok());
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

TEST_CASE("without --catalog, the only snapshot in the pristine directory is used") {
  testing::TempDir dir;
  CHECK(ParseLoad({"--pristine-dir", dir.path()}).status().message().find("holds 0 snapshots") !=
        std::string::npos);
}

}  // namespace
}  // namespace warmup::cli
