#include "warmup/digest.h"

#include <openssl/sha.h>

#include <algorithm>
#include <cstdio>
#include <string>

namespace warmup {
namespace {

// Version of the canonical form below; part of the hashed bytes.
constexpr uint8_t kCanonicalFormVersion = 2;

// Appends a canonical, unambiguous byte form: every variable-length item is
// length-prefixed, every integer fixed-width little-endian, every choice tagged.
class CanonicalWriter {
 public:
  void Tag(uint8_t tag) { out_.push_back(static_cast<char>(tag)); }
  void U64(uint64_t n) {
    for (int i = 0; i < 8; ++i) out_.push_back(static_cast<char>(n >> (8 * i)));
  }
  void I64(int64_t n) { U64(static_cast<uint64_t>(n)); }
  void Str(std::string_view s) {
    U64(s.size());
    out_.append(s);
  }
  void Scalar(const warmup::Scalar& s) {
    Tag(static_cast<uint8_t>(s.index()));
    std::visit([this](const auto& v) { Write(v); }, s);
  }
  void Write(const std::string& v) { Str(v); }
  void Write(int64_t v) { I64(v); }
  void Write(bool v) { Tag(v ? 1 : 0); }
  void Write(const BigDecimal& v) { Str(v.text()); }
  void Write(const DateTime& v) {
    I64(v.epoch_seconds);
    I64(v.nanos);
    I64(v.offset_seconds);
  }
  // A range's bounds at whole seconds, as evitaDB compares them
  // (DateTimeRange's equality), and as it keeps those that came over gRPC
  // (EvitaDataTypesConverter.toDateTimeRange drops the nanoseconds).
  void Write(const DateTimeRange& v) {
    for (const auto* side : {&v.from, &v.to}) {
      Tag(*side ? 1 : 0);
      if (*side) {
        I64((*side)->epoch_seconds);
        I64((*side)->offset_seconds);
      }
    }
  }
  void Write(const BigDecimalRange& v) {
    for (const auto* side : {&v.from, &v.to}) {
      Tag(*side ? 1 : 0);
      if (*side) Write(**side);
    }
    I64(v.decimal_places_to_compare);
  }
  void Write(const NumberRange& v) {
    for (const auto* side : {&v.from, &v.to}) {
      Tag(*side ? 1 : 0);
      if (*side) I64(**side);
    }
  }
  void Write(const Locale& v) { Str(v.tag()); }
  void Write(const Currency& v) { Str(v.code()); }
  void Write(const Uuid& v) {
    I64(v.most_significant);
    I64(v.least_significant);
  }
  void Write(const Predecessor& v) {
    Tag(v.predecessor_pk ? 1 : 0);
    if (v.predecessor_pk) I64(*v.predecessor_pk);
  }
  void Write(const Value& v) {
    I64(static_cast<int>(v.type()));
    U64(v.items().size());
    for (const auto& item : v.items()) Scalar(item);
  }
  void Write(const DataItem& item) {
    Tag(static_cast<uint8_t>(item.content.index()));
    if (const auto* v = std::get_if<Value>(&item.content)) {
      Write(*v);
    } else if (const auto* a = std::get_if<DataItem::Array>(&item.content)) {
      U64(a->size());
      for (const auto& child : *a) Write(child);
    } else if (const auto* m = std::get_if<DataItem::Map>(&item.content)) {
      U64(m->size());
      for (const auto& [key, child] : *m) {
        Str(key);
        Write(child);
      }
    }
  }
  void Write(const AssociatedDataValue& v) {
    Tag(static_cast<uint8_t>(v.content.index()));
    std::visit([this](const auto& x) { Write(x); }, v.content);
  }
  template <typename V>
  void Write(const std::map<std::string, V>& map) {
    U64(map.size());
    for (const auto& [key, value] : map) {
      Str(key);
      Write(value);
    }
  }
  void Write(const Attributes& a) {
    Write(a.global);
    U64(a.localized.size());
    for (const auto& [tag, values] : a.localized) {
      Str(tag);
      Write(values);
    }
  }
  void Write(const AssociatedData& a) {
    Write(a.global);
    U64(a.localized.size());
    for (const auto& [tag, values] : a.localized) {
      Str(tag);
      Write(values);
    }
  }
  void Write(const Price& p) {
    I64(p.price_id);
    Str(p.price_list);
    Str(p.currency.code());
    Tag(p.inner_record_id ? 1 : 0);
    if (p.inner_record_id) I64(*p.inner_record_id);
    Str(p.price_without_tax.text());
    Str(p.tax_rate.text());
    Str(p.price_with_tax.text());
    Tag(p.validity ? 1 : 0);
    if (p.validity) Write(*p.validity);
    Write(p.indexed);
  }
  void Write(const EntityRef& r) {
    Str(r.entity_type);
    I64(r.primary_key);
  }
  void Write(const Reference& r) {
    Str(r.name);
    Write(r.referenced);
    Tag(r.group ? 1 : 0);
    if (r.group) Write(*r.group);
    Write(r.attributes);
  }

  const std::string& bytes() const { return out_; }

 private:
  std::string out_;
};

// Serializes one element alone, for sorting elements by their canonical bytes.
template <typename T>
std::string CanonicalBytes(const T& item) {
  CanonicalWriter w;
  w.Write(item);
  return w.bytes();
}

template <typename T>
void WriteUnordered(CanonicalWriter& w, const std::vector<T>& items) {
  std::vector<std::string> encoded;
  encoded.reserve(items.size());
  for (const T& item : items) encoded.push_back(CanonicalBytes(item));
  std::sort(encoded.begin(), encoded.end());
  w.U64(encoded.size());
  for (const auto& e : encoded) w.Str(e);
}

}  // namespace

std::string Digest::ToHex() const {
  std::string hex;
  hex.reserve(64);
  char buf[3];
  for (uint8_t b : bytes) {
    std::snprintf(buf, sizeof(buf), "%02x", b);
    hex += buf;
  }
  return hex;
}

Digest EntityDigest(const Entity& entity) {
  CanonicalWriter w;
  w.Tag(kCanonicalFormVersion);
  w.Str(entity.type);
  w.I64(entity.primary_key);
  w.Tag(static_cast<uint8_t>(entity.scope));
  w.Tag(entity.parent ? 1 : 0);
  if (entity.parent) w.I64(*entity.parent);
  w.Write(entity.attributes);
  w.Write(entity.associated_data);
  w.Tag(static_cast<uint8_t>(StoredPriceInnerRecordHandling(entity)));
  WriteUnordered(w, entity.prices);
  WriteUnordered(w, entity.references);
  std::vector<std::string> locales;
  for (const auto& l : entity.locales) locales.push_back(l.tag());
  std::sort(locales.begin(), locales.end());
  w.U64(locales.size());
  for (const auto& l : locales) w.Str(l);
  Digest digest;
  SHA256(reinterpret_cast<const unsigned char*>(w.bytes().data()), w.bytes().size(), digest.bytes.data());
  return digest;
}

}  // namespace warmup
