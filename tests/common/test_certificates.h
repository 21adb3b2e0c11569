// Certificates for the TLS tests, made with the openssl command in a scratch
// directory: a CA, a server certificate it signed (for localhost and
// 127.0.0.1), a second server certificate it signed for the name
// db.warmup.example only (not for the address dialled, so only a server-name
// override lets a client accept it), a client certificate it signed, and a
// second CA (the "wrong CA") that signed only a foreign client certificate,
// the same subject and usage as the client's.
#ifndef WARMUP_TESTS_COMMON_TEST_CERTIFICATES_H_
#define WARMUP_TESTS_COMMON_TEST_CERTIFICATES_H_

#include <doctest/doctest.h>

#include <cstdlib>
#include <fstream>
#include <string>

#include "common/temp_dir.h"

namespace warmup::testing {

class TestCertificates {
 public:
  TestCertificates() {
    const std::string d = dir_.path();
    const std::string quiet = " >/dev/null 2>&1";
    auto run = [&](const std::string& command) {
      REQUIRE_MESSAGE(std::system((command + quiet).c_str()) == 0, "failed: ", command);
    };
    auto self_signed = [&](const std::string& name, const std::string& subject) {
      run("openssl req -x509 -newkey rsa:2048 -nodes -days 2 -keyout " + d + "/" + name + ".key -out " + d +
          "/" + name + ".pem -subj '/CN=" + subject + "'");
    };
    auto signed_by = [&](const std::string& ca, const std::string& name, const std::string& subject,
                         const std::string& extensions) {
      run("openssl req -newkey rsa:2048 -nodes -keyout " + d + "/" + name + ".key -out " + d + "/" + name +
          ".csr -subj '/CN=" + subject + "'");
      std::ofstream(d + "/" + name + ".ext") << extensions << "\n";
      run("openssl x509 -req -days 2 -in " + d + "/" + name + ".csr -CA " + d + "/" + ca + ".pem -CAkey " +
          d + "/" + ca + ".key -CAcreateserial -out " + d + "/" + name + ".pem -extfile " + d + "/" + name +
          ".ext");
    };
    self_signed("ca", "warmup test CA");
    self_signed("other-ca", "some other CA");
    signed_by("ca", "server", "localhost", "subjectAltName=DNS:localhost,IP:127.0.0.1");
    signed_by("ca", "named-server", "db.warmup.example", "subjectAltName=DNS:db.warmup.example");
    signed_by("ca", "client", "warmup test client", "extendedKeyUsage=clientAuth");
    signed_by("other-ca", "foreign-client", "warmup test client", "extendedKeyUsage=clientAuth");
  }

  std::string ca() const { return File("ca.pem"); }
  std::string other_ca() const { return File("other-ca.pem"); }
  std::string server_cert() const { return File("server.pem"); }
  std::string server_key() const { return File("server.key"); }
  std::string client_cert() const { return File("client.pem"); }
  std::string client_key() const { return File("client.key"); }
  // Signed by the CA for db.warmup.example only.
  std::string named_server_cert() const { return File("named-server.pem"); }
  std::string named_server_key() const { return File("named-server.key"); }
  // Signed by other_ca(), not by ca().
  std::string foreign_client_cert() const { return File("foreign-client.pem"); }
  std::string foreign_client_key() const { return File("foreign-client.key"); }

 private:
  std::string File(const std::string& name) const { return dir_.path() + "/" + name; }
  TempDir dir_;
};

}  // namespace warmup::testing

#endif  // WARMUP_TESTS_COMMON_TEST_CERTIFICATES_H_
