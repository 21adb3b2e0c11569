#include "codec/schema_mutations.h"

#include <doctest/doctest.h>

#include <algorithm>

#include "codec/schema_fixtures.h"
#include "codec/schema_interpreter.h"
#include "common/status_matchers.h"

#include "generator/tiny_profile.h"

namespace warmup::codec {
namespace {

TEST_CASE(
    "schema -> mutations -> applied to a fresh catalog gives the same schema (regression: moved-from name)") {
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    CatalogSchema schema = generator::RandomCatalogSchema(seed);
    const auto parsed = ThroughWire(CatalogSchemaToMutations(schema));
    CatalogSchema rebuilt = FreshCatalog(schema.name);
    Status applied = ApplyCatalogSchemaMutations(parsed, &rebuilt);
    REQUIRE_MESSAGE(applied.ok(), applied.ToString());
    NormalizeVersions(&schema);
    NormalizeVersions(&rebuilt);
    CHECK(rebuilt == schema);
  }
}

TEST_CASE("mutations come in the order evitaDB needs") {
  const CatalogSchema schema = generator::RandomCatalogSchema(2);
  const auto mutations = CatalogSchemaToMutations(schema);
  size_t last_global = 0, first_create = mutations.size(), last_create = 0, first_modify = mutations.size();
  size_t first_reflected = mutations.size(), last_plain_reference = 0;
  for (size_t i = 0; i < mutations.size(); ++i) {
    const auto& m = mutations[i];
    if (m.has_createglobalattributeschemamutation()) last_global = i;
    if (m.has_createentityschemamutation()) {
      first_create = std::min(first_create, i);
      last_create = i;
    }
    if (m.has_modifyentityschemamutation()) {
      first_modify = std::min(first_modify, i);
      for (const auto& em : m.modifyentityschemamutation().entityschemamutations()) {
        if (em.has_createreflectedreferenceschemamutation()) first_reflected = std::min(first_reflected, i);
        if (em.has_createreferenceschemamutation()) last_plain_reference = i;
      }
    }
  }
  CHECK(last_global < first_create);
  CHECK(last_create < first_modify);
  CHECK(last_plain_reference < first_reflected);
  CHECK(first_reflected < mutations.size());
}

}  // namespace
}  // namespace warmup::codec
