// CatalogTarget: where a copy writes: the embedded engine, an evitaDB server
// over gRPC, or nothing at all (the null target, which measures the harness).
#ifndef WARMUP_CATALOG_TARGET_H_
#define WARMUP_CATALOG_TARGET_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "warmup/catalog_source.h"
#include "warmup/entity.h"
#include "warmup/index_statistics.h"
#include "warmup/schema.h"
#include "warmup/status.h"

namespace warmup {

// What a target measured while it served one Upsert.
struct UpsertReceipt {
  // The target's own processing time in nanoseconds, when it reports one (a
  // remote server in trailing metadata); nullopt otherwise.
  std::optional<int64_t> server_nanos;
  // The size of the request on the wire; 0 when there is no wire.
  int64_t request_bytes = 0;
};

// A catalog being built. One copy run uses one target, from one thread:
// CreateCatalog, then Upserts, then GoLive, then Counts (and ReadBack, for
// content verification); DropCatalog may come at any point to remove what
// was built.
class CatalogTarget {
 public:
  virtual ~CatalogTarget() = default;

  // What the target is, for reports, e.g. "null", "embedded /data".
  virtual std::string Describe() const = 0;
  // Which kind of target it is, for the report's config.target_kind and the
  // caveats that follow from it: "embedded", "remote" and "null" for
  // warmup's own; empty when not said (this default). Describe() is for
  // people and is never parsed for it. A wrapper forwards its inner target's.
  virtual std::string Kind() const { return ""; }
  // Creates catalog `schema.name` in WARM_UP state and defines `schema` in it.
  // Errors: kAlreadyExists when the catalog exists; the target's own errors.
  virtual Status CreateCatalog(const CatalogSchema& schema) = 0;
  // Upserts one entity into the catalog being built and, when `receipt` is
  // not null, fills it in (reset first; request_bytes even when the upsert
  // fails). kInvalidArgument, kAlreadyExists, kOutOfRange and
  // kResourceExhausted reject that entity only (its data is the problem) and
  // the copy goes on; any other error (kNotFound or kFailedPrecondition for a
  // catalog or session that cannot take it, kUnavailable, a deadline) is the
  // target failing, and the copy stops.
  virtual Status Upsert(const Entity& entity, UpsertReceipt* receipt) = 0;
  // Switches the catalog to ALIVE, making everything durable.
  virtual Status GoLive() = 0;
  // Called with the server's percentage during the next GoLive, when the
  // target hears one (a remote target, from the progress stream); by
  // default never. Called on GoLive's thread.
  virtual void SetGoLiveProgress(std::function<void(int percent)> on_progress) { (void)on_progress; }
  // The number of entities of `entity_type` the catalog holds.
  virtual StatusOr<int64_t> Count(const std::string& entity_type) = 0;
  // Removes the catalog and everything in it. OK when it does not exist.
  virtual Status DropCatalog() = 0;
  // The catalog as it now stands, read back as a source (after GoLive): what
  // content verification compares with the source. It must not outlive the
  // target. Errors: kUnimplemented for a target that keeps no content (this
  // default); the target's own when it cannot be read.
  virtual StatusOr<std::unique_ptr<CatalogSource>> ReadBack();
  // What the target's indexes held when goLive wrote them, per collection
  // (the embedded engine's own count); empty when the target cannot tell
  // (this default: a server does not report it over evitaDB's protocol).
  virtual std::vector<CollectionIndexStatistics> IndexStatistics() const;
  // False for a target that stores nothing (the null target): a count it
  // returns is only of what it was given, so RunCopy verifies nothing
  // (Verification::kNotApplicable). A wrapper forwards its inner target's.
  virtual bool StoresEntities() const { return true; }
};

// A target that keeps nothing but per-type counts: every call succeeds at once.
// Copying into it measures the harness itself (source read, conversion, loop).
std::unique_ptr<CatalogTarget> MakeNullTarget();

}  // namespace warmup

#endif  // WARMUP_CATALOG_TARGET_H_
