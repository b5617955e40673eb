// Fuzzes Keras 3 files: a `.keras` zip (config.json through nlohmann-json and the Keras 3 config
// reader, metadata.json, model.weights.h5 through tfcc's HDF5 reader), a bare `.weights.h5`, or
// a bare config.json (input starting with '{': the zip's CRC-32 keeps mutations away from the
// JSON). Every group is walked and every dataset read, as load_weights does (through
// io/hdf5/reader.h, the reader loading uses; libhdf5, which crashed on damaged files, only
// writes). Layers are not built from the fuzzed config (a config may ask for any size of weights).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "tfcc/io/hdf5/hdf5.h"
#include "tfcc/io/hdf5/reader.h"
#include "tfcc/io/npy/zip.h"
#include "tfcc/keras/saving/keras3.h"
#include "tfcc/platform/errors.h"

namespace {

void walk(const tfcc::io::hdf5::ReadGroup& group, int depth) {
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
  walk(tfcc::io::hdf5::Reader::open_image(std::string(bytes), source).root(), 0);
}

void config(std::string_view text, const std::string& source) {
  using tfcc::keras::saving::Json;
  Json c = Json::parse(text, source);
  (void)tfcc::keras::saving::config_from_keras3(c);
  if (const Json* cc = c.find("compile_config")) {
    (void)tfcc::keras::saving::compile_config_from_keras3(*cc);
  }
  (void)c.dump();
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
    if (!bytes.empty() && bytes[0] == '{') {
      config(bytes, "fuzz/config.json");
      return 0;
    }
    for (const auto& [name, member] : tfcc::io::zip::read(bytes, "fuzz.keras")) {
      if (name == "config.json") {
        config(member, "fuzz.keras/config.json");
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
