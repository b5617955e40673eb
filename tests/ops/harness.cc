#include "tests/ops/harness.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <sstream>

#include "tfcc/autodiff/gradient_checker.h"
#include "tfcc/autodiff/gradient_tape.h"
#include "tfcc/ops/registry.h"
#include "tfcc/platform/parallel_runtime.h"

namespace tfcc::conformance {

Ref scalar(double v, std::optional<DType> dtype) { return {{}, {v}, dtype}; }
Ref vec(std::vector<double> v, std::optional<DType> dtype) {
  int64_t n = static_cast<int64_t>(v.size());
  return {{n}, std::move(v), dtype};
}
Ref mat(std::vector<std::vector<double>> rows, std::optional<DType> dtype) {
  Ref r{{static_cast<int64_t>(rows.size()), rows.empty() ? 0 : int64_t(rows[0].size())}, {}, dtype};
  for (auto& row : rows) r.values.insert(r.values.end(), row.begin(), row.end());
  return r;
}
Ref shaped(std::vector<int64_t> shape, std::vector<double> v, std::optional<DType> dtype) {
  return {std::move(shape), std::move(v), dtype};
}
Ref filled(std::vector<int64_t> shape, double lo, double hi, uint64_t seed,
           std::optional<DType> dtype) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  Ref r{std::move(shape), {}, dtype};
  uint64_t s = seed * 0x9E3779B97F4A7C15ull + 1;
  for (int64_t i = 0; i < n; ++i) {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    double u = static_cast<double>(s >> 11) / static_cast<double>(1ull << 53);
    r.values.push_back(lo + (hi - lo) * u);
  }
  return r;
}

Tensor to_tensor(const Ref& r, DType dtype) {
  Shape s(r.shape);
  Tensor t = Tensor::empty(dtype, s);
  visit_dtype(dtype, [&]<typename T>() {
    T* p = t.mutable_data<T>();
    for (size_t i = 0; i < r.values.size(); ++i) {
      double v = r.values[i];
      if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
        // Through int64: out-of-range values wrap (defined) instead of converting (undefined).
        // Values beyond int64 saturate (a float64 reference of an int64 extreme is 2^63).
        constexpr double kTwo63 = 9223372036854775808.0;
        int64_t w = !std::isfinite(v) ? 0
                    : v >= kTwo63     ? INT64_MAX
                    : v < -kTwo63     ? INT64_MIN
                                      : static_cast<int64_t>(std::trunc(v));
        p[i] = static_cast<T>(w);
      } else {
        p[i] = convert_element<T>(v);
      }
    }
  });
  return t;
}

Ref from_tensor(const Tensor& t) { return {t.shape().dims(), t.to_vector<double>(), t.dtype()}; }

namespace {

std::string describe(const Ref& r) {
  std::ostringstream os;
  os << "shape (";
  for (size_t i = 0; i < r.shape.size(); ++i) os << (i ? ", " : "") << r.shape[i];
  os << ") values [";
  for (size_t i = 0; i < r.values.size() && i < 12; ++i) os << (i ? ", " : "") << r.values[i];
  if (r.values.size() > 12) os << ", ...";
  os << "]";
  return os.str();
}

bool close(double got, double want, double rtol, double atol) {
  if (std::isnan(want)) return std::isnan(got);
  if (std::isinf(want)) return got == want;
  return std::fabs(got - want) <= atol + rtol * std::fabs(want);
}

void check_case(const OpRow& row, const Case& c, DType dtype) {
  SCOPED_TRACE(row.name + " case '" + c.label + "' dtype " + std::string(dtype_name(dtype)));
  std::vector<Tensor> inputs;
  std::vector<Ref> held;  // inputs as the tested dtype holds them
  for (const Ref& r : c.inputs) {
    Tensor t = to_tensor(r, r.dtype.value_or(dtype));
    inputs.push_back(t);
    held.push_back(from_tensor(t));
  }
  std::vector<Tensor> got;
  try {
    got = row.fn(inputs);
  } catch (const Error& e) {
    ADD_FAILURE() << "raised " << error_code_name(e.code()) << ": " << e.what();
    return;
  }
  std::vector<Ref> want = row.reference(held, dtype);
  ASSERT_EQ(got.size(), want.size()) << "number of outputs";
  DType out_dtype = row.out_dtype ? row.out_dtype(dtype) : dtype;
  double rtol = row.rtol64, atol = row.atol64;
  if (out_dtype == float32 || dtype == float32) {
    rtol = row.rtol32;
    atol = row.atol32;
  }
  if (out_dtype == bfloat16) {
    rtol = row.rtol32 * 100;
    atol = row.atol32 * 100;
  }
  for (size_t k = 0; k < got.size(); ++k) {
    SCOPED_TRACE("output " + std::to_string(k));
    DType want_dtype = want[k].dtype.value_or(out_dtype);
    EXPECT_EQ(got[k].dtype(), want_dtype);
    if (is_integer(want_dtype)) {
      // The reference computes in float64; integer outputs hold it truncated.
      Ref wrapped = from_tensor(to_tensor(want[k], want_dtype));
      for (size_t i = 0; i < wrapped.values.size(); ++i) {
        if (std::isfinite(want[k].values[i])) want[k].values[i] = wrapped.values[i];
      }
    }
    Ref g = from_tensor(got[k]);
    ASSERT_EQ(g.shape, want[k].shape) << "got " << describe(g) << "\nwant " << describe(want[k]);
    ASSERT_EQ(g.values.size(), want[k].values.size());
    for (size_t i = 0; i < g.values.size(); ++i) {
      if (!close(g.values[i], want[k].values[i], rtol, atol)) {
        ADD_FAILURE() << "element " << i << ": got " << g.values[i] << ", want "
                      << want[k].values[i] << "\ngot " << describe(g) << "\nwant "
                      << describe(want[k]);
        break;
      }
    }
  }
}

}  // namespace

void run_row(const OpRow& row) {
  for (DType dtype : row.dtypes) {
    if (row.property_check) {
      SCOPED_TRACE(row.name + " dtype " + std::string(dtype_name(dtype)));
      row.property_check(dtype);
      continue;
    }
    for (const Case& c : row.cases) {
      if (!c.only.empty() && std::find(c.only.begin(), c.only.end(), dtype) == c.only.end()) {
        continue;
      }
      check_case(row, c, dtype);
    }
  }
  for (const BadCase& bad : row.invalid) {
    SCOPED_TRACE(row.name + " invalid case '" + bad.label + "'");
    try {
      bad.call();
      ADD_FAILURE() << "expected " << error_code_name(bad.code) << ", nothing was raised";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), bad.code) << "raised " << error_code_name(e.code()) << ": " << e.what();
      if (!bad.message_contains.empty()) {
        EXPECT_NE(std::string(e.what()).find(bad.message_contains), std::string::npos)
            << "message was: " << e.what();
      }
    } catch (const std::exception& e) {
      ADD_FAILURE() << "raised a non-tfcc exception: " << e.what();
    }
  }
}

bool row_is_differentiable(const OpRow& row) {
  if (!row.grad_check || row.property_check) return false;
  if (std::find(row.dtypes.begin(), row.dtypes.end(), float64) == row.dtypes.end()) return false;
  if (row.out_dtype && !is_floating(row.out_dtype(float64))) return false;
  for (const std::string& name : row.ops) {
    const OpDef* op = OpRegistry::global().find(name);
    if (!op || !op->is_differentiable()) return false;
  }
  return true;
}

namespace {

constexpr int64_t kMaxGradElements = 128;

// The case's inputs for a gradient check: pinned inputs as given, the others redrawn in the
// domain; nullopt when the case is too large or has nothing to differentiate.
std::optional<std::vector<Tensor>> gradient_inputs(const OpRow& row, const Case& c, uint64_t seed,
                                                   std::vector<size_t>* free) {
  if (!c.grad ||
      (!c.only.empty() && std::find(c.only.begin(), c.only.end(), float64) == c.only.end())) {
    return std::nullopt;
  }
  std::vector<Tensor> in;
  int64_t total = 0;
  for (size_t i = 0; i < c.inputs.size(); ++i) {
    const Ref& r = c.inputs[i];
    if (r.dtype) {
      in.push_back(to_tensor(r, *r.dtype));
      continue;
    }
    int64_t n = static_cast<int64_t>(r.values.size());
    total += n;
    Ref drawn = filled(r.shape, row.grad_domain.first, row.grad_domain.second, seed + i);
    in.push_back(to_tensor(drawn, float64));
    free->push_back(i);
  }
  if (free->empty() || total == 0 || total > kMaxGradElements) return std::nullopt;
  return in;
}

double tolerance(const std::vector<test::JacobianPair>& jac) {
  double scale = 1;
  for (const auto& p : jac) {
    for (double v : p.numerical.values) scale = std::max(scale, std::fabs(v));
  }
  return 1e-6 * scale;
}

}  // namespace

void run_gradient_check(const OpRow& row) {
  if (!row_is_differentiable(row)) GTEST_SKIP() << row.name << " is not differentiable";
  int checked = 0;
  for (size_t ci = 0; ci < row.cases.size(); ++ci) {
    const Case& c = row.cases[ci];
    std::vector<size_t> free;
    auto base = gradient_inputs(row, c, 1000 + ci, &free);
    if (!base) continue;
    SCOPED_TRACE(row.name + " gradient, case '" + c.label + "'");
    std::vector<Tensor> xs;
    for (size_t i : free) xs.push_back((*base)[i]);
    auto call = [&](const std::vector<Tensor>& vs) {
      std::vector<Tensor> all = *base;
      for (size_t k = 0; k < free.size(); ++k) all[free[k]] = vs[k];
      return row.fn(all);
    };
    const size_t num_outputs = call(xs).size();
    for (size_t k = 0; k < num_outputs; ++k) {
      auto f = [&](const std::vector<Tensor>& vs) { return call(vs)[k]; };
      try {
        auto jac = test::compute_gradient(f, xs);
        EXPECT_LE(test::max_error(jac), tolerance(jac)) << "output " << k;
        ++checked;
        if (!row.second_order) continue;
        // Second order: differentiate x -> d/dx sum(w * f(x)) once more.
        Tensor w = to_tensor(filled(f(xs).shape().dims(), 0.5, 1.5, 77), float64);
        auto g = [&](const std::vector<Tensor>& vs) {
          GradientTape inner;
          inner.watch(vs);
          Tensor y = reduce_sum(multiply(f(vs), w));
          return inner.gradient(y, vs[0], {{}, UnconnectedGradients::kZero});
        };
        auto jac2 = test::compute_gradient(g, xs);
        EXPECT_LE(test::max_error(jac2), 10 * tolerance(jac2)) << "second order, output " << k;
      } catch (const Error& e) {
        ADD_FAILURE() << "raised " << error_code_name(e.code()) << ": " << e.what();
      }
    }
  }
  EXPECT_GT(checked, 0) << row.name << ": no case small enough for a gradient check";
}

namespace {
// Cases every element-wise row gets: broadcasting, rank 0, empty, edge values.
std::vector<Case> unary_cases() {
  return {
      {"scalar", {scalar(0.5)}, {}},
      {"vector", {vec({-2, -0.5, 0, 0.25, 1, 3})}, {}},
      {"matrix", {filled({3, 4}, -3, 3, 7)}, {}},
      {"empty", {shaped({0, 3}, {})}, {}},
      {"large", {filled({70000}, -2, 2, 3)}, {}},
  };
}
std::vector<Case> binary_cases() {
  return {
      {"same shape", {vec({-2, -1, 0, 1, 2, 5}), vec({3, -2, 1, 4, -5, 2})}, {}},
      {"scalars", {scalar(2), scalar(3)}, {}},
      {"broadcast row", {filled({3, 4}, -5, 5, 1), filled({4}, 1, 4, 2)}, {}},
      {"broadcast col", {filled({3, 1}, -5, 5, 3), filled({1, 4}, 1, 4, 4)}, {}},
      {"tensor-scalar", {filled({2, 3}, -5, 5, 5), scalar(2)}, {}},
      {"rank 3", {filled({2, 1, 3}, -5, 5, 6), filled({4, 1}, 1, 3, 7)}, {}},
      {"empty", {shaped({0, 2}, {}), vec({1, 2})}, {}},
      {"large", {filled({300, 300}, -5, 5, 8), filled({300}, 1, 3, 9)}, {}},
  };
}
}  // namespace

OpRow unary_row(std::string name, std::string op, std::vector<DType> dtypes,
                std::function<Tensor(const Tensor&)> fn, std::function<double(double)> ref,
                std::vector<Case> extra_cases) {
  OpRow row;
  row.name = name;
  row.ops = {op};
  row.dtypes = std::move(dtypes);
  row.cases = unary_cases();
  for (auto& c : extra_cases) row.cases.push_back(std::move(c));
  row.fn = [fn](const std::vector<Tensor>& in) { return std::vector<Tensor>{fn(in[0])}; };
  row.second_order = true;
  row.reference = [ref](const std::vector<Ref>& in, DType) {
    Ref out{in[0].shape, {}, std::nullopt};
    for (double v : in[0].values) {
      out.values.push_back(ref(v));
    }
    return std::vector<Ref>{out};
  };
  // Wrong dtype: a bool tensor is never a valid numeric input.
  row.invalid.push_back({"bool input",
                         [fn] {
                           fn(Tensor::from_vector<bool>({true, false}));
                         },
                         ErrorCode::kInvalidArgument, "[Op:" + op + "]"});
  return row;
}

Ref broadcast_ref(const Ref& a, const Ref& b, const std::function<double(double, double)>& ref) {
  // NumPy broadcasting in the reference, independent of the kernels' plan.
  size_t r = std::max(a.shape.size(), b.shape.size());
  std::vector<int64_t> shape(r);
  for (size_t i = 0; i < r; ++i) {
    int64_t da = i < r - a.shape.size() ? 1 : a.shape[i - (r - a.shape.size())];
    int64_t db = i < r - b.shape.size() ? 1 : b.shape[i - (r - b.shape.size())];
    shape[i] = da == 1 ? db : da;
  }
  Ref out{shape, {}, std::nullopt};
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  for (int64_t flat = 0; flat < n; ++flat) {
    int64_t ia = 0, ib = 0, sa = 1, sb = 1, rem = flat;
    for (int i = static_cast<int>(r) - 1; i >= 0; --i) {
      int64_t idx = rem % shape[i];
      rem /= shape[i];
      int ai = i - static_cast<int>(r - a.shape.size());
      int bi = i - static_cast<int>(r - b.shape.size());
      if (ai >= 0) {
        if (a.shape[ai] != 1) ia += idx * sa;
        sa *= a.shape[ai];
      }
      if (bi >= 0) {
        if (b.shape[bi] != 1) ib += idx * sb;
        sb *= b.shape[bi];
      }
    }
    out.values.push_back(ref(a.values[ia], b.values[ib]));
  }
  return out;
}

OpRow binary_row(std::string name, std::string op, std::vector<DType> dtypes,
                 std::function<Tensor(const Tensor&, const Tensor&)> fn,
                 std::function<double(double, double)> ref, std::vector<Case> extra_cases) {
  OpRow row;
  row.name = name;
  row.ops = {op};
  row.dtypes = std::move(dtypes);
  row.cases = binary_cases();
  for (auto& c : extra_cases) row.cases.push_back(std::move(c));
  row.fn = [fn](const std::vector<Tensor>& in) { return std::vector<Tensor>{fn(in[0], in[1])}; };
  row.second_order = true;
  row.reference = [ref](const std::vector<Ref>& in, DType) {
    return std::vector<Ref>{broadcast_ref(in[0], in[1], ref)};
  };
  row.invalid.push_back({"incompatible shapes",
                         [fn] {
                           fn(to_tensor(vec({1, 2, 3}), float32), to_tensor(vec({1, 2}), float32));
                         },
                         ErrorCode::kInvalidArgument, "Incompatible shapes"});
  row.invalid.push_back({"mixed dtypes",
                         [fn] {
                           fn(to_tensor(vec({1, 2}), float32), to_tensor(vec({1, 2}), int32));
                         },
                         ErrorCode::kInvalidArgument, "[Op:" + op + "]"});
  return row;
}

}  // namespace tfcc::conformance

namespace tfcc::conformance {
namespace {

bool bitwise_equal(const Tensor& a, const Tensor& b) {
  if (a.dtype() != b.dtype() || a.shape() != b.shape()) return false;
  if (a.nbytes() == 0) return true;
  return std::memcmp(a.raw_data(), b.raw_data(), a.nbytes()) == 0;
}

// Bit-for-bit parity compares two runs of the same kernels, so both must take the same parallel
// runtime: left automatic, the runtime can change between the eager and the traced call when the
// machine is busy (oneDNN split over tfcc's pool sums in another order). Pins the runtime the
// process would use now (TFCC_PARALLEL_RUNTIME's, else the automatic choice) for the scope.
class PinnedRuntime {
 public:
  PinnedRuntime() { parallel::force_runtime(parallel::runtime()); }
  ~PinnedRuntime() { parallel::force_runtime(std::nullopt); }
  PinnedRuntime(const PinnedRuntime&) = delete;
  PinnedRuntime& operator=(const PinnedRuntime&) = delete;
};

}  // namespace

void run_traced_parity(const OpRow& row) {
  const PinnedRuntime pinned;
  int checked = 0;
  for (DType dtype : row.dtypes) {
    for (const Case& c : row.cases) {
      if (!c.only.empty() && std::find(c.only.begin(), c.only.end(), dtype) == c.only.end()) {
        continue;
      }
      SCOPED_TRACE(row.name + " traced, case '" + c.label + "' dtype " +
                   std::string(dtype_name(dtype)));
      std::vector<Tensor> inputs;
      for (const Ref& r : c.inputs) inputs.push_back(to_tensor(r, r.dtype.value_or(dtype)));
      // Inputs taking the tested dtype become the function's arguments; pinned inputs (axes,
      // shapes, indices the row may read as C++ values) are captured as constants.
      std::vector<Tensor> args;
      for (size_t i = 0; i < inputs.size(); ++i) {
        if (!c.inputs[i].dtype) args.push_back(inputs[i]);
      }
      auto traced = function(
          [&](std::vector<Tensor> a) {
            std::vector<Tensor> all = inputs;
            size_t next = 0;
            for (size_t i = 0; i < all.size(); ++i) {
              if (!c.inputs[i].dtype) all[i] = a[next++];
            }
            return row.fn(all);
          },
          {.name = row.name});
      std::vector<Tensor> eager, graph;
      try {
        eager = row.fn(inputs);
      } catch (const Error&) {
        continue;  // the reference column reports it
      }
      try {
        try {
          graph = traced(args);
        } catch (const Error& e) {
          // Rows whose API takes C++ values (creation ops' shapes, a variable's initial value)
          // read those inputs with item() / to_vector(), which a symbolic tensor refuses: trace
          // them with every input captured as a constant instead.
          if (std::string(e.what()).find("symbolic") == std::string::npos) throw;
          auto captured = function([&] { return row.fn(inputs); }, {.name = row.name});
          graph = captured();
        }
      } catch (const Error& e) {
        ADD_FAILURE() << "traced call raised " << error_code_name(e.code()) << ": " << e.what();
        continue;
      }
      ASSERT_EQ(graph.size(), eager.size());
      for (size_t k = 0; k < eager.size(); ++k) {
        EXPECT_FALSE(graph[k].is_symbolic());
        if (row.property_check) {
          EXPECT_EQ(graph[k].dtype(), eager[k].dtype()) << "output " << k;
          EXPECT_EQ(graph[k].shape(), eager[k].shape()) << "output " << k;
        } else {
          EXPECT_TRUE(bitwise_equal(graph[k], eager[k]))
              << "output " << k << ": traced " << graph[k] << "\neager " << eager[k];
        }
      }
      ++checked;
    }
  }
  if (!row.property_check) {
    EXPECT_GT(checked, 0) << row.name << ": no case ran traced";
  }
}

void run_traced_gradient_parity(const OpRow& row) {
  if (!row_is_differentiable(row)) GTEST_SKIP() << row.name << " is not differentiable";
  const PinnedRuntime pinned;
  int checked = 0;
  for (size_t ci = 0; ci < row.cases.size(); ++ci) {
    const Case& c = row.cases[ci];
    std::vector<size_t> free;
    auto base = gradient_inputs(row, c, 2000 + ci, &free);
    if (!base) continue;
    SCOPED_TRACE(row.name + " traced gradient, case '" + c.label + "'");
    // d/dx sum(w_k * f_k(x)) over every output k: weights make each output count.
    auto grads = [&](const std::vector<Tensor>& all) {
      GradientTape tape;
      std::vector<Tensor> xs;
      for (size_t i : free) xs.push_back(all[i]);
      tape.watch(xs);
      std::vector<Tensor> out = row.fn(all);
      std::vector<Tensor> terms;
      for (size_t k = 0; k < out.size(); ++k) {
        Tensor w =
            cast(Tensor::scalar<double>(0.5 + 0.25 * static_cast<double>(k)), out[k].dtype());
        terms.push_back(reduce_sum(multiply(out[k], w)));
      }
      return tape.gradient(add_n(terms), xs, {{}, UnconnectedGradients::kZero});
    };
    std::vector<Tensor> eager, graph;
    try {
      eager = grads(*base);
      std::vector<Tensor> args;
      for (size_t i : free) args.push_back((*base)[i]);
      auto traced = function([&](std::vector<Tensor> a) {
        std::vector<Tensor> all = *base;
        for (size_t k = 0; k < free.size(); ++k) all[free[k]] = a[k];
        return grads(all);
      });
      graph = traced(args);
    } catch (const Error& e) {
      ADD_FAILURE() << "raised " << error_code_name(e.code()) << ": " << e.what();
      continue;
    }
    ASSERT_EQ(graph.size(), eager.size());
    for (size_t k = 0; k < eager.size(); ++k) {
      auto a = graph[k].to_vector<double>(), b = eager[k].to_vector<double>();
      ASSERT_EQ(a.size(), b.size());
      for (size_t i = 0; i < a.size(); ++i) {
        EXPECT_LE(std::fabs(a[i] - b[i]), 1e-10 * std::max(1.0, std::fabs(b[i])))
            << "input " << k << " element " << i << ": traced " << a[i] << ", eager " << b[i];
      }
    }
    ++checked;
  }
  EXPECT_GT(checked, 0) << row.name << ": no case small enough for a traced gradient check";
}

}  // namespace tfcc::conformance
