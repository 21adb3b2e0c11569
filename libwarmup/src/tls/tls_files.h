// The PEM behind ClientTlsOptions and ServerTlsOptions, read and checked:
// what the gRPC credentials are built from. Internal.
#ifndef WARMUP_SRC_TLS_TLS_FILES_H_
#define WARMUP_SRC_TLS_TLS_FILES_H_

#include <string>
#include <vector>

#include "warmup/status.h"
#include "warmup/tls.h"

namespace warmup::tls {

struct ClientPem {
  std::string roots;       // empty = gRPC's default roots
  std::string cert_chain;  // mTLS; empty = none
  std::string private_key;
  // The names a fetched server certificate was issued for (its DNS and IP
  // subject alternative names, else its common name); empty unless the
  // roots were fetched (fetch_server_cert_from).
  std::vector<std::string> fetched_names;
};

// CheckClientTls, then the files' contents, or the certificate fetched from
// fetch_server_cert_from as the roots. Errors: CheckClientTls's;
// FetchServerCertificate's, with the flag named.
StatusOr<ClientPem> LoadClientPem(const ClientTlsOptions& options);

struct ServerPem {
  std::string cert_chain;
  std::string private_key;
  std::string client_ca;  // empty = clients need no certificate
};

// CheckServerTls, then the files' contents. Only for options with a cert_file.
StatusOr<ServerPem> LoadServerPem(const ServerTlsOptions& options);

// The DNS and IP subject alternative names of the first certificate in `pem`
// (IPv6 in its compressed text form), else its common name; empty when
// `pem` holds no certificate.
std::vector<std::string> CertificateNames(const std::string& pem);

// kInvalidArgument naming `where` unless `pem` holds at least one X.509 certificate.
Status CheckPemCertificate(const std::string& pem, const std::string& where);

}  // namespace warmup::tls

#endif  // WARMUP_SRC_TLS_TLS_FILES_H_
