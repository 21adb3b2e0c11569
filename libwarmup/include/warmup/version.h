// What this build of libwarmup is.
#ifndef WARMUP_VERSION_H_
#define WARMUP_VERSION_H_

#include <string>

namespace warmup {

// The library version, e.g. "0.1.0", followed by the git commit it was built
// from when known, e.g. "0.1.0 (9ba7d0c)". Reports quote it as the build id.
std::string Version();

// Which evitaDB gRPC protocol the library speaks: package and the evitaDB
// release its field numbers were checked against.
std::string ProtocolDescription();

}  // namespace warmup

#endif  // WARMUP_VERSION_H_
