// HOST:PORT as every warmup command takes an address: checked before anything
// listens or dials, because gRPC takes a port it cannot read as 443 or as
// another port (99999 wraps), and a load would then reach the wrong server.
#ifndef WARMUP_HOST_PORT_H_
#define WARMUP_HOST_PORT_H_

#include <string>

#include "warmup/status.h"

namespace warmup {

enum class AddressUse {
  kDial,    // the port must be 1..65535
  kListen,  // 0 is allowed too: the system picks a free port
};

// OK when `address` is HOST:PORT with a host name, an IPv4 address or a
// bracketed IPv6 address ([::1]:5555), and a decimal port in range for `use`.
// Errors: kInvalidArgument quoting `address` and saying what is wrong (no
// port, a port that is not a number, out of range, an empty host).
Status CheckHostPort(const std::string& address, AddressUse use);

struct HostPort {
  std::string host;  // without the brackets of an IPv6 address
  std::string port;
};

// `address` checked by CheckHostPort for `use`, split into its parts (what a
// resolver takes). Errors: CheckHostPort's.
StatusOr<HostPort> SplitHostPort(const std::string& address, AddressUse use);

// True for an address only this machine can reach (localhost, 127.0.0.0/8,
// [::1]); a server elsewhere is reachable by others (see warmup serve --listen).
bool IsLoopback(const std::string& address);

}  // namespace warmup

#endif  // WARMUP_HOST_PORT_H_
