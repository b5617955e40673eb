// The _FusedElementwise kernel. Compiled with -ffp-contract=off (tfcc/ops/CMakeLists.txt): a
// multiply feeding an add must round twice, as the separate eager kernels do, never fuse into
// an FMA. The output is split across OpenMP threads; each thread walks its range in blocks small
// enough that every live intermediate stays in L1, running one simple loop per instruction per
// block (the compiler vectorises each, once per instruction-set level: the loops of the level
// cpu::isa() picks run).
#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <memory>
#include <vector>

#include "tfcc/ops/binary/binary_formulas.h"
#include "tfcc/ops/fused_elementwise/fused_elementwise.h"
#include "tfcc/ops/fused_elementwise/fused_elementwise_internal.h"
#include "tfcc/ops/kernel_util.h"
#include "tfcc/ops/unary/unary_formulas.h"

namespace tfcc::fused_elementwise {
namespace {

// Where an operand's values are for the current block.
template <typename T>
struct Operand {
  const T* p = nullptr;  // block data (null: scalar)
  T s = T(0);            // the value when scalar
};

template <typename T, typename F>
inline void unary(F f, Operand<T> a, T* __restrict o, int64_t len) {
  if (!a.p) {
    const T v = f(a.s);
    for (int64_t i = 0; i < len; ++i) o[i] = v;
    return;
  }
  const T* __restrict pa = a.p;
  for (int64_t i = 0; i < len; ++i) o[i] = f(pa[i]);
}

template <typename T, typename F>
inline void binary(F f, Operand<T> a, Operand<T> b, T* __restrict o, int64_t len) {
  if (!a.p && !b.p) {
    const T v = f(a.s, b.s);
    for (int64_t i = 0; i < len; ++i) o[i] = v;
  } else if (!a.p) {
    const T s = a.s;
    const T* __restrict pb = b.p;
    for (int64_t i = 0; i < len; ++i) o[i] = f(s, pb[i]);
  } else if (!b.p) {
    const T s = b.s;
    const T* __restrict pa = a.p;
    for (int64_t i = 0; i < len; ++i) o[i] = f(pa[i], s);
  } else {
    const T* __restrict pa = a.p;
    const T* __restrict pb = b.p;
    for (int64_t i = 0; i < len; ++i) o[i] = f(pa[i], pb[i]);
  }
}

// The formulas _FusedElementwise runs: the fusable ones that take floats, from the same lists
// the eager kernels instantiate, so results agree bit for bit.
template <typename Op>
struct IsFusable {
  static constexpr bool value = Op::kFusable && formula::accepts<float>(Op::kTypes);
};
using FusedUnary = formula::Filter<IsFusable, formula::UnaryFormulas>::type;
using FusedBinary = formula::Filter<IsFusable, formula::BinaryFormulas>::type;

template <typename T>
using ApplyFn = void (*)(Operand<T> a, Operand<T> b, T* __restrict o, int64_t len);

template <typename T, typename Op>
struct UnaryF {
  T operator()(T x) const { return Op::template f<T>(x); }
};
template <typename T, typename Op>
struct BinaryF {
  T operator()(T x, T y) const { return Op::template f<T>(x, y); }
};

// The loop of one opcode, compiled once per instruction-set level. The loops are reached through
// a table of pointers, not inlined into a lambda, so kernels::isa_call's dispatch cannot reach
// them: each level has its own table, and the kernel picks the one of cpu::isa(). The inline
// helpers (unary, binary, the formula) are inlined into each, so each is vectorised for its level.
template <typename T, typename Op>
void unary_baseline(Operand<T> a, Operand<T>, T* __restrict o, int64_t len) {
  unary(UnaryF<T, Op>{}, a, o, len);
}
template <typename T, typename Op>
void binary_baseline(Operand<T> a, Operand<T> b, T* __restrict o, int64_t len) {
  binary(BinaryF<T, Op>{}, a, b, o, len);
}
#if TFCC_ISA_DISPATCH
template <typename T, typename Op>
TFCC_TARGET_AVX2 void unary_avx2(Operand<T> a, Operand<T>, T* __restrict o, int64_t len) {
  unary(UnaryF<T, Op>{}, a, o, len);
}
template <typename T, typename Op>
TFCC_TARGET_AVX2 void binary_avx2(Operand<T> a, Operand<T> b, T* __restrict o, int64_t len) {
  binary(BinaryF<T, Op>{}, a, b, o, len);
}
template <typename T, typename Op>
TFCC_TARGET_AVX512 void unary_avx512(Operand<T> a, Operand<T>, T* __restrict o, int64_t len) {
  unary(UnaryF<T, Op>{}, a, o, len);
}
template <typename T, typename Op>
TFCC_TARGET_AVX512 void binary_avx512(Operand<T> a, Operand<T> b, T* __restrict o, int64_t len) {
  binary(BinaryF<T, Op>{}, a, b, o, len);
}
#endif

// One loop per opcode, indexed by opcode; one such table per cpu::Isa level, indexed by level.
template <typename T, typename... U, typename... B>
constexpr auto make_apply_tables(formula::List<U...>, formula::List<B...>) {
  using Row = std::array<ApplyFn<T>, sizeof...(U) + sizeof...(B)>;
  const Row baseline{&unary_baseline<T, U>..., &binary_baseline<T, B>...};
#if TFCC_ISA_DISPATCH
  return std::array<Row, 3>{baseline, Row{&unary_avx2<T, U>..., &binary_avx2<T, B>...},
                            Row{&unary_avx512<T, U>..., &binary_avx512<T, B>...}};
#else
  return std::array<Row, 3>{baseline, baseline, baseline};
#endif
}
template <typename T>
constexpr auto kApply = make_apply_tables<T>(FusedUnary{}, FusedBinary{});
template <typename T>
using Table = typename decltype(kApply<T>)::value_type;

template <typename T>
void apply(const Table<T>& table, int64_t code, Operand<T> a, Operand<T> b, T* __restrict o,
           int64_t len) {
  if (code >= 0 && code < static_cast<int64_t>(table.size())) {
    table[static_cast<size_t>(code)](a, b, o, len);
  }
}

struct Instr {
  int64_t code = 0, a = 0, b = -1;
  bool scalar = false;  // every operand is a scalar: computed once, before the loop
};

template <typename T>
void fused_kernel(KernelContext& ctx) {
  const auto& program = ctx.attr<std::vector<int64_t>>("program");
  const int num_inputs = ctx.num_inputs();
  std::string problem = check_program(program, num_inputs);
  if (!problem.empty()) ctx.fail("Invalid _FusedElementwise program: " + problem);
  Tensor& out = ctx.allocate_output(0);
  const int64_t n = out.num_elements();
  std::vector<const T*> in_ptr(static_cast<size_t>(num_inputs));
  std::vector<bool> in_scalar(static_cast<size_t>(num_inputs));
  for (int i = 0; i < num_inputs; ++i) {
    const Tensor& t = ctx.input(i);
    if (t.num_elements() != n && t.num_elements() != 1) {
      ctx.fail(internal::str_cat("input ", i, " has shape ", t.shape().to_string(),
                                 ", which is neither the output shape ", out.shape().to_string(),
                                 " nor a single element"));
    }
    in_ptr[static_cast<size_t>(i)] = t.data<T>();
    in_scalar[static_cast<size_t>(i)] = t.num_elements() == 1 && n != 1;
  }
  if (n == 0) return;
  const Table<T>& table = kApply<T>[static_cast<size_t>(cpu::isa())];

  // Decode; instructions whose operands are all scalars are computed once, here.
  const size_t ni = program.size() / 3;
  std::vector<Instr> code(ni);
  std::vector<T> scalar_value(ni, T(0));
  std::vector<size_t> last_use(ni, 0);
  auto is_scalar_value = [&](int64_t v) {
    return v < num_inputs ? static_cast<bool>(in_scalar[static_cast<size_t>(v)])
                          : code[static_cast<size_t>(v - num_inputs)].scalar;
  };
  for (size_t i = 0; i < ni; ++i) {
    Instr& in = code[i];
    in.code = program[3 * i];
    in.a = program[3 * i + 1];
    in.b = program[3 * i + 2];
    const bool binary_op = arity(in.code) == 2;
    in.scalar = is_scalar_value(in.a) && (!binary_op || is_scalar_value(in.b));
    for (int64_t v : {in.a, binary_op ? in.b : int64_t{-1}}) {
      if (v >= num_inputs) last_use[static_cast<size_t>(v - num_inputs)] = i;
    }
  }
  auto scalar_operand = [&](int64_t v) {
    Operand<T> op;
    op.s = v < num_inputs ? in_ptr[static_cast<size_t>(v)][0]
                          : scalar_value[static_cast<size_t>(v - num_inputs)];
    return op;
  };
  for (size_t i = 0; i < ni; ++i) {
    if (!code[i].scalar) continue;
    T result = T(0);
    apply<T>(table, code[i].code, scalar_operand(code[i].a),
             arity(code[i].code) == 2 ? scalar_operand(code[i].b) : Operand<T>{}, &result, 1);
    scalar_value[i] = result;
  }
  T* po = out.mutable_data<T>();
  if (code[ni - 1].scalar) {  // every input a scalar: a one-element output
    for (int64_t i = 0; i < n; ++i) po[i] = scalar_value[ni - 1];
    return;
  }
  // Registers: a result takes a free one before its operands' registers are released, so no
  // loop below reads and writes the same memory.
  std::vector<int> reg_of(ni, -1);
  std::vector<int> free_regs;
  int num_regs = 0;
  for (size_t i = 0; i < ni; ++i) {
    if (code[i].scalar) continue;
    if (i + 1 < ni) {
      if (free_regs.empty()) {
        reg_of[i] = num_regs++;
      } else {
        reg_of[i] = free_regs.back();
        free_regs.pop_back();
      }
    }
    const int64_t operands[2] = {code[i].a, arity(code[i].code) == 2 ? code[i].b : int64_t{-1}};
    for (int j = 0; j < 2; ++j) {
      const int64_t v = operands[j];
      if (v < num_inputs || (j == 1 && v == operands[0])) continue;
      const size_t k = static_cast<size_t>(v - num_inputs);
      if (last_use[k] == i && reg_of[k] >= 0) free_regs.push_back(reg_of[k]);
    }
  }
  // Written in place over an input (tfcc/ops/in_place.h), the last instruction goes to a spare
  // register and is copied out: its loop must not read and write one array through restrict.
  const bool in_place = std::any_of(in_ptr.begin(), in_ptr.end(), [&](const T* p) {
    return static_cast<const void*>(p) == static_cast<const void*>(po);
  });
  const int final_reg = in_place ? num_regs++ : -1;
  constexpr int64_t kBlock = 8192 / sizeof(T);  // 8 KiB per register
  // Each instruction is about one element-wise op's work per element.
  const double cost =
      static_cast<double>(std::max<size_t>(code.size(), 1)) * kernels::cost::kElementwise;
  kernels::parallel_for_cost(n, cost, [&](int64_t lo, int64_t hi) {
    std::unique_ptr<T[]> scratch(new T[static_cast<size_t>(std::max(num_regs, 1)) * kBlock]);
    auto operand = [&](int64_t v, int64_t off) {
      if (v < num_inputs) {
        Operand<T> op;
        if (in_scalar[static_cast<size_t>(v)]) {
          op.s = in_ptr[static_cast<size_t>(v)][0];
        } else {
          op.p = in_ptr[static_cast<size_t>(v)] + off;
        }
        return op;
      }
      const size_t k = static_cast<size_t>(v - num_inputs);
      if (code[k].scalar) {
        Operand<T> op;
        op.s = scalar_value[k];
        return op;
      }
      Operand<T> op;
      op.p = scratch.get() + static_cast<int64_t>(reg_of[k]) * kBlock;
      return op;
    };
    for (int64_t off = lo; off < hi; off += kBlock) {
      const int64_t len = std::min(kBlock, hi - off);
      for (size_t i = 0; i < ni; ++i) {
        const Instr& in = code[i];
        if (in.scalar) continue;
        const int reg = i + 1 == ni ? final_reg : reg_of[i];
        T* dst = reg < 0 ? po + off : scratch.get() + static_cast<int64_t>(reg) * kBlock;
        apply<T>(table, in.code, operand(in.a, off),
                 arity(in.code) == 2 ? operand(in.b, off) : Operand<T>{}, dst, len);
      }
      if (in_place) {
        std::memcpy(po + off, scratch.get() + static_cast<int64_t>(final_reg) * kBlock,
                    static_cast<size_t>(len) * sizeof(T));
      }
    }
  });
}

}  // namespace

const OpTable& op_table() {
  static const OpTable table = [] {
    OpTable t;
    auto names = [&t]<typename... Ops>(formula::List<Ops...>) {
      (t.names.push_back(Ops::kName), ...);
    };
    names(FusedUnary{});
    t.first_binary = static_cast<int64_t>(t.names.size());
    names(FusedBinary{});
    return t;
  }();
  return table;
}

KernelFn cpu_kernel(DType dtype) {
  if (dtype == float32) return fused_kernel<float>;
  if (dtype == float64) return fused_kernel<double>;
  return nullptr;
}

}  // namespace tfcc::fused_elementwise
