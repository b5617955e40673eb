#include "tfcc/ops/in_place.h"

#include <algorithm>
#include <mutex>
#include <shared_mutex>
#include <unordered_map>

namespace tfcc {
namespace {

constexpr int kAnyInput = -1;

// Declarations live beside the registry rather than in OpDef so the op record stays what tracing
// and tapes see; OpDefs are never destroyed while a registry holds them, so their addresses key.
struct Declarations {
  std::shared_mutex mu;
  std::unordered_map<const OpDef*, std::vector<std::pair<int, int>>> pairs;  // (output, input)
};

Declarations& declarations() {
  static auto* d = new Declarations();  // leaked: kernels may run during static destruction
  return *d;
}

thread_local DonatedInputs* t_offer = nullptr;

void add_pair(const OpDef& op, int output, int input) {
  TFCC_REQUIRE(InternalError, output >= 0 && output < static_cast<int>(op.outputs().size()),
               "declare_in_place: ", op.name(), " has no output ", output);
  Declarations& d = declarations();
  std::unique_lock<std::shared_mutex> lock(d.mu);
  d.pairs[&op].emplace_back(output, input);
}

}  // namespace

void declare_in_place(const OpDef& op, int output, std::vector<int> inputs) {
  for (int i : inputs) {
    TFCC_REQUIRE(InternalError, i >= 0, "declare_in_place: negative input index for ", op.name());
    add_pair(op, output, i);
  }
}

void declare_in_place_any_input(const OpDef& op, int output) { add_pair(op, output, kAnyInput); }

bool may_write_in_place(const OpDef& op, int output, int input) {
  Declarations& d = declarations();
  std::shared_lock<std::shared_mutex> lock(d.mu);
  auto it = d.pairs.find(&op);
  if (it == d.pairs.end()) return false;
  return std::any_of(it->second.begin(), it->second.end(), [&](const std::pair<int, int>& p) {
    return p.first == output && (p.second == input || p.second == kAnyInput);
  });
}

bool has_in_place_outputs(const OpDef& op) {
  Declarations& d = declarations();
  std::shared_lock<std::shared_mutex> lock(d.mu);
  return d.pairs.count(&op) != 0;
}

DonatedInputs::DonatedInputs(std::span<const Tensor> inputs, uint64_t mask)
    : inputs_(inputs), mask_(mask), outer_(t_offer) {
  t_offer = this;
}

DonatedInputs::~DonatedInputs() { t_offer = outer_; }

std::shared_ptr<Buffer> DonatedInputs::take(const OpCall& call, int output, DType dtype,
                                            const Shape& shape) {
  DonatedInputs* offer = t_offer;
  if (offer == nullptr || offer->mask_ == 0 || offer->inputs_.data() != call.inputs.data() ||
      offer->inputs_.size() != call.inputs.size()) {
    return nullptr;
  }
  const size_t n = std::min<size_t>(call.inputs.size(), 64);
  for (size_t i = 0; i < n; ++i) {
    const uint64_t bit = uint64_t{1} << i;
    if (!(offer->mask_ & bit) || (offer->taken_ & bit)) continue;
    const Tensor& in = call.inputs[i];
    if (!in.defined() || in.is_symbolic() || in.dtype() != dtype || in.shape() != shape) continue;
    const std::shared_ptr<Buffer>& buf = in.buffer();
    // One holder: no reshape view, variable or other tensor sees these bytes.
    if (!buf || buf.use_count() != 1 || buf->bytes() != in.nbytes()) continue;
    if (!may_write_in_place(call.op, output, static_cast<int>(i))) continue;
    offer->taken_ |= bit;
    return buf;
  }
  return nullptr;
}

}  // namespace tfcc
