// CatalogSource: where the entities of a catalog come from (a snapshot on
// disk, a live evitaDB server, or the synthetic generator), read one
// collection at a time in primary-key order.
#ifndef WARMUP_CATALOG_SOURCE_H_
#define WARMUP_CATALOG_SOURCE_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "warmup/entity.h"
#include "warmup/schema.h"
#include "warmup/status.h"

namespace warmup {

// A forward-only stream of one collection's entities in ascending primary-key order.
// Thread-safety: one thread at a time.
class EntityStream {
 public:
  virtual ~EntityStream() = default;
  // Reads the next entity into `*entity` (overwriting it) and returns true, or
  // returns false at the end of the collection. An error ends the stream; the
  // message names the file and offset, or the entity, that was wrong. A source
  // whose data carries checksums reports a mismatch at the end, so a stream
  // that ended with `false` has been verified.
  virtual StatusOr<bool> Next(Entity* entity) = 0;
};

// One collection of a source.
struct CollectionInfo {
  std::string entity_type;
  // How many entities the source says the collection holds.
  int64_t expected_count = 0;
  // Bytes the collection occupies in the source, as stored (0 when unknown).
  int64_t stored_bytes = 0;
};

// A catalog to read from. The schema and the collection list are loaded when
// the source is opened; entities are read on demand.
// Thread-safety: const methods may be called concurrently; OpenCollection from
// one thread at a time; the streams it returns are independent.
class CatalogSource {
 public:
  virtual ~CatalogSource() = default;

  // The catalog's schema: global attributes and one schema per entity type.
  virtual const CatalogSchema& schema() const = 0;
  // The collections, sorted by entity type (the order the harness copies them in).
  virtual const std::vector<CollectionInfo>& collections() const = 0;
  // Opens a stream over `entity_type`'s entities. The stream must not outlive the source.
  // Errors: kNotFound for an unknown entity type (the message lists the known ones).
  virtual StatusOr<std::unique_ptr<EntityStream>> OpenCollection(const std::string& entity_type) = 0;
  // What the source is, for reports, e.g. "snapshot /data/senesi (format 1)".
  virtual std::string Describe() const = 0;
  // A short stable identifier of the dataset's content (hex), for reports and
  // for telling two datasets apart; equal fingerprints mean equal content.
  virtual std::string Fingerprint() const = 0;
  // What the source records of the dataset's origin (a snapshot's manifest
  // provenance: a generated one's profile, scale and seed, an export's
  // server); empty when it records nothing (this default).
  virtual std::map<std::string, std::string> Provenance() const { return {}; }
  // What the source has read so far and did not deliver, as the number of
  // values per "Type.reference.attribute" (a live catalog's reflected
  // references' own attributes, which a copy cannot write); empty when it
  // left nothing out (this default). Read after the streams are done.
  virtual std::map<std::string, int64_t> OmittedValues() const { return {}; }
};

// Returns the CollectionInfo for `entity_type`, or nullptr.
const CollectionInfo* FindCollection(const CatalogSource& source, const std::string& entity_type);

// What reading a catalog in `state` (a server's name for it, other than
// ALIVE) gets, for messages and caveats: WARMING_UP "it holds only what a
// load had reached (one under way, or a failed one kept), not a whole
// catalog"; BEING_ACTIVATED "the server is still opening it from its
// storage: whole once ALIVE, partly readable or not at all before"; any other
// "the server does not serve it as a whole catalog in that state".
std::string WhatNotAliveHolds(const std::string& state);

}  // namespace warmup

#endif  // WARMUP_CATALOG_SOURCE_H_
