#include "copy/verify_content.h"

#include <functional>
#include <memory>

#include "base/status_macros.h"
#include "warmup/digest.h"

namespace warmup::copy {
namespace {

// Which parts of two entities with the same key differ, e.g. "prices,
// references": each part digested alone, so that order does not count where
// the digest ignores it.
std::string DifferingParts(const Entity& a, const Entity& b) {
  using Part = std::function<void(const Entity&, Entity&)>;
  const std::vector<std::pair<const char*, Part>> parts = {
      {"scope", [](const Entity& e, Entity& p) { p.scope = e.scope; }},
      {"parent", [](const Entity& e, Entity& p) { p.parent = e.parent; }},
      {"attributes", [](const Entity& e, Entity& p) { p.attributes = e.attributes; }},
      {"associated data", [](const Entity& e, Entity& p) { p.associated_data = e.associated_data; }},
      {"prices",
       [](const Entity& e, Entity& p) {
         p.prices = e.prices;
         p.price_inner_record_handling = e.price_inner_record_handling;
       }},
      {"references", [](const Entity& e, Entity& p) { p.references = e.references; }},
      {"locales", [](const Entity& e, Entity& p) { p.locales = e.locales; }},
  };
  std::string differing;
  for (const auto& [name, take] : parts) {
    Entity left;
    Entity right;
    take(a, left);
    take(b, right);
    if (EntityDigest(left) != EntityDigest(right)) {
      differing += (differing.empty() ? "" : ", ") + std::string(name);
    }
  }
  return differing.empty() ? "content" : differing;
}

// One side of the comparison: a stream and the entity it is at.
class Cursor {
 public:
  Cursor(std::unique_ptr<EntityStream> stream, const EntitySchema& schema, int64_t limit)
      : stream_(std::move(stream)), schema_(schema), left_(limit) {}
  // Moves to the next entity; false at the end.
  StatusOr<bool> Advance() {
    if (left_ == 0) return at_ = false;
    WARMUP_ASSIGN_OR_RETURN(at_, stream_->Next(&entity_));
    if (at_) {
      RemoveReflectedReferences(schema_, entity_);
      if (left_ > 0) --left_;
    }
    return at_;
  }
  bool at() const { return at_; }
  const Entity& entity() const { return entity_; }

 private:
  std::unique_ptr<EntityStream> stream_;
  const EntitySchema& schema_;
  int64_t left_;  // entities still to read; negative = no limit
  Entity entity_;
  bool at_ = false;
};

}  // namespace

Status CompareCollection(CatalogSource& expected, CatalogSource& actual, const std::string& entity_type,
                         int64_t limit, ContentComparison* out) {
  auto schema = expected.schema().entities.find(entity_type);
  if (schema == expected.schema().entities.end()) return NotFoundError("no collection " + entity_type);
  WARMUP_ASSIGN_OR_RETURN(auto expected_stream, expected.OpenCollection(entity_type));
  WARMUP_ASSIGN_OR_RETURN(auto actual_stream, actual.OpenCollection(entity_type));
  Cursor want(std::move(expected_stream), schema->second, limit);
  Cursor have(std::move(actual_stream), schema->second, -1);
  auto differ = [&](const std::string& what) {
    ++out->differences;
    if (out->first_differences.size() < kDescribedDifferences) out->first_differences.push_back(what);
  };
  WARMUP_RETURN_IF_ERROR(want.Advance().status());
  WARMUP_RETURN_IF_ERROR(have.Advance().status());
  while (want.at() || have.at()) {
    if (!want.at() || (have.at() && have.entity().primary_key < want.entity().primary_key)) {
      differ(EntityLabel(have.entity()) + ": in the target, not in the source");
      WARMUP_RETURN_IF_ERROR(have.Advance().status());
    } else if (!have.at() || want.entity().primary_key < have.entity().primary_key) {
      differ(EntityLabel(want.entity()) + ": missing from the target");
      WARMUP_RETURN_IF_ERROR(want.Advance().status());
    } else {
      ++out->compared;
      if (EntityDigest(want.entity()) != EntityDigest(have.entity())) {
        differ(EntityLabel(want.entity()) + ": differs in " + DifferingParts(want.entity(), have.entity()));
      }
      WARMUP_RETURN_IF_ERROR(want.Advance().status());
      WARMUP_RETURN_IF_ERROR(have.Advance().status());
    }
  }
  return OkStatus();
}

}  // namespace warmup::copy
