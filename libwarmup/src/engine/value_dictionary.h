// The distinct value keys of one collection's indexes (attribute and
// compound order keys), each stored once. An index's filter and sort maps
// hold the address of the stored key and order by the key it points to, so a
// value many indexes share (a product's code, in the reduced index of each of
// its categories) is one string, and a map's slot is a pointer rather than a
// string. Keys stay until the collection closes: a value no entity holds any
// longer is rare in a warm-up, and a count per key would cost what the
// sharing saves. Internal.
#ifndef WARMUP_SRC_ENGINE_VALUE_DICTIONARY_H_
#define WARMUP_SRC_ENGINE_VALUE_DICTIONARY_H_

#include <absl/container/node_hash_set.h>

#include <string>

namespace warmup::engine {

class ValueDictionary {
 public:
  // A stored key; its address is stable for the dictionary's life.
  using Key = const std::string*;

  Key Intern(const std::string& key) { return &*values_.insert(key).first; }
  // The stored key equal to `key`, or null when none is.
  Key Find(const std::string& key) const {
    auto it = values_.find(key);
    return it == values_.end() ? nullptr : &*it;
  }
  size_t size() const { return values_.size(); }

  // Orders stored keys by their bytes, and compares them with plain strings
  // for lookups that need not store anything.
  struct Less {
    using is_transparent = void;
    bool operator()(Key a, Key b) const { return *a < *b; }
    bool operator()(Key a, const std::string& b) const { return *a < b; }
    bool operator()(const std::string& a, Key b) const { return a < *b; }
  };

 private:
  absl::node_hash_set<std::string> values_;
};

}  // namespace warmup::engine

#endif  // WARMUP_SRC_ENGINE_VALUE_DICTIONARY_H_
