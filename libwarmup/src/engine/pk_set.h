// A set of primary keys that costs nothing extra while small: up to three keys
// live inline, sorted; a Roaring bitmap is allocated only beyond that. Most
// index entries (a unique code, one price, one product in one partition) hold
// one or two keys, and a bitmap per entry would dominate the engine's memory.
// The set is 16 bytes: a count and three key words, two of which hold the
// bitmap's pointer once it has one. Internal.
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
    uint32_t* end = keys_ + count_;
    uint32_t* at = std::lower_bound(keys_, end, pk);
    if (at != end && *at == pk) return;
    if (count_ < kInline) {
      std::copy_backward(at, end, end + 1);
      *at = pk;
      ++count_;
      return;
    }
    auto* bitmap = new Roaring();
    for (uint32_t i = 0; i < count_; ++i) bitmap->add(keys_[i]);
    bitmap->add(pk);
    count_ = kBig;
    std::memcpy(&keys_[1], &bitmap, sizeof bitmap);
  }
  void Remove(uint32_t pk) {
    if (Roaring* big = Big()) {
      big->remove(pk);
      return;
    }
    uint32_t* end = keys_ + count_;
    uint32_t* at = std::lower_bound(keys_, end, pk);
    if (at == end || *at != pk) return;
    std::copy(at + 1, end, at);
    --count_;
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
      for (uint32_t i = 0; i < count_; ++i) f(keys_[i]);
    }
  }
  void AddTo(Roaring* out) const {
    if (const Roaring* big = Big()) {
      *out |= *big;
    } else {
      for (uint32_t i = 0; i < count_; ++i) out->add(keys_[i]);
    }
  }
  std::vector<int32_t> ToVector() const {
    std::vector<int32_t> out;
    ForEach([&](uint32_t pk) { out.push_back(static_cast<int32_t>(pk)); });
    return out;
  }

 private:
  static constexpr uint32_t kInline = 3;
  static constexpr uint32_t kBig = ~0U;  // count_ when the keys are in a bitmap

  Roaring* Big() const {
    if (count_ != kBig) return nullptr;
    Roaring* big = nullptr;
    std::memcpy(&big, &keys_[1], sizeof big);
    return big;
  }
  void Free() {
    delete Big();
    count_ = 0;
  }
  void TakeFrom(PkSet& other) {
    count_ = other.count_;
    std::memcpy(keys_, other.keys_, sizeof keys_);
    other.count_ = 0;
  }

  uint32_t count_ = 0;
  // Inline: the keys, ascending. With a bitmap: keys_[1..2] hold its pointer
  // (8-byte aligned, since the class is).
  uint32_t keys_[kInline] = {};
};

static_assert(sizeof(PkSet) == 16, "a posting set is a count and three key words");

}  // namespace warmup::engine

#endif  // WARMUP_SRC_ENGINE_PK_SET_H_
