// TLS and mTLS between warmup's clients and `warmup serve`'s server, with
// certificates made for the test (see common/test_certificates.h).
#include "warmup/tls.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "common/status_matchers.h"
#include "common/temp_dir.h"
#include "common/test_certificates.h"
#include "server/test_server.h"
#include "tls/tls_files.h"
#include "warmup/catalog_admin.h"
#include "warmup/copy_engine.h"
#include "warmup/generator.h"
#include "warmup/grpc_source.h"
#include "warmup/remote_target.h"
#include "warmup/run_result.h"

namespace warmup {
namespace {

std::string Contents(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// TLS settings that trust `ca`, with the client certificate when `mtls`.
ClientTlsOptions Trusting(const testing::TestCertificates& certs, const std::string& ca, bool mtls) {
  ClientTlsOptions tls;
  tls.enabled = true;
  tls.ca_cert_file = ca;
  if (mtls) {
    tls.client_cert_file = certs.client_cert();
    tls.client_key_file = certs.client_key();
  }
  return tls;
}

// Publishes the tiny catalog into the server at `address` over `tls`, and
// reads it back through the gRPC source over the same settings.
void PublishAndReadBack(const std::string& address, const ClientTlsOptions& tls) {
  auto source = OpenGeneratorSource({"tiny", 1.0, 3, ""});
  REQUIRE_OK(source);
  RemoteTargetOptions target_options;
  target_options.tls = tls;
  auto target = MakeRemoteTarget(address, target_options);
  REQUIRE_OK(target);
  CHECK((*target)->Describe().find(tls.client_cert_file.empty() ? ", TLS)" : ", mTLS)") != std::string::npos);
  CopyOptions copy;
  copy.target_catalog = "published";
  auto run = RunCopy(**source, **target, copy);
  REQUIRE_OK(run);
  CHECK(run->ExitCode() == 0);
  GrpcSourceOptions source_options;
  source_options.tls = tls;
  auto live = OpenGrpcSource(address, "published", source_options);
  REQUIRE_OK(live);
  for (const auto& c : (*source)->collections()) {
    CHECK(FindCollection(**live, c.entity_type)->expected_count == c.expected_count);
  }
}

TEST_CASE(
    "TLS: the remote target and the gRPC source publish and read over TLS, a wrong CA and plaintext fail") {
  testing::TestCertificates certs;
  testing::TempDir dir;
  ServerOptions options;
  options.tls = {certs.server_cert(), certs.server_key(), "", {}};
  auto server = testing::StartServer(dir.path() + "/data", options);
  const std::string address = testing::Address(*server);
  PublishAndReadBack(address, Trusting(certs, certs.ca(), false));

  auto wrong_ca = ListServerCatalogs(address, {5, Trusting(certs, certs.other_ca(), false)});
  REQUIRE_FALSE(wrong_ca.ok());
  CHECK(wrong_ca.status().code() == StatusCode::kUnavailable);
  CHECK(wrong_ca.status().message().find("certificate verify failed") != std::string::npos);

  auto plaintext = ListServerCatalogs(address, {5, {}});
  REQUIRE_FALSE(plaintext.ok());
  CHECK(plaintext.status().message().find("a server that accepts TLS only") != std::string::npos);

  ClientTlsOptions wrong_name = Trusting(certs, certs.ca(), false);
  wrong_name.server_name = "db.elsewhere.example";
  auto misnamed = ListServerCatalogs(address, {5, wrong_name});
  REQUIRE_FALSE(misnamed.ok());
  CHECK(misnamed.status().message().find("db.elsewhere.example") != std::string::npos);
}

TEST_CASE("mTLS: a client with a certificate the server's CA signed gets in, one without is turned away") {
  testing::TestCertificates certs;
  testing::TempDir dir;
  ServerOptions options;
  options.tls = {certs.server_cert(), certs.server_key(), certs.ca(), {}};
  auto server = testing::StartServer(dir.path() + "/data", options);
  const std::string address = testing::Address(*server);
  PublishAndReadBack(address, Trusting(certs, certs.ca(), true));

  auto without = ListServerCatalogs(address, {5, Trusting(certs, certs.ca(), false)});
  REQUIRE_FALSE(without.ok());
  CHECK(without.status().message().find("mTLS") != std::string::npos);
}

TEST_CASE("the system endpoint serves the server certificate, and a client can trust it by fetching it") {
  testing::TestCertificates certs;
  testing::TempDir dir;
  ServerOptions options;
  options.tls = {certs.server_cert(), certs.server_key(), "", {}};
  options.system_listen = "127.0.0.1:0";
  auto server = testing::StartServer(dir.path() + "/data", options);
  REQUIRE(server->system_port() > 0);
  const std::string system = "127.0.0.1:" + std::to_string(server->system_port());

  auto fetched = FetchServerCertificate(system);
  REQUIRE_OK(fetched);
  CHECK(*fetched == Contents(certs.server_cert()));

  ClientTlsOptions tls;
  tls.enabled = true;
  tls.fetch_server_cert_from = system;
  REQUIRE_OK(ListServerCatalogs(testing::Address(*server), {5, tls}));

  // Nothing listening there: the error names the URL.
  server.reset();
  auto gone = FetchServerCertificate(system, 2);
  REQUIRE_FALSE(gone.ok());
  CHECK(gone.status().code() == StatusCode::kUnavailable);
  CHECK(gone.status().message().find("GET http://" + system + "/system/server.crt") == 0);
}

TEST_CASE("a system endpoint needs TLS, and the server's TLS files are checked before it listens") {
  testing::TestCertificates certs;
  testing::TempDir dir;
  ServerOptions options;
  options.data_dir = dir.path() + "/data";
  options.listen = "127.0.0.1:0";
  options.system_listen = "127.0.0.1:0";
  CHECK(Server::Start(options).status().message().find("it needs TLS") != std::string::npos);
  options.system_listen.clear();
  options.tls = {certs.server_cert(), certs.client_key(), "", {}};
  CHECK(Server::Start(options).status().message() == "the TLS key " + certs.client_key() +
                                                         ": not the private key of the TLS certificate " +
                                                         certs.server_cert());
  options.tls = {certs.server_key(), certs.server_key(), "", {}};
  CHECK(Server::Start(options).status().message() ==
        "the TLS certificate " + certs.server_key() + ": not a PEM certificate");
  options.tls = {"", "", certs.ca(), {}};
  CHECK(Server::Start(options).status().message() ==
        "the client CA needs the TLS certificate and the TLS key");
  options.tls.names = {"--tls-cert", "--tls-key", "--client-ca"};  // a frontend's words
  CHECK(Server::Start(options).status().message() == "--client-ca needs --tls-cert and --tls-key");
}

TEST_CASE(
    "client TLS settings: inconsistent ones are refused without reading a file, bad files when connecting") {
  testing::TestCertificates certs;
  ClientTlsOptions tls;
  tls.ca_cert_file = certs.ca();
  CHECK(CheckClientTls(tls).message().find("no connection uses TLS") != std::string::npos);
  tls.enabled = true;
  CHECK_OK(CheckClientTls(tls));
  tls.fetch_server_cert_from = "127.0.0.1:5557";
  CHECK(CheckClientTls(tls).message() ==
        "give the CA certificate or the server certificate's address, not both: each says whom to trust");
  tls.ca_cert_file.clear();
  tls.fetch_server_cert_from = "127.0.0.1";
  CHECK(CheckClientTls(tls).message().find(
            "the server certificate's address: address '127.0.0.1': no port") == 0);
  tls.fetch_server_cert_from.clear();
  tls.client_cert_file = certs.client_cert();
  CHECK(CheckClientTls(tls).message() == "the client certificate needs the client key");
  tls.client_cert_file = "/no/such/client.pem";
  tls.client_key_file = certs.client_key();
  CHECK_OK(CheckClientTls(tls));  // files are read when connecting
  auto target = MakeRemoteTarget("127.0.0.1:1", {60, 0, tls});
  REQUIRE_FALSE(target.ok());
  CHECK(target.status().message() ==
        "remote target: the client certificate /no/such/client.pem: cannot be read");
  tls.client_cert_file = certs.client_cert();
  tls.client_key_file = certs.server_key();
  auto source = OpenGrpcSource("127.0.0.1:1", "c", {500, 5, tls});
  REQUIRE_FALSE(source.ok());
  CHECK(source.status().message() == "gRPC source: the client key " + certs.server_key() +
                                         ": not the private key of the client certificate " +
                                         certs.client_cert());
}

TEST_CASE("mTLS: a client certificate signed by a CA other than --client-ca is turned away") {
  testing::TestCertificates certs;
  testing::TempDir dir;
  ServerOptions options;
  options.tls = {certs.server_cert(), certs.server_key(), certs.ca(), {}};
  auto server = testing::StartServer(dir.path() + "/data", options);
  const std::string address = testing::Address(*server);
  // The same server lets the CA's own client in, so only the signer decides.
  REQUIRE_OK(ListServerCatalogs(address, {5, Trusting(certs, certs.ca(), true)}));

  ClientTlsOptions foreign = Trusting(certs, certs.ca(), false);
  foreign.client_cert_file = certs.foreign_client_cert();
  foreign.client_key_file = certs.foreign_client_key();
  auto refused = ListServerCatalogs(address, {5, foreign});
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.status().code() == StatusCode::kUnavailable);
  CHECK(refused.status().message().find("mTLS") != std::string::npos);  // the hint, as without one
}

TEST_CASE("--tls-server-name: a certificate for another name than the address is accepted under that name") {
  testing::TestCertificates certs;
  testing::TempDir dir;
  ServerOptions options;
  options.tls = {certs.named_server_cert(), certs.named_server_key(), "", {}};
  auto server = testing::StartServer(dir.path() + "/data", options);
  const std::string address = testing::Address(*server);  // 127.0.0.1, not in the certificate

  ClientTlsOptions named = Trusting(certs, certs.ca(), false);
  named.server_name = "db.warmup.example";
  PublishAndReadBack(address, named);

  // Without the override the same certificate is refused: the name was what let it in.
  auto unnamed = ListServerCatalogs(address, {5, Trusting(certs, certs.ca(), false)});
  REQUIRE_FALSE(unnamed.ok());
  CHECK(unnamed.status().code() == StatusCode::kUnavailable);
}

// A one-shot HTTP responder on 127.0.0.1:0: accepts one connection (waiting
// at most 10 s), reads the request head, writes `response` and closes.
class OneShotHttp {
 public:
  explicit OneShotHttp(std::string response) {
    listener_ = ::socket(AF_INET, SOCK_STREAM, 0);
    REQUIRE(listener_ >= 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = 0;
    REQUIRE(::bind(listener_, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0);
    REQUIRE(::listen(listener_, 1) == 0);
    socklen_t length = sizeof(addr);
    REQUIRE(::getsockname(listener_, reinterpret_cast<sockaddr*>(&addr), &length) == 0);
    address_ = "127.0.0.1:" + std::to_string(ntohs(addr.sin_port));
    thread_ = std::thread([this, response = std::move(response)] { Serve(response); });
  }
  ~OneShotHttp() {
    if (thread_.joinable()) thread_.join();
    ::close(listener_);
  }
  OneShotHttp(const OneShotHttp&) = delete;
  OneShotHttp& operator=(const OneShotHttp&) = delete;

  const std::string& address() const { return address_; }
  // Waits for the exchange to end; the request head it read ("" when none came).
  std::string Request() {
    if (thread_.joinable()) thread_.join();
    return request_;
  }

 private:
  void Serve(const std::string& response) {
    pollfd waiting{listener_, POLLIN, 0};
    if (::poll(&waiting, 1, 10'000) != 1) return;
    const int connection = ::accept(listener_, nullptr, nullptr);
    if (connection < 0) return;
    timeval limit{10, 0};
    ::setsockopt(connection, SOL_SOCKET, SO_RCVTIMEO, &limit, sizeof(limit));
    ::setsockopt(connection, SOL_SOCKET, SO_SNDTIMEO, &limit, sizeof(limit));
    char buffer[4096];
    while (request_.find("\r\n\r\n") == std::string::npos) {
      const ssize_t n = ::recv(connection, buffer, sizeof(buffer), 0);
      if (n <= 0) break;
      request_.append(buffer, static_cast<size_t>(n));
    }
    for (size_t sent = 0; sent < response.size();) {
      const ssize_t n = ::send(connection, response.data() + sent, response.size() - sent, MSG_NOSIGNAL);
      if (n <= 0) break;
      sent += static_cast<size_t>(n);
    }
    ::shutdown(connection, SHUT_WR);
    while (::recv(connection, buffer, sizeof(buffer), 0) > 0) {
    }  // until the client closes (or the time limit), so nothing unread resets the answer
    ::close(connection);
  }

  int listener_ = -1;
  std::string address_;
  std::thread thread_;
  std::string request_;
};

std::string HttpResponse(const std::string& status_line, const std::string& body) {
  return "HTTP/1.1 " + status_line +
         "\r\nContent-Type: application/x-pem-file\r\nContent-Length: " + std::to_string(body.size()) +
         "\r\nConnection: close\r\n\r\n" + body;
}

TEST_CASE("FetchServerCertificate refuses an answer other than 200 OK, even with a certificate in its body") {
  testing::TestCertificates certs;
  OneShotHttp responder(HttpResponse("503 Service Unavailable", Contents(certs.server_cert())));
  auto fetched = FetchServerCertificate(responder.address(), 5);
  CHECK(responder.Request().starts_with("GET /system/server.crt HTTP/1.1\r\n"));
  REQUIRE_FALSE(fetched.ok());
  CHECK(fetched.status().code() == StatusCode::kUnavailable);
  const std::string message = fetched.status().message();
  CHECK(message.starts_with("GET http://" + responder.address() + "/system/server.crt"));
  CHECK(message.find("503") != std::string::npos);
}

TEST_CASE("FetchServerCertificate refuses a 200 OK whose body is not a PEM certificate") {
  testing::TestCertificates certs;
  int answers = 0;
  for (const std::string& body : {std::string("this is not a certificate\n"), Contents(certs.server_key())}) {
    CAPTURE(body.substr(0, 30));
    OneShotHttp responder(HttpResponse("200 OK", body));
    auto fetched = FetchServerCertificate(responder.address(), 5);
    CHECK(responder.Request().starts_with("GET /system/server.crt HTTP/1.1\r\n"));
    CHECK_FALSE(fetched.ok());
    if (!fetched.ok()) {
      CHECK(fetched.status().code() == StatusCode::kInvalidArgument);
      CHECK(
          fetched.status().message().starts_with("GET http://" + responder.address() + "/system/server.crt"));
    }
    ++answers;
  }
  CHECK(answers == 2);
  // The same responder with the certificate: accepted, so the refusals were the body's.
  OneShotHttp good(HttpResponse("200 OK", Contents(certs.server_cert())));
  auto fetched = FetchServerCertificate(good.address(), 5);
  REQUIRE_OK(fetched);
  CHECK(*fetched == Contents(certs.server_cert()));
}

TEST_CASE("a PEM file over 1 MiB is refused, one of exactly 1 MiB is read") {
  testing::TestCertificates certs;
  testing::TempDir dir;
  ServerOptions options;
  options.tls = {certs.server_cert(), certs.server_key(), "", {}};
  auto server = testing::StartServer(dir.path() + "/data", options);
  // The CA's certificate followed by filler lines up to `size` bytes: a valid
  // PEM certificate at the start, so only the size can refuse it.
  auto padded = [&](const std::string& name, size_t size) {
    std::string pem = Contents(certs.ca());
    REQUIRE(pem.size() < size);
    const std::string line = std::string(63, '#') + "\n";
    while (pem.size() + line.size() <= size) pem += line;
    pem += std::string(size - pem.size(), '\n');
    const std::string path = dir / name;
    std::ofstream(path, std::ios::binary) << pem;
    REQUIRE(std::filesystem::file_size(path) == size);
    return path;
  };
  const std::string exact = padded("exact.pem", size_t{1} << 20);
  const std::string over = padded("over.pem", (size_t{1} << 20) + 1);

  REQUIRE_OK(ListServerCatalogs(testing::Address(*server), {5, Trusting(certs, exact, false)}));
  auto refused = ListServerCatalogs(testing::Address(*server), {5, Trusting(certs, over, false)});
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.status().code() == StatusCode::kInvalidArgument);
  CHECK(refused.status().message().find("the CA certificate " + over + ": ") != std::string::npos);
}

TEST_CASE(
    "regression: a fetched certificate issued for another name than the host dialled (evitaDB's is for "
    "localhost) failed hostname verification, it is checked under a name it carries") {
  testing::TestCertificates certs;
  testing::TempDir dir;
  ServerOptions options;
  options.tls = {certs.named_server_cert(), certs.named_server_key(), "", {}};  // db.warmup.example only
  options.system_listen = "127.0.0.1:0";
  auto server = testing::StartServer(dir.path() + "/data", options);
  const std::string address = testing::Address(*server);  // 127.0.0.1, not in the certificate
  ClientTlsOptions fetched;
  fetched.enabled = true;
  fetched.fetch_server_cert_from = "127.0.0.1:" + std::to_string(server->system_port());
  PublishAndReadBack(address, fetched);
  // The name comes from the certificate: a --tls-server-name it does not carry is still refused.
  fetched.server_name = "elsewhere.example";
  auto wrong = ListServerCatalogs(address, {5, fetched});
  REQUIRE_FALSE(wrong.ok());
  CHECK(wrong.status().code() == StatusCode::kUnavailable);
  // And a certificate trusted from a file is checked against the host dialled, as before.
  auto from_file = ListServerCatalogs(address, {5, Trusting(certs, certs.ca(), false)});
  CHECK_FALSE(from_file.ok());
}

TEST_CASE("CertificateNames: the DNS and IP names a certificate was issued for") {
  testing::TestCertificates certs;
  CHECK(tls::CertificateNames(Contents(certs.named_server_cert())) ==
        std::vector<std::string>{"db.warmup.example"});
  CHECK(tls::CertificateNames(Contents(certs.server_cert())) ==
        std::vector<std::string>{"localhost", "127.0.0.1"});
  CHECK(tls::CertificateNames("not a certificate").empty());
}

}  // namespace
}  // namespace warmup
