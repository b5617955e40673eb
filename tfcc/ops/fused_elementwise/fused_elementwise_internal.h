// Between the fused element-wise op's definition and its kernel.
#pragma once

#include <cstdint>

#include "tfcc/ops/op_def.h"

namespace tfcc::fused_elementwise {

/// Opcodes; the kernel and opcode() agree on these numbers.
enum Op : int64_t {
  kNeg,
  kAbs,
  kSign,
  kSquare,
  kRelu,
  kExp,
  kLog,
  kLog1p,
  kExpm1,
  kSqrt,
  kRsqrt,
  kReciprocal,
  kSin,
  kCos,
  kTan,
  kTanh,
  kSigmoid,
  kErf,
  kFloor,
  kCeil,
  kRound,
  kFirstBinary,
  kAdd = kFirstBinary,
  kSub,
  kMul,
  kDiv,
  kMaximum,
  kMinimum,
  kSquaredDifference,
  kPow,
  kNumOps
};

/// The CPU kernel for float32 / float64 (nullptr for other dtypes).
KernelFn cpu_kernel(DType dtype);

}  // namespace tfcc::fused_elementwise
