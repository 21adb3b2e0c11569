// The embedded mode: a CatalogTarget over warmup's engine in this process.
// Apart from engine.h, so that the engine does not depend on the copy's
// target interface, which sits a floor above it.
#ifndef WARMUP_EMBEDDED_TARGET_H_
#define WARMUP_EMBEDDED_TARGET_H_

#include <memory>
#include <string>

#include "warmup/catalog_target.h"
#include "warmup/engine.h"
#include "warmup/status.h"

namespace warmup {

// A CatalogTarget over an engine opened on `data_dir`.
// Errors: those of Engine::Open.
StatusOr<std::unique_ptr<CatalogTarget>> MakeEmbeddedTarget(const std::string& data_dir,
                                                            const EngineOptions& options = {});

}  // namespace warmup

#endif  // WARMUP_EMBEDDED_TARGET_H_
