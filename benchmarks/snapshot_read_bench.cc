// Reads a whole snapshot three ways in one run and reports each, so the cost
// of decoding can be told apart from the cost of I/O:
//   io      read every entity file and checksum it (CRC-32C)
//   decode  + split records and parse each as GrpcSealedEntity
//   source  the real path: OpenSnapshotSource + EntityStream::Next (decode,
//           convert to warmup's model, verify counts and checksums)
// Each is repeated (default 3) and the median reported; the page cache is warm
// after the first pass, which is what the target (<= 3 s at scale 1) is about.
//
// usage: snapshot_read_bench SNAPSHOT_DIR [--repeat N] [--json FILE]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "GrpcEntity.pb.h"
#include "snapshot/byte_io.h"
#include "snapshot/snapshot_source.h"

namespace {

using Clock = std::chrono::steady_clock;
using warmup::snapshot::SnapshotSource;

double Seconds(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

struct Pass {
  double seconds = 0;
  int64_t entities = 0;
  int64_t bytes = 0;
};

// Opens the collection's file through the same byte readers the source uses.
std::unique_ptr<warmup::snapshot::ByteReader> OpenRaw(const std::string& dir, const std::string& file) {
  auto reader = warmup::snapshot::OpenFileForReading(dir + "/" + file);
  if (!reader.ok()) {
    std::fprintf(stderr, "%s\n", reader.status().ToString().c_str());
    std::exit(1);
  }
  return std::move(reader).value();
}

Pass ReadIo(SnapshotSource& source, const std::string& dir) {
  Pass pass;
  const auto start = Clock::now();
  std::vector<char> buffer(1 << 20);
  for (const auto& c : source.manifest().collections) {
    warmup::snapshot::ChecksummingReader reader(OpenRaw(dir, c.data.file));
    while (*reader.Read(buffer.data(), buffer.size()) > 0) {
    }
    pass.bytes += static_cast<int64_t>(reader.bytes());
    pass.entities += c.count;
  }
  pass.seconds = Seconds(start);
  return pass;
}

Pass ReadDecode(SnapshotSource& source, const std::string& dir) {
  Pass pass;
  const auto start = Clock::now();
  io::evitadb::externalApi::grpc::generated::GrpcSealedEntity message;
  for (const auto& c : source.manifest().collections) {
    warmup::snapshot::ChecksummingReader stored(OpenRaw(dir, c.data.file));
    std::unique_ptr<warmup::snapshot::ByteReader> zstd;
    warmup::snapshot::ByteReader* content = &stored;
    if (c.compression == warmup::SnapshotCompression::kZstd) {
      zstd = warmup::snapshot::MakeZstdReader(&stored, c.data.file);
      content = zstd.get();
    }
    warmup::snapshot::RecordReader records(content, c.data.file);
    std::string_view record;
    uint64_t offset = 0;
    while (*records.Next(&record, &offset)) {
      message.ParseFromArray(record.data(), static_cast<int>(record.size()));
      ++pass.entities;
    }
    pass.bytes += static_cast<int64_t>(stored.bytes());
  }
  pass.seconds = Seconds(start);
  return pass;
}

Pass ReadSource(SnapshotSource& source) {
  Pass pass;
  const auto start = Clock::now();
  warmup::Entity entity;
  for (const auto& c : source.collections()) {
    auto stream = source.OpenCollection(c.entity_type);
    while (true) {
      auto more = (*stream)->Next(&entity);
      if (!more.ok()) {
        std::fprintf(stderr, "%s\n", more.status().ToString().c_str());
        std::exit(1);
      }
      if (!*more) break;
      ++pass.entities;
    }
    pass.bytes += c.stored_bytes;
  }
  pass.seconds = Seconds(start);
  return pass;
}

template <typename F>
Pass Median(int repeat, F run) {
  std::vector<Pass> passes;
  for (int i = 0; i < repeat; ++i) passes.push_back(run());
  std::sort(passes.begin(), passes.end(), [](const Pass& a, const Pass& b) { return a.seconds < b.seconds; });
  return passes[passes.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: snapshot_read_bench SNAPSHOT_DIR [--repeat N] [--json FILE]\n");
    return 1;
  }
  const std::string dir = argv[1];
  int repeat = 3;
  std::string json_path;
  for (int i = 2; i + 1 < argc; i += 2) {
    if (std::string(argv[i]) == "--repeat") repeat = std::max(1, std::atoi(argv[i + 1]));
    if (std::string(argv[i]) == "--json") json_path = argv[i + 1];
  }
  auto source = SnapshotSource::Open(dir);
  if (!source.ok()) {
    std::fprintf(stderr, "%s\n", source.status().ToString().c_str());
    return 1;
  }
  ReadIo(**source, dir);  // warm the page cache
  const Pass io = Median(repeat, [&] { return ReadIo(**source, dir); });
  const Pass decode = Median(repeat, [&] { return ReadDecode(**source, dir); });
  const Pass full = Median(repeat, [&] { return ReadSource(**source); });
  auto line = [](const char* name, const Pass& p, const Pass& base) {
    std::printf("%-8s %8.3f s  %9.0f entities/s  %7.1f MB/s  %6.2f us/entity  x%.2f of io\n", name, p.seconds,
                static_cast<double>(p.entities) / p.seconds, static_cast<double>(p.bytes) / 1e6 / p.seconds,
                p.seconds * 1e6 / static_cast<double>(p.entities), p.seconds / base.seconds);
  };
  std::printf("snapshot %s: %lld entities, %.1f MB, median of %d\n", dir.c_str(),
              static_cast<long long>(full.entities), static_cast<double>(io.bytes) / 1e6, repeat);
  line("io", io, io);
  line("decode", decode, io);
  line("source", full, io);
  if (!json_path.empty()) {
    std::ofstream out(json_path);
    out << "{\n  \"benchmark\": \"snapshot_read\",\n  \"snapshot\": \"" << dir << "\",\n  \"fingerprint\": \""
        << (*source)->Fingerprint() << "\",\n  \"repeat\": " << repeat
        << ",\n  \"entities\": " << full.entities << ",\n  \"stored_bytes\": " << io.bytes
        << ",\n  \"seconds\": {\"io\": " << io.seconds << ", \"decode\": " << decode.seconds
        << ", \"source\": " << full.seconds << "},\n  \"ratio_source_to_io\": " << full.seconds / io.seconds
        << "\n}\n";
  }
  return 0;
}
