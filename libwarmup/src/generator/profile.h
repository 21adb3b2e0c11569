// A generator profile: a catalog schema, how many entities each collection
// holds, and how to make entity `pk` of a collection. Internal.
#ifndef WARMUP_SRC_GENERATOR_PROFILE_H_
#define WARMUP_SRC_GENERATOR_PROFILE_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "warmup/entity.h"
#include "warmup/generator.h"
#include "warmup/schema.h"

namespace warmup::generator {

struct CollectionPlan {
  std::string entity_type;
  int64_t count = 0;  // primary keys run from 1 to count
};

// Thread-safety: MakeEntity is const and may run concurrently.
class Profile {
 public:
  virtual ~Profile() = default;
  virtual const CatalogSchema& schema() const = 0;
  // Sorted by entity type, counts already scaled.
  virtual const std::vector<CollectionPlan>& collections() const = 0;
  // Fills `*entity` (overwriting it) with entity `pk` of `entity_type`, as a
  // catalog holds it: locales derived, default values applied. The result
  // depends only on the options' seed, the type and `pk`.
  virtual void MakeEntity(const std::string& entity_type, int32_t pk, Entity* entity) const = 0;
};

// Scales a count: rounded to nearest, at least 1.
int64_t ScaleCount(int64_t count, double scale);

// senesi's collections and counts; kProduction gives Product the reduced
// indexes of production's recorded shape ("senesi-production",
// docs/datasets.md).
enum class SenesiShape { kSenesi, kProduction };
std::unique_ptr<Profile> MakeSenesiProfile(const GeneratorOptions& options, SenesiShape shape);
std::unique_ptr<Profile> MakeTinyProfile(const GeneratorOptions& options);

}  // namespace warmup::generator

#endif  // WARMUP_SRC_GENERATOR_PROFILE_H_
