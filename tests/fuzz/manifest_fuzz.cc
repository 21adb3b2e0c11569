// Fuzz target: manifest.json as a snapshot reader parses it. Property: a
// manifest that parses is written back to JSON that parses to the same
// fingerprint.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "snapshot/manifest.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view json(reinterpret_cast<const char*>(data), size);
  auto manifest = warmup::snapshot::ParseManifest(json, "fuzz/manifest.json");
  if (!manifest.ok()) return 0;
  auto again = warmup::snapshot::ParseManifest(warmup::snapshot::ManifestToJson(*manifest), "rewritten");
  if (!again.ok() ||
      warmup::snapshot::ManifestFingerprint(*again) != warmup::snapshot::ManifestFingerprint(*manifest)) {
    std::abort();
  }
  return 0;
}
