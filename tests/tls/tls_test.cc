// TLS and mTLS between warmup's clients and `warmup serve`'s server, with
// certificates made for the test (see common/test_certificates.h).
#include "warmup/tls.h"

#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

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
  options.tls = {certs.server_cert(), certs.server_key(), ""};
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
  options.tls = {certs.server_cert(), certs.server_key(), certs.ca()};
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
  options.tls = {certs.server_cert(), certs.server_key(), ""};
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
  options.tls = {certs.server_cert(), certs.client_key(), ""};
  CHECK(Server::Start(options).status().message() ==
        "--tls-key " + certs.client_key() + ": not the private key of the --tls-cert certificate");
  options.tls = {certs.server_key(), certs.server_key(), ""};
  CHECK(Server::Start(options).status().message() ==
        "--tls-cert " + certs.server_key() + ": not a PEM certificate");
  options.tls = {"", "", certs.ca()};
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
        "give --ca-cert or --fetch-server-cert, not both: each says whom to trust");
  tls.ca_cert_file.clear();
  tls.fetch_server_cert_from = "127.0.0.1";
  CHECK(CheckClientTls(tls).message().find("--fetch-server-cert: address '127.0.0.1': no port") == 0);
  tls.fetch_server_cert_from.clear();
  tls.client_cert_file = certs.client_cert();
  CHECK(CheckClientTls(tls).message() == "--client-cert needs --client-key");
  tls.client_cert_file = "/no/such/client.pem";
  tls.client_key_file = certs.client_key();
  CHECK_OK(CheckClientTls(tls));  // files are read when connecting
  auto target = MakeRemoteTarget("127.0.0.1:1", {60, 0, tls});
  REQUIRE_FALSE(target.ok());
  CHECK(target.status().message() == "remote target: --client-cert /no/such/client.pem: cannot be read");
  tls.client_cert_file = certs.client_cert();
  tls.client_key_file = certs.server_key();
  auto source = OpenGrpcSource("127.0.0.1:1", "c", {500, 5, tls});
  REQUIRE_FALSE(source.ok());
  CHECK(source.status().message() == "gRPC source: --client-key " + certs.server_key() +
                                         ": not the private key of the --client-cert certificate");
}

}  // namespace
}  // namespace warmup
