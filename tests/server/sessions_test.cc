#include "server/sessions.h"

#include <doctest/doctest.h>

#include "common/status_matchers.h"

namespace warmup::server {
namespace {

using std::chrono::seconds;

const SteadyTime t0{std::chrono::hours(1)};
const std::string kPeer = "ipv4:127.0.0.1:40000";

TEST_CASE("a warming-up catalog takes one session at a time, an alive one any number") {
  SessionRegistry sessions(seconds(60));
  auto first = sessions.Open("c", true, /*warming_up=*/true, kPeer, t0);
  REQUIRE_OK(first);
  auto second = sessions.Open("c", false, /*warming_up=*/true, kPeer, t0);
  REQUIRE_FALSE(second.ok());
  CHECK(second.status().message() ==
        "ConcurrentInitializationException: catalog c is warming up and session " + *first +
            " is already open on it");
  CHECK_OK(sessions.Open("d", true, /*warming_up=*/true, kPeer, t0));
  CHECK_OK(sessions.Open("alive", false, /*warming_up=*/false, kPeer, t0));
  CHECK_OK(sessions.Open("alive", false, /*warming_up=*/false, kPeer, t0));
  CHECK(sessions.Count() == 4);
  CHECK(*first != *sessions.Open("e", true, false, kPeer, t0));  // ids are fresh
}

TEST_CASE("a session unused for longer than the idle limit is closed when next asked for, as evitaDB does") {
  SessionRegistry sessions(seconds(60));
  const std::string id = *sessions.Open("c", true, true, kPeer, t0);
  auto used = sessions.Use(id, kPeer, t0 + seconds(60));  // exactly the limit: still open
  REQUIRE_OK(used);
  CHECK(used->catalog == "c");
  CHECK(used->read_write);
  CHECK_OK(sessions.Use(id, kPeer, t0 + seconds(120)));  // the limit counts from the last use
  auto expired = sessions.Use(id, kPeer, t0 + seconds(180) + std::chrono::nanoseconds(1));
  REQUIRE_FALSE(expired.ok());
  CHECK(expired.status().code() == StatusCode::kUnauthenticated);
  CHECK(expired.status().message() ==
        "Your session (session id: " + id + ") is either not set or is not active.");
  CHECK(sessions.Count() == 0);

  SessionRegistry kept(seconds(0));
  const std::string forever = *kept.Open("c", true, true, kPeer, t0);
  CHECK_OK(kept.Use(forever, kPeer, t0 + std::chrono::hours(24 * 365)));
}

TEST_CASE("sessions are closed one by one, by catalog, and never twice") {
  SessionRegistry sessions(seconds(60));
  const std::string a = *sessions.Open("a", true, true, kPeer, t0);
  const std::string b1 = *sessions.Open("b", false, false, kPeer, t0);
  const std::string b2 = *sessions.Open("b", false, false, kPeer, t0);
  sessions.CloseCatalog("b");
  CHECK(sessions.Count() == 1);
  CHECK_FALSE(sessions.Use(b1, kPeer, t0).ok());
  CHECK(sessions.Close(a));
  CHECK_FALSE(sessions.Close(a));
  CHECK_FALSE(sessions.Close(b2));
  CHECK(sessions.Count() == 0);
}

TEST_CASE("a session whose client is gone is closed after the grace, one whose client returns is kept") {
  SessionRegistry sessions(seconds(0));
  const std::string gone = *sessions.Open("c", true, true, kPeer, t0);
  const std::string back = *sessions.Open("d", false, false, "ipv4:127.0.0.1:40001", t0);
  const std::string in_process = *sessions.Open("e", true, true, "inproc", t0);
  const std::set<std::string> nobody;
  const seconds grace(10);
  CHECK(sessions.CloseOrphans(nobody, grace, t0).empty());               // first seen missing
  CHECK(sessions.CloseOrphans(nobody, grace, t0 + seconds(9)).empty());  // within the grace
  // The second client reconnects: its clock starts again.
  CHECK(sessions.CloseOrphans({"ipv4:127.0.0.1:40001"}, grace, t0 + seconds(9)).empty());
  const auto closed = sessions.CloseOrphans(nobody, grace, t0 + seconds(10));
  REQUIRE(closed.size() == 1);
  CHECK(closed[0] == "read-write session " + gone + " on catalog c (client " + kPeer + " disconnected)");
  // The second client went again at t0 + 10 s: 9 s later it is within the grace, 10 s later not.
  CHECK(sessions.CloseOrphans(nobody, grace, t0 + seconds(19)).empty());
  CHECK(sessions.CloseOrphans(nobody, grace, t0 + seconds(20)).size() == 1);
  CHECK(sessions.Count() == 1);  // an in-process channel's peer is never taken for gone
  CHECK_OK(sessions.Use(in_process, "inproc", t0 + seconds(3600)));

  // Using a session on a new connection moves it there and forgets the absence.
  const std::string moved = *sessions.Open("f", true, true, kPeer, t0);
  CHECK(sessions.CloseOrphans(nobody, grace, t0).empty());
  CHECK_OK(sessions.Use(moved, "ipv4:127.0.0.1:40002", t0 + seconds(5)));
  CHECK(sessions.CloseOrphans({"ipv4:127.0.0.1:40002"}, grace, t0 + seconds(20)).empty());
}

}  // namespace
}  // namespace warmup::server
