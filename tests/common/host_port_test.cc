#include "warmup/host_port.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

namespace warmup {
namespace {

TEST_CASE("CheckHostPort: what each use accepts, and what it says about the rest") {
  struct Row {
    std::string address;
    bool dial_ok;
    bool listen_ok;
    std::string why;  // a part of the message when dialling is refused
  };
  const std::vector<Row> rows = {
      {"127.0.0.1:5555", true, true, ""},
      {"localhost:1", true, true, ""},
      {"db-1.example.org:65535", true, true, ""},
      {"[::1]:5555", true, true, ""},
      {"0.0.0.0:0", false, true, "port 0 is out of range (1 to 65535)"},
      {"127.0.0.1:99999", false, false, "port 99999 is out of range"},
      {"127.0.0.1:65536", false, false, "port 65536 is out of range"},
      {"127.0.0.1:abc", false, false, "the port 'abc' is not a number"},
      {"127.0.0.1:-1", false, false, "the port '-1' is not a number"},
      {"127.0.0.1:", false, false, "the port '' is not a number"},
      {"127.0.0.1:123456", false, false, "is not a number"},
      {"127.0.0.1", false, false, "no port"},
      {"", false, false, "no port"},
      {":5555", false, false, "no host"},
      {"::1:5555", false, false, "an IPv6 host goes in brackets"},
      {"[::1]5555", false, false, "no port"},
      {"ho st:5555", false, false, "characters no host name has"},
      {"a/b:5555", false, false, "characters no host name has"},
  };
  for (const Row& row : rows) {
    CAPTURE(row.address);
    const Status dial = CheckHostPort(row.address, AddressUse::kDial);
    const Status listen = CheckHostPort(row.address, AddressUse::kListen);
    CHECK(dial.ok() == row.dial_ok);
    CHECK(listen.ok() == row.listen_ok);
    for (const Status* s : {&dial, &listen}) {
      if (s->ok()) continue;
      CHECK(s->code() == StatusCode::kInvalidArgument);
      CHECK(s->message().find("address '" + row.address + "': ") == 0);
    }
    if (!row.dial_ok) CHECK_MESSAGE(dial.message().find(row.why) != std::string::npos, dial.message());
  }
}

TEST_CASE("IsLoopback: only addresses no other machine reaches") {
  for (const char* yes : {"127.0.0.1:5555", "127.1.2.3:1", "localhost:5555", "[::1]:5555"}) {
    CAPTURE(yes);
    CHECK(IsLoopback(yes));
  }
  for (const char* no :
       {"0.0.0.0:5555", "10.0.0.1:5555", "127.example.org:5555", "[::]:5555", "db:5555", "127.0.0.1"}) {
    CAPTURE(no);
    CHECK_FALSE(IsLoopback(no));
  }
}

}  // namespace
}  // namespace warmup
