#include "engine/storage_parts.h"

#include "codec/entity_convert.h"
#include "codec/serialize.h"

namespace warmup::engine {
namespace {

// A part's content travels as a sealed entity holding only that content
// (every part names its entity: the converter needs type and key).
std::string Record(PartKind kind, const Entity& content) {
  pb::GrpcSealedEntity message;
  codec::EntityToProto(content, &message);
  std::string bytes;
  codec::SerializeDeterministic(message, &bytes);
  return std::string(1, static_cast<char>(kind)) + bytes;
}

Entity Carrier(const Entity& entity) {
  Entity c;
  c.type = entity.type;
  c.primary_key = entity.primary_key;
  return c;
}

void PutVarint(std::string* out, uint64_t v) {
  while (v >= 0x80) {
    out->push_back(static_cast<char>(v | 0x80));
    v >>= 7;
  }
  out->push_back(static_cast<char>(v));
}

bool GetVarint(std::string_view* in, uint64_t* v) {
  *v = 0;
  for (int shift = 0; shift < 64 && !in->empty(); shift += 7) {
    const auto byte = static_cast<uint8_t>(in->front());
    in->remove_prefix(1);
    *v |= static_cast<uint64_t>(byte & 0x7f) << shift;
    if ((byte & 0x80) == 0) return true;
  }
  return false;
}

Status Parse(std::string_view bytes, const std::string& where, Entity* out) {
  pb::GrpcSealedEntity message;
  if (!message.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    return DataLossError(where + ": record does not parse");
  }
  auto parsed = codec::EntityFromProto(message);
  if (!parsed.ok()) return parsed.status().WithContext(where);
  *out = std::move(parsed).value();
  return OkStatus();
}

}  // namespace

std::vector<StoragePart> SplitIntoParts(const Entity& e) {
  std::vector<StoragePart> parts;
  if (!e.attributes.global.empty()) {
    Entity c = Carrier(e);
    c.attributes.global = e.attributes.global;
    parts.push_back({PartKind::kAttributes, "", Record(PartKind::kAttributes, c)});
  }
  for (const auto& [tag, values] : e.attributes.localized) {
    Entity c = Carrier(e);
    c.attributes.localized[tag] = values;
    parts.push_back({PartKind::kLocalizedAttributes, tag, Record(PartKind::kLocalizedAttributes, c)});
  }
  for (const auto& [name, value] : e.associated_data.global) {
    Entity c = Carrier(e);
    c.associated_data.global.emplace(name, value);
    parts.push_back({PartKind::kAssociatedData, name, Record(PartKind::kAssociatedData, c)});
  }
  for (const auto& [tag, values] : e.associated_data.localized) {
    for (const auto& [name, value] : values) {
      Entity c = Carrier(e);
      c.associated_data.localized[tag].emplace(name, value);
      parts.push_back({PartKind::kAssociatedData, name + "|" + tag, Record(PartKind::kAssociatedData, c)});
    }
  }
  if (!e.prices.empty()) {
    Entity c = Carrier(e);
    c.prices = e.prices;
    parts.push_back({PartKind::kPrices, "", Record(PartKind::kPrices, c)});
  }
  if (!e.references.empty()) {
    Entity c = Carrier(e);
    c.references = e.references;
    parts.push_back({PartKind::kReferences, "", Record(PartKind::kReferences, c)});
  }
  return parts;
}

std::string EncodeBody(const Entity& e, const std::vector<PartLocation>& parts) {
  std::string out(1, static_cast<char>(PartKind::kBody));
  PutVarint(&out, parts.size());
  for (const PartLocation& p : parts) {
    out.push_back(static_cast<char>(p.kind));
    PutVarint(&out, p.key.size());
    out.append(p.key);
    PutVarint(&out, p.offset);
  }
  Entity own = Carrier(e);
  own.scope = e.scope;
  own.parent = e.parent;
  own.locales = e.locales;
  own.price_inner_record_handling = StoredPriceInnerRecordHandling(e);  // as evitaDB reads it back
  return out + Record(PartKind::kBody, own).substr(1);
}

Status DecodeBody(std::string_view record, const std::string& where, Entity* entity,
                  std::vector<PartLocation>* parts) {
  if (record.empty() || static_cast<PartKind>(record[0]) != PartKind::kBody) {
    return DataLossError(where + ": not an entity body record");
  }
  record.remove_prefix(1);
  uint64_t n = 0;
  if (!GetVarint(&record, &n) || n > record.size()) return DataLossError(where + ": body part list is torn");
  parts->clear();
  for (uint64_t i = 0; i < n; ++i) {
    PartLocation p;
    uint64_t key_size = 0;
    if (record.empty()) return DataLossError(where + ": body part list is torn");
    p.kind = static_cast<PartKind>(record[0]);
    record.remove_prefix(1);
    if (!GetVarint(&record, &key_size) || key_size > record.size()) {
      return DataLossError(where + ": body part list is torn");
    }
    p.key = std::string(record.substr(0, key_size));
    record.remove_prefix(key_size);
    if (!GetVarint(&record, &p.offset)) return DataLossError(where + ": body part list is torn");
    parts->push_back(std::move(p));
  }
  return Parse(record, where, entity);
}

Status MergePart(std::string_view record, const std::string& where, Entity* e) {
  if (record.empty()) return DataLossError(where + ": empty part record");
  const auto kind = static_cast<PartKind>(record[0]);
  Entity part;
  if (Status s = Parse(record.substr(1), where, &part); !s.ok()) return s;
  switch (kind) {
    case PartKind::kAttributes:
      e->attributes.global = std::move(part.attributes.global);
      return OkStatus();
    case PartKind::kLocalizedAttributes:
      for (auto& [tag, values] : part.attributes.localized) e->attributes.localized[tag] = std::move(values);
      return OkStatus();
    case PartKind::kAssociatedData:
      for (auto& [name, value] : part.associated_data.global) {
        e->associated_data.global.emplace(name, std::move(value));
      }
      for (auto& [tag, values] : part.associated_data.localized) {
        for (auto& [name, value] : values) e->associated_data.localized[tag].emplace(name, std::move(value));
      }
      return OkStatus();
    case PartKind::kPrices:
      e->prices = std::move(part.prices);
      return OkStatus();
    case PartKind::kReferences:
      e->references = std::move(part.references);
      return OkStatus();
    default:
      return DataLossError(where + ": not a storage part record (kind " +
                           std::to_string(static_cast<int>(kind)) + ")");
  }
}

}  // namespace warmup::engine
