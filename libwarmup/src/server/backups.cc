#include "server/backups.h"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <random>

#include "warmup/server_storage.h"

namespace warmup::server {
namespace {

namespace fs = std::filesystem;

// A random (version 4) UUID, as evitaDB names its tasks and files.
pb::GrpcUuid RandomUuid() {
  static std::mt19937_64 bits{std::random_device{}()};
  pb::GrpcUuid id;
  id.set_mostsignificantbits(static_cast<int64_t>((bits() & ~0xF000ULL) | 0x4000ULL));
  id.set_leastsignificantbits(static_cast<int64_t>((bits() & ~(3ULL << 62)) | (2ULL << 62)));
  return id;
}

// "8-4-4-4-12" hex digits, as a UUID is written.
std::string UuidText(const pb::GrpcUuid& id) {
  char text[40];
  const auto high = static_cast<uint64_t>(id.mostsignificantbits());
  const auto low = static_cast<uint64_t>(id.leastsignificantbits());
  std::snprintf(
      text, sizeof(text), "%08llx-%04llx-%04llx-%04llx-%012llx", static_cast<unsigned long long>(high >> 32),
      static_cast<unsigned long long>((high >> 16) & 0xFFFF), static_cast<unsigned long long>(high & 0xFFFF),
      static_cast<unsigned long long>(low >> 48), static_cast<unsigned long long>(low & 0xFFFFFFFFFFFFULL));
  return text;
}

void SetNow(pb::GrpcOffsetDateTime* at) {
  const auto now = std::chrono::system_clock::now().time_since_epoch();
  at->mutable_timestamp()->set_seconds(std::chrono::duration_cast<std::chrono::seconds>(now).count());
  at->set_offset("+00:00");
}

}  // namespace

StatusOr<pb::GrpcTaskStatus> BackupRegistry::Backup(const std::string& catalog, const std::string& folder) {
  std::error_code ec;
  fs::create_directories(export_dir_, ec);
  if (ec) return UnavailableError("cannot create the export directory " + export_dir_ + ": " + ec.message());
  pb::GrpcTaskStatus task;
  task.set_tasktype("FullBackupTask");
  task.set_taskname("Catalog " + catalog + " full backup");
  *task.mutable_taskid() = RandomUuid();
  task.mutable_catalogname()->set_value(catalog);
  SetNow(task.mutable_issued());
  SetNow(task.mutable_started());
  // Named by the task's id, so that no two backups, of this process or an
  // earlier one writing the same directory, ever share a name.
  const std::string name = "full_backup_" + catalog + "_" + UuidText(task.taskid()) + ".zip";
  const std::string path = (fs::path(export_dir_) / name).string();
  if (Status s = WriteServerBackupZip(folder, path); !s.ok()) return s;
  const auto size = fs::file_size(path, ec);
  if (ec) return UnavailableError("cannot read the size of " + path + ": " + ec.message());
  SetNow(task.mutable_finished());
  task.set_simplifiedstate(pb::TASK_FINISHED);
  task.set_progress(100);
  pb::GrpcFile* file = task.mutable_file();
  *file->mutable_fileid() = RandomUuid();
  file->set_name(name);
  file->set_contenttype("application/zip");
  file->set_totalsizeinbytes(static_cast<int64_t>(size));
  SetNow(file->mutable_created());
  file->mutable_origin()->set_value("FullBackupTask");
  tasks_[KeyOf(task.taskid())] = task;
  files_[KeyOf(file->fileid())] = path;
  return task;
}

std::optional<pb::GrpcTaskStatus> BackupRegistry::Task(const pb::GrpcUuid& id) const {
  const auto it = tasks_.find(KeyOf(id));
  if (it == tasks_.end()) return std::nullopt;
  return it->second;
}

std::optional<std::string> BackupRegistry::File(const pb::GrpcUuid& id) const {
  const auto it = files_.find(KeyOf(id));
  if (it == files_.end()) return std::nullopt;
  return it->second;
}

}  // namespace warmup::server
