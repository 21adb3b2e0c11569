// warmup serve's full backups, as evitaDB's FullBackupCatalog makes them: a
// task that makes a zip of a catalog's folder (WriteServerBackupZip), and
// the file it made, fetched by id (GetTaskStatus, FetchFile). serve writes
// the zip within the call, so the task it answers has already finished.
// Not thread-safe: the server calls it under its one lock. Internal to
// server/.
#ifndef WARMUP_SRC_SERVER_BACKUPS_H_
#define WARMUP_SRC_SERVER_BACKUPS_H_

#include <map>
#include <optional>
#include <string>
#include <utility>

#include "GrpcEvitaDataTypes.pb.h"
#include "codec/pb.h"
#include "warmup/status.h"

namespace warmup::server {

class BackupRegistry {
 public:
  // Zips go to `export_dir` (made when the first is written).
  explicit BackupRegistry(std::string export_dir) : export_dir_(std::move(export_dir)) {}

  // Writes the zip of catalog `catalog`'s folder `folder` and returns the
  // finished task, its result the file. Errors: WriteServerBackupZip's; the
  // export directory's.
  StatusOr<pb::GrpcTaskStatus> Backup(const std::string& catalog, const std::string& folder);
  // The task `id`, if this server made it.
  std::optional<pb::GrpcTaskStatus> Task(const pb::GrpcUuid& id) const;
  // The path of the file `id`, if this server made it.
  std::optional<std::string> File(const pb::GrpcUuid& id) const;

 private:
  using Key = std::pair<int64_t, int64_t>;
  static Key KeyOf(const pb::GrpcUuid& id) { return {id.mostsignificantbits(), id.leastsignificantbits()}; }
  std::string export_dir_;
  std::map<Key, pb::GrpcTaskStatus> tasks_;
  std::map<Key, std::string> files_;
};

}  // namespace warmup::server

#endif  // WARMUP_SRC_SERVER_BACKUPS_H_
