// A set of primary keys that costs nothing extra while small: up to four keys
// live inline, sorted; a Roaring bitmap is allocated only beyond that. Most
// index entries (a unique code, one price, one product in one partition) hold
// one or two keys, and a bitmap per entry would dominate the engine's memory.
// Internal.
#ifndef WARMUP_SRC_ENGINE_PK_SET_H_
#define WARMUP_SRC_ENGINE_PK_SET_H_

#include <roaring/roaring.hh>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

namespace warmup::engine {

class PkSet {
 public:
  void Add(uint32_t pk) {
    if (big_) {
      big_->add(pk);
      return;
    }
    uint32_t* end = inline_ + size_;
    uint32_t* at = std::lower_bound(inline_, end, pk);
    if (at != end && *at == pk) return;
    if (size_ < kInline) {
      std::copy_backward(at, end, end + 1);
      *at = pk;
      ++size_;
      return;
    }
    big_ = std::make_unique<Roaring>();
    for (uint32_t i = 0; i < size_; ++i) big_->add(inline_[i]);
    big_->add(pk);
    size_ = 0;
  }
  void Remove(uint32_t pk) {
    if (big_) {
      big_->remove(pk);
      return;
    }
    uint32_t* end = inline_ + size_;
    uint32_t* at = std::lower_bound(inline_, end, pk);
    if (at == end || *at != pk) return;
    std::copy(at + 1, end, at);
    --size_;
  }
  bool empty() const { return big_ ? big_->isEmpty() : size_ == 0; }
  uint64_t size() const { return big_ ? big_->cardinality() : size_; }
  // Calls `f(pk)` in ascending order.
  template <typename F>
  void ForEach(F f) const {
    if (big_) {
      for (uint32_t pk : *big_) f(pk);
    } else {
      for (uint32_t i = 0; i < size_; ++i) f(inline_[i]);
    }
  }
  void AddTo(Roaring* out) const {
    if (big_) {
      *out |= *big_;
    } else {
      for (uint32_t i = 0; i < size_; ++i) out->add(inline_[i]);
    }
  }
  std::vector<int32_t> ToVector() const {
    std::vector<int32_t> out;
    ForEach([&](uint32_t pk) { out.push_back(static_cast<int32_t>(pk)); });
    return out;
  }

 private:
  static constexpr uint32_t kInline = 4;
  uint32_t inline_[kInline] = {};
  uint32_t size_ = 0;
  std::unique_ptr<Roaring> big_;
};

}  // namespace warmup::engine

#endif  // WARMUP_SRC_ENGINE_PK_SET_H_
