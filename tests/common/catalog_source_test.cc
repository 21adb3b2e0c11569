// What a catalog read in a state other than ALIVE holds, said once for the
// gRPC source's refusal and the report's caveat.
#include "warmup/catalog_source.h"

#include <doctest/doctest.h>

#include <string>

#include "warmup/report.h"
#include "warmup/run_result.h"

namespace warmup {
namespace {

TEST_CASE(
    "regression: a BEING_ACTIVATED catalog (a server still opening it from its storage) was said to hold "
    "only "
    "what a load had reached") {
  CHECK(WhatNotAliveHolds("WARMING_UP") ==
        "it holds only what a load had reached (one under way, or a failed one kept), not a whole catalog");
  CHECK(WhatNotAliveHolds("BEING_ACTIVATED") ==
        "the server is still opening it from its storage: whole once ALIVE, partly readable or not at all "
        "before");
  CHECK(WhatNotAliveHolds("INACTIVE") == "the server does not serve it as a whole catalog in that state");

  // The report's caveat says the same of a source read while it was being activated.
  RunResult r;
  r.config.target_kind = "null";
  r.config.dataset_provenance["source.catalog_state"] = "BEING_ACTIVATED";
  const std::string text = RenderTextReport(r);
  // (The caveat is wrapped: compare it with its line breaks taken out.)
  std::string flat;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n') {
      while (i + 1 < text.size() && text[i + 1] == ' ') ++i;
      flat += ' ';
    } else {
      flat += text[i];
    }
  }
  CHECK(flat.find("the source catalog was BEING_ACTIVATED when it was read, not ALIVE: the server is still "
                  "opening it from its storage") != std::string::npos);
  CHECK(flat.find("only what a load had reached") == std::string::npos);
}

}  // namespace
}  // namespace warmup
