// The exception class evitaDB names in an error's details, both ways: the
// client reads it to tell a refused entity from a refused session, and
// `warmup serve` writes it as evitaDB does. Internal to src/.
#ifndef WARMUP_SRC_CODEC_ERROR_DETAILS_H_
#define WARMUP_SRC_CODEC_ERROR_DETAILS_H_

#include <string>
#include <string_view>

namespace warmup::codec {

// The serialized rich status evitaDB's GlobalExceptionHandlerInterceptor
// sends with an error (the `grpc-status-details-bin` trailer): `code` and
// `message` again, and one google.rpc.ErrorInfo whose reason is the message
// and whose domain is the exception's simple class name (`domain`).
std::string EncodeErrorDetails(int code, std::string_view message, std::string_view domain);

// The first google.rpc.ErrorInfo in serialized rich-status `details`: its
// domain (evitaDB: the exception's simple class name) and reason (evitaDB:
// `<error code>: <public message>`); both "" when there is none or the bytes
// are not a rich status (a server that sends no details, as evitaDB for an
// exception it did not expect, or a proxy's own error).
struct ErrorInfoFields {
  std::string domain;
  std::string reason;
};
ErrorInfoFields ReadErrorInfo(std::string_view details);

// ReadErrorInfo(details).domain.
std::string ErrorDomain(std::string_view details);

// True for the evitaDB exceptions that refuse the session or the catalog
// rather than the entity sent (a second session on a warming-up catalog, a
// read-only session, a missing or inactive catalog, a terminated server): a
// copy that meets one cannot go on, and no entity is to blame.
bool IsSessionOrCatalogRefusal(std::string_view domain);

// True for evitaDB's "that catalog does not exist" exceptions.
bool IsCatalogNotFound(std::string_view domain);

}  // namespace warmup::codec

#endif  // WARMUP_SRC_CODEC_ERROR_DETAILS_H_
