// Short alias for the generated evitaDB protocol namespace. Internal to src/.
#ifndef WARMUP_SRC_CODEC_PB_H_
#define WARMUP_SRC_CODEC_PB_H_

namespace io::evitadb::externalApi::grpc::generated {}

namespace warmup {
namespace pb = ::io::evitadb::externalApi::grpc::generated;
}  // namespace warmup

#endif  // WARMUP_SRC_CODEC_PB_H_
