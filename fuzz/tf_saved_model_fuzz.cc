// Fuzzes the TensorFlow SavedModel importer: saved_model.pb bytes are parsed by protobuf, the
// meta graph and signatures are read, every reachable op is looked up, and each signature is
// traced through the op table (calls inlined, control flow converted, constants decoded within
// the byte budget). There is no variables/ directory, so a model with variables ends in
// NotFoundError. Every input must end in a loaded model or a tfcc::Error.
//
// fuzz/corpus/tf_saved_model_fuzz holds small SavedModels written by the importer's unit tests
// (tests/unit/io/saved_model/tf_import), a Keras export, and two TensorFlow 1 SavedModels
// (tests/integration/tf_saved_model_import.py's `tf1`: VariableV2 under a renaming Saver, and
// resource variables) whose Saver subgraphs drive the RestoreV2 -> Assign key mapping.
#include <cstddef>
#include <cstdint>
#include <string>

#include "tfcc/io/saved_model/tf_import/tf_import.h"
#include "tfcc/platform/errors.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tfcc::saved_model;
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  LoadOptions options{.max_tensor_bytes = 1 << 20, .max_nodes = 4096, .max_nesting_depth = 16};
  try {
    LoadedModel m = tf_import::load_from_bytes(bytes, "/nonexistent/tf_saved_model_fuzz",
                                               "fuzz/saved_model.pb", options);
    for (const auto& f : m.functions) f->to_string();
  } catch (const tfcc::Error&) {
  }
  return 0;
}
