#include "warmup/host_port.h"

#include <algorithm>
#include <cctype>

namespace warmup {
namespace {

// Splits HOST:PORT; false when there is no port separator.
bool Split(const std::string& address, std::string* host, std::string* port) {
  if (address.starts_with('[')) {
    const size_t close = address.find(']');
    if (close == std::string::npos || close + 1 >= address.size() || address[close + 1] != ':') return false;
    *host = address.substr(1, close - 1);
    *port = address.substr(close + 2);
    return true;
  }
  const size_t colon = address.rfind(':');
  if (colon == std::string::npos) return false;
  *host = address.substr(0, colon);
  *port = address.substr(colon + 1);
  return true;
}

}  // namespace

Status CheckHostPort(const std::string& address, AddressUse use) {
  auto fail = [&](const std::string& why) {
    return InvalidArgumentError("address '" + address + "': " + why + " (HOST:PORT, e.g. 127.0.0.1:5555)");
  };
  std::string host;
  std::string port;
  if (!Split(address, &host, &port)) return fail("no port");
  if (host.empty()) return fail("no host");
  if (!address.starts_with('[') && host.find(':') != std::string::npos) {
    return fail("an IPv6 host goes in brackets");
  }
  const bool host_ok = std::all_of(host.begin(), host.end(), [](unsigned char c) {
    return std::isalnum(c) || c == '.' || c == '-' || c == '_' || c == ':' || c == '%';
  });
  if (!host_ok) return fail("the host has characters no host name has");
  if (port.empty() || port.size() > 5 || !std::all_of(port.begin(), port.end(), ::isdigit)) {
    return fail("the port '" + port + "' is not a number from " + (use == AddressUse::kListen ? "0" : "1") +
                " to 65535");
  }
  const int number = std::stoi(port);  // at most 5 digits: cannot throw
  if (number > 65535 || (number == 0 && use == AddressUse::kDial)) {
    return fail("port " + port + " is out of range (" + (use == AddressUse::kListen ? "0" : "1") +
                " to 65535)");
  }
  return OkStatus();
}

StatusOr<HostPort> SplitHostPort(const std::string& address, AddressUse use) {
  if (Status s = CheckHostPort(address, use); !s.ok()) return s;
  HostPort parts;
  Split(address, &parts.host, &parts.port);
  return parts;
}

bool IsLoopback(const std::string& address) {
  std::string host;
  std::string port;
  if (!Split(address, &host, &port)) return false;
  if (host == "localhost" || host == "::1") return true;
  return host.starts_with("127.") && host.find_first_not_of("0123456789.") == std::string::npos;
}

}  // namespace warmup
