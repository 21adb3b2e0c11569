// Fuzz target: an export zip as `warmup inspect` and `warmup unpack` read it
// (entry names, the archive's structure, then the snapshot inside). The input
// is written to a file of a scratch directory made once; unpacking goes to a
// directory that is removed after every input.
#include <stdlib.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "warmup/snapshot.h"

namespace {

// Never destroyed: the atexit handler that removes it runs after every
// static destructor registered before it.
const std::string& Scratch() {
  static const std::string* dir = [] {
    std::string pattern = (std::filesystem::temp_directory_path() / "warmup-zip-fuzz-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) std::abort();
    auto* made = new std::string(pattern);
    std::atexit([] { std::filesystem::remove_all(Scratch()); });
    return made;
  }();
  return *dir;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string zip = Scratch() + "/input.zip";
  {
    std::ofstream out(zip, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  (void)warmup::InspectSnapshot(zip);
  const std::string unpacked = Scratch() + "/unpacked";
  std::filesystem::create_directory(unpacked);
  (void)warmup::UnpackSnapshot(zip, unpacked);
  std::filesystem::remove_all(unpacked);
  return 0;
}
