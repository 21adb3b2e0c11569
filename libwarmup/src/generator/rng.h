// A small deterministic random generator for synthetic catalogs.
//
// The standard library's distributions are implementation-defined, so the
// generator draws its numbers from SplitMix64 with its own range mapping:
// the same seed gives the same catalog with any compiler and library.
#ifndef WARMUP_SRC_GENERATOR_RNG_H_
#define WARMUP_SRC_GENERATOR_RNG_H_

#include <cstdint>
#include <string_view>
#include <vector>

namespace warmup::generator {

class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}

  // A seed for one entity, independent of how many numbers other entities drew,
  // so any entity can be generated alone.
  static uint64_t Derive(uint64_t seed, std::string_view stream, int64_t index);

  uint64_t Next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  // Uniform in [lo, hi] (inclusive; the modulo bias is below 2^-32 for the
  // ranges used here).
  int64_t Between(int64_t lo, int64_t hi) {
    const uint64_t span = static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo) + 1;
    return span == 0 ? static_cast<int64_t>(Next()) : lo + static_cast<int64_t>(Next() % span);
  }
  bool Coin() { return (Next() >> 63) != 0; }
  // True with probability `p`.
  bool Chance(double p) { return static_cast<double>(Next() >> 11) * 0x1.0p-53 < p; }
  template <typename T>
  const T& Pick(const std::vector<T>& items) {
    return items[static_cast<size_t>(Between(0, static_cast<int64_t>(items.size()) - 1))];
  }

 private:
  uint64_t state_;
};

inline uint64_t Rng::Derive(uint64_t seed, std::string_view stream, int64_t index) {
  uint64_t h = 0xCBF29CE484222325ull ^ seed;  // FNV-1a over the stream name
  for (char c : stream) h = (h ^ static_cast<uint8_t>(c)) * 0x100000001B3ull;
  Rng mix(h ^ (static_cast<uint64_t>(index) * 0x9E3779B97F4A7C15ull));
  return mix.Next();
}

}  // namespace warmup::generator

#endif  // WARMUP_SRC_GENERATOR_RNG_H_
