// `saved_model_cli show --all` for a TensorFlow SavedModel (tf_import.h).
#include <algorithm>
#include <set>
#include <sstream>

#include "tfcc/io/saved_model/tf_import/proto_io.h"
#include "tfcc/io/saved_model/tf_import/tf_import.h"
#include "tfcc/platform/errors.h"

namespace tfcc::saved_model::tf_import {

using ::tfcc::internal::str_cat;

namespace {

std::string shape_text(const tensorflow::TensorShapeProto& s) {
  if (s.unknown_rank()) return "unknown_rank";
  std::string out = "(";
  for (int i = 0; i < s.dim_size(); ++i) out += str_cat(i ? ", " : "", s.dim(i).size());
  if (s.dim_size() == 1) out += ",";
  return out + ")";
}

void print_infos(std::ostringstream& o, const char* kind,
                 const google::protobuf::Map<std::string, tensorflow::TensorInfo>& infos) {
  o << "  The given SavedModel SignatureDef contains the following " << kind << "(s):\n";
  std::vector<std::string> keys;
  for (const auto& [k, v] : infos) keys.push_back(k);
  std::sort(keys.begin(), keys.end());
  for (const std::string& k : keys) {
    const tensorflow::TensorInfo& t = infos.at(k);
    o << "    " << kind << "s['" << k << "'] tensor_info:\n"
      << "        dtype: " << tf_dtype_name(t.dtype()) << "\n"
      << "        shape: " << (t.has_tensor_shape() ? shape_text(t.tensor_shape()) : "unknown_rank")
      << "\n"
      << "        name: " << t.name() << "\n";
  }
}

std::string tag_text(const tensorflow::MetaGraphDef& mg) {
  std::string s;
  for (const std::string& t : mg.meta_info_def().tags()) s += (s.empty() ? "" : ", ") + t;
  return s;
}

}  // namespace

std::string describe(const std::string& dir, const LoadOptions& options) {
  const std::string path = str_cat(dir, "/", kSavedModelFilename);
  tensorflow::SavedModel sm = parse_saved_model(read_saved_model_bytes(path, options), path);
  std::ostringstream o;
  for (const tensorflow::MetaGraphDef& mg : sm.meta_graphs()) {
    o << "\nMetaGraphDef with tag-set: '" << tag_text(mg)
      << "' contains the following SignatureDefs:\n";
    std::vector<std::string> keys;
    for (const auto& [k, v] : mg.signature_def()) keys.push_back(k);
    std::sort(keys.begin(), keys.end());
    for (const std::string& k : keys) {
      const tensorflow::SignatureDef& sd = mg.signature_def().at(k);
      o << "\nsignature_def['" << k << "']:\n";
      print_infos(o, "input", sd.inputs());
      print_infos(o, "output", sd.outputs());
      o << "  Method name is: " << sd.method_name() << "\n";
    }
    std::set<std::string> ops;
    for (const auto& n : mg.graph_def().node()) ops.insert(n.op());
    for (const auto& f : mg.graph_def().library().function()) {
      for (const auto& n : f.node_def()) ops.insert(n.op());
    }
    o << "The MetaGraph with tag set ['" << tag_text(mg) << "'] contains the following ops: {";
    bool first = true;
    for (const std::string& op : ops) {
      o << (first ? "'" : ", '") << op << "'";
      first = false;
    }
    o << "}\n";
  }
  return o.str();
}

}  // namespace tfcc::saved_model::tf_import
