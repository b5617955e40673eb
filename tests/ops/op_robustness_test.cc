// Every registered op, called through dispatch() with random inputs and random attribute values:
// each call must either succeed or raise a tfcc::Error. Never a crash, an out-of-bounds read (the
// sanitizer build runs this too), or a foreign exception. Deterministic (fixed seed).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>

#include "tfcc/ops/registry.h"
#include "tfcc/tfcc.h"

namespace tfcc {
namespace {

class RandomCalls {
 public:
  explicit RandomCalls(uint64_t seed) : rng_(seed) {}

  int64_t pick(int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng_);
  }
  template <typename T>
  const T& one_of(const std::vector<T>& v) {
    return v[static_cast<size_t>(pick(0, static_cast<int64_t>(v.size()) - 1))];
  }

  Tensor tensor(DType dtype) {
    std::vector<int64_t> dims(static_cast<size_t>(pick(0, 3)));
    for (int64_t& d : dims) d = pick(0, 4);
    Shape shape(dims);
    std::vector<double> values(static_cast<size_t>(shape.num_elements()));
    for (double& v : values) v = static_cast<double>(pick(-3, 6));
    if (dtype == string) {  // numbers and words as text
      std::vector<std::string> words;
      for (double v : values) words.push_back(pick(0, 2) == 0 ? "a b" : std::to_string(v));
      return Tensor::from_strings(words, shape);
    }
    Tensor t = Tensor::empty(dtype, shape);
    visit_dtype(dtype, [&]<typename T>() {
      T* p = t.mutable_data<T>();
      for (size_t i = 0; i < values.size(); ++i) {
        if constexpr (std::is_unsigned_v<T> && !std::is_same_v<T, bool>) {
          p[i] = static_cast<T>(static_cast<int64_t>(values[i]) & 0xff);
        } else {
          p[i] = convert_element<T>(values[i]);
        }
      }
    });
    return t;
  }

  AttrValue attr(const AttrDef& def) {
    switch (def.type) {
      case AttrType::kInt:
        return one_of<int64_t>({-3, -1, 0, 1, 2, 3, 5, int64_t{1} << 40});
      case AttrType::kFloat:
        return one_of<double>({-1.0, 0.0, 0.5, 2.0, 1e30, NAN});
      case AttrType::kBool:
        return pick(0, 1) == 1;
      case AttrType::kString:
        return one_of<std::string>({"SAME", "VALID", "REFLECT", "SYMMETRIC", "CONSTANT", "", "x"});
      case AttrType::kType:
        return def.allowed.empty() || pick(0, 3) == 0 ? one_of(kAllTypes) : one_of(def.allowed);
      case AttrType::kInts: {
        std::vector<int64_t> v(static_cast<size_t>(pick(0, 4)));
        for (int64_t& x : v) x = pick(0, 9) == 0 ? (int64_t{1} << 40) : pick(-3, 5);
        return v;
      }
      case AttrType::kFloats: {
        std::vector<double> v(static_cast<size_t>(pick(0, 3)));
        for (double& x : v) x = static_cast<double>(pick(-2, 2));
        return v;
      }
      case AttrType::kTensor:
        return tensor(one_of(kAllTypes));
      case AttrType::kResource:
        return std::shared_ptr<VariableState>();
    }
    return int64_t{0};
  }

 private:
  std::mt19937_64 rng_;
};

TEST(OpRobustness, RandomCallsRaiseTfccErrorsOrSucceed) {
  RandomCalls r(20261129);
  int calls = 0, succeeded = 0;
  for (const OpDef* op : OpRegistry::global().ops()) {
    for (int iter = 0; iter < 150; ++iter) {
      std::vector<Tensor> inputs;
      for (const ArgDef& arg : op->inputs()) {
        int64_t count = arg.variadic ? r.pick(1, 3) : 1;
        // Mostly a dtype the op allows (so kernels run), sometimes any dtype.
        const AttrDef* ta = arg.fixed ? nullptr : op->find_attr(arg.type_attr);
        DType shared = ta && !ta->allowed.empty() && r.pick(0, 3) != 0 ? r.one_of(ta->allowed)
                                                                       : r.one_of(kAllTypes);
        for (int64_t k = 0; k < count; ++k) {
          DType t = arg.fixed && r.pick(0, 3) != 0 ? *arg.fixed : shared;
          inputs.push_back(r.tensor(t));
        }
      }
      Attrs attrs;
      for (const AttrDef& def : op->attrs()) {
        if (def.name == "N") continue;  // derived from the inputs by dispatch
        if (def.default_value && r.pick(0, 2) == 0) continue;
        attrs.set(def.name, r.attr(def));
      }
      ++calls;
      try {
        dispatch(*op, inputs, attrs);
        ++succeeded;
      } catch (const Error&) {
        // A clear, typed error is the right answer to a bad call.
      } catch (const std::exception& e) {
        ADD_FAILURE() << op->name() << " raised a non-tfcc exception: " << e.what();
      }
    }
  }
  std::printf("%d random op calls, %d ran, the rest raised tfcc errors\n", calls, succeeded);
  EXPECT_GT(succeeded, calls / 20) << "random calls should sometimes be valid";
}

}  // namespace
}  // namespace tfcc
