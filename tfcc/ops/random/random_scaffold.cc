// TEMPORARY scaffold: replaced by the real family.
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "tfcc/ops/random/random.h"
#include "tfcc/ops/registry.h"

namespace tfcc {
void register_random_ops(OpRegistry&) {}
}
namespace tfcc::random {
void set_seed(uint64_t) {}
Tensor uniform(std::vector<int64_t> shape, double minval, double maxval, DType dtype, std::optional<int64_t> seed, Loc loc) {
  throw UnimplementedError("uniform is not implemented yet");
}

Tensor normal(std::vector<int64_t> shape, double mean, double stddev, DType dtype, std::optional<int64_t> seed, Loc loc) {
  throw UnimplementedError("normal is not implemented yet");
}

Tensor truncated_normal(std::vector<int64_t> shape, double mean, double stddev, DType dtype, std::optional<int64_t> seed, Loc loc) {
  throw UnimplementedError("truncated_normal is not implemented yet");
}

Tensor categorical(const Tensor& logits, int64_t num_samples, std::optional<int64_t> seed, Loc loc) {
  throw UnimplementedError("categorical is not implemented yet");
}

Tensor shuffle(const Tensor& x, std::optional<int64_t> seed, Loc loc) {
  throw UnimplementedError("shuffle is not implemented yet");
}

Tensor stateless_uniform(std::vector<int64_t> shape, std::array<int64_t, 2> seed, double minval, double maxval, DType dtype, Loc loc) {
  throw UnimplementedError("stateless_uniform is not implemented yet");
}

Tensor stateless_normal(std::vector<int64_t> shape, std::array<int64_t, 2> seed, double mean, double stddev, DType dtype, Loc loc) {
  throw UnimplementedError("stateless_normal is not implemented yet");
}

Tensor stateless_truncated_normal(std::vector<int64_t> shape, std::array<int64_t, 2> seed, double mean, double stddev, DType dtype, Loc loc) {
  throw UnimplementedError("stateless_truncated_normal is not implemented yet");
}
}
