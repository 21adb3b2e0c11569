// A set of primary keys in one 64-bit word while it is small: one or two
// keys in the word itself, up to 64 in one sorted heap array, and a Roaring
// bitmap beyond. Most index entries hold one key (a product's value of an
// attribute, its facet in one partition: 93 % of the filter, sort and facet
// entries at senesi 0.1), and a B-tree holds the set in its slot, so every
// byte of the word is paid once per entry; a bitmap costs about 150 bytes for
// four keys where an array of eight costs 40. Internal.
#ifndef WARMUP_SRC_ENGINE_PK_SET_H_
#define WARMUP_SRC_ENGINE_PK_SET_H_

#include <roaring/roaring.hh>

#include <algorithm>
#include <cstdint>
#include <vector>

namespace warmup::engine {

class PkSet {
 public:
  PkSet() = default;
  PkSet(PkSet&& other) noexcept : word_(other.word_) { other.word_ = 0; }
  PkSet& operator=(PkSet&& other) noexcept {
    if (this != &other) {
      Free();
      word_ = other.word_;
      other.word_ = 0;
    }
    return *this;
  }
  PkSet(const PkSet&) = delete;
  PkSet& operator=(const PkSet&) = delete;
  ~PkSet() { Free(); }

  void Add(uint32_t pk) {
    switch (Form()) {
      case kEmpty:
        word_ = One(pk);
        return;
      case kOne: {
        const uint32_t held = OneKey();
        if (held != pk) SetKeys2(std::min(held, pk), std::max(held, pk));
        return;
      }
      case kTwo: {
        const uint32_t a = TwoLow();
        const uint32_t b = TwoHigh();
        if (pk == a || pk == b) return;
        uint32_t* array = NewArray(kFirstCapacity);
        uint32_t* keys = array + kHeader;
        keys[0] = std::min(a, pk);
        keys[1] = pk < a ? a : std::min(b, pk);
        keys[2] = std::max(b, pk);
        array[0] = 3;
        word_ = reinterpret_cast<uintptr_t>(array);
        return;
      }
      case kArray:
        AddToArray(pk);
        return;
      default:
        Big()->add(pk);
        return;
    }
  }
  void Remove(uint32_t pk) {
    switch (Form()) {
      case kEmpty:
        return;
      case kOne:
        if (OneKey() == pk) word_ = 0;
        return;
      case kTwo:
        if (TwoLow() == pk) {
          word_ = One(TwoHigh());
        } else if (TwoHigh() == pk) {
          word_ = One(TwoLow());
        }
        return;
      case kArray: {
        uint32_t* array = Array();
        uint32_t* begin = array + kHeader;
        uint32_t* end = begin + array[0];
        uint32_t* at = std::lower_bound(begin, end, pk);
        if (at == end || *at != pk) return;
        std::copy(at + 1, end, at);
        const uint32_t left = --array[0];
        if (left == 1 || (left == 2 && FitsTwo(begin[1]))) {  // back into the word
          const uint64_t word = left == 1 ? One(begin[0]) : Two(begin[0], begin[1]);
          delete[] array;
          word_ = word;
        }
        return;
      }
      default:
        Big()->remove(pk);
        return;
    }
  }
  bool empty() const { return Form() == kBig ? Big()->isEmpty() : word_ == 0; }
  uint64_t size() const {
    switch (Form()) {
      case kEmpty:
        return 0;
      case kOne:
        return 1;
      case kTwo:
        return 2;
      case kArray:
        return Array()[0];
      default:
        return Big()->cardinality();
    }
  }
  // Calls `f(pk)` in ascending order.
  template <typename F>
  void ForEach(F f) const {
    switch (Form()) {
      case kEmpty:
        return;
      case kOne:
        f(OneKey());
        return;
      case kTwo:
        f(TwoLow());
        f(TwoHigh());
        return;
      case kArray: {
        const uint32_t* array = Array();
        for (uint32_t i = 0; i < array[0]; ++i) f(array[kHeader + i]);
        return;
      }
      default:
        for (uint32_t pk : *Big()) f(pk);
        return;
    }
  }
  void AddTo(Roaring* out) const {
    if (Form() == kBig) {
      *out |= *Big();
    } else if (Form() == kArray) {
      out->addMany(Array()[0], Array() + kHeader);
    } else {
      ForEach([out](uint32_t pk) { out->add(pk); });
    }
  }
  std::vector<int32_t> ToVector() const {
    std::vector<int32_t> out;
    ForEach([&](uint32_t pk) { out.push_back(static_cast<int32_t>(pk)); });
    return out;
  }

 private:
  // The word's low two bits name its form; a heap address is at least
  // 8-aligned, so they are free in an address.
  //   0: empty (the word is 0), or the address of an array: its count, its
  //      capacity, then the keys ascending;
  //   1: one key, in the high 32 bits;
  //   2: two keys below 2^31 (primary keys and internal price ids are
  //      positive int32), the lesser in bits 2..32, the greater in 33..63;
  //   3: the address of a Roaring bitmap, plus 3.
  enum FormKind { kEmpty, kOne, kTwo, kArray, kBig };
  static constexpr uint64_t kTagBits = 3;
  static constexpr uint32_t kHeader = 2;  // an array's count and capacity
  static constexpr uint32_t kFirstCapacity = 4;
  static constexpr uint32_t kArrayMax = 64;  // beyond, a bitmap is smaller (2 bytes a key)

  FormKind Form() const {
    switch (word_ & kTagBits) {
      case 0:
        return word_ == 0 ? kEmpty : kArray;
      case 1:
        return kOne;
      case 2:
        return kTwo;
      default:
        return kBig;
    }
  }
  static uint64_t One(uint32_t pk) { return (uint64_t{pk} << 32) | 1; }
  static bool FitsTwo(uint32_t greater) { return greater < (1U << 31); }
  static uint64_t Two(uint32_t a, uint32_t b) { return (uint64_t{b} << 33) | (uint64_t{a} << 2) | 2; }
  uint32_t OneKey() const { return static_cast<uint32_t>(word_ >> 32); }
  uint32_t TwoLow() const { return static_cast<uint32_t>(word_ >> 2) & 0x7FFFFFFFU; }
  uint32_t TwoHigh() const { return static_cast<uint32_t>(word_ >> 33); }
  uint32_t* Array() const { return reinterpret_cast<uint32_t*>(word_); }
  Roaring* Big() const { return reinterpret_cast<Roaring*>(word_ & ~kTagBits); }

  // Two keys `a` < `b`, in the word when they fit, else in an array.
  void SetKeys2(uint32_t a, uint32_t b) {
    if (FitsTwo(b)) {
      word_ = Two(a, b);
      return;
    }
    uint32_t* array = NewArray(kFirstCapacity);
    array[0] = 2;
    array[kHeader] = a;
    array[kHeader + 1] = b;
    word_ = reinterpret_cast<uintptr_t>(array);
  }
  static uint32_t* NewArray(uint32_t capacity) {
    auto* array = new uint32_t[kHeader + capacity];
    array[1] = capacity;
    return array;
  }
  void AddToArray(uint32_t pk) {
    uint32_t* array = Array();
    const uint32_t count = array[0];
    const uint32_t capacity = array[1];
    uint32_t* begin = array + kHeader;
    uint32_t* end = begin + count;
    uint32_t* at = std::lower_bound(begin, end, pk);
    if (at != end && *at == pk) return;
    if (count == kArrayMax) {
      auto* bitmap = new Roaring();
      bitmap->addMany(count, begin);
      bitmap->add(pk);
      delete[] array;
      word_ = reinterpret_cast<uintptr_t>(bitmap) | 3;
      return;
    }
    if (count < capacity) {
      std::copy_backward(at, end, end + 1);
      *at = pk;
      array[0] = count + 1;
      return;
    }
    // Full: a larger array, by half again (4, 8, 12, 20, 32, 48, 64 keys),
    // so a growing set's slack stays within a third of what it holds.
    uint32_t* grown = NewArray(std::min(kArrayMax, (capacity + capacity / 2 + 3) & ~3U));
    uint32_t* tail = std::copy(begin, at, grown + kHeader);
    *tail = pk;
    std::copy(at, end, tail + 1);
    grown[0] = count + 1;
    delete[] array;
    word_ = reinterpret_cast<uintptr_t>(grown);
  }
  void Free() {
    if (Form() == kArray) {
      delete[] Array();
    } else if (Form() == kBig) {
      delete Big();
    }
    word_ = 0;
  }

  uint64_t word_ = 0;
};

static_assert(sizeof(PkSet) == 8, "a posting set is one word");

}  // namespace warmup::engine

#endif  // WARMUP_SRC_ENGINE_PK_SET_H_
