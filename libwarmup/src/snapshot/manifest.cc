#include "snapshot/manifest.h"

#include <openssl/sha.h>

#include <cstdio>
#include <nlohmann/json.hpp>

namespace warmup::snapshot {
namespace {

using nlohmann::json;

std::string Hex32(uint32_t v) {
  char buf[9];
  std::snprintf(buf, sizeof(buf), "%08x", v);
  return buf;
}

const char* CompressionName(SnapshotCompression c) {
  return c == SnapshotCompression::kZstd ? "zstd" : "none";
}

json FileJson(const ManifestFile& f) {
  return json{{"file", f.file}, {"stored_bytes", f.stored_bytes}, {"crc32c", Hex32(f.crc32c)}};
}

// Reads manifest values with errors that name the key.
class Reader {
 public:
  explicit Reader(std::string name) : name_(std::move(name)) {}
  Status error() const { return error_; }

  const json* Field(const json& object, const std::string& key, json::value_t type,
                    const std::string& where) {
    if (!error_.ok()) return nullptr;
    auto it = object.find(key);
    const bool number_ok =
        type == json::value_t::number_integer && it != object.end() && it->is_number_integer();
    if (it == object.end() || (!number_ok && it->type() != type)) {
      error_ = InvalidArgumentError(name_ + ": " + where + key + ": missing or of the wrong type");
      return nullptr;
    }
    return &*it;
  }
  std::string String(const json& o, const std::string& key, const std::string& where = "") {
    const json* v = Field(o, key, json::value_t::string, where);
    return v ? v->get<std::string>() : std::string();
  }
  int64_t Count(const json& o, const std::string& key, const std::string& where = "") {
    const json* v = Field(o, key, json::value_t::number_integer, where);
    if (!v) return 0;
    const int64_t n = v->get<int64_t>();
    if (n < 0 && error_.ok()) error_ = InvalidArgumentError(name_ + ": " + where + key + ": negative");
    return n;
  }
  uint32_t Crc(const json& o, const std::string& key, const std::string& where) {
    const std::string crc = String(o, key, where);
    if (!error_.ok()) return 0;
    if (crc.size() != 8 || crc.find_first_not_of("0123456789abcdef") != std::string::npos) {
      error_ = InvalidArgumentError(name_ + ": " + where + key + ": '" + crc + "' is not 8 hex digits");
      return 0;
    }
    return static_cast<uint32_t>(std::stoul(crc, nullptr, 16));
  }
  ManifestFile File(const json& o, const std::string& where) {
    ManifestFile f;
    f.file = String(o, "file", where);
    f.stored_bytes = Count(o, "stored_bytes", where);
    f.crc32c = Crc(o, "crc32c", where);
    if (error_.ok() && !IsSafeRelativePath(f.file)) {
      error_ =
          InvalidArgumentError(name_ + ": " + where + "file: '" + f.file + "' is not a plain relative path");
    }
    return f;
  }

 private:
  std::string name_;
  Status error_;
};

}  // namespace

std::string ManifestToJson(const Manifest& m) {
  json collections = json::array();
  for (const auto& c : m.collections) {
    json entry = FileJson(c.data);
    entry["entity_type"] = c.entity_type;
    entry["compression"] = CompressionName(c.compression);
    entry["count"] = c.count;
    entry["serialized_bytes"] = c.serialized_bytes;
    entry["serialized_crc32c"] = Hex32(c.serialized_crc32c);
    collections.push_back(std::move(entry));
  }
  json doc = {{"format", "warmup-snapshot"},
              {"format_version", m.format_version},
              {"catalog", m.catalog},
              {"created_by", m.created_by},
              {"provenance", m.provenance},
              {"schema", FileJson(m.schema)},
              {"collections", std::move(collections)}};
  return doc.dump(2) + "\n";
}

StatusOr<Manifest> ParseManifest(std::string_view text, const std::string& name) {
  json doc = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded() || !doc.is_object()) return InvalidArgumentError(name + ": not a JSON object");
  Reader r(name);
  Manifest m;
  if (r.String(doc, "format") != "warmup-snapshot" && r.error().ok()) {
    return InvalidArgumentError(name + ": format: not \"warmup-snapshot\"");
  }
  m.format_version = static_cast<int>(r.Count(doc, "format_version"));
  if (r.error().ok() && m.format_version != kSnapshotFormatVersion) {
    return FailedPreconditionError(name + ": format_version " + std::to_string(m.format_version) +
                                   " is not supported (this build reads " +
                                   std::to_string(kSnapshotFormatVersion) + ")");
  }
  m.catalog = r.String(doc, "catalog");
  m.created_by = r.String(doc, "created_by");
  if (const json* provenance = r.Field(doc, "provenance", json::value_t::object, "")) {
    for (const auto& [key, value] : provenance->items()) {
      if (value.is_string()) m.provenance[key] = value.get<std::string>();
    }
  }
  if (const json* schema = r.Field(doc, "schema", json::value_t::object, "")) {
    m.schema = r.File(*schema, "schema.");
  }
  if (const json* collections = r.Field(doc, "collections", json::value_t::array, "")) {
    for (size_t i = 0; i < collections->size() && r.error().ok(); ++i) {
      const json& c = (*collections)[i];
      const std::string where = "collections[" + std::to_string(i) + "].";
      if (!c.is_object()) return InvalidArgumentError(name + ": " + where + ": not an object");
      ManifestCollection mc;
      mc.entity_type = r.String(c, "entity_type", where);
      mc.data = r.File(c, where);
      const std::string compression = r.String(c, "compression", where);
      mc.count = r.Count(c, "count", where);
      mc.serialized_bytes = r.Count(c, "serialized_bytes", where);
      mc.serialized_crc32c = r.Crc(c, "serialized_crc32c", where);
      if (!r.error().ok()) break;
      if (compression != "none" && compression != "zstd") {
        return InvalidArgumentError(name + ": " + where + "compression: unknown '" + compression + "'");
      }
      mc.compression = compression == "zstd" ? SnapshotCompression::kZstd : SnapshotCompression::kNone;
      if (!m.collections.empty() && m.collections.back().entity_type >= mc.entity_type) {
        return InvalidArgumentError(name + ": " + where + "entity_type: '" + mc.entity_type +
                                    "' is out of order or repeated");
      }
      m.collections.push_back(std::move(mc));
    }
  }
  if (!r.error().ok()) return r.error();
  if (!IsSafeName(m.catalog)) {
    return InvalidArgumentError(name + ": catalog: '" + m.catalog + "' is not a plain name");
  }
  return m;
}

std::string ManifestFingerprint(const Manifest& m) {
  std::string content = m.catalog + '\n' + Hex32(m.schema.crc32c) + '\n';
  for (const auto& c : m.collections) {
    content += c.entity_type + ' ' + std::to_string(c.count) + ' ' + std::to_string(c.serialized_bytes) +
               ' ' + Hex32(c.serialized_crc32c) + '\n';
  }
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(content.data()), content.size(), digest);
  std::string hex;
  for (int i = 0; i < 8; ++i) hex += Hex32(digest[i]).substr(6);
  return hex;
}

}  // namespace warmup::snapshot
