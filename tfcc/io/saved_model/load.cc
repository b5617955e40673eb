// tfcc::saved_model::load and the signatures it returns.
#include <sys/stat.h>

#include <set>

#include "tfcc/io/checkpoint/bundle.h"
#include "tfcc/io/saved_model/model_file.h"
#include "tfcc/io/saved_model/saved_model.h"
#include "tfcc/io/saved_model/tf_import/tf_import.h"
#include "tfcc/platform/crc32c.h"
#include "tfcc/platform/file.h"
#include "tfcc/platform/file_set.h"

namespace tfcc::saved_model {

using ::tfcc::internal::str_cat;

Signature::Signature(std::string name, ConcreteFunction fn, std::vector<TensorSpec> inputs,
                     std::vector<TensorSpec> outputs)
    : name_(std::move(name)),
      fn_(std::move(fn)),
      inputs_(std::move(inputs)),
      outputs_(std::move(outputs)) {}

Signature::Signature(std::string name, ConcreteFunction fn, std::vector<TensorSpec> inputs,
                     std::vector<TensorSpec> outputs, Specializer specialize)
    : Signature(std::move(name), std::move(fn), std::move(inputs), std::move(outputs)) {
  specialize_ = std::move(specialize);
}

std::vector<Tensor> Signature::operator()(std::span<const Tensor> inputs) const {
  TFCC_CHECK_ARG(fn_.defined(), "Calling an empty Signature");
  TFCC_CHECK_ARG(inputs.size() == inputs_.size(), "Signature '", name_, "' takes ", inputs_.size(),
                 " inputs, got ", inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    const TensorSpec& s = inputs_[i];
    TFCC_CHECK_ARG(inputs[i].defined(), "Signature '", name_, "': input '", s.name,
                   "' is undefined");
    TFCC_CHECK_ARG(inputs[i].dtype() == s.dtype && s.shape.is_compatible_with(inputs[i].shape()),
                   "Signature '", name_, "': input '", s.name, "' must be ", dtype_name(s.dtype),
                   " ", s.shape.to_string(), ", got ", dtype_name(inputs[i].dtype()), " ",
                   inputs[i].shape().to_string());
  }
  return specialize_ ? specialize_(inputs)(inputs) : fn_(inputs);
}

std::map<std::string, Tensor> Signature::operator()(
    const std::map<std::string, Tensor>& inputs) const {
  std::vector<Tensor> flat;
  std::string expected;
  for (const TensorSpec& s : inputs_) expected.append(expected.empty() ? "" : ", ").append(s.name);
  for (const TensorSpec& s : inputs_) {
    auto it = inputs.find(s.name);
    TFCC_CHECK_ARG(it != inputs.end(), "Signature '", name_, "' is missing input '", s.name,
                   "' (it takes: ", expected, ")");
    flat.push_back(it->second);
  }
  for (const auto& [name, t] : inputs) {
    bool known = false;
    for (const TensorSpec& s : inputs_) known = known || s.name == name;
    TFCC_CHECK_ARG(known, "Signature '", name_, "' has no input '", name, "' (it takes: ", expected,
                   ")");
  }
  std::vector<Tensor> out = (*this)(flat);
  std::map<std::string, Tensor> named;
  for (size_t i = 0; i < out.size(); ++i) named.emplace(outputs_[i].name, out[i]);
  return named;
}

namespace {

// Checks one listed file's size and masked CRC32C before anything reads its structure.
void verify_file(const std::string& dir, const FileDigest& d, int64_t max_bytes) {
  std::string path = str_cat(dir, "/", d.path);
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    throw DataLossError(str_cat(path, ": missing (listed in ", kModelFilename, ")"));
  }
  if (static_cast<uint64_t>(st.st_size) != d.size) {
    throw DataLossError(str_cat(path, ": ", st.st_size, " bytes, ", kModelFilename, " lists ",
                                d.size, " (truncated or overwritten)"));
  }
  if (static_cast<int64_t>(d.size) > max_bytes) {
    throw InvalidArgumentError(str_cat(path, ": ", d.size, " bytes exceed the limit of ", max_bytes,
                                       " (LoadOptions::max_tensor_bytes)"));
  }
  std::string bytes = read_file(path);
  if (bytes.size() != d.size) throw DataLossError(str_cat(path, ": changed while being read"));
  if (crc32c::mask(crc32c::value(bytes)) != d.masked_crc32c) {
    throw DataLossError(str_cat(path, ": checksum mismatch over its ", d.size,
                                " bytes (offset 0): the file is corrupt"));
  }
}

}  // namespace

namespace internal {

void assemble_model(const ModelFile& m, std::span<const std::shared_ptr<VariableState>> states,
                    int64_t tensor_budget, const LoadOptions& options, const std::string& path,
                    LoadedModel& out) {
  const int64_t budget = tensor_budget;
  DecodeLimits limits{budget, options.max_nodes, options.max_nesting_depth};
  out.functions = decode_functions(m.functions, states, limits, path);

  for (const SignatureDef& s : m.signatures) {
    const std::string what = str_cat(path, ": signature '", s.name, "'");
    if (s.name.empty() || out.signatures.count(s.name)) {
      throw InvalidArgumentError(str_cat(what, " has an empty or repeated name"));
    }
    if (s.function < 0 || static_cast<size_t>(s.function) >= out.functions.size()) {
      throw InvalidArgumentError(
          str_cat(what, " refers to function ", s.function, " of ", out.functions.size()));
    }
    const auto& g = out.functions[static_cast<size_t>(s.function)];
    if (s.inputs.size() != g->args().size() || s.outputs.size() != g->outputs().size()) {
      throw InvalidArgumentError(str_cat(what, " does not match its function's arity"));
    }
    std::set<std::string> names;
    for (size_t i = 0; i < s.inputs.size(); ++i) {
      const graph::Node& arg = g->node(g->args()[i]);
      if (s.inputs[i].dtype != arg.dtypes[0] || !names.insert(s.inputs[i].name).second) {
        throw InvalidArgumentError(str_cat(what, ": input ", i, " does not match its function"));
      }
    }
    for (size_t i = 0; i < s.outputs.size(); ++i) {
      if (s.outputs[i].dtype != g->dtype(g->outputs()[i]) ||
          !names.insert(s.outputs[i].name).second) {
        throw InvalidArgumentError(str_cat(what, ": output ", i, " does not match its function"));
      }
    }
    // Inputs accept what the function's arguments accept.
    std::vector<TensorSpec> specs;
    for (int id : g->args()) specs.push_back({g->node(id).shapes[0], g->node(id).dtypes[0], {}});
    out.signatures.emplace(s.name,
                           Signature(s.name, ConcreteFunction(g, specs), s.inputs, s.outputs));
  }
  if (out.signatures.empty()) throw InvalidArgumentError(str_cat(path, ": no signatures"));
}

}  // namespace internal

LoadedModel load(const std::string& requested, const LoadOptions& options) {
  // An export is swapped in as a whole (DirectoryCommit); after a crash inside a non-atomic swap
  // the complete previous one is read.
  const std::string dir = committed_directory(requested);
  if (tf_import::is_tensorflow_saved_model(dir)) return tf_import::load(dir, options);
  const std::string path = str_cat(dir, "/", kModelFilename);
  if (!file_exists(path)) {
    throw NotFoundError(str_cat("No exported model in ", dir, " (neither ",
                                tf_import::kSavedModelFilename, " nor ", kModelFilename,
                                " found)"));
  }
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 &&
      st.st_size > options.max_tensor_bytes + options.max_nodes * 4096) {
    throw InvalidArgumentError(str_cat(path, ": ", st.st_size, " bytes exceed the limits"));
  }
  ModelFile m = decode_model_file(read_file(path), path);

  // Every other file, by its digest: only the checkpoint's two files may be listed.
  const std::string index_name = checkpoint::index_filename(kVariablesPrefix);
  const std::string data_name = checkpoint::data_filename(kVariablesPrefix, 0, 1);
  std::set<std::string> seen;
  for (const FileDigest& d : m.files) {
    if (d.path != index_name && d.path != data_name) {
      throw InvalidArgumentError(str_cat(path, ": lists an unexpected file '", d.path, "'"));
    }
    if (!seen.insert(d.path).second) {
      throw InvalidArgumentError(str_cat(path, ": lists '", d.path, "' twice"));
    }
    verify_file(dir, d, options.max_tensor_bytes);
  }
  if (seen.size() != 2) {
    throw DataLossError(str_cat(path, ": the digests of the variables' files are missing"));
  }

  LoadedModel out;
  out.producer = m.producer;
  out.format_version = m.version;
  int64_t budget = options.max_tensor_bytes;
  std::vector<std::shared_ptr<VariableState>> states;
  {
    checkpoint::BundleReader reader(str_cat(dir, "/", kVariablesPrefix));
    std::set<std::string> keys;
    for (const VariableDef& v : m.variables) {
      const std::string what = str_cat(path, ": variable '", v.key, "'");
      TFCC_CHECK_ARG(keys.insert(v.key).second, what, " is listed twice");
      int64_t bytes =
          checked_mul(v.shape.num_elements(), static_cast<int64_t>(dtype_size(v.dtype)));
      if (bytes > budget) {
        throw InvalidArgumentError(str_cat(what, " exceeds the tensor byte limit ",
                                           options.max_tensor_bytes,
                                           " (LoadOptions::max_tensor_bytes)"));
      }
      budget -= bytes;
      if (!reader.contains(v.key)) {
        throw InvalidArgumentError(str_cat(what, " is not in the variables checkpoint"));
      }
      Tensor value = reader.read_tensor(v.key);
      if (value.dtype() != v.dtype || value.shape() != v.shape) {
        throw InvalidArgumentError(str_cat(what, " is ", dtype_name(value.dtype()),
                                           value.shape().to_string(), " in the checkpoint, ",
                                           dtype_name(v.dtype), v.shape.to_string(), " in ",
                                           kModelFilename));
      }
      Variable var(value, {.name = v.name, .trainable = v.trainable});
      states.push_back(var.state_ptr());
      out.variables.push_back(var);
      out.variable_keys.push_back(v.key);
    }
  }

  internal::assemble_model(m, states, budget, options, path, out);
  return out;
}

}  // namespace tfcc::saved_model
