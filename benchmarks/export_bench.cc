// Reading a live catalog over gRPC, by page size: publishes a snapshot into
// an in-process `warmup serve`, then drains it through GrpcSource once per
// page size, and drains the snapshot itself once, all in the same run, so the
// page-size ratios and the gRPC-to-file ratio come from one machine state.
//
// usage: export_bench SNAPSHOT_DIR [--json FILE] [--page-sizes 50,500,2000]
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "warmup/copy_engine.h"
#include "warmup/grpc_source.h"
#include "warmup/remote_target.h"
#include "warmup/run_result.h"
#include "warmup/server.h"
#include "warmup/snapshot.h"

namespace {

namespace fs = std::filesystem;

template <typename T>
T OrDie(warmup::StatusOr<T> value, const char* what) {
  if (!value.ok()) {
    std::fprintf(stderr, "%s: %s\n", what, value.status().ToString().c_str());
    std::exit(1);
  }
  return std::move(value).value();
}

struct Drain {
  int64_t entities = 0;
  double seconds = 0;
};

// Reads every entity of every collection of `source`, timed.
Drain DrainSource(warmup::CatalogSource& source) {
  Drain drain;
  const auto start = std::chrono::steady_clock::now();
  warmup::Entity entity;
  for (const auto& collection : source.collections()) {
    auto stream = OrDie(source.OpenCollection(collection.entity_type), "open collection");
    while (OrDie(stream->Next(&entity), "read")) ++drain.entities;
  }
  drain.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return drain;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: export_bench SNAPSHOT_DIR [--json FILE] [--page-sizes 50,500,2000]\n");
    return 1;
  }
  const std::string snapshot = argv[1];
  std::string json_path;
  std::vector<int> page_sizes{50, 500, 2000};
  for (int i = 2; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--json") json_path = argv[i + 1];
    if (flag == "--page-sizes") {
      page_sizes.clear();
      for (std::string list = argv[i + 1]; !list.empty();) {
        const size_t comma = list.find(',');
        page_sizes.push_back(std::max(1, std::atoi(list.substr(0, comma).c_str())));
        list = comma == std::string::npos ? "" : list.substr(comma + 1);
      }
    }
  }
  const fs::path scratch = fs::temp_directory_path() / ("export-bench-" + std::to_string(::getpid()));
  fs::remove_all(scratch);

  auto file_source = OrDie(warmup::OpenSnapshotSource(snapshot), "snapshot");
  const Drain file = DrainSource(*file_source);

  warmup::ServerOptions server_options;
  server_options.data_dir = (scratch / "served").string();
  server_options.listen = "127.0.0.1:0";
  auto server = OrDie(warmup::Server::Start(server_options), "server");
  const std::string address = "127.0.0.1:" + std::to_string(server->port());
  auto target = OrDie(warmup::MakeRemoteTarget(address), "remote target");
  file_source = OrDie(warmup::OpenSnapshotSource(snapshot), "snapshot");
  const warmup::RunResult published = OrDie(warmup::RunCopy(*file_source, *target, {}), "publish");
  if (published.ExitCode() != 0) {
    std::fprintf(stderr, "publish failed: %s\n", published.abort_error.c_str());
    return 1;
  }

  std::printf("snapshot %s: %lld entities, file read %.3f s (%.0f entities/s)\n", snapshot.c_str(),
              static_cast<long long>(file.entities), file.seconds, file.entities / file.seconds);
  std::string json_pages;
  for (int page_size : page_sizes) {
    warmup::GrpcSourceOptions options;
    options.page_size = page_size;
    auto grpc_source =
        OrDie(warmup::OpenGrpcSource(address, published.target_catalog, options), "gRPC source");
    const Drain drain = DrainSource(*grpc_source);
    if (drain.entities != file.entities) {
      std::fprintf(stderr, "page size %d read %lld entities, the snapshot has %lld\n", page_size,
                   static_cast<long long>(drain.entities), static_cast<long long>(file.entities));
      return 1;
    }
    std::printf("gRPC pages of %5d: %8.3f s  %9.0f entities/s  x%.2f the file read\n", page_size,
                drain.seconds, drain.entities / drain.seconds, drain.seconds / file.seconds);
    json_pages += std::string(json_pages.empty() ? "" : ", ") +
                  "{\"page_size\": " + std::to_string(page_size) +
                  ", \"seconds\": " + std::to_string(drain.seconds) +
                  ", \"to_file_read\": " + std::to_string(drain.seconds / file.seconds) + "}";
  }
  server->Shutdown();
  fs::remove_all(scratch);

  if (!json_path.empty()) {
    std::ofstream out(json_path);
    out << "{\n  \"benchmark\": \"export\",\n  \"snapshot\": \"" << snapshot
        << "\",\n  \"entities\": " << file.entities << ",\n  \"file_read_seconds\": " << file.seconds
        << ",\n  \"grpc\": [" << json_pages << "]\n}\n";
  }
  return 0;
}
