#include "tfcc/io/checkpoint/checkpoint_reader.h"

#include <filesystem>

#include "tfcc/io/checkpoint/checkpoint_state.h"
#include "tfcc/platform/errors.h"

namespace tfcc::train {

std::map<std::string, std::vector<int64_t>> CheckpointReader::get_variable_to_shape_map() const {
  std::map<std::string, std::vector<int64_t>> out;
  for (const std::string& key : bundle_.keys()) out[key] = bundle_.entry(key).shape;
  return out;
}

std::map<std::string, std::string> CheckpointReader::get_variable_to_dtype_map() const {
  std::map<std::string, std::string> out;
  for (const std::string& key : bundle_.keys()) {
    out[key] = checkpoint::tf_dtype_name(bundle_.entry(key).dtype);
  }
  return out;
}

std::unique_ptr<CheckpointReader> load_checkpoint(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    auto latest = latest_checkpoint(path);
    if (!latest) {
      throw NotFoundError(internal::str_cat(
          "Couldn't find 'checkpoint' file or checkpoints in given directory ", path));
    }
    return std::make_unique<CheckpointReader>(*latest);
  }
  return std::make_unique<CheckpointReader>(path);
}

std::vector<std::pair<std::string, std::vector<int64_t>>> list_variables(const std::string& path) {
  auto reader = load_checkpoint(path);
  auto map = reader->get_variable_to_shape_map();
  return {map.begin(), map.end()};
}

Tensor load_variable(const std::string& path, const std::string& name) {
  return load_checkpoint(path)->get_tensor(name);
}

}  // namespace tfcc::train
