// Publishes one snapshot three ways in one run — null target (the harness),
// embedded engine, remote over loopback gRPC into an in-process `warmup
// serve` — and measures a bare unary round trip (IsReady) in the same run,
// so that the remote figure can be held against DESIGN's model:
//   remote TOTAL <= embedded load + n x RTT(p50) x 1.2.
//
// usage: publish_bench SNAPSHOT_DIR [--json FILE] [--rtt-calls N]
#include <grpcpp/grpcpp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "GrpcEvitaAPI.grpc.pb.h"
#include "codec/pb.h"
#include "warmup/copy_engine.h"
#include "warmup/embedded_target.h"
#include "warmup/engine.h"
#include "warmup/remote_target.h"
#include "warmup/run_result.h"
#include "warmup/server.h"
#include "warmup/snapshot.h"

namespace {

namespace fs = std::filesystem;

warmup::RunResult Publish(const std::string& snapshot, warmup::CatalogTarget& target,
                          const std::string& label) {
  auto source = warmup::OpenSnapshotSource(snapshot);
  if (!source.ok()) {
    std::fprintf(stderr, "%s\n", source.status().ToString().c_str());
    std::exit(1);
  }
  warmup::CopyOptions options;
  options.run_label = label;
  auto result = warmup::RunCopy(**source, target, options);
  if (!result.ok() || result->ExitCode() != 0) {
    std::fprintf(stderr, "%s run failed: %s\n", label.c_str(),
                 result.ok() ? result->abort_error.c_str() : result.status().ToString().c_str());
    std::exit(1);
  }
  return *result;
}

// Median of `calls` unary IsReady round trips (after 200 warm-up calls), in µs.
double MedianRttMicros(const std::string& address, int calls) {
  auto stub =
      warmup::pb::EvitaService::NewStub(::grpc::CreateChannel(address, ::grpc::InsecureChannelCredentials()));
  std::vector<double> samples;
  for (int i = 0; i < calls + 200; ++i) {
    ::grpc::ClientContext context;
    warmup::pb::GrpcReadyResponse ready;
    const auto start = std::chrono::steady_clock::now();
    const ::grpc::Status status = stub->IsReady(&context, google::protobuf::Empty(), &ready);
    const double us =
        std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
    if (!status.ok()) {
      std::fprintf(stderr, "IsReady failed: %s\n", status.error_message().c_str());
      std::exit(1);
    }
    if (i >= 200) samples.push_back(us);
  }
  std::sort(samples.begin(), samples.end());
  return samples[samples.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: publish_bench SNAPSHOT_DIR [--json FILE] [--rtt-calls N]\n");
    return 1;
  }
  const std::string snapshot = argv[1];
  std::string json_path;
  int rtt_calls = 2000;
  for (int i = 2; i + 1 < argc; i += 2) {
    if (std::string(argv[i]) == "--json") json_path = argv[i + 1];
    if (std::string(argv[i]) == "--rtt-calls") rtt_calls = std::max(10, std::atoi(argv[i + 1]));
  }
  const fs::path scratch = fs::temp_directory_path() / ("publish-bench-" + std::to_string(::getpid()));
  fs::remove_all(scratch);

  auto null_target = warmup::MakeNullTarget();
  const warmup::RunResult null_run = Publish(snapshot, *null_target, "null");

  warmup::EngineOptions engine;
  engine.compression = warmup::RecordCompression::kZstd;
  auto embedded = warmup::MakeEmbeddedTarget((scratch / "embedded").string(), engine);
  const warmup::RunResult embedded_run = Publish(snapshot, **embedded, "embedded");
  embedded->reset();

  warmup::ServerOptions server_options;
  server_options.data_dir = (scratch / "served").string();
  server_options.listen = "127.0.0.1:0";
  server_options.engine = engine;
  auto server = warmup::Server::Start(server_options);
  if (!server.ok()) {
    std::fprintf(stderr, "%s\n", server.status().ToString().c_str());
    return 1;
  }
  const std::string address = "127.0.0.1:" + std::to_string((*server)->port());
  const double rtt_us = MedianRttMicros(address, rtt_calls);
  auto remote = warmup::MakeRemoteTarget(address);
  const warmup::RunResult remote_run = Publish(snapshot, **remote, "remote");
  (*server)->Shutdown();
  fs::remove_all(scratch);

  const double n = static_cast<double>(remote_run.upsert.count);
  const double model = embedded_run.load_wall_seconds + n * rtt_us * 1e-6 * 1.2;
  auto line = [](const char* name, const warmup::RunResult& r) {
    std::printf("%-9s TOTAL %9.3f s  load %9.3f s  read %8.3f s  upsert %9.3f s  goLive %7.3f s\n", name,
                r.total_seconds().value_or(0), r.load_wall_seconds, r.source_read_seconds,
                r.upsert.total_seconds, r.golive_seconds);
  };
  std::printf("snapshot %s: %.0f entities\n", snapshot.c_str(), n);
  line("null", null_run);
  line("embedded", embedded_run);
  line("remote", remote_run);
  std::printf("bare unary RTT (IsReady) p50 %.1f us over %d calls\n", rtt_us, rtt_calls);
  std::printf("remote TOTAL %.3f s vs model (embedded load + n x RTT x 1.2) %.3f s: x%.2f %s\n",
              *remote_run.total_seconds(), model, *remote_run.total_seconds() / model,
              *remote_run.total_seconds() <= model ? "(within)" : "(over)");
  if (remote_run.server) {
    std::printf("remote upsert split: server %.3f s, wire %.3f s (%.1f us/upsert on the wire)\n",
                remote_run.server->total_seconds,
                remote_run.upsert.total_seconds - remote_run.server->total_seconds,
                (remote_run.upsert.total_seconds - remote_run.server->total_seconds) * 1e6 / n);
  }
  if (!json_path.empty()) {
    std::ofstream out(json_path);
    auto run = [](const warmup::RunResult& r) {
      return "{\"total_seconds\": " + std::to_string(r.total_seconds().value_or(0)) +
             ", \"load_wall_seconds\": " + std::to_string(r.load_wall_seconds) +
             ", \"source_read_seconds\": " + std::to_string(r.source_read_seconds) +
             ", \"upsert_seconds\": " + std::to_string(r.upsert.total_seconds) +
             ", \"golive_seconds\": " + std::to_string(r.golive_seconds) + "}";
    };
    out << "{\n  \"benchmark\": \"publish\",\n  \"snapshot\": \"" << snapshot << "\",\n  \"entities\": " << n
        << ",\n  \"null\": " << run(null_run) << ",\n  \"embedded\": " << run(embedded_run)
        << ",\n  \"remote\": " << run(remote_run) << ",\n  \"rtt_p50_us\": " << rtt_us
        << ",\n  \"remote_model_seconds\": " << model
        << ",\n  \"remote_to_model\": " << *remote_run.total_seconds() / model << "\n}\n";
  }
  return 0;
}
