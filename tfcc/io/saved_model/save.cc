// tfcc::saved_model::save: graphs, signatures and variables into a directory, atomically.
#include <filesystem>
#include <set>

#include "tfcc/io/checkpoint/bundle.h"
#include "tfcc/io/saved_model/model_file.h"
#include "tfcc/io/saved_model/saved_model.h"
#include "tfcc/io/saved_model/tf_export/tf_saved_model.h"
#include "tfcc/platform/crc32c.h"
#include "tfcc/platform/file.h"
#include "tfcc/platform/file_set.h"

namespace tfcc::saved_model {

namespace fs = std::filesystem;
using ::tfcc::internal::str_cat;

namespace {

std::string unique_name(std::string base, std::set<std::string>& taken) {
  if (base.empty()) base = "input";
  std::string name = base;
  for (int i = 1; taken.count(name); ++i) name = str_cat(base, "_", i);
  taken.insert(name);
  return name;
}

SignatureDef make_signature(const std::string& name, const ConcreteFunction& fn, int index) {
  SignatureDef s;
  s.name = name;
  s.function = index;
  std::set<std::string> taken;
  const graph::Graph& g = fn.graph();
  for (size_t i = 0; i < g.args().size(); ++i) {
    const graph::Node& arg = g.node(g.args()[i]);
    TensorSpec spec{arg.shapes[0], arg.dtypes[0], {}};
    std::string base = arg.name;
    if (i < fn.input_specs().size() && !fn.input_specs()[i].name.empty()) {
      base = fn.input_specs()[i].name;
    }
    spec.name = unique_name(base, taken);
    s.inputs.push_back(std::move(spec));
  }
  for (size_t i = 0; i < g.outputs().size(); ++i) {
    s.outputs.push_back({g.shape(g.outputs()[i]), g.dtype(g.outputs()[i]), str_cat("output_", i)});
  }
  return s;
}

FileDigest digest(const std::string& dir, const std::string& relative) {
  std::string bytes = read_file(dir + "/" + relative);
  return {relative, bytes.size(), crc32c::mask(crc32c::value(bytes))};
}

}  // namespace

void save(const Module& module, const std::string& directory,
          const std::map<std::string, ConcreteFunction>& signatures, const SaveOptions& options) {
  if (options.format == Format::kTensorFlow) {
    TFCC_CHECK_ARG(!directory.empty(), "saved_model::save needs a directory");
    tf_export::write_tf_export(tf_export::build_tf_export(module, signatures), directory);
    return;
  }
  TFCC_CHECK_ARG(!signatures.empty(), "saved_model::save needs at least one signature");
  TFCC_CHECK_ARG(!directory.empty(), "saved_model::save needs a directory");
  // "out/export/" names the same directory as "out/export" (the temporary is its sibling).
  std::string dir = directory;
  while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
  std::vector<std::shared_ptr<const graph::Graph>> roots;
  for (const auto& [name, fn] : signatures) {
    TFCC_CHECK_ARG(!name.empty(), "saved_model::save: a signature has an empty name");
    TFCC_CHECK_ARG(fn.defined(), "saved_model::save: signature '", name,
                   "' is an undefined ConcreteFunction");
    roots.push_back(fn.shared_graph());
  }
  EncodedFunctions enc = encode_functions(roots);

  ModelFile m;
  m.producer = "tfcc 0.1.0";
  m.functions = std::move(enc.functions);
  size_t r = 0;
  for (const auto& [name, fn] : signatures)
    m.signatures.push_back(make_signature(name, fn, enc.roots[r++]));

  // Variables keep their path in the module as key, so a re-export keys them the same way.
  std::vector<std::pair<std::string, Variable>> named = module.named_variables();
  std::vector<Tensor> values;
  std::set<std::string> keys;
  for (size_t i = 0; i < enc.variables.size(); ++i) {
    const auto& state = enc.variables[i];
    std::string path = str_cat("_captured/", i);
    for (const auto& [p, v] : named) {
      if (v.state_ptr() == state) {
        path = p;
        break;
      }
    }
    VariableDef def;
    def.key = path + "/.ATTRIBUTES/VARIABLE_VALUE";
    TFCC_CHECK_ARG(keys.insert(def.key).second, "saved_model::save: two variables share key ",
                   def.key);
    Tensor value;
    {
      std::lock_guard<std::mutex> lock(state->mu);
      value = state->value;
      def.name = state->name;
      def.trainable = state->trainable;
    }
    def.dtype = value.dtype();
    def.shape = value.shape();
    values.push_back(value);
    m.variables.push_back(std::move(def));
  }

  // Swapped in as a whole (platform/file_set.h), like the TensorFlow-format export.
  DirectoryCommit commit(dir, {kTensorFlowModelFilename, kVariablesDirectory, kModelFilename,
                               "fingerprint.pb", "assets"});
  const std::string& tmp = commit.path();
  try {
    make_dirs(str_cat(tmp, "/", kVariablesDirectory));
    checkpoint::BundleWriter writer(str_cat(tmp, "/", kVariablesPrefix));
    for (size_t i = 0; i < values.size(); ++i) writer.add(m.variables[i].key, values[i]);
    writer.finish();
    m.files.push_back(digest(tmp, checkpoint::index_filename(kVariablesPrefix)));
    m.files.push_back(digest(tmp, checkpoint::data_filename(kVariablesPrefix, 0, 1)));
    write_file_atomic(str_cat(tmp, "/", kModelFilename), encode_model_file(m));
    commit.commit();
  } catch (const fs::filesystem_error& e) {
    throw UnknownError(str_cat("saved_model::save to ", dir, ": ", e.what()));
  }
}

void save(const Module& module, const std::string& dir, const ConcreteFunction& serving_default,
          const SaveOptions& options) {
  save(module, dir, {{kDefaultServingSignature, serving_default}}, options);
}

}  // namespace tfcc::saved_model
