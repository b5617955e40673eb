// Importing TensorFlow SavedModels: the directories tf.saved_model.save and Keras' model.export()
// write (DIR/saved_model.pb + DIR/variables/), loaded and run with tfcc's ops and graph passes,
// no TensorFlow needed. tfcc::saved_model::load(dir) calls this when DIR/saved_model.pb exists.
//
//   tfcc::saved_model::LoadedModel m = tfcc::saved_model::tf_import::load("/models/resnet");
//   auto& serve = m.signatures.at("serving_default");
//   auto out = serve({{"keras_tensor", images}});          // {"output_0": logits}
//
//   std::cout << tfcc::saved_model::tf_import::describe("/models/resnet");  // saved_model_cli
//
// How: each signature's outputs are computed from its inputs by running the top-level GraphDef
// and the FunctionDefs it calls through the op table (op_table.h, docs/tf_ops.md) inside a tfcc
// trace; calls are inlined, If / While become tfcc control flow, variables are restored through
// the object graph (variables.h). A signature is traced once per set of input shapes (the first
// at load time with unknown dimensions taken as 1), so TensorFlow's shape arithmetic folds into
// constants; then tfcc's graph passes run on the trace.
//
// Errors, all before anything runs: every TensorFlow op without a mapping, with the nodes using
// it, in one UnimplementedError; a file that does not parse, DataLossError; a rule or a limit
// broken (LoadOptions), InvalidArgumentError; each names the file.
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <string>

#include "tfcc/io/saved_model/saved_model.h"

namespace tfcc::saved_model::tf_import {

/// The SavedModel file's name inside its directory.
inline constexpr const char* kSavedModelFilename = "saved_model.pb";

/// True if `dir` holds a TensorFlow SavedModel (saved_model.pb).
bool is_tensorflow_saved_model(const std::string& dir);

/// Loads the meta graph tagged "serve" (or the only one) of the SavedModel in `dir`.
LoadedModel load(const std::string& dir, const LoadOptions& options = {});

/// Loads from SavedModel bytes already read (variables, if any, from `dir`/variables). `path`
/// names the bytes in errors. What load() does after reading the file; fuzzing enters here.
LoadedModel load_from_bytes(const std::string& bytes, const std::string& dir,
                            const std::string& path, const LoadOptions& options = {});

/// What `saved_model_cli show --all` prints for the SavedModel in `dir` (tag sets, signatures
/// with their inputs' and outputs' dtypes, shapes and tensor names, method names, the op set).
std::string describe(const std::string& dir, const LoadOptions& options = {});

/// The supported TensorFlow ops as Markdown (docs/tf_ops.md).
std::string supported_ops_markdown();

}  // namespace tfcc::saved_model::tf_import
#pragma GCC visibility pop
