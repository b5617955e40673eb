// `.keras` archives (Keras 3's saving_lib): a zip of metadata.json, config.json and
// model.weights.h5, members stored uncompressed as Keras writes them (deflated ones are read).
#include <ctime>

#include "tfcc/io/npy/zip.h"
#include "tfcc/keras/saving/keras3.h"
#include "tfcc/keras/saving/model_saving.h"
#include "tfcc/platform/file.h"
#include "tfcc/platform/logging.h"

namespace tfcc::keras::saving {
namespace {

constexpr const char* kConfig = "config.json";
constexpr const char* kMetadata = "metadata.json";
constexpr const char* kWeights = "model.weights.h5";
// The Keras release whose files these are (TensorFlow 2.21 ships Keras 3.x).
constexpr const char* kKerasVersion = "3.15.1";

const std::string* member(const io::zip::Members& members, const std::string& name) {
  for (const auto& [n, data] : members) {
    if (n == name) return &data;
  }
  return nullptr;
}

io::zip::Members read_archive(const std::string& path) {
  TFCC_REQUIRE(NotFoundError, file_exists(path), "No file found at ", path,
               " (expected a .keras archive written by model.save)");
  return io::zip::read(read_file(path), path);
}

const std::string& required(const io::zip::Members& members, const std::string& name,
                            const std::string& path) {
  const std::string* data = member(members, name);
  TFCC_REQUIRE(DataLossError, data != nullptr, path, ": not a Keras archive (no ", name,
               " member)");
  return *data;
}

std::string date_saved() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d@%H:%M:%S", &tm);
  return buf;
}

}  // namespace

void save_keras_archive(const Model& model, const std::string& path) {
  TFCC_CHECK_ARG(model.built(), "Model.save: model '", model.name(),
                 "' has not yet been built; call it on data or give it an input shape first");
  Json metadata = Json::object();
  metadata.set("keras_version", Json(kKerasVersion));
  metadata.set("date_saved", Json(date_saved()));
  const std::string config = keras3_model_config(model).dump();
  io::hdf5::File weights = io::hdf5::File::create(path + "/" + kWeights);
  save_keras3_weights(model, weights.root());
  write_file_atomic(
      path, io::zip::write(
                {{kMetadata, metadata.dump()}, {kConfig, config}, {kWeights, weights.image()}}));
}

std::shared_ptr<Model> load_keras_archive(const std::string& path, bool compile) {
  const io::zip::Members members = read_archive(path);
  const Json config = Json::parse(required(members, kConfig, path), path + "/" + kConfig);
  std::shared_ptr<Model> model = models::model_from_config(config_from_keras3(config));
  if (const Json* cc = config.find("compile_config"); compile && cc) {
    const Json tfcc_cc = compile_config_from_keras3(*cc);
    if (!tfcc_cc.is_null()) {
      // As Keras: a compile configuration that cannot be restored leaves the model uncompiled.
      try {
        models::compile_from_config(*model, tfcc_cc);
      } catch (const Error& e) {
        TFCC_LOG(WARNING) << path << ": the model is loaded uncompiled: " << e.what();
      }
    }
  }
  const std::string weights_source = path + "/" + kWeights;
  const io::hdf5::Reader weights =
      io::hdf5::Reader::open_image(required(members, kWeights, path), weights_source);
  load_keras3_weights(*model, weights.root(), true);
  return model;
}

io::hdf5::Reader keras_archive_weights(const std::string& path) {
  const io::zip::Members members = read_archive(path);
  return io::hdf5::Reader::open_image(required(members, kWeights, path), path + "/" + kWeights);
}

}  // namespace tfcc::keras::saving
