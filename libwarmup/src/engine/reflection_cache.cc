#include "engine/reflection_cache.h"

#include <utility>

namespace warmup::engine {

const ReflectionCache::Target* ReflectionCache::Find(int32_t pk) const {
  auto it = slots_.find(pk);
  return it == slots_.end() ? nullptr : &it->second.target;
}

void ReflectionCache::Put(int32_t pk, Target target) {
  Erase(pk);
  const size_t bytes = sizeof(std::pair<const int32_t, Slot>) + sizeof(int32_t) +
                       target.entries.full.HeapBytes() + target.entries.filtering.HeapBytes();
  if (bytes > max_bytes_) return;
  while (bytes_ + bytes > max_bytes_ && !keys_.empty()) {
    // splitmix64's step: any kept entry as likely as another.
    draw_ += 0x9E3779B97F4A7C15ull;
    uint64_t z = draw_;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    Drop(slots_.find(keys_[z % keys_.size()]));
  }
  slots_.emplace(pk, Slot{std::move(target), bytes, keys_.size()});
  keys_.push_back(pk);
  bytes_ += bytes;
}

void ReflectionCache::Erase(int32_t pk) {
  if (auto it = slots_.find(pk); it != slots_.end()) Drop(it);
}

void ReflectionCache::Clear() {
  // Assigned, not cleared: their memory goes too.
  slots_ = {};
  keys_ = {};
  bytes_ = 0;
}

void ReflectionCache::Drop(absl::flat_hash_map<int32_t, Slot>::iterator it) {
  const size_t position = it->second.position;
  bytes_ -= it->second.bytes;
  slots_.erase(it);
  if (position + 1 != keys_.size()) {
    keys_[position] = keys_.back();
    slots_.find(keys_[position])->second.position = position;
  }
  keys_.pop_back();
}

}  // namespace warmup::engine
