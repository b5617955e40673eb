// The shared oneDNN engine, streams, and scratchpad-owning execution.
#include "tfcc/ops/linalg/onednn.h"

#include <cstdlib>
#include <optional>

#include "tfcc/core/tensor.h"
#include "tfcc/platform/cpu_isa.h"

namespace tfcc::onednn {
namespace {

// TFCC_MAX_CPU_ISA caps oneDNN's JIT kernels like tfcc's own (unless ONEDNN_MAX_CPU_ISA, oneDNN's
// own variable, is set). "avx512" leaves oneDNN uncapped.
bool cap_onednn_isa() {
  if (std::getenv("ONEDNN_MAX_CPU_ISA") != nullptr) return false;
  const std::optional<cpu::Isa> cap = cpu::max_isa_from_env();
  if (!cap || *cap == cpu::Isa::kAvx512) return false;
  dnnl::set_max_cpu_isa(*cap == cpu::Isa::kAvx2 ? dnnl::cpu_isa::avx2 : dnnl::cpu_isa::sse41);
  return true;
}

}  // namespace

void apply_isa_cap() { [[maybe_unused]] static const bool capped = cap_onednn_isa(); }

dnnl::engine& engine() {
  static dnnl::engine* e = [] {
    apply_isa_cap();
    return new dnnl::engine(dnnl::engine::kind::cpu, 0);
  }();
  return *e;
}

dnnl::stream& stream() {
  thread_local dnnl::stream s(engine());
  return s;
}

dnnl::primitive_attr user_scratchpad_attr() {
  dnnl::primitive_attr attr;
  attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
  return attr;
}

void execute(const dnnl::primitive& prim, const dnnl::memory::desc& scratch_md,
             std::unordered_map<int, dnnl::memory> args) {
  const size_t bytes = scratch_md.get_size();
  Tensor scratch;
  if (bytes > 0) scratch = Tensor::empty(uint8, Shape{static_cast<int64_t>(bytes)});
  args.emplace(DNNL_ARG_SCRATCHPAD,
               dnnl::memory(scratch_md, engine(), bytes ? scratch.mutable_raw_data() : nullptr));
  dnnl::stream& s = stream();
  prim.execute(s, args);
  s.wait();
}

bool eltwise_algorithm(const std::string& n, float slope, dnnl::algorithm* alg, float* alpha,
                       float* beta) {
  *alpha = 0.f;
  *beta = 0.f;
  using A = dnnl::algorithm;
  if (n == "Relu") {
    *alg = A::eltwise_relu;
  } else if (n == "Relu6") {
    *alg = A::eltwise_clip;
    *beta = 6.f;
  } else if (n == "LeakyRelu") {
    *alg = A::eltwise_relu;
    *alpha = slope;
  } else if (n == "Elu") {
    *alg = A::eltwise_elu;
    *alpha = 1.f;
  } else if (n == "Tanh") {
    *alg = A::eltwise_tanh;
  } else if (n == "Sigmoid") {
    *alg = A::eltwise_logistic;
  } else if (n == "GeluExact") {
    *alg = A::eltwise_gelu_erf;
  } else if (n == "GeluApproximate") {
    *alg = A::eltwise_gelu_tanh;
  } else {
    return false;
  }
  return true;
}

}  // namespace tfcc::onednn
