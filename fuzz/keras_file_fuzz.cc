// Fuzzes Keras 3 files: a `.keras` zip (config.json through nlohmann-json and the Keras 3 config
// reader, metadata.json, model.weights.h5 through libhdf5), or a bare `.weights.h5`. Every group
// is walked and every dataset read, as load_weights does. Attributes are not read: libhdf5
// crashes on damaged variable-length strings (tfcc/io/hdf5/hdf5.h), and loading never reads
// them. Layers are not built from the fuzzed config (a config may ask for any size of weights).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "tfcc/io/hdf5/hdf5.h"
#include "tfcc/io/npy/zip.h"
#include "tfcc/keras/saving/keras3.h"
#include "tfcc/platform/errors.h"

namespace {

void walk(const tfcc::io::hdf5::Group& group, int depth) {
  if (depth > 16) return;
  for (const auto& child : group.children()) {
    if (group.has_group(child)) {
      walk(group.group(child), depth + 1);
    } else if (group.has_dataset(child)) {
      (void)group.read(child).to_vector<double>();
    }
  }
}

void weights(std::string_view bytes, const std::string& source) {
  walk(tfcc::io::hdf5::File::open_image(bytes, source).root(), 0);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using tfcc::keras::saving::Json;
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  try {
    if (tfcc::io::hdf5::has_hdf5_signature(bytes)) {
      weights(bytes, "fuzz.weights.h5");
      return 0;
    }
    for (const auto& [name, member] : tfcc::io::zip::read(bytes, "fuzz.keras")) {
      if (name == "config.json") {
        Json config = Json::parse(member, "fuzz.keras/config.json");
        (void)tfcc::keras::saving::config_from_keras3(config);
        if (const Json* cc = config.find("compile_config")) {
          (void)tfcc::keras::saving::compile_config_from_keras3(*cc);
        }
        (void)config.dump();
      } else if (name == "metadata.json") {
        (void)Json::parse(member, "fuzz.keras/metadata.json");
      } else if (name == "model.weights.h5") {
        weights(member, "fuzz.keras/model.weights.h5");
      }
    }
  } catch (const tfcc::Error&) {
  }
  return 0;
}
