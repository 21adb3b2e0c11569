// TLS for the gRPC connections: evitaDB serves gRPC over TLS only unless it
// is configured otherwise (tlsMode FORCE_TLS, with a self-signed certificate
// it generates at start), optionally asking clients for a certificate (mTLS).
// These are the settings a client (remote target, gRPC source, export,
// catalogs) and `warmup serve` take; every file is PEM.
#ifndef WARMUP_TLS_H_
#define WARMUP_TLS_H_

#include <string>

#include "warmup/status.h"

namespace warmup {

// What TLS errors call the settings below: the library's words by default; a
// frontend gives its own (the CLI its flags, e.g. "--ca-cert"), so that an
// error names what its user wrote. Each names the setting, never its value:
// the messages add the value themselves.
struct ClientTlsNames {
  // How to turn TLS on, as advice: "..., but no connection uses TLS: <enable>".
  std::string enable = "enable TLS";
  std::string ca_cert = "the CA certificate";
  std::string fetch_server_cert = "the server certificate's address";
  std::string client_cert = "the client certificate";
  std::string client_key = "the client key";
  std::string server_name = "the TLS server name";
};

struct ServerTlsNames {
  std::string cert = "the TLS certificate";
  std::string key = "the TLS key";
  std::string client_ca = "the client CA";
};

struct ClientTlsOptions {
  // Off: plaintext gRPC, and every other field must be empty.
  bool enabled = false;
  // The certificates to trust (a CA, or the server's self-signed certificate
  // itself). Empty, with fetch_server_cert_from empty too: gRPC's default roots.
  std::string ca_cert_file;
  // Instead of ca_cert_file: HOST:PORT of evitaDB's system API (by default
  // the shared port, 5555, in plain HTTP), whose /system/server.crt is
  // fetched when connecting and trusted, as evitaDB's Java client does with
  // useGeneratedCertificate. Trust on first use: whoever answers that HTTP
  // request is believed, so use it only on a network you trust. The server
  // is then checked against that certificate under a name it carries
  // (evitaDB's is issued for localhost, 127.0.0.1 and ::1) unless
  // server_name says another.
  std::string fetch_server_cert_from;
  // mTLS: this client's certificate chain and its private key, both or neither.
  std::string client_cert_file;
  std::string client_key_file;
  // The name the server's certificate must carry; empty = the host of the
  // address dialled.
  std::string server_name;
  ClientTlsNames names;
};

struct ServerTlsOptions {
  // The server's certificate chain and private key. Both empty: plaintext.
  std::string cert_file;
  std::string key_file;
  // mTLS: when set, every client must present a certificate this CA signed.
  std::string client_ca_file;
  ServerTlsNames names;
};

// OK when `options` is consistent: settings only with `enabled`, client
// certificate and key together, at most one source of trust, a
// fetch_server_cert_from CheckHostPort accepts. Reads no file: the files are
// read, and checked to be PEM of the right kind (a key that belongs to its
// certificate), when a connection is made, and fail it then. Errors:
// kInvalidArgument naming the setting as `options.names` does.
Status CheckClientTls(const ClientTlsOptions& options);
// As CheckClientTls, for a server: cert and key together, a client CA only with them.
Status CheckServerTls(const ServerTlsOptions& options);

// GET http://`host_port`/system/server.crt (evitaDB's system API), within
// `timeout_seconds`, and returns the body when it is a PEM certificate.
// Errors: kUnavailable when nothing answers or the answer is not 200 OK,
// kInvalidArgument when the body is not a PEM certificate; each names the URL.
StatusOr<std::string> FetchServerCertificate(const std::string& host_port, int timeout_seconds = 10);

}  // namespace warmup

#endif  // WARMUP_TLS_H_
