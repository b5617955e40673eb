// Definitions of the random family: seeds (TensorFlow's global + op seed rules), the stateful and
// stateless random ops, and the typed API. Random ops are not differentiable; the stateful ones
// are marked stateful so graph passes never fold or merge them.
#include "tfcc/ops/random/random.h"

#include <limits>
#include <map>
#include <mutex>
#include <random>

#include "tfcc/ops/creation/creation_internal.h"
#include "tfcc/ops/dispatch.h"
#include "tfcc/ops/in_place.h"
#include "tfcc/ops/random/random_internal.h"
#include "tfcc/ops/registry.h"

namespace tfcc {
namespace {

uint64_t splitmix64(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

uint64_t pair_key(int64_t a, int64_t b) {
  return splitmix64(uint64_t(a) ^ splitmix64(uint64_t(b) + 0x632BE59BD9B4E019ull));
}

struct SeedState {
  std::mutex mu;
  std::optional<uint64_t> global_seed;
  uint64_t op_counter = 0;
  std::map<std::pair<int64_t, int64_t>, uint64_t> calls;  // per seed pair
};

SeedState& seed_state() {
  static SeedState* s = new SeedState;  // never destroyed: used from any thread until exit
  return *s;
}

constexpr int64_t kDefaultGraphSeed = 87654321;

// TensorFlow's random_seed.get_seed: the (seed, seed2) attributes of one op call.
std::pair<int64_t, int64_t> get_seed(std::optional<int64_t> op_seed) {
  SeedState& s = seed_state();
  std::lock_guard lock(s.mu);
  std::pair<int64_t, int64_t> p;
  if (s.global_seed) {
    int64_t seed2;
    if (op_seed) {
      seed2 = *op_seed;
    } else {
      seed2 = static_cast<int64_t>(splitmix64(*s.global_seed ^ splitmix64(s.op_counter++)) &
                                   0x7fffffffull);
    }
    p = {static_cast<int64_t>(*s.global_seed), seed2};
  } else if (op_seed) {
    p = {kDefaultGraphSeed, *op_seed};
  } else {
    return {0, 0};  // nondeterministic
  }
  if (p.first == 0 && p.second == 0) p.second = std::numeric_limits<int32_t>::max();
  return p;
}

void check_shape(const InferenceContext& c, const std::vector<int64_t>& dims) {
  int64_t n = 1;
  for (int64_t d : dims) {
    if (d < 0) {
      std::string s;
      for (size_t i = 0; i < dims.size(); ++i) s += internal::str_cat(i ? "," : "", dims[i]);
      c.fail("Shape dimensions must be >= 0, got [" + s + "]");
    }
    n = checked_mul(n, d);
  }
}

std::vector<OutputSpec> uniform_shape(const InferenceContext& c) {
  const auto& dims = c.attr<std::vector<int64_t>>("shape");
  DType dt = c.attr<DType>("dtype");
  check_shape(c, dims);
  double lo = c.attr<double>("minval"), hi = c.attr<double>("maxval");
  if (is_integer(dt)) {
    for (double v : {lo, hi}) {
      if (!dtype_holds(dt, v)) {
        c.fail(
            internal::str_cat("Cannot convert ", v, " to EagerTensor of dtype ", dtype_name(dt)));
      }
    }
  }
  if (!(lo < hi)) c.fail(internal::str_cat("Need minval < maxval: ", lo, " >= ", hi));
  if (!std::isfinite(lo) || !std::isfinite(hi)) {
    c.fail(internal::str_cat("Need finite minval and maxval: ", lo, ", ", hi));
  }
  return {{dt, PartialShape(dims)}};
}

std::vector<OutputSpec> normal_shape(const InferenceContext& c) {
  const auto& dims = c.attr<std::vector<int64_t>>("shape");
  check_shape(c, dims);
  return {{c.attr<DType>("dtype"), PartialShape(dims)}};
}

void check_seed_attr(const InferenceContext& c) {
  if (c.attr<std::vector<int64_t>>("seed").size() != 2) {
    c.fail(internal::str_cat("seed must have shape [2], not [",
                             c.attr<std::vector<int64_t>>("seed").size(), "]"));
  }
}

std::vector<OutputSpec> multinomial_shape(const InferenceContext& c) {
  PartialShape s = c.shape(0);
  const int64_t n = c.attr<int64_t>("num_samples");
  if (n < 0) c.fail(internal::str_cat("num_samples should be nonnegative, got ", n));
  if (!s.rank_known()) return {{int64, PartialShape({-1, n})}};
  if (s.rank() != 2) c.fail("logits should be a matrix, got shape " + s.to_string());
  if (s.dim(1) == 0 && n > 0) c.fail("num_classes should be positive, got 0");
  if (s.dim(0) >= 0) checked_mul(s.dim(0), n);
  return {{int64, PartialShape({s.dim(0), n})}};
}

std::vector<OutputSpec> same_shape(const InferenceContext& c) { return {{c.dtype(0), c.shape(0)}}; }

OpDef& seeded(OpDef& op) {
  return op.attr("seed", AttrType::kInt, int64_t{0}).attr("seed2", AttrType::kInt, int64_t{0});
}

}  // namespace

namespace random_internal {

Philox stateful_generator(int64_t seed, int64_t seed2) {
  if (seed == 0 && seed2 == 0) {
    static thread_local std::random_device rd;
    uint64_t k = (uint64_t(rd()) << 32) ^ rd();
    uint64_t st = (uint64_t(rd()) << 32) ^ rd();
    return Philox(k, st);
  }
  SeedState& s = seed_state();
  uint64_t call;
  {
    std::lock_guard lock(s.mu);
    call = s.calls[{seed, seed2}]++;
  }
  return Philox(pair_key(seed, seed2), call);
}

Philox stateless_generator(int64_t seed0, int64_t seed1) {
  return Philox(pair_key(seed0, seed1), ~uint64_t{0});
}

void reset_streams() {
  SeedState& s = seed_state();
  std::lock_guard lock(s.mu);
  s.calls.clear();
  s.op_counter = 0;
}

}  // namespace random_internal

void register_random_ops(OpRegistry& r) {
  const std::vector<DType> uniform_types = {float32, float64, int32, int64};
  seeded(r.add("RandomUniform")
             .output("output", "dtype")
             .type_attr("dtype", uniform_types)
             .attr("shape", AttrType::kInts)
             .attr("minval", AttrType::kFloat, 0.0)
             .attr("maxval", AttrType::kFloat, 1.0))
      .shape_fn(uniform_shape)
      .cpu_kernels(random_cpu_kernel)
      .stateful()
      .not_differentiable();
  // Dropout fused into one pass (not a TensorFlow op: TF composes it from RandomUniform,
  // GreaterEqual, Mul and SelectV2, four passes over memory forward and two backward).
  seeded(r.add("FusedDropout")
             .input("x", "T")
             .output("y", "T")
             .output("keep", bool_)
             .type_attr("T", kFloatTypes)
             .attr("rate", AttrType::kFloat))
      .shape_fn([](const InferenceContext& c) -> std::vector<OutputSpec> {
        const double rate = c.attr<double>("rate");
        if (!(rate >= 0 && rate < 1)) {
          c.fail(internal::str_cat("rate must be in [0, 1), got ", rate));
        }
        return {{c.dtype(0), c.shape(0)}, {bool_, c.shape(0)}};
      })
      .cpu_kernels(random_cpu_kernel)
      .stateful()
      .gradient([](const GradContext& g) -> std::vector<Tensor> {
        return {random::fused_dropout_grad(g.grads[0], g.outputs[1], g.attrs.get<double>("rate"))};
      });
  r.add("FusedDropoutGrad")
      .input("dy", "T")
      .input("keep", bool_)
      .output("dx", "T")
      .type_attr("T", kFloatTypes)
      .attr("rate", AttrType::kFloat)
      .shape_fn([](const InferenceContext& c) -> std::vector<OutputSpec> {
        const double rate = c.attr<double>("rate");
        if (!(rate >= 0 && rate < 1)) {
          c.fail(internal::str_cat("rate must be in [0, 1), got ", rate));
        }
        if (!c.shape(0).is_compatible_with(c.shape(1))) {
          c.fail(internal::str_cat("dy and keep must have the same shape: ", c.shape(0).to_string(),
                                   " vs. ", c.shape(1).to_string()));
        }
        return {{c.dtype(0), c.shape(0).merge_with(c.shape(1))}};
      })
      .cpu_kernels(random_cpu_kernel)
      // Linear in dy; the mask is boolean.
      .gradient([](const GradContext& g) -> std::vector<Tensor> {
        return {random::fused_dropout_grad(g.grads[0], g.inputs[1], g.attrs.get<double>("rate")),
                Tensor()};
      });
  // Both kernels read x[i] (dy[i]) only to write y[i] (dx[i]).
  declare_in_place(*r.find("FusedDropout"), 0, {0});
  declare_in_place(*r.find("FusedDropoutGrad"), 0, {0});
  for (const char* name : {"RandomStandardNormal", "TruncatedNormal"}) {
    seeded(r.add(name)
               .output("output", "dtype")
               .type_attr("dtype", kFloatTypes)
               .attr("shape", AttrType::kInts)
               .attr("mean", AttrType::kFloat, 0.0)
               .attr("stddev", AttrType::kFloat, 1.0))
        .shape_fn(normal_shape)
        .cpu_kernels(random_cpu_kernel)
        .stateful()
        .not_differentiable();
  }
  seeded(r.add("Multinomial")
             .input("logits", "T")
             .output("output", int64)
             .type_attr("T", kFloatTypes)
             .attr("num_samples", AttrType::kInt))
      .shape_fn(multinomial_shape)
      .cpu_kernels(random_cpu_kernel)
      .stateful()
      .not_differentiable();
  seeded(r.add("RandomShuffle").input("value", "T").output("output", "T").type_attr("T", kAllTypes))
      .shape_fn(same_shape)
      .cpu_kernels(random_cpu_kernel)
      .stateful()
      .not_differentiable();
  // Stateless ops are pure functions of their attributes: not stateful.
  r.add("StatelessRandomUniformV2")
      .output("output", "dtype")
      .type_attr("dtype", uniform_types)
      .attr("shape", AttrType::kInts)
      .attr("seed", AttrType::kInts)
      .attr("minval", AttrType::kFloat, 0.0)
      .attr("maxval", AttrType::kFloat, 1.0)
      .shape_fn([](const InferenceContext& c) {
        check_seed_attr(c);
        return uniform_shape(c);
      })
      .cpu_kernels(random_cpu_kernel)
      .not_differentiable();
  for (const char* name : {"StatelessRandomNormalV2", "StatelessTruncatedNormalV2"}) {
    r.add(name)
        .output("output", "dtype")
        .type_attr("dtype", kFloatTypes)
        .attr("shape", AttrType::kInts)
        .attr("seed", AttrType::kInts)
        .attr("mean", AttrType::kFloat, 0.0)
        .attr("stddev", AttrType::kFloat, 1.0)
        .shape_fn([](const InferenceContext& c) {
          check_seed_attr(c);
          return normal_shape(c);
        })
        .cpu_kernels(random_cpu_kernel)
        .not_differentiable();
  }
}

}  // namespace tfcc

namespace tfcc::random {

void set_seed(uint64_t seed) {
  {
    SeedState& s = seed_state();
    std::lock_guard lock(s.mu);
    s.global_seed = seed;
  }
  random_internal::reset_streams();
}

// Layout: [has_seed, seed, op_counter, n, (seed, seed2, calls) * n].
Tensor get_global_state() {
  SeedState& s = seed_state();
  std::lock_guard lock(s.mu);
  std::vector<int64_t> v = {
      s.global_seed.has_value(), static_cast<int64_t>(s.global_seed.value_or(0)),
      static_cast<int64_t>(s.op_counter), static_cast<int64_t>(s.calls.size())};
  for (const auto& [pair, calls] : s.calls) {
    v.push_back(pair.first);
    v.push_back(pair.second);
    v.push_back(static_cast<int64_t>(calls));
  }
  return Tensor::from_vector(v);
}

void set_global_state(const Tensor& state) {
  TFCC_CHECK_ARG(state.defined() && state.dtype() == int64 && state.rank() == 1,
                 "set_global_state expects a 1-D int64 tensor from get_global_state");
  const int64_t n = state.shape()[0];
  const int64_t* v = state.data<int64_t>();
  TFCC_CHECK_ARG(
      n >= 4 && (v[0] == 0 || v[0] == 1) && v[3] >= 0 && v[3] <= (n - 4) / 3 && n == 4 + 3 * v[3],
      "set_global_state: malformed random state of ", n, " values");
  SeedState& s = seed_state();
  std::lock_guard lock(s.mu);
  s.global_seed = v[0] ? std::optional<uint64_t>(static_cast<uint64_t>(v[1])) : std::nullopt;
  s.op_counter = static_cast<uint64_t>(v[2]);
  s.calls.clear();
  for (int64_t i = 0; i < v[3]; ++i) {
    s.calls[{v[4 + 3 * i], v[5 + 3 * i]}] = static_cast<uint64_t>(v[6 + 3 * i]);
  }
}

namespace {
Tensor call_seeded(const OpDef& op, std::span<const Tensor> in, Attrs attrs,
                   std::optional<int64_t> seed, Loc loc) {
  auto [s1, s2] = get_seed(seed);
  attrs.set("seed", s1);
  attrs.set("seed2", s2);
  return dispatch1(op, in, std::move(attrs), loc);
}
}  // namespace

Tensor uniform(std::vector<int64_t> shape, double minval, double maxval, DType dtype,
               std::optional<int64_t> seed, Loc loc) {
  static const OpDef& op = op_def("RandomUniform");
  return call_seeded(
      op, {},
      {{"shape", std::move(shape)}, {"minval", minval}, {"maxval", maxval}, {"dtype", dtype}}, seed,
      loc);
}

Tensor normal(std::vector<int64_t> shape, double mean, double stddev, DType dtype,
              std::optional<int64_t> seed, Loc loc) {
  static const OpDef& op = op_def("RandomStandardNormal");
  return call_seeded(
      op, {}, {{"shape", std::move(shape)}, {"mean", mean}, {"stddev", stddev}, {"dtype", dtype}},
      seed, loc);
}

Tensor truncated_normal(std::vector<int64_t> shape, double mean, double stddev, DType dtype,
                        std::optional<int64_t> seed, Loc loc) {
  static const OpDef& op = op_def("TruncatedNormal");
  return call_seeded(
      op, {}, {{"shape", std::move(shape)}, {"mean", mean}, {"stddev", stddev}, {"dtype", dtype}},
      seed, loc);
}

Tensor categorical(const Tensor& logits, int64_t num_samples, std::optional<int64_t> seed,
                   Loc loc) {
  static const OpDef& op = op_def("Multinomial");
  Tensor in[] = {logits};
  return call_seeded(op, in, {{"num_samples", num_samples}}, seed, loc);
}

std::vector<Tensor> fused_dropout(const Tensor& x, double rate, std::optional<int64_t> seed,
                                  Loc loc) {
  static const OpDef& op = op_def("FusedDropout");
  Tensor in[] = {x};
  auto [s1, s2] = get_seed(seed);
  return dispatch(op, in, {{"rate", rate}, {"seed", s1}, {"seed2", s2}}, loc);
}

Tensor fused_dropout_grad(const Tensor& dy, const Tensor& keep, double rate, Loc loc) {
  static const OpDef& op = op_def("FusedDropoutGrad");
  Tensor in[] = {dy, keep};
  return dispatch1(op, in, {{"rate", rate}}, loc);
}

Tensor shuffle(const Tensor& x, std::optional<int64_t> seed, Loc loc) {
  static const OpDef& op = op_def("RandomShuffle");
  Tensor in[] = {x};
  return call_seeded(op, in, {}, seed, loc);
}

Tensor stateless_uniform(std::vector<int64_t> shape, std::array<int64_t, 2> seed, double minval,
                         double maxval, DType dtype, Loc loc) {
  static const OpDef& op = op_def("StatelessRandomUniformV2");
  return dispatch1(op, {},
                   {{"shape", std::move(shape)},
                    {"seed", std::vector<int64_t>{seed[0], seed[1]}},
                    {"minval", minval},
                    {"maxval", maxval},
                    {"dtype", dtype}},
                   loc);
}

Tensor stateless_normal(std::vector<int64_t> shape, std::array<int64_t, 2> seed, double mean,
                        double stddev, DType dtype, Loc loc) {
  static const OpDef& op = op_def("StatelessRandomNormalV2");
  return dispatch1(op, {},
                   {{"shape", std::move(shape)},
                    {"seed", std::vector<int64_t>{seed[0], seed[1]}},
                    {"mean", mean},
                    {"stddev", stddev},
                    {"dtype", dtype}},
                   loc);
}

Tensor stateless_truncated_normal(std::vector<int64_t> shape, std::array<int64_t, 2> seed,
                                  double mean, double stddev, DType dtype, Loc loc) {
  static const OpDef& op = op_def("StatelessTruncatedNormalV2");
  return dispatch1(op, {},
                   {{"shape", std::move(shape)},
                    {"seed", std::vector<int64_t>{seed[0], seed[1]}},
                    {"mean", mean},
                    {"stddev", stddev},
                    {"dtype", dtype}},
                   loc);
}

}  // namespace tfcc::random
