// `tfcc saved-model show|run`: inspect and run an exported model without the code that built it,
// like TensorFlow's saved_model_cli.
//
//   $ tfcc saved-model show /tmp/export                  # signatures, inputs, outputs, shapes
//   $ tfcc saved-model show /tmp/export --graph          # ... and every function's listing
//   $ tfcc saved-model run /tmp/export --signature serving_default --input x=images.npy
//         --output logits.npy                            # or --output_dir DIR: <output>.npy each
//   $ tfcc saved-model ops                               # TensorFlow ops tfcc imports (Markdown)
//
// DIR may be a TensorFlow SavedModel (saved_model.pb, from tf.saved_model.save or Keras'
// model.export(), or a TensorFlow 1 SavedModelBuilder): `show` then prints what
// `saved_model_cli show --all` prints (`--all` is accepted, for scripts written for
// saved_model_cli; it is what `show` always prints).
//
// Inputs are .npy files, or one array of an .npz archive as `name=file.npz[array]`. Without
// --output / --output_dir the results are printed. Errors exit with status 1 and a message naming
// the file; bad usage exits with status 2.
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "tfcc/io/npy/npy.h"
#include "tfcc/io/saved_model/saved_model.h"
#include "tfcc/io/saved_model/tf_import/tf_import.h"
#include "tfcc/platform/errors.h"
#include "tfcc/platform/file.h"
#include "tools/tfcc/commands.h"

namespace tfcc::tools {
namespace {

const char* kUsage =
    "usage: tfcc saved-model show DIR [--all] [--signature NAME] [--graph]\n"
    "       tfcc saved-model run DIR [--signature NAME] --input NAME=FILE.npy[...]\n"
    "                            [--output FILE.npy | --output_dir DIR]\n"
    "       tfcc saved-model ops\n"
    "  FILE may also be ARCHIVE.npz[ARRAY]; --input repeats for several inputs; NAME= may be\n"
    "  left out when the signature has one input.\n";

// TensorFlow's DataType enum names, as saved_model_cli prints them.
const char* tf_dtype_name(DType d) {
  switch (d) {
    case float32:
      return "DT_FLOAT";
    case float64:
      return "DT_DOUBLE";
    case int32:
      return "DT_INT32";
    case int64:
      return "DT_INT64";
    case uint8:
      return "DT_UINT8";
    case bool_:
      return "DT_BOOL";
    case bfloat16:
      return "DT_BFLOAT16";
  }
  return "DT_INVALID";
}

std::string tf_shape(const PartialShape& s) {
  if (!s.rank_known()) return "unknown_rank";
  std::string out = "(";
  for (size_t i = 0; i < s.dims().size(); ++i) {
    if (i) out.append(", ");
    out.append(std::to_string(s.dims()[i]));
  }
  if (s.dims().size() == 1) out.append(",");
  return out.append(")");
}

void print_specs(const char* kind, const std::vector<TensorSpec>& specs) {
  std::cout << "  The given SavedModel SignatureDef contains the following " << kind << "(s):\n";
  for (const TensorSpec& s : specs) {
    std::cout << "    " << kind << "s['" << s.name << "'] tensor_info:\n"
              << "        dtype: " << tf_dtype_name(s.dtype) << "\n"
              << "        shape: " << tf_shape(s.shape) << "\n";
  }
}

int show(const std::string& dir, const std::string& only, bool graphs) {
  if (saved_model::tf_import::is_tensorflow_saved_model(dir) && only.empty() && !graphs) {
    std::cout << saved_model::tf_import::describe(dir);
    return 0;
  }
  saved_model::LoadedModel m = saved_model::load(dir);
  int64_t nodes = 0, bytes = 0;
  for (const auto& f : m.functions) nodes += f->num_nodes();
  for (const Variable& v : m.variables) bytes += v.read_value().nbytes();
  std::cout << "Exported model " << dir << " (format " << m.format_version << ", written by "
            << m.producer << "): " << m.functions.size() << " function(s), " << nodes
            << " node(s), " << m.variables.size() << " variable(s) (" << bytes << " bytes)\n";
  bool found = only.empty();
  for (const auto& [name, sig] : m.signatures) {
    if (!only.empty() && name != only) continue;
    found = true;
    std::cout << "\nsignature_def['" << name << "']:\n";
    print_specs("input", sig.inputs());
    print_specs("output", sig.outputs());
    std::cout << "  Function: " << sig.graph().name() << "\n";
  }
  if (!found) throw NotFoundError("No signature '" + only + "' in " + dir);
  if (graphs) {
    std::cout << "\nFunctions (callees first):\n";
    for (const auto& f : m.functions) std::cout << "\n" << f->to_string();
  }
  return 0;
}

// "x=file.npy" or "x=file.npz[array]".
std::pair<std::string, Tensor> read_input(const std::string& arg) {
  size_t eq = arg.find('=');
  if (eq == 0 || (eq != std::string::npos && eq + 1 == arg.size())) {
    throw InvalidArgumentError("--input takes NAME=FILE.npy or NAME=FILE.npz[ARRAY], got '" + arg +
                               "'");
  }
  // Without NAME=, the file feeds the signature's only input.
  std::string name = eq == std::string::npos ? "" : arg.substr(0, eq);
  std::string file = eq == std::string::npos ? arg : arg.substr(eq + 1);
  size_t bracket = file.find('[');
  if (bracket != std::string::npos && file.back() == ']') {
    std::string array = file.substr(bracket + 1, file.size() - bracket - 2);
    file = file.substr(0, bracket);
    for (auto& [key, t] : io::load_npz(file)) {
      if (key == array) return {name, t};
    }
    throw NotFoundError("No array '" + array + "' in " + file);
  }
  return {name, io::load_npy(file)};
}

int run(const std::string& dir, const std::string& signature,
        const std::vector<std::string>& input_args, const std::string& output,
        const std::string& output_dir) {
  std::map<std::string, Tensor> inputs;
  for (const std::string& a : input_args) {
    auto [name, t] = read_input(a);
    if (!inputs.emplace(name, t).second) {
      throw InvalidArgumentError("Input '" + name + "' is given twice");
    }
  }
  saved_model::LoadedModel m = saved_model::load(dir);
  auto it = m.signatures.find(signature);
  if (it == m.signatures.end()) {
    std::string names;
    for (const auto& [n, s] : m.signatures) names.append(names.empty() ? "" : ", ").append(n);
    throw NotFoundError("No signature '" + signature + "' in " + dir + " (it has: " + names + ")");
  }
  if (inputs.count("")) {
    if (it->second.inputs().size() != 1 || inputs.size() != 1) {
      throw InvalidArgumentError("--input without NAME= needs a signature with one input; '" +
                                 signature + "' takes " +
                                 std::to_string(it->second.inputs().size()));
    }
    inputs = {{it->second.inputs()[0].name, inputs.begin()->second}};
  }
  std::map<std::string, Tensor> outputs = it->second(inputs);
  if (!output.empty()) {
    if (outputs.size() != 1) {
      throw InvalidArgumentError(
          internal::str_cat("Signature '", signature, "' has ", outputs.size(),
                            " outputs: use --output_dir instead of --output"));
    }
    io::save_npy(output, outputs.begin()->second);
    std::cout << "Wrote output '" << outputs.begin()->first << "' "
              << outputs.begin()->second.shape().to_string() << " to " << output << "\n";
    return 0;
  }
  if (!output_dir.empty()) {
    make_dirs(output_dir);
    for (const auto& [name, t] : outputs) {
      std::string path = output_dir + "/" + name + ".npy";
      io::save_npy(path, t);
      std::cout << "Wrote output '" << name << "' " << t.shape().to_string() << " to " << path
                << "\n";
    }
    return 0;
  }
  for (const auto& [name, t] : outputs) {
    std::cout << "Result for output key " << name << ":\n" << t << "\n";
  }
  return 0;
}

int run_saved_model(const std::vector<std::string>& args) {
  if (args.size() == 1 && args[0] == "ops") {
    std::cout << saved_model::tf_import::supported_ops_markdown();
    return 0;
  }
  if (args.size() < 2 || (args[0] != "show" && args[0] != "run")) {
    std::cerr << kUsage;
    return 2;
  }
  std::string signature, output, output_dir;
  std::vector<std::string> inputs;
  bool graphs = false;
  for (size_t i = 2; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&]() -> const std::string& {
      if (i + 1 >= args.size()) throw InvalidArgumentError(a + " needs a value");
      return args[++i];
    };
    if (a == "--signature" || a == "--signature_def") {
      signature = value();
    } else if (a == "--input" || a == "--inputs") {
      inputs.push_back(value());
    } else if (a == "--output") {
      output = value();
    } else if (a == "--output_dir" || a == "--outdir") {
      output_dir = value();
    } else if (a == "--graph" && args[0] == "show") {
      graphs = true;
    } else if (a == "--all" && args[0] == "show") {
      // saved_model_cli's spelling: everything is what `show` prints anyway.
    } else {
      std::cerr << "tfcc saved-model: unknown argument '" << a << "'\n" << kUsage;
      return 2;
    }
  }
  try {
    if (args[0] == "show") return show(args[1], signature, graphs);
    if (!output.empty() && !output_dir.empty()) {
      std::cerr << "tfcc saved-model run: give --output or --output_dir, not both\n";
      return 2;
    }
    return run(args[1], signature.empty() ? saved_model::kDefaultServingSignature : signature,
               inputs, output, output_dir);
  } catch (const Error& e) {
    std::cerr << "tfcc saved-model " << args[0] << ": error: " << error_code_name(e.code()) << ": "
              << e.what() << "\n";
    return 1;
  }
}

}  // namespace

Command saved_model_command() {
  return {"saved-model", "show|run DIR ... | ops",
          "Signatures of an exported model, or run one on .npy inputs (saved_model_cli)",
          run_saved_model};
}

}  // namespace tfcc::tools
