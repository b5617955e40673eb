// Model.save_weights / load_weights, the format chosen by the path as Keras 3 does:
// `*.weights.h5` is Keras 3's HDF5 layout (keras3.h; `load_weights` also reads a `.keras`
// archive's weights); any other path is TensorFlow's checkpoint format (tf.keras' TF format:
// `<path>.index`, `<path>.data-00000-of-00001` and the directory's `checkpoint` file) with
// Keras 2's object layout (trackables.h). docs/keras_weights.md compares the two layouts.
#include <filesystem>

#include "tfcc/io/checkpoint/checkpoint.h"
#include "tfcc/io/checkpoint/checkpoint_state.h"
#include "tfcc/io/hdf5/hdf5.h"
#include "tfcc/io/hdf5/reader.h"
#include "tfcc/keras/saving/keras3.h"
#include "tfcc/keras/saving/trackables.h"
#include "tfcc/platform/errors.h"
#include "tfcc/platform/file.h"

namespace tfcc::keras {
namespace {

// A checkpoint whose root holds the model's own dependencies, so keys start at the model
// ("layer_with_weights-0/kernel/...", "optimizer/..."), as Keras' save_weights writes them.
train::Checkpoint model_root(const Model& model, bool include_optimizer) {
  train::Checkpoint ckpt;
  for (auto& [name, dep] : saving::model_trackable(model, include_optimizer)->dependencies()) {
    ckpt.track(name, dep);
  }
  return ckpt;
}

void check_built(const Model& model, const char* what) {
  TFCC_CHECK_ARG(model.built(), "Unable to ", what, " model '", model.name(),
                 "': it has not yet been built. Build the model first by calling it on a batch "
                 "of data, or give its first layer an `input_shape`.");
}

}  // namespace

void Model::save_weights(const std::string& filepath) const {
  check_built(*this, "save the weights of");
  TFCC_CHECK_ARG(!filepath.empty(), "save_weights: the file path is empty");
  if (filepath.ends_with(".weights.h5")) {
    io::hdf5::File file = io::hdf5::File::create(filepath);
    saving::save_keras3_weights(*this, file.root());
    write_file_atomic(filepath, file.image());
    return;
  }
  model_root(*this, true).write(filepath);
  std::filesystem::path dir = std::filesystem::path(filepath).parent_path();
  train::CheckpointState state;
  state.model_checkpoint_path = filepath;
  state.all_model_checkpoint_paths = {filepath};
  train::update_checkpoint_state(dir.empty() ? "." : dir.string(), state);
}

void Model::load_weights(const std::string& filepath) {
  check_built(*this, "load the weights of");
  if (filepath.ends_with(".weights.h5") || filepath.ends_with(".keras")) {
    TFCC_REQUIRE(NotFoundError, file_exists(filepath), "load_weights: no file at ", filepath);
    // Read by tfcc's own HDF5 parser (io/hdf5/reader.h): libhdf5 is not safe on damaged files.
    const io::hdf5::Reader file = filepath.ends_with(".keras")
                                      ? saving::keras_archive_weights(filepath)
                                      : io::hdf5::Reader::open(filepath);
    saving::load_keras3_weights(*this, file.root(), true);
    return;
  }
  // The weights must all be found: a checkpoint of another architecture is an error, never a
  // partial load. The optimizer's state is restored when both sides have one.
  auto status = model_root(*this, false).read(filepath);
  status.expect_partial();
  status.assert_existing_objects_matched();
  if (compiled() && optimizer()) {
    saving::prepare_for_restore(*this);
    train::Checkpoint opt;
    opt.track("optimizer", saving::optimizer_trackable(optimizer()));
    opt.read(filepath).expect_partial();
  }
}

}  // namespace tfcc::keras
