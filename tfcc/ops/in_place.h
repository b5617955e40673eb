// In-place outputs: an op declares which of its outputs may be written into the buffer of which
// input, and a runtime that knows an input dies with the call gives that buffer to the kernel.
//
// Declaring (at registration, next to the kernel; the declaration covers every dtype's kernel):
//
//   OpDef& relu = r.add("Relu")...cpu_kernels(unary_cpu_kernel);
//   tfcc::declare_in_place(relu, /*output=*/0, {0});   // y may overwrite x
//
// The promise behind a declaration: the kernel reads element k of such an input only to compute
// element k of the output, and before writing it (a plain element-wise loop). Broadcast inputs
// never qualify: an input is reused only when its dtype and shape equal the output's.
//
// Offering (the graph executor, around one kernel call whose input 1 is dead after it):
//
//   tfcc::DonatedInputs offer(inputs, /*mask=*/0b10);
//   std::vector<tfcc::Tensor> out = tfcc::execute_eager(call);   // call.inputs is `inputs`
//   offer.taken();                                                // inputs whose buffer was reused
//
// Nothing changes for kernels: KernelContext::allocate_output takes an offered buffer when the op
// declared the pair, the shapes and dtypes match, and no other tensor shares the buffer (a reshape
// view, a variable's value). The offer is matched to the call by the address of its input array,
// so a kernel that runs ops of its own never hands them its caller's buffers.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "tfcc/ops/op_def.h"

namespace tfcc {

/// Declares that output `output` of `op` may be written into the buffer of any input in `inputs`
/// (see the promise above). Call once per output while registering the op.
void declare_in_place(const OpDef& op, int output, std::vector<int> inputs);

/// Declares that output `output` of `op` may reuse the buffer of any of its inputs (ops with a
/// variable number of inputs, such as _FusedElementwise).
void declare_in_place_any_input(const OpDef& op, int output);

/// True if output `output` of `op` was declared able to reuse input `input`'s buffer.
bool may_write_in_place(const OpDef& op, int output, int input);

/// True if some output of `op` may reuse some input's buffer.
bool has_in_place_outputs(const OpDef& op);

/// For its lifetime, offers the kernel that runs on exactly `inputs` (the same array) the
/// buffers of the inputs whose bit is set in `mask` (input i: bit i; inputs past 63 are never
/// offered). The caller promises nothing else will read those inputs after the call. One offer
/// per thread at a time; a nested offer replaces the outer one until it ends.
class DonatedInputs {
 public:
  DonatedInputs(std::span<const Tensor> inputs, uint64_t mask);
  ~DonatedInputs();
  DonatedInputs(const DonatedInputs&) = delete;
  DonatedInputs& operator=(const DonatedInputs&) = delete;

  /// Bit i set: input i's buffer now holds an output.
  uint64_t taken() const { return taken_; }

  /// For KernelContext::allocate_output: the buffer output `output` of `call` may be written
  /// into (an offered, declared, matching and unshared input's), or null.
  static std::shared_ptr<Buffer> take(const OpCall& call, int output, DType dtype,
                                      const Shape& shape);

 private:
  std::span<const Tensor> inputs_;
  uint64_t mask_;
  uint64_t taken_ = 0;
  DonatedInputs* outer_;
};

}  // namespace tfcc
