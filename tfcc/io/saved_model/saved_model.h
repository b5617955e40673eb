// Exported models: traced functions saved with their variables, loaded and run without the code
// that built them (tf.saved_model.save / tf.saved_model.load).
//
//   auto serve = tfcc::function([&](tfcc::Tensor x) { return model(x); },
//                               {.input_signature = {{tfcc::TensorSpec{{-1, 784}}}}});
//   tfcc::saved_model::save(model, "/tmp/export", serve.get_concrete_function(
//                                                     tfcc::TensorSpec{{-1, 784}, tfcc::float32,
//                                                     "x"}));
//
//   // Later, in any program (no model code needed):
//   tfcc::saved_model::LoadedModel loaded = tfcc::saved_model::load("/tmp/export");
//   auto& f = loaded.signatures.at("serving_default");
//   std::map<std::string, tfcc::Tensor> out = f({{"x", images}});   // {"output_0": logits}
//
// On disk (docs/saved_model_format.md): DIR/saved_model.tfcc holds the graphs (graph_codec.h),
// the signatures (input / output names, dtypes, shapes), the variable table and the size and
// masked CRC32C of every other file; DIR/variables/variables.{index,data-00000-of-00001} is a
// TensorFlow-format checkpoint of the captured variables, keyed by their path in the module
// (`dense/kernel/.ATTRIBUTES/VARIABLE_VALUE`), so tf.train.load_checkpoint reads it too. The
// directory is written under a temporary name and renamed into place.
//
// Loading treats the directory as untrusted: a damaged or truncated file is DataLossError, a
// well-formed file that breaks a rule or a limit (LoadOptions) is InvalidArgumentError, and every
// op the build does not know is named in one NotFoundError before anything runs. Loading runs no
// user code: the graphs hold registry ops only.
#pragma once
#pragma GCC visibility push(default)  // public API: exported (tfcc/export.h)

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "tfcc/graph/trace/concrete_function.h"
#include "tfcc/io/saved_model/graph_codec.h"
#include "tfcc/module/module.h"

namespace tfcc::saved_model {

/// The signature name tf.saved_model uses by default.
inline constexpr const char* kDefaultServingSignature = "serving_default";
/// Version of the on-disk format this build writes (and the newest it reads).
inline constexpr uint32_t kFormatVersion = 1;

/// Limits applied while loading (an export is untrusted input).
struct LoadOptions {
  /// Total bytes of constants, tensor attributes and variables.
  int64_t max_tensor_bytes = int64_t{4} << 30;
  /// Total graph nodes.
  int64_t max_nodes = int64_t{1} << 20;
  /// Functions inside functions (If / While bodies inside bodies).
  int max_nesting_depth = 32;
};

/// One callable signature of a loaded model.
class Signature {
 public:
  Signature() = default;
  Signature(std::string name, ConcreteFunction fn, std::vector<TensorSpec> inputs,
            std::vector<TensorSpec> outputs);
  /// Picks (or traces) the function to run for concrete inputs: imported TensorFlow models are
  /// traced once per set of input shapes (tf_import.h).
  using Specializer = std::function<ConcreteFunction(std::span<const Tensor>)>;
  /// A signature that runs `specialize(inputs)`; `fn` is one such trace, for graph().
  Signature(std::string name, ConcreteFunction fn, std::vector<TensorSpec> inputs,
            std::vector<TensorSpec> outputs, Specializer specialize);

  const std::string& name() const { return name_; }
  /// Inputs with their names, dtypes and shapes (-1: any size).
  const std::vector<TensorSpec>& inputs() const { return inputs_; }
  /// Outputs ("output_0", ...), as traced.
  const std::vector<TensorSpec>& outputs() const { return outputs_; }
  /// The graph it runs.
  const graph::Graph& graph() const { return fn_.graph(); }

  /// Runs on positional inputs. InvalidArgumentError if a count, dtype or shape does not fit.
  std::vector<Tensor> operator()(std::span<const Tensor> inputs) const;
  std::vector<Tensor> operator()(std::initializer_list<Tensor> inputs) const {
    return (*this)(std::span<const Tensor>(inputs.begin(), inputs.size()));
  }
  /// Runs on named inputs (every input once) and returns the outputs by name, like TensorFlow's
  /// signature functions.
  std::map<std::string, Tensor> operator()(const std::map<std::string, Tensor>& inputs) const;

 private:
  std::string name_;
  ConcreteFunction fn_;
  std::vector<TensorSpec> inputs_, outputs_;
  Specializer specialize_;
};

/// What load() returns: the signatures and the restored variables.
struct LoadedModel {
  /// By signature name ("serving_default", ...).
  std::map<std::string, Signature> signatures;
  /// The restored variables, in the file's order.
  std::vector<Variable> variables;
  /// Their checkpoint keys, parallel to `variables`.
  std::vector<std::string> variable_keys;
  /// Every function of the library (If / While bodies included), callees first.
  std::vector<std::shared_ptr<const graph::Graph>> functions;
  /// Who wrote the export ("tfcc 0.1.0") and in which format version.
  std::string producer;
  uint32_t format_version = 0;
};

/// The on-disk format save() writes.
enum class Format {
  /// tfcc's own format (saved_model.tfcc; docs/saved_model_format.md). Legacy: kept so that
  /// load() reads exports written before the TensorFlow format existed.
  kTfccLegacy,
  /// A TensorFlow SavedModel (saved_model.pb; docs/saved_model_tensorflow.md) that
  /// tf.saved_model.load, saved_model_cli and TF Serving load.
  kTensorFlow,
};

/// Options of save().
struct SaveOptions {
  /// Which format to write: a TensorFlow SavedModel unless asked otherwise (load() reads both).
  Format format = Format::kTensorFlow;
};

/// Saves `signatures` (name → traced ConcreteFunction) and the variables they capture into the
/// directory `dir` (replaced if it exists). Variables reachable from `module` are keyed by their
/// path in it; others by capture order (`_captured/<i>`). InvalidArgumentError for an empty
/// signature map, an undefined function or one holding a host callback (tfcc::print); with
/// Format::kTensorFlow, UnimplementedError listing the ops that have no TensorFlow form.
void save(const Module& module, const std::string& dir,
          const std::map<std::string, ConcreteFunction>& signatures,
          const SaveOptions& options = {});
/// Saves one function as "serving_default".
void save(const Module& module, const std::string& dir, const ConcreteFunction& serving_default,
          const SaveOptions& options = {});

/// TF Serving's layout for a model served as MODEL: `model_dir/<version>` (a decimal directory
/// name; the server serves the highest). version -1: one more than the highest version already
/// in `model_dir` (1 when there is none).
///
///   saved_model::save(model, saved_model::serving_directory("/models/mnist"), cf,
///                     {.format = saved_model::Format::kTensorFlow});   // /models/mnist/1
std::string serving_directory(const std::string& model_dir, int64_t version = -1);

/// Loads an export: a TensorFlow SavedModel (DIR/saved_model.pb, see tf_import/tf_import.h) or,
/// as a legacy reader, one written by earlier tfcc versions (DIR/saved_model.tfcc). See the
/// overview for the errors it raises.
LoadedModel load(const std::string& dir, const LoadOptions& options = {});

struct ModelFile;

namespace internal {
/// What load() does once the files are verified and the variables restored: decodes the
/// functions (with what is left of the tensor budget) and checks and builds the signatures into
/// `out`. Exposed for the loader's fuzz target.
void assemble_model(const ModelFile& m, std::span<const std::shared_ptr<VariableState>> states,
                    int64_t tensor_budget, const LoadOptions& options, const std::string& path,
                    LoadedModel& out);
}  // namespace internal

/// The file names inside an export directory.
inline constexpr const char* kModelFilename = "saved_model.tfcc";
/// The SavedModel proto of a TensorFlow-format export.
inline constexpr const char* kTensorFlowModelFilename = "saved_model.pb";
inline constexpr const char* kVariablesDirectory = "variables";
inline constexpr const char* kVariablesPrefix = "variables/variables";

}  // namespace tfcc::saved_model
#pragma GCC visibility pop
