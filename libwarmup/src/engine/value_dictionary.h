// Value keys of one collection's indexes (attribute and compound order keys)
// as the maps of its indexes hold them: a key of up to 15 bytes inline, a
// longer one as its first 7 bytes and the address of the whole key, stored
// once in the collection's ValueDictionary. A map slot is then 16 bytes, not
// a 32-byte string with its own heap copy per index, and the short keys most
// attributes have (numbers are 8 bytes) compare without leaving the map's
// node: an address to follow on every comparison cost 7 % of a load's wall
// time at senesi 0.3 (docs/performance.md). Internal.
#ifndef WARMUP_SRC_ENGINE_VALUE_DICTIONARY_H_
#define WARMUP_SRC_ENGINE_VALUE_DICTIONARY_H_

#include <absl/container/node_hash_set.h>
#include <absl/hash/hash.h>

#include <bit>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace warmup::engine {

class HeldKey {
 public:
  static constexpr size_t kInline = 15;  // longest key held inline
  static constexpr size_t kPrefix = 7;   // bytes of a longer key kept beside its address

  // A key of at most kInline bytes.
  static HeldKey Inline(std::string_view key) {
    HeldKey k;
    std::memcpy(k.bytes_, key.data(), key.size());
    k.size_ = static_cast<uint8_t>(key.size());
    return k;
  }
  // A longer key, stored at `stored` for as long as the key is used.
  static HeldKey Stored(const std::string* stored) {
    HeldKey k;
    std::memcpy(k.bytes_, stored->data(), kPrefix);
    std::memcpy(k.bytes_ + kPrefix, &stored, sizeof stored);
    k.size_ = kLong;
    return k;
  }

  std::string_view view() const {
    if (size_ != kLong) return {bytes_, size_};
    return *stored();
  }

  // Byte order of the keys, as std::string orders them; the stored key is
  // read only when the bytes held here do not decide.
  friend int Compare(const HeldKey& a, std::string_view b) {
    if (a.size_ != kLong) return a.view().compare(b);
    // The first kPrefix bytes decide unless they are equal; a shorter `b`
    // equal to their start is the lesser.
    const int head = std::string_view(a.bytes_, kPrefix).compare(b.substr(0, kPrefix));
    return head != 0 ? head : std::string_view(*a.stored()).compare(b);
  }
  friend int Compare(const HeldKey& a, const HeldKey& b) {
    if (a.size_ != kLong && b.size_ != kLong) return CompareInline(a, b);
    if (b.size_ != kLong) return Compare(a, b.view());
    if (a.size_ != kLong) return -Compare(b, a.view());
    if (a.stored() == b.stored()) return 0;
    const int head = std::memcmp(a.bytes_, b.bytes_, kPrefix);
    return head != 0 ? head : a.stored()->compare(*b.stored());
  }
  // Every key has one form (inline when it fits), so equal keys have equal
  // bytes here: inline bytes, or one stored key's address.
  friend bool operator==(const HeldKey& a, const HeldKey& b) {
    return a.size_ == b.size_ &&
           std::memcmp(a.bytes_, b.bytes_, a.size_ == kLong ? sizeof a.bytes_ : a.size_) == 0;
  }
  template <typename H>
  friend H AbslHashValue(H h, const HeldKey& k) {
    return H::combine(std::move(h), std::string_view(k.bytes_, k.size_ == kLong ? sizeof k.bytes_ : k.size_),
                      k.size_);
  }

  // Orders keys by their bytes; compares them with plain strings too, for
  // lookups that need not store anything.
  struct Less {
    using is_transparent = void;
    bool operator()(const HeldKey& a, const HeldKey& b) const { return Compare(a, b) < 0; }
    bool operator()(const HeldKey& a, const std::string& b) const { return Compare(a, b) < 0; }
    bool operator()(const std::string& a, const HeldKey& b) const { return Compare(b, a) > 0; }
  };

 private:
  static constexpr uint8_t kLong = 0xFF;  // size_ of a key held by its address
  // Two inline keys in byte order without a call to memcmp: their 16 bytes
  // as two big-endian words. The zero padding makes a key equal to the start
  // of a longer one compare equal up to the size byte, last, which puts the
  // shorter first, as std::string orders them.
  static int CompareInline(const HeldKey& a, const HeldKey& b) {
    uint64_t x[2];
    uint64_t y[2];
    std::memcpy(x, &a, sizeof x);
    std::memcpy(y, &b, sizeof y);
    constexpr bool kSwap = std::endian::native == std::endian::little;
    for (int i = 0; i < 2; ++i) {
      const uint64_t u = kSwap ? __builtin_bswap64(x[i]) : x[i];
      const uint64_t v = kSwap ? __builtin_bswap64(y[i]) : y[i];
      if (u != v) return u < v ? -1 : 1;
    }
    return 0;
  }
  const std::string* stored() const {
    const std::string* s = nullptr;
    std::memcpy(&s, bytes_ + kPrefix, sizeof s);
    return s;
  }

  // Inline: the key, zero-padded. Longer: its first kPrefix bytes, then the
  // stored key's address.
  char bytes_[kInline] = {};
  uint8_t size_ = 0;
};

static_assert(sizeof(HeldKey) == 16, "a value key is 16 bytes");

// The collection's keys longer than HeldKey::kInline, each stored once (a
// product's name, in the reduced index of each of its categories, is one
// string). Keys stay until the collection closes: a value no entity holds any
// longer is rare in a warm-up, and a count per key would cost what the
// sharing saves.
class ValueDictionary {
 public:
  // The key as indexes hold it, storing it when it is long.
  HeldKey Intern(const std::string& key) {
    if (key.size() <= HeldKey::kInline) return HeldKey::Inline(key);
    return HeldKey::Stored(&*values_.insert(key).first);
  }
  // The key as indexes hold it, if it can be held: false for a long key
  // never stored (no index holds it).
  bool Find(const std::string& key, HeldKey* out) const {
    if (key.size() <= HeldKey::kInline) {
      *out = HeldKey::Inline(key);
      return true;
    }
    auto it = values_.find(key);
    if (it == values_.end()) return false;
    *out = HeldKey::Stored(&*it);
    return true;
  }
  // Long keys stored.
  size_t size() const { return values_.size(); }

 private:
  absl::node_hash_set<std::string> values_;
};

}  // namespace warmup::engine

#endif  // WARMUP_SRC_ENGINE_VALUE_DICTIONARY_H_
