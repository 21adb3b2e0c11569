// A canonical content digest of an entity, stable across encodings.
#ifndef WARMUP_DIGEST_H_
#define WARMUP_DIGEST_H_

#include <array>
#include <cstdint>
#include <string>

#include "warmup/entity.h"

namespace warmup {

// A 256-bit SHA-256 digest.
struct Digest {
  std::array<uint8_t, 32> bytes{};
  // Lower-case hexadecimal, 64 characters.
  std::string ToHex() const;
  friend bool operator==(const Digest&, const Digest&) = default;
  friend auto operator<=>(const Digest&, const Digest&) = default;
};

// Returns the digest of `entity`'s content: type, primary key, scope, parent,
// attributes, associated data, price inner-record handling, prices and
// references with their groups and attributes, and locales.
//
// Two entities have the same digest exactly when they hold the same content,
// whatever the order of their prices and references (those are hashed in a
// canonical order) and whatever encoding they came from (protobuf, snapshot,
// engine storage). The canonical byte form it hashes is documented in
// docs/data-model.md; changing it changes every digest, so it is versioned.
// Thread-safety: pure function.
Digest EntityDigest(const Entity& entity);

}  // namespace warmup

#endif  // WARMUP_DIGEST_H_
