// A set of primary keys that costs little while small: up to three keys live
// inline, up to 64 in one sorted heap array, and a Roaring bitmap is allocated
// only beyond that. Most index entries (a unique code, one price, one product
// in one partition) hold a few keys, and a bitmap costs about 150 bytes for
// four of them (five allocations: the object, its container arrays and one
// array container) where a sorted array of eight keys costs 32. The set is 16
// bytes: a count and three key words; out of line, the last two hold the
// array's or the bitmap's address and, for an array, the first its capacity.
// Internal.
#ifndef WARMUP_SRC_ENGINE_PK_SET_H_
#define WARMUP_SRC_ENGINE_PK_SET_H_

#include <roaring/roaring.hh>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

namespace warmup::engine {

class alignas(8) PkSet {
 public:
  PkSet() = default;
  PkSet(PkSet&& other) noexcept { TakeFrom(other); }
  PkSet& operator=(PkSet&& other) noexcept {
    if (this != &other) {
      Free();
      TakeFrom(other);
    }
    return *this;
  }
  PkSet(const PkSet&) = delete;
  PkSet& operator=(const PkSet&) = delete;
  ~PkSet() { Free(); }

  void Add(uint32_t pk) {
    if (Roaring* big = Big()) {
      big->add(pk);
      return;
    }
    uint32_t* begin = Keys();
    uint32_t* end = begin + count_;
    uint32_t* at = std::lower_bound(begin, end, pk);
    if (at != end && *at == pk) return;
    if (count_ == kArrayMax) {
      auto* bitmap = new Roaring();
      bitmap->addMany(count_, begin);
      bitmap->add(pk);
      delete[] begin;
      count_ = kBig;
      SetAddress(bitmap);
      return;
    }
    const uint32_t capacity = count_ <= kInline ? kInline : keys_[0];
    if (count_ < capacity) {
      std::copy_backward(at, end, end + 1);
      *at = pk;
      ++count_;
      return;
    }
    // Full: a larger array, by half again (8, 12, 20, 32, 48, 64 keys), so
    // a growing set's slack stays within a third of what it holds (an array
    // is not shrunk while it holds more than three keys).
    const uint32_t grown =
        count_ == kInline ? kFirstCapacity : std::min(kArrayMax, (capacity + capacity / 2 + 3) & ~3U);
    auto* array = new uint32_t[grown];
    uint32_t* tail = std::copy(begin, at, array);
    *tail = pk;
    std::copy(at, end, tail + 1);
    if (count_ > kInline) delete[] begin;
    ++count_;
    keys_[0] = grown;
    SetAddress(array);
  }
  void Remove(uint32_t pk) {
    if (Roaring* big = Big()) {
      big->remove(pk);
      return;
    }
    uint32_t* begin = Keys();
    uint32_t* end = begin + count_;
    uint32_t* at = std::lower_bound(begin, end, pk);
    if (at == end || *at != pk) return;
    std::copy(at + 1, end, at);
    --count_;
    if (count_ == kInline) {  // back inline: the array's keys overwrite its capacity and address
      std::copy(begin, begin + kInline, keys_);
      delete[] begin;
    }
  }
  bool empty() const {
    const Roaring* big = Big();
    return big != nullptr ? big->isEmpty() : count_ == 0;
  }
  uint64_t size() const {
    const Roaring* big = Big();
    return big != nullptr ? big->cardinality() : count_;
  }
  // Calls `f(pk)` in ascending order.
  template <typename F>
  void ForEach(F f) const {
    if (const Roaring* big = Big()) {
      for (uint32_t pk : *big) f(pk);
    } else {
      const uint32_t* keys = Keys();
      for (uint32_t i = 0; i < count_; ++i) f(keys[i]);
    }
  }
  void AddTo(Roaring* out) const {
    if (const Roaring* big = Big()) {
      *out |= *big;
    } else {
      out->addMany(count_, Keys());
    }
  }
  std::vector<int32_t> ToVector() const {
    std::vector<int32_t> out;
    ForEach([&](uint32_t pk) { out.push_back(static_cast<int32_t>(pk)); });
    return out;
  }

 private:
  static constexpr uint32_t kInline = 3;
  static constexpr uint32_t kFirstCapacity = 8;
  static constexpr uint32_t kArrayMax = 64;  // beyond, a bitmap is smaller (2 bytes a key)
  static constexpr uint32_t kBig = ~0U;      // count_ when the keys are in a bitmap

  // The address in keys_[1..2] (8-byte aligned, since the class is).
  template <typename T>
  T* Address() const {
    T* address = nullptr;
    std::memcpy(&address, &keys_[1], sizeof address);
    return address;
  }
  template <typename T>
  void SetAddress(T* address) {
    std::memcpy(&keys_[1], &address, sizeof address);
  }
  Roaring* Big() const { return count_ == kBig ? Address<Roaring>() : nullptr; }
  // The sorted keys, inline or in the array (not for a bitmap).
  uint32_t* Keys() { return count_ <= kInline ? keys_ : Address<uint32_t>(); }
  const uint32_t* Keys() const { return count_ <= kInline ? keys_ : Address<uint32_t>(); }
  void Free() {
    if (count_ == kBig) {
      delete Big();
    } else if (count_ > kInline) {
      delete[] Address<uint32_t>();
    }
    count_ = 0;
  }
  void TakeFrom(PkSet& other) {
    count_ = other.count_;
    std::memcpy(keys_, other.keys_, sizeof keys_);
    other.count_ = 0;
  }

  uint32_t count_ = 0;
  // Inline: the keys, ascending. In an array: its capacity, then its
  // address. In a bitmap: unused, then its address.
  uint32_t keys_[kInline] = {};
};

static_assert(sizeof(PkSet) == 16, "a posting set is a count and three key words");

}  // namespace warmup::engine

#endif  // WARMUP_SRC_ENGINE_PK_SET_H_
