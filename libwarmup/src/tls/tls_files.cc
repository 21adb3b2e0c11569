#include "tls/tls_files.h"

#include <arpa/inet.h>
#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <fstream>
#include <memory>
#include <sstream>

#include "base/status_macros.h"
#include "warmup/host_port.h"

namespace warmup {
namespace tls {
namespace {

// A PEM file is a few kilobytes; anything this large is the wrong file.
constexpr std::streamoff kMaxPemBytes = 1 << 20;

struct BioFree {
  void operator()(BIO* bio) const { BIO_free(bio); }
};
struct X509Free {
  void operator()(X509* cert) const { X509_free(cert); }
};
struct KeyFree {
  void operator()(EVP_PKEY* key) const { EVP_PKEY_free(key); }
};
using BioPtr = std::unique_ptr<BIO, BioFree>;
using X509Ptr = std::unique_ptr<X509, X509Free>;
using KeyPtr = std::unique_ptr<EVP_PKEY, KeyFree>;

BioPtr MemoryBio(const std::string& pem) {
  return BioPtr(BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())));
}

// The first certificate in `pem`, or null.
X509Ptr FirstCertificate(const std::string& pem) {
  BioPtr bio = MemoryBio(pem);
  X509Ptr cert(PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr));
  ERR_clear_error();
  return cert;
}

// The contents of the file at `path`, which the caller calls `named` (see
// ClientTlsNames). Errors: kInvalidArgument naming both.
StatusOr<std::string> ReadPem(const std::string& named, const std::string& path) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) return InvalidArgumentError(named + " " + path + ": cannot be read");
  if (in.tellg() > kMaxPemBytes) {
    return InvalidArgumentError(named + " " + path + ": larger than 1 MiB, so not a PEM file");
  }
  in.seekg(0);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

StatusOr<std::string> ReadCertificates(const std::string& named, const std::string& path) {
  WARMUP_ASSIGN_OR_RETURN(std::string pem, ReadPem(named, path));
  WARMUP_RETURN_IF_ERROR(CheckPemCertificate(pem, named + " " + path));
  return pem;
}

// The key at `key_path` (called `key_named`), checked to be a private key
// that belongs to the first certificate of `cert_pem`, read from `cert_path`
// (called `cert_named`).
StatusOr<std::string> ReadKeyFor(const std::string& key_named, const std::string& key_path,
                                 const std::string& cert_pem, const std::string& cert_named,
                                 const std::string& cert_path) {
  WARMUP_ASSIGN_OR_RETURN(std::string pem, ReadPem(key_named, key_path));
  BioPtr bio = MemoryBio(pem);
  KeyPtr key(PEM_read_bio_PrivateKey(bio.get(), nullptr, nullptr, nullptr));
  ERR_clear_error();
  if (key == nullptr) {
    return InvalidArgumentError(key_named + " " + key_path +
                                ": not a PEM private key (or one with a passphrase)");
  }
  X509Ptr cert = FirstCertificate(cert_pem);
  const bool matches = X509_check_private_key(cert.get(), key.get()) == 1;
  ERR_clear_error();
  if (!matches) {
    return InvalidArgumentError(key_named + " " + key_path + ": not the private key of " + cert_named + " " +
                                cert_path);
  }
  return pem;
}

}  // namespace

std::vector<std::string> CertificateNames(const std::string& pem) {
  std::vector<std::string> names;
  X509Ptr cert = FirstCertificate(pem);
  if (cert == nullptr) return names;
  auto* sans =
      static_cast<GENERAL_NAMES*>(X509_get_ext_d2i(cert.get(), NID_subject_alt_name, nullptr, nullptr));
  for (int i = 0; sans != nullptr && i < sk_GENERAL_NAME_num(sans); ++i) {
    const GENERAL_NAME* name = sk_GENERAL_NAME_value(sans, i);
    if (name->type == GEN_DNS) {
      const ASN1_IA5STRING* dns = name->d.dNSName;
      names.emplace_back(reinterpret_cast<const char*>(ASN1_STRING_get0_data(dns)),
                         static_cast<size_t>(ASN1_STRING_length(dns)));
    } else if (name->type == GEN_IPADD) {
      const ASN1_OCTET_STRING* ip = name->d.iPAddress;
      char text[INET6_ADDRSTRLEN] = {};
      const int family = ASN1_STRING_length(ip) == 4 ? AF_INET : AF_INET6;
      if (::inet_ntop(family, ASN1_STRING_get0_data(ip), text, sizeof(text)) != nullptr)
        names.emplace_back(text);
    }
  }
  GENERAL_NAMES_free(sans);
  if (names.empty()) {
    char common_name[256] = {};
    if (X509_NAME_get_text_by_NID(X509_get_subject_name(cert.get()), NID_commonName, common_name,
                                  sizeof(common_name)) > 0) {
      names.emplace_back(common_name);
    }
  }
  return names;
}

Status CheckPemCertificate(const std::string& pem, const std::string& where) {
  if (FirstCertificate(pem) == nullptr) return InvalidArgumentError(where + ": not a PEM certificate");
  return OkStatus();
}

StatusOr<ClientPem> LoadClientPem(const ClientTlsOptions& options) {
  WARMUP_RETURN_IF_ERROR(CheckClientTls(options));
  const ClientTlsNames& names = options.names;
  ClientPem pem;
  if (!options.ca_cert_file.empty()) {
    WARMUP_ASSIGN_OR_RETURN(pem.roots, ReadCertificates(names.ca_cert, options.ca_cert_file));
  } else if (!options.fetch_server_cert_from.empty()) {
    auto fetched = FetchServerCertificate(options.fetch_server_cert_from);
    if (!fetched.ok()) return fetched.status().WithContext(names.fetch_server_cert);
    pem.roots = *std::move(fetched);
    pem.fetched_names = CertificateNames(pem.roots);
  }
  if (!options.client_cert_file.empty()) {
    WARMUP_ASSIGN_OR_RETURN(pem.cert_chain, ReadCertificates(names.client_cert, options.client_cert_file));
    WARMUP_ASSIGN_OR_RETURN(pem.private_key,
                            ReadKeyFor(names.client_key, options.client_key_file, pem.cert_chain,
                                       names.client_cert, options.client_cert_file));
  }
  return pem;
}

StatusOr<ServerPem> LoadServerPem(const ServerTlsOptions& options) {
  WARMUP_RETURN_IF_ERROR(CheckServerTls(options));
  const ServerTlsNames& names = options.names;
  ServerPem pem;
  if (options.cert_file.empty()) return pem;
  WARMUP_ASSIGN_OR_RETURN(pem.cert_chain, ReadCertificates(names.cert, options.cert_file));
  WARMUP_ASSIGN_OR_RETURN(pem.private_key, ReadKeyFor(names.key, options.key_file, pem.cert_chain, names.cert,
                                                      options.cert_file));
  if (!options.client_ca_file.empty()) {
    WARMUP_ASSIGN_OR_RETURN(pem.client_ca, ReadCertificates(names.client_ca, options.client_ca_file));
  }
  return pem;
}

}  // namespace tls

Status CheckClientTls(const ClientTlsOptions& options) {
  const bool settings = !options.ca_cert_file.empty() || !options.fetch_server_cert_from.empty() ||
                        !options.client_cert_file.empty() || !options.client_key_file.empty() ||
                        !options.server_name.empty();
  const ClientTlsNames& names = options.names;
  if (!options.enabled && settings) {
    return InvalidArgumentError("TLS settings (" + names.ca_cert + ", " + names.fetch_server_cert + ", " +
                                names.client_cert + ", " + names.client_key + ", " + names.server_name +
                                ") given, but no connection uses TLS: " + names.enable);
  }
  if (!options.ca_cert_file.empty() && !options.fetch_server_cert_from.empty()) {
    return InvalidArgumentError("give " + names.ca_cert + " or " + names.fetch_server_cert +
                                ", not both: each says whom to trust");
  }
  if (options.client_cert_file.empty() != options.client_key_file.empty()) {
    return InvalidArgumentError(options.client_cert_file.empty()
                                    ? names.client_key + " needs " + names.client_cert
                                    : names.client_cert + " needs " + names.client_key);
  }
  if (!options.fetch_server_cert_from.empty()) {
    if (Status s = CheckHostPort(options.fetch_server_cert_from, AddressUse::kDial); !s.ok()) {
      return s.WithContext(names.fetch_server_cert);
    }
  }
  return OkStatus();
}

Status CheckServerTls(const ServerTlsOptions& options) {
  const ServerTlsNames& names = options.names;
  if (options.cert_file.empty() != options.key_file.empty()) {
    return InvalidArgumentError(options.cert_file.empty() ? names.key + " needs " + names.cert
                                                          : names.cert + " needs " + names.key);
  }
  if (!options.client_ca_file.empty() && options.cert_file.empty()) {
    return InvalidArgumentError(names.client_ca + " needs " + names.cert + " and " + names.key);
  }
  return OkStatus();
}

}  // namespace warmup
