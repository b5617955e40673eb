// write_tf_export: the files of a TensorFlow SavedModel, committed as a whole (DirectoryCommit);
// and the version directories TF Serving expects.
#include <charconv>
#include <filesystem>

#include "tfcc/io/checkpoint/bundle.h"
#include "tfcc/io/saved_model/saved_model.h"
#include "tfcc/io/saved_model/tf_export/tf_saved_model.h"
#include "tfcc/platform/file.h"
#include "tfcc/platform/file_set.h"

namespace tfcc::saved_model {

namespace fs = std::filesystem;
using ::tfcc::internal::str_cat;

namespace tf_export {

void write_tf_export(const TfExport& e, const std::string& directory) {
  TFCC_CHECK_ARG(!directory.empty(), "saved_model::save needs a directory");
  // Written into a fresh directory beside the old export, then swapped in as a whole
  // (platform/file_set.h): a kill at any instant leaves the complete old or the complete new one.
  DirectoryCommit commit(directory, {kTensorFlowModelFilename, kVariablesDirectory, kModelFilename,
                                     "fingerprint.pb", "assets"});
  const std::string& tmp = commit.path();
  try {
    make_dirs(str_cat(tmp, "/", kVariablesDirectory));
    checkpoint::BundleWriter writer(str_cat(tmp, "/", kVariablesPrefix));
    for (size_t i = 0; i < e.keys.size(); ++i) writer.add(e.keys[i], e.values[i]);
    writer.add_strings("_CHECKPOINTABLE_OBJECT_GRAPH", Shape({}), {e.object_graph});
    writer.finish();
    write_file_atomic(str_cat(tmp, "/", kTensorFlowModelFilename),
                      e.saved_model.SerializeAsString());
    commit.commit();
  } catch (const fs::filesystem_error& err) {
    throw UnknownError(str_cat("saved_model::save to ", directory, ": ", err.what()));
  }
}

}  // namespace tf_export

std::string serving_directory(const std::string& model_dir, int64_t version) {
  TFCC_CHECK_ARG(!model_dir.empty(), "serving_directory needs a model directory");
  TFCC_CHECK_ARG(version >= -1, "serving_directory: version ", version,
                 " is negative (give -1 for the next version)");
  if (version < 0) {
    // One more than the highest version present; TF Serving ignores non-numeric names.
    int64_t highest = 0;
    std::error_code ec;
    if (fs::is_directory(model_dir, ec)) {
      for (const auto& entry : fs::directory_iterator(model_dir, ec)) {
        const std::string name = entry.path().filename().string();
        int64_t v = 0;
        auto [end, err] = std::from_chars(name.data(), name.data() + name.size(), v);
        if (err == std::errc() && end == name.data() + name.size() && entry.is_directory()) {
          highest = std::max(highest, v);
        }
      }
    }
    TFCC_CHECK_ARG(highest < INT64_MAX, "serving_directory: no version after ", highest);
    version = highest + 1;
  }
  return str_cat(model_dir, "/", version);
}

}  // namespace tfcc::saved_model
