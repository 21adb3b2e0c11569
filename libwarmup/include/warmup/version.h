// What this build of libwarmup is.
#ifndef WARMUP_VERSION_H_
#define WARMUP_VERSION_H_

#include <string>

namespace warmup {

// What a build is, as run reports record it: two runs of different builds
// compared (warmup ab) must say which was which.
struct BuildInfo {
  std::string version;     // e.g. "0.1.0"
  std::string commit;      // git commit at build time (12 hex digits); empty outside a checkout
  bool dirty = false;      // the tree had uncommitted changes to tracked files
  std::string compiler;    // e.g. "GNU 12.2.0"
  std::string build_type;  // e.g. "RelWithDebInfo"
  std::string flags;       // the C++ flags of that build type, e.g. "-O2 -g -DNDEBUG"
  // One line: "0.1.0 (9ba7d0c1a2b3), GNU 12.2.0, RelWithDebInfo [-O2 -g -DNDEBUG]".
  std::string Summary() const;
};

// This build of libwarmup. The commit is stamped at every build, not only
// when CMake configures.
BuildInfo DescribeBuild();

// The library version followed by the git commit it was built from when
// known, "+" when the tree had changes: "0.1.0 (9ba7d0c1a2b3+)". Reports
// quote it as the build id.
std::string Version();

// Which evitaDB gRPC protocol the library speaks: package and the evitaDB
// release its field numbers were checked against.
std::string ProtocolDescription();

}  // namespace warmup

#endif  // WARMUP_VERSION_H_
