// Fuzzes the exported-model loader: the envelope, the ModelFile message, the graph decoder (nodes,
// attributes, tensors, shapes, subgraph references), the op checks and type checks, and the
// signature checks. Loading never runs a graph, so every input must end in a loaded model or a
// tfcc::Error.
//
// Input: the first byte picks the path; the rest is
//   even: a ModelFile payload (no envelope, so the checksum does not stop the fuzzer): parsed,
//         its variables made with zeros (bounded), then assembled as load() does;
//   odd:  a whole saved_model.tfcc file (envelope and all), parsed.
// fuzz/corpus/saved_model_loader_fuzz holds payloads of real exports (an MLP, cond + while).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "tfcc/io/saved_model/model_file.h"
#include "tfcc/io/saved_model/saved_model.h"
#include "tfcc/platform/errors.h"

namespace {

void assemble(std::string_view payload) {
  using namespace tfcc::saved_model;
  ModelFile m = decode_model_payload(payload, "fuzz");
  LoadOptions options{.max_tensor_bytes = 1 << 20, .max_nodes = 4096, .max_nesting_depth = 16};
  int64_t budget = options.max_tensor_bytes;
  std::vector<std::shared_ptr<tfcc::VariableState>> states;
  for (const VariableDef& v : m.variables) {
    int64_t bytes =
        tfcc::checked_mul(v.shape.num_elements(), static_cast<int64_t>(tfcc::dtype_size(v.dtype)));
    if (bytes > budget) return;
    budget -= bytes;
    tfcc::Variable var(tfcc::Tensor::from_bytes(v.dtype, v.shape, std::string(bytes, '\0').data(),
                                                static_cast<size_t>(bytes)),
                       {.name = v.name, .trainable = v.trainable});
    states.push_back(var.state_ptr());
  }
  LoadedModel out;
  internal::assemble_model(m, states, budget, options, "fuzz", out);
  for (const auto& f : out.functions) f->to_string();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  std::string_view bytes(reinterpret_cast<const char*>(data) + 1, size - 1);
  try {
    if (data[0] % 2 == 0) {
      assemble(bytes);
    } else {
      tfcc::saved_model::decode_model_file(bytes, "fuzz.tfcc");
    }
  } catch (const tfcc::Error&) {
  }
  return 0;
}
